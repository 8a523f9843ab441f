"""What every command shares: the Typer app, the consoles, errors, files and options read.

Heavy modules (the engine's validation library, the games, Textual) load inside the commands
that need them, so ``gamenight --help`` and ``gamenight list`` start at once.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from gamenight.engine import GamenightError


def _lazy(module: str, name: str) -> Any:
    """A stand-in for ``module.name`` that imports it on first call: tables and progress bars
    cost more to import than the whole of ``gamenight --help``."""

    def make(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return make


Progress = _lazy("rich.progress", "Progress")


BarColumn = _lazy("rich.progress", "BarColumn")


MofNCompleteColumn = _lazy("rich.progress", "MofNCompleteColumn")


TimeRemainingColumn = _lazy("rich.progress", "TimeRemainingColumn")


TextColumn = _lazy("rich.progress", "TextColumn")


Table = _lazy("rich.table", "Table")


app = typer.Typer(
    help="Play, simulate and analyse classic dice and card games.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: Typer's Rich help would import a Markdown parser
)


console = Console()


err_console = Console(stderr=True)


def fail(e: Exception | str) -> typer.Exit:
    """Print an error (its text escaped: a ``[`` in a name or path stays itself) and exit 2."""
    err_console.print(f"[bold red]error:[/] {escape(str(e))}", soft_wrap=True)
    return typer.Exit(code=2)


def read_text(path: Path, what: str) -> str:
    """A file's text, or an error naming the file and what went wrong."""
    try:
        return path.read_text()
    except IsADirectoryError:
        raise fail(f"{what} {path}: is a directory, not a file") from None
    except FileNotFoundError:
        raise fail(f"{what} {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"{what} {path}: {getattr(e, 'strerror', None) or e}") from None


# image formats matplotlib's Agg backend writes (analysis.plots); a name without one gets a PNG
PLOT_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")


def writable_plot(path: Path | None) -> None:
    """Refuse a --plot that cannot be drawn (no matplotlib, or a path that cannot be written)
    before the run, not after it: a long run must not end in an error instead of its chart."""
    if path is None:
        return
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:
        raise fail("--plot needs matplotlib: pip install -e '.[plot]'")
    if path.is_dir():
        raise fail(f"--plot {path}: is a directory, not a file")
    if not path.parent.is_dir():
        raise fail(f"--plot {path}: no such directory {path.parent}")
    kind = path.suffix.lower().removeprefix(".")
    if kind and kind not in PLOT_FORMATS:
        raise fail(f"--plot {path}: cannot draw a .{kind} file; name it .png (or one of "
                   f"{', '.join(PLOT_FORMATS[1:])})")  # fmt: skip


def game_options(given: list[str] | None) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as game options: a value that reads as JSON (a number,
    true, a list...) is that value, anything else a string; ``new_game`` then checks them."""
    options: dict[str, Any] = {}
    for pair in given or []:
        key, eq, text = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise refuse("--option", f"{pair!r}: write it as KEY=VALUE, e.g. rounds=5")
        if key in ("players", "strategy"):
            raise refuse("--option", f"{key}: give it as --{key}")
        try:
            options[key] = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
            options[key] = text
    return options


def casino_settings(game: str, table_file: Path | None) -> dict[str, Any]:
    """The table settings a ``--table`` file gives (casino only), or none."""
    if table_file is None:
        return {}
    if game != "snake-eyes-casino":
        raise fail(ValueError("--table holds settings of snake-eyes-casino tables"))
    from gamenight.games.casino_options import table_settings

    text = read_text(table_file, "--table")
    try:
        return table_settings(text)
    except GamenightError as e:
        raise fail(f"--table {table_file}: {e}") from None


MAX_SEED = 2**64 - 1  # the engine's (engine.chance.MAX_SEED), without importing it here


MAX_GAMES = 10**12  # weeks of a kernel's time; 10**30 would only hang (and fill Ray's queue)


# the casino bots' strategies (bots.casino_bot.STRATEGIES, named here so --help imports nothing)
STRATEGY_NAMES = "every_area, benchmark, hardways, numbers, field, one_roll"


TableFile = Annotated[
    Path | None,
    typer.Option("--table", help="casino: a JSON file of table settings", dir_okay=False),
]


def realtime(game: str) -> bool:
    from gamenight.engine.game import is_realtime

    return is_realtime(game)


def refuse(option: str, why: str) -> typer.Exit:
    """An option this game cannot use: say so, naming it, rather than ignore it."""
    return fail(f"{option}: {why}")


def refuse_any(given: Mapping[str, object], why: str) -> None:
    """Refuse the first of these options that was given: it would do nothing here."""
    for option, value in given.items():
        if value is not None:
            raise refuse(option, why)
