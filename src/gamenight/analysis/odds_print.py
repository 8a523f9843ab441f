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
    cols = ("scoring faces", "crap out", "EV of shaking", "stop at (break-even)", "shake a die of")
    for col in cols:
        t.add_column(col, justify="right")
    for k, row in report["scoring_faces"].items():
        faces = row["shake_gives_up_die_faces"]
        t.add_row(
            k, f"{row['crap_out_chance']} ({row['crap_out_probability']:.4%})",
            f"{row['ev_of_shaking']:.2f}",
            f"{row['ev_stop_from_points']:,} ({row['ev_stop_at_points']:,.1f})",
            ", ".join(str(10 * f) for f in faces) or "never",
        )  # fmt: skip
    console.print(t)
    console.print(
        "[dim]EV of shaking: points a shake turn scores on average, stopping at the best moment; "
        "stop at: the fewest points a player can hold (they come in tens) at which one more "
        "shake no longer pays, with the break-even in brackets, where a shake's expected gain "
        "and its risk weigh the same; shake a die of: the colored dice worth giving up to shake[/]"
    )
    policy = report.get("win_policy")
    if not isinstance(policy, dict):
        return
    regions = policy["stop_regions_by_round_and_lead"]
    leads = list(next(iter(regions.values())))
    cap = policy["stop_cap_points"]
    w = Table(title="two players, win-optimal: points in hand at which the shaker stops")
    w.add_column("round")
    for lead in leads:
        w.add_column(f"lead {lead}", justify="right")
    for r, row in regions.items():
        w.add_row(r, *(_stops(row[lead], cap) for lead in leads))
    console.print(w)
    console.print(
        f"[dim]lead: the shaker's lead once the other has scored its die; a + range runs to "
        f"the programme's cap of {cap} points; between ranges the shaker shakes on[/]"
    )


def _stops(regions: list[list[int]], cap: int) -> str:
    """``[[400, 430], [3170, 3990]]`` as ``400-430, 3170+``: where the win-optimal shaker stops."""
    if not regions:
        return f"cap ({cap})"
    parts = [f"{lo}-{hi}" if lo < hi else f"{lo}" for lo, hi in regions]
    if regions[-1][1] >= cap - 10:
        parts[-1] = f"{regions[-1][0]}+"
    return ", ".join(parts)


def print_gambler(report: dict[str, Any], console: Console) -> None:
    sweep = report["sweepstakes"]
    t = Table(
        title=f"Gambler, exact: each Sweepstakes space (entry ${sweep['entry_fee']} a player)"
    )
    for col in ("space", "wins", "prize", "expected prize", "expected net"):
        t.add_column(col, justify="left" if col == "space" else "right")
    for r in sweep["spaces"]:
        t.add_row(
            r["space"], f"{r['win']} ({r['probability']:.2%})", f"${r['prize']}",
            f"${r['expected_prize']['dollars']:.2f}", _signed(r["expected_net"]["dollars"]),
        )  # fmt: skip
    console.print(t)
    ticket, race, doubles = report["lottery_ticket"], report["horse_race"], report["doubles"]
    console.print(
        f"lottery ticket (${ticket['price']}, pays ${ticket['prize']} when both its numbers "
        f"show): wins {ticket['win']} ({ticket['probability']:.2%}) of Lotteries, worth "
        f"${ticket['expected_prize_per_lottery']['dollars']:.2f} each time one is held"
    )
    console.print(
        f"horse race (${race['entry_fee']} entry, ${race['prize']} to the holder of the "
        f"horse): wins {race['win']}, expected net {_signed(race['expected_net']['dollars'])}"
    )
    console.print(
        "doubles: rolling again for the $500 is worth "
        f"${doubles['roll_again_worth']['dollars']:.2f}; calling a Sweepstakes is worth "
        f"${doubles['sweepstakes_worth_to_caller']['dollars']:.2f} to the caller, who places "
        f"first ({sweep['best_space']}), fee paid"
    )


def _signed(dollars: float) -> str:
    """+$68.45 or -$6.67: a net amount of money with its sign in front."""
    return f"{'-' if dollars < 0 else '+'}${abs(dollars):.2f}"
