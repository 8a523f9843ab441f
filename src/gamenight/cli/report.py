"""``gamenight report``: a game's exact numbers as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import TableFile, casino_settings, console, fail, refuse

GAMES = ("snake-eyes-casino", "shake", "snake-eyes")


def report(
    game: Annotated[str, typer.Argument(help="snake-eyes-casino, shake or snake-eyes")],
    out: Annotated[Path, typer.Option(help="the HTML file to write", dir_okay=False)] = Path(
        "report.html"
    ),
    table_file: TableFile = None,
    rolls: Annotated[
        int, typer.Option(min=1000, max=10**10, help="casino: rolls simulated to confirm the edges")
    ] = 10**7,
    seed: Annotated[int, typer.Option(min=0, help="the simulation's seed (casino, shake)")] = 0,
) -> None:
    """Write a printable math report: exact figures, a simulation confirming them, plots."""
    if game not in GAMES:
        raise fail(f"reports are written for {', '.join(GAMES)}, not {game!r}")
    if game != "snake-eyes-casino" and table_file is not None:
        raise refuse("--table", "holds settings of snake-eyes-casino tables")
    try:
        if game == "snake-eyes-casino":
            from gamenight.analysis.casino_report import build
            from gamenight.engine import GamenightError

            settings = casino_settings(game, table_file)
            settings["players"] = 1
            try:
                html = build(settings, rolls, seed)
            except GamenightError as e:
                where = f"--table {table_file}: " if table_file else ""
                raise fail(f"{where}{e}") from None
        elif game == "shake":
            from gamenight.analysis import game_reports, shake_length
            from gamenight.analysis.shake_odds import report as shake_report

            html = game_reports.shake(shake_report(), shake_length.report(seed=seed))
        else:
            from gamenight.analysis import game_reports
            from gamenight.analysis.snake_eyes_odds import report as se_report

            html = game_reports.snake_eyes(se_report())
    except ImportError as e:
        raise fail(f"a report needs the kernels and plot extras ({e.name}): "
                   "pip install -e '.[kernels,plot]'") from None  # fmt: skip
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as e:
        raise refuse("--out", f"{out}: {e.strerror or e}") from None
    console.print(f"report written to {out}")
