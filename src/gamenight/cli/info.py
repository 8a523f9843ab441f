"""``gamenight list`` and ``gamenight replay``: the games known, and a saved game told again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

import gamenight
from gamenight.engine import GamenightError

from .common import (
    Table,
    console,
    fail,
    read_text,
)


def list_games() -> None:
    """List the games gamenight knows."""
    from rich.table import Table as Grid

    from gamenight.catalogue import GAMES

    grid = Grid.grid(padding=(0, 2))  # a narrow terminal wraps a line inside its own column
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_column(style="dim")
    for gid, (title, what) in GAMES.items():
        grid.add_row(gid, escape(title), escape(what))
    console.print(grid)
    console.print("\n[dim]play one:[/] gamenight play snake-eyes   [dim]at the table:[/] ? help")


def replay(
    file: Annotated[Path, typer.Argument(help="a JSON game record (s saves one at the table)")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object for machines")
    ] = False,
    events: Annotated[int, typer.Option(min=0, help="how many of the last events to show")] = 12,
) -> None:
    """Rebuild a game from its record and say how it went: who won, the standings, the end."""
    from gamenight.replay_summary import summarise

    text = read_text(file, "record")
    try:
        state = gamenight.replay(text)
    except GamenightError as e:
        raise fail(f"{file}: {e}") from None
    summary = summarise(state)
    if as_json:
        print(json.dumps({**summary, "view": state.view()}))
        return
    console.print(
        f"[bold]{escape(summary['title'])}[/] ({escape(summary['game'])}), "
        f"{summary['players']} players, seed {summary['seed']}"
    )
    for line in state.events()[-events:] if events else []:
        console.print(f"  [dim]{escape(line)}[/]")
    standings = Table(title="standings", title_justify="left")
    for col in ("seat", *summary["figure_names"]):
        standings.add_column(col, justify="left" if col == "seat" else "right")
    for row in summary["standings"]:
        mark = " ★" if row["seat"] == summary["winner"] else ""
        figures = ("–" if row[f] is None else str(row[f]) for f in summary["figure_names"])
        standings.add_row(row["name"] + mark, *figures)
    console.print(standings)
    console.print(escape(summary["summary"]))
