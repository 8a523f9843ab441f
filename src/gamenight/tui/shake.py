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
PHASES = {
    "roll": "everyone throws a colored die",
    "choose": "take the die's points, or shake instead",
    "shake": "shaking …",
    "shaken": "shake again, or stop and keep the points",
    "order": "choose the shaking order",
}


def colored_die(seat: int, face: int | None) -> Text:
    style = f"bold white on {DIE_COLORS[seat % len(DIE_COLORS)]}"
    return Text(f" {face if face else '·'} ", style=style)


def shake_dice(faces: list[int] | None) -> Text:
    """Six Shake dice: a scoring face shows 10, a blank shows -- (without colour, as with
    NO_COLOR, a blank drawn as a grey square was only spaces: six blanks showed nothing)."""
    t = Text()
    for f in faces or []:
        t.append(" 10 " if f else " -- ", style="bold black on white" if f else "grey50 on grey23")
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
        rnd = (
            "All Shake round"
            if view["all_shake_round"]
            else f"round {view['round']}/{view['rounds']}"
        )
        head = Text(rnd, style="bold")
        head.append(f"   {PHASES.get(view['phase'], view['phase'])}", style="italic")
        rolled = view.get("rolled") or []
        dice = Text("colored dice ")
        for s in range(len(view["players"])):
            face = rolled[s] if s < len(rolled) else None
            dice.append(f"{seat_names[s][0]}")
            dice.append_text(colored_die(s, face))
            dice.append(f"{face * 10:<3} " if face else "    ", style="dim")
        shake = Text("shake dice   ") + shake_dice(view.get("last_shake"))
        if view.get("shaker") is not None:
            shake.append(
                f"\n{seat_names[view['shaker']]} shaking: {view['shake_points']:,} in hand",
                style="bold",
            )
        odds = Text(
            f"next shake craps out (six blanks): "
            f"{view['crap_out_chance']} ≈ {view['crap_out_probability']:.1%}",
            style="italic cyan",
        )
        return Group(head, dice, shake, odds, self.pad(view, seat_names))

    @staticmethod
    def pad(view: dict[str, Any], seat_names: list[str]) -> RichTable:
        """The score pad: the last four rounds (the whole pad is in the record), AS and total."""
        first = max(0, min(view["round"], view["rounds"]) - 4)
        shown = range(first, min(first + 4, view["rounds"]))
        pad = RichTable(title="score pad", box=None, header_style="dim", pad_edge=False,
                        title_justify="left")  # fmt: skip
        pad.add_column("seat", no_wrap=True)
        for r in shown:
            pad.add_column(f"r{r + 1}", justify="right")
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
            cells = [
                "" if r >= len(p["rounds"]) or p["rounds"][r] is None else str(p["rounds"][r])
                for r in shown
            ]
            a = p.get("all_shake")
            pad.add_row(name_t, *cells, "" if a is None else str(a), f"{p['total']:,}")
        return pad
