"""Rich tables of the exact Snake Eyes and Shake reports."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def print_snake_eyes(report: dict[str, Any], console: Console) -> None:
    one = report["one_player_throws_to_clear"]
    t = Table(title="Snake Eyes, exact: throws for one player to turn every card down")
    for col in ("mean", "exact mean", "sd", "min", "median", "p90", "p99"):
        t.add_column(col, justify="right")
    t.add_row(
        f"{one['mean']:.4f}", one["mean_exact"], f"{one['sd']:.2f}", str(one["min"]),
        str(one["p50"]), str(one["p90"]), str(one["p99"]),
    )  # fmt: skip
    console.print(t)
    console.print(
        f"two players, A throwing first: {report['two_player_mean_throws']:.4f} throws per game "
        "on average (Markov chain over both rows of cards)"
    )


def print_shake(report: dict[str, Any], console: Console) -> None:
    t = Table(title="Shake, exact: crap-out chance and the value of shaking")
    for col in ("scoring faces", "crap out", "EV of shaking", "stop at", "shake a die of"):
        t.add_column(col, justify="right")
    for k, row in report["scoring_faces"].items():
        faces = row["shake_gives_up_die_faces"]
        t.add_row(
            k, f"{row['crap_out_chance']} ({row['crap_out_probability']:.4%})",
            f"{row['ev_of_shaking']:.2f}", f"{row['ev_stop_at_points']:.1f}",
            ", ".join(str(10 * f) for f in faces) or "never",
        )  # fmt: skip
    console.print(t)
    policy = report.get("win_policy")
    if not isinstance(policy, dict):
        return
    leads = list(next(iter(policy["stop_at_points_by_round_and_lead"].values())))
    w = Table(title="two players, win-optimal: stop at (points in hand) by round and lead")
    w.add_column("round")
    for lead in leads:
        w.add_column(f"lead {lead}", justify="right")
    for r, row in policy["stop_at_points_by_round_and_lead"].items():
        w.add_row(r, *(str(row[lead]) if row[lead] is not None else "cap" for lead in leads))
    console.print(w)
