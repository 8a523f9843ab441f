"""A simulation run as Rich tables: shares and means with their 95 % intervals."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from gamenight.engine.game import is_realtime

from .runner import Run


def _interval(ci: tuple[float, float] | list[float], spec: str = ".2f") -> str:
    return f"{ci[0]:{spec}} – {ci[1]:{spec}}"


def figures_table(run: Run, title: str = "figures per game") -> Table:
    t = Table(title=title)
    for col in ("figure", "mean", "95% interval", "sd", "min", "p50", "p99", "max"):
        t.add_column(col, justify="left" if col == "figure" else "right")
    for name, fig in sorted(run.tally.figures.items()):
        if name.startswith(("handle_", "house_")):
            continue  # the casino's per-wager sums: shown as house edges
        s = fig.summary()
        t.add_row(
            name, f"{s['mean']:.3f}", _interval(s["ci95"], ".3f"), f"{s['sd']:.2f}",
            str(s["min"]), str(s["p50"]), str(s["p99"]), str(s["max"]),
        )  # fmt: skip
    return t


def wins_table(run: Run, title: str) -> Table:
    t = Table(title=title)
    for col in ("seat", "wins", "share", "95% interval"):
        t.add_column(col, justify="left" if col == "seat" else "right")
    for s, (w, sh) in enumerate(zip(run.tally.wins, run.tally.shares(), strict=True)):
        t.add_row(chr(65 + s), f"{w:,}", f"{sh['share']:.2%}", _interval(sh["ci95"], ".2%"))
    if run.tally.no_winner:
        g = run.tally.games
        t.add_row("shared / none", f"{run.tally.no_winner:,}", f"{run.tally.no_winner / g:.2%}", "")
    return t


def net_by_seat(run: Run) -> list[dict[str, Any]]:
    """Each seat's net chips per session: the rows of the text table and of ``--json`` alike."""
    rows = []
    for s in range(run.tally.players):
        fig = run.tally.figures.get(f"net_{chr(65 + s)}")
        if fig is None or fig.n == 0:
            continue
        rows.append({
            "seat": chr(65 + s), "mean": fig.mean, "ci95": list(fig.ci()),
            "p1": fig.quantile(0.01), "p50": fig.quantile(0.5), "p99": fig.quantile(0.99),
            "ahead_share": sum(c for v, c in fig.counts.items() if v > 0) / fig.n,
        })  # fmt: skip
    return rows


def bankroll_table(run: Run, title: str) -> Table:
    """The casino's result: each seat's net chips after a session, against the house."""
    t = Table(title=title)
    for col in ("seat", "mean net", "95% interval", "p1", "p50", "p99", "ahead"):
        t.add_column(col, justify="left" if col == "seat" else "right")
    for r in net_by_seat(run):
        t.add_row(
            r["seat"], f"{r['mean']:+.2f}", _interval(r["ci95"]), str(r["p1"]), str(r["p50"]),
            str(r["p99"]), f"{r['ahead_share']:.1%}",
        )  # fmt: skip
    return t


def print_run(run: Run, console: Console) -> None:
    """Everything a run measured, with its speed and whether it was cut short."""
    tally = run.tally
    head = f"{tally.game}: {tally.games:,} games, {tally.players} players"
    if tally.game == "snake-eyes-casino":
        console.print(bankroll_table(run, f"{head}, strategy {run.strategy}: net chips per seat"))
        figures: Any = figures_table(
            run, "figures per session: bank is the house's net chips, net_A... each seat's"
        )
    else:
        console.print(wins_table(run, head))
        figures = figures_table(run)
    console.print(figures)
    if tally.truncated:
        console.print(
            f"{tally.truncated:,} games stopped by a safety cap: counted apart, not as wins"
        )
    if is_realtime(tally.game):
        console.print(
            "a calling game: played in simulated real time, every seat a 'normal' bot with "
            "human-like reaction times (gamenight simulate-realtime sets the levels)"
        )
    console.print(
        f"{run.engine} engine, {run.backend}: {run.seconds:.2f} s, {run.rate:,.0f} games/s,"
        f" seed {run.seed}"  # the same seed and options give the same figures
    )
    if run.warm_up >= 1.0:
        console.print(
            f"(and {run.warm_up:.1f} s before that compiling the kernel: Numba does it once and "
            "keeps it, so the next run starts at once)"
        )
    if run.interrupted:
        console.print("[bold yellow]interrupted:[/] the figures cover the games played so far")
