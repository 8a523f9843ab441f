"""Shake at the terminal: the colored dice, the six Shake dice, the score pad and the odds.

Drawn from Shake's ``view()`` keys only, so this module needs nothing from the rules code.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.engine import Action

from .tables import Table

DIE_COLORS = ("red", "blue", "green", "yellow", "magenta", "cyan")


def colored_die(seat: int, face: int | None) -> Text:
    style = f"bold white on {DIE_COLORS[seat % len(DIE_COLORS)]}"
    return Text(f" {face if face else '·'} ", style=style)


def shake_dice(faces: list[int] | None) -> Text:
    """Six Shake dice: a scoring face shows 10, a blank shows nothing."""
    t = Text()
    for f in faces or []:
        t.append(" 10 " if f else "    ", style="bold black on white" if f else "on grey23")
        t.append(" ")
    return t


class ShakeTable(Table):
    holder_keys = ("shaker",)

    def chance_holder(self, view: dict[str, Any]) -> int | None:
        # Only a shake is one seat's throw; the colored dice are rolled by everyone at once.
        return view.get("shaker") if view.get("phase") == "shake" else None

    def label(self, action: Action) -> str:
        named = {"take": "take the die", "shake": "shake", "stop": "stop and keep the points"}
        if action["type"] in named and len(action) == 1:
            return named[action["type"]]
        if action["type"] == "order":
            return "order " + "".join(chr(65 + s) for s in action["seats"])
        return super().label(action)

    def render(self, view: dict[str, Any], seat_names: list[str]) -> RenderableType:
        rnd = "All Shake" if view["all_shake_round"] else f"round {view['round']}/{view['rounds']}"
        head = Text(f"{rnd}   phase: {view['phase']}", style="bold")
        rolled = view.get("rolled") or []
        dice = Text("colored dice  ")
        for s in range(len(view["players"])):
            dice.append(f"{seat_names[s]} ")
            face = rolled[s] if s < len(rolled) else None
            dice.append_text(colored_die(s, face))
            dice.append(f" {face * 10:<3} " if face else "     ", style="dim")
        shake = Text("shake dice    ") + shake_dice(view.get("last_shake"))
        if view.get("shaker") is not None:
            shake.append(f"  {seat_names[view['shaker']]} shaking: {view['shake_points']} pts")
        odds = Text(
            f"chance of crapping out (six blanks) on the next shake: "
            f"{view['crap_out_chance']} ≈ {view['crap_out_probability']:.1%}",
            style="italic cyan",
        )
        pad = RichTable(title="score pad", box=None, header_style="dim")
        pad.add_column("seat")
        for r in range(view["rounds"]):
            pad.add_column(str(r + 1), justify="right")
        pad.add_column("AS", justify="right")
        pad.add_column("total", justify="right", style="bold")
        for s, p in enumerate(view["players"]):
            name = seat_names[s]
            if s in view.get("winners", []):
                name_t = Text(f"★ {name}", style="bold green")
            elif view.get("to_act") == s or view.get("shaker") == s:
                name_t = Text(f"▶ {name}", style="bold black on yellow")
            else:
                name_t = Text(f"  {name}")
            cells = [("" if v is None else str(v)) for v in p["rounds"]]
            cells += [""] * (view["rounds"] - len(cells))
            a = p.get("all_shake")
            pad.add_row(name_t, *cells, "" if a is None else str(a), str(p["total"]))
        return Group(head, Text(""), dice, shake, odds, Text(""), pad)
