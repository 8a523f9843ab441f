"""Per-game table pictures, looked up by game id; any game without one gets the generic table.

A game adds its picture with one line: ``register_table("snap", "gamenight.tui.snap:SnapTable")``.
Tables are imported lazily so a broken or missing table never stops another game from playing.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from gamenight.engine import Action

# Game id -> "module:Class" of its table.
TABLES: dict[str, str] = {}


def register_table(game_id: str, target: str) -> None:
    """Name the table class (``"module:Class"``) that draws ``game_id``."""
    TABLES[game_id] = target


class Table:
    """How a game looks and reads at the terminal. Subclass and override what differs."""

    #: view keys that name the seat holding the dice at a chance move, tried in order
    holder_keys: tuple[str, ...] = ("thrower", "shaker", "to_act")

    def render(self, view: dict[str, Any], seat_names: list[str]) -> RenderableType:
        """The picture of the table for ``view``; the generic one pretty-prints the view."""
        return Pretty(view, expand_all=False, max_length=12)

    def label(self, action: Action) -> str:
        """A short label for an action key, read off the action dict."""
        rest = {k: v for k, v in action.items() if k != "type"}
        if not rest:
            return str(action["type"])
        return f"{action['type']} " + " ".join(
            f"{v}" if isinstance(v, int | str) else json.dumps(v) for v in rest.values()
        )

    def chance_holder(self, view: dict[str, Any]) -> int | None:
        """The seat that throws this chance move (it presses the key), or None: draw it at once."""
        for key in self.holder_keys:
            seat = view.get(key)
            if isinstance(seat, int) and not isinstance(seat, bool):
                return seat
        return None


def table_for(game_id: str) -> Table:
    """The registered table for ``game_id``, or the generic table."""
    target = TABLES.get(game_id)
    if target is None:
        return Table()
    module, cls = target.split(":")
    table: Table = getattr(importlib.import_module(module), cls)()
    return table


# --- shared drawing helpers -----------------------------------------------------------------
PIPS = {
    1: ("     ", "  ●  ", "     "),
    2: ("●    ", "     ", "    ●"),
    3: ("●    ", "  ●  ", "    ●"),
    4: ("●   ●", "     ", "●   ●"),
    5: ("●   ●", "  ●  ", "●   ●"),
    6: ("●   ●", "●   ●", "●   ●"),
}


def dice_art(faces: list[int] | None, style: str = "bold white on dark_red") -> Text:
    """Dice faces side by side as three-line pictures; blanks when nothing has been thrown."""
    rows = [Text() for _ in range(3)]
    for i, f in enumerate(faces or [0, 0]):
        pips = PIPS.get(f, ("  ?  ", "  ?  ", "  ?  ") if faces else ("     ",) * 3)
        for r in range(3):
            if i:
                rows[r].append("  ")
            rows[r].append(f" {pips[r]} ", style=style)
    return Text("\n").join(rows)


def chips(n: int, per_row: int = 25) -> Text:
    """A chip count as a little stack of coins, with the number."""
    shown = min(n, per_row)
    t = Text("● " * shown, style="bold yellow")
    if n > shown:
        t.append("… ", style="yellow")
    t.append(f"{n}", style="bold")
    return t


def group(*parts: RenderableType) -> Group:
    return Group(*parts)


register_table("snake-eyes", "gamenight.tui.snake_eyes:SnakeEyesTable")
register_table("shake", "gamenight.tui.shake:ShakeTable")
