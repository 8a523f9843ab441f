"""A real-time terminal table for Snap and Slap the Elephant: you at seat A, bots elsewhere.

The Textual app only draws and forwards keys; timing lives in ``gamenight.realtime`` and the
rules in the game. The clock is injectable so tests drive it without sleeping. While a dialog
is open the table clock stands still, so the bots wait too.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, RichLog, Static

import gamenight
from gamenight.games.snap.deck import ELEPHANT, MOUSE, PICTURES
from gamenight.realtime import LEVELS, Level, RealtimeTable
from gamenight.realtime.table import Outcome

from .base import BOT, HUMAN, NEW_GAME, TableApp

YOU = 0  # the human's seat
WHY = {
    "good": "first correct call",
    "false": "nothing to call",
    "too late": "too late, dropped",
    "stale": "not open any more",
    "held back": "held back: saw the table change in time",
}
SAY = {"snap": "snap!", "slap": "slap!", "snap_fingers": "snap fingers!", "flip": "flip"}


def card_text(card: str) -> Text:
    """A card as a little framed picture with its name."""
    style = "bold black on white"
    if card == ELEPHANT:
        style = "bold white on dark_blue"
    elif card == MOUSE:
        style = "bold black on yellow"
    return Text(f" {PICTURES[card]} ", style=style) + Text(f" {card}")


class SnapApp(TableApp):
    """Seat A is the human; every other seat is a bot at the chosen level."""

    CSS = (
        TableApp.CSS
        + """
    #board { height: auto; padding: 0 1; border: round $primary; }
    #calls { height: 1fr; border: round $secondary; }
    """
    )
    BINDINGS = [
        *TableApp.BINDINGS,
        Binding("f", "flip", "flip"),
        Binding("space", "call", "call"),
        Binding("d", "call('snap_fingers')", "snap fingers", show=False),
        Binding("l", "level", "bot level", show=False),
        Binding("a", "auto", "auto flip"),
    ]

    def __init__(
        self,
        game_id: str = "snap",
        players: int = 3,
        level: str = "normal",
        state: Any = None,
        seed: int | None = None,
        clock: Callable[[], float] | None = None,
        tick_s: float | None = 0.05,
        save_path: str | Path | None = None,
    ) -> None:
        super().__init__()
        self.state: Any = state or gamenight.new_game(game_id, players=players).new_state(seed)
        self.game_id = self.state.game.id
        self.game_title = self.state.game.title
        self.seat_kinds = [HUMAN] + [BOT] * (self.state.players - 1)
        self.seed = seed
        self.save_path = Path(save_path or f"gamenight-{self.game_id}-seed{seed}.json")
        self.level = level
        self.clock = clock or (lambda: time.monotonic() * 1000.0)
        self.tick_s = tick_s
        self.paused_at: float | None = None
        self._build_table(seed)

    @property
    def TABLE_KEYS(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]  # noqa: N802
        call = (
            ("space", "call snap: two face-up cards show the same picture")
            if self.game_id == "snap"
            else ("space", "slap: the top card of the centre is an elephant (°o°)~~")
        )
        keys = [("f", "flip your top card when it is your turn (marked ▶)"), call]
        if self.game_id != "snap":
            keys.append(("d", "snap your fingers: the top card is a mouse <:3 )~*snap*"))
        keys += [("l", "change the bots' level (easy, normal, expert)"),
                 ("a", "auto flip: your cards turn up by themselves")]  # fmt: skip
        return tuple(keys)

    def _build_table(self, seed: int | None) -> None:
        bots: dict[int, Level | str] = {s: self.level for s in range(self.state.players) if s}
        self.table = RealtimeTable(self.state, bots, seed=seed)
        self.t0 = self.clock() - self.table.now

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="board")
        yield RichLog(id="calls", max_lines=200, wrap=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.redraw()
        if self.tick_s:
            self.set_interval(self.tick_s, self.tick)

    # --- time and input ---------------------------------------------------------------------
    def tick(self) -> None:
        """Bring the table clock up to the wall clock (or the test's clock); a dialog stops it."""
        if not self.query("#board"):  # a last tick while the app shuts down: nothing to draw
            return
        if self.paused:
            if self.paused_at is None:
                self.paused_at = self.clock()
            return
        if self.paused_at is not None:  # the time a dialog was open never happened at the table
            self.t0 += self.clock() - self.paused_at
            self.paused_at = None
        for out in self.table.advance(self.clock() - self.t0):
            self.report(out)
        self.redraw()

    def action_flip(self) -> None:
        self._press({"type": "flip"})

    def action_call(self, kind: str = "") -> None:
        self._press({"type": kind or ("snap" if self.game_id == "snap" else "slap")})

    def _press(self, action: dict[str, Any]) -> None:
        if self.paused:
            return
        self.tick()
        if self.state.is_terminal():
            return
        if action not in self.state.legal_actions(YOU):
            self.query_one(RichLog).write(f"you cannot {action['type'].replace('_', ' ')} now")
            return
        start = len(self.table.outcomes)
        self.table.press(YOU, action)
        for out in self.table.outcomes[start:]:  # the press, and any bot it made hold back
            self.report(out)
        self.redraw()

    def action_level(self) -> None:
        names = list(LEVELS)
        self.level = names[(names.index(self.level) + 1) % len(names)]
        for s in self.table.bots:
            self.table.bots[s] = LEVELS[self.level]
        self.redraw()

    def action_auto(self) -> None:
        self.table.auto_flip_humans = not self.table.auto_flip_humans
        st = self.state
        if self.table.auto_flip_humans and not st.is_chance() and st.turn == YOU:
            self.action_flip()  # the table schedules the next flips once this one is down
        self.redraw()

    # --- drawing ----------------------------------------------------------------------------
    def report(self, out: Outcome) -> None:
        if out.result == "flip":
            return
        who = "you" if out.seat == YOU else f"bot {self.state.seat_name(out.seat)}"
        line = f"{out.t / 1000:7.2f}s {who}: {out.action['type']} — {WHY[out.result]}"
        if out.result in ("good", "false") and out.text:
            # what the call did, in the game's words: a false slap with too few cards to
            # share costs nothing, so a bare "penalty" was wrong there
            line += f": {out.text}"
        self.query_one(RichLog).write(line)

    def board(self) -> RenderableType:
        st, view = self.state, self.state.view(YOU)
        head = Text(
            f"bots: {self.level}   auto flip: {'on' if self.table.auto_flip_humans else 'off'}"
            f"   flips: {view['flips']}   ? help",
            style="dim",
        )
        seats = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        for col in ("", "player", "pack", "up", "top card"):
            seats.add_column(col, justify="right" if col in ("pack", "up") else "left")
        for s, p in enumerate(view["players"]):
            top = card_text(p["face_up"][-1]) if p["face_up"] else Text("—", style="dim")
            name = "you" if s == YOU else f"bot {st.seat_name(s)}"
            mark = Text("▶", style="bold yellow") if view["turn"] == s else Text(" ")
            if view["out"][s]:
                top = Text("out", style="dim")
            seats.add_row(mark, name, str(p["pack"]), str(len(p["face_up"])), top)
        centre = Text(f"centre pile ({len(view['center'])}): ", style="bold")
        centre += card_text(view["center"][-1]) if view["center"] else Text("empty", style="dim")
        hint = Text()
        if st.is_terminal():
            w = st.winner()
            won = "a draw" if w is None else "you win!" if w == YOU else f"{st.seat_name(w)} wins"
            hint = Text(f"GAME OVER: {won}   (n new game, q quits, s saves)", style="bold green")
        elif view["turn"] == YOU and not self.table.auto_flip_humans:
            hint = Text("your turn: press f to flip", style="bold yellow")
        return Group(head, seats, centre, hint)

    def board_text(self) -> str:
        """The board as plain text (tests and logs)."""
        console = Console(width=78, record=True, color_system=None, file=io.StringIO())
        console.print(self.board())
        return console.export_text()

    def redraw(self) -> None:
        self.query_one("#board", Static).update(self.board())
        if self.state.is_terminal():
            self.game_ended()


def run(game_id: str = "snap", players: int = 3, level: str = "normal") -> None:
    """Deal games at one table until the player quits rather than asking for a new one."""
    while SnapApp(game_id, players, level).run() == NEW_GAME:
        pass
