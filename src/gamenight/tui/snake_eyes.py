"""Snake Eyes at the terminal: the two dice, every seat's cards #2-#12, the kitty and the chips."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.games.snake_eyes import CARDS

from .tables import Table, chips, dice_art


def card_row(face_up: list[int]) -> Text:
    """Cards face up show their number; face-down cards show their back."""
    t = Text()
    for c in CARDS:
        if c in face_up:
            t.append(f"{c:>2}", style="bold black on white")
        else:
            t.append("▒▒", style="grey35 on grey15")
        if c != CARDS[-1]:
            t.append(" ")
    return t


class SnakeEyesTable(Table):
    def render(self, view: dict[str, Any], seat_names: list[str]) -> RenderableType:
        throw = view["last_throw"]
        head = Text()
        if throw:
            head.append(f"  last throw: {sum(throw)}", style="bold")
            # throwing for the first player, a 7 costs nothing and a 2 earns nothing
            counts = view["phase"] != "first-player"
            if counts and sum(throw) == 2:
                head.append("  SNAKE EYES!", style="bold green")
            elif counts and sum(throw) == 7:
                head.append("  seven", style="bold red")
        if view["winner"] is not None:
            head.append(f"   ★ {seat_names[view['winner']]} wins the kitty", style="bold green")
        if view["phase"] == "first-player":
            head.append("   (throwing for first player)", style="italic")
        if view["chances_left"]:
            head.append(f"   chances left: {view['chances_left']}", style="bold magenta")
        seats = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        seats.add_column("seat", no_wrap=True)
        seats.add_column(" ".join(f"{c:>2}" for c in CARDS), no_wrap=True)
        seats.add_column("chips", justify="right")
        for s, p in enumerate(view["players"]):
            name = seat_names[s]
            if view["winner"] == s:
                name_t = Text(f"★ {name}", style="bold green")
            elif view["thrower"] == s:
                name_t = Text(f"▶ {name}", style="bold black on yellow")
            else:
                name_t = Text(f"  {name}")
            seats.add_row(
                name_t, card_row(p["face_up"]), Text(str(p["chips"]), style="bold yellow")
            )
        kitty = Text("kitty  ", style="bold") + chips(view["kitty"])
        return Group(dice_art(throw), head, kitty, seats)
