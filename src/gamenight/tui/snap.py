"""A real-time terminal table for Snap and Slap the Elephant: you at seat A, bots elsewhere.

The Textual app only draws and forwards keys; timing lives in ``gamenight.realtime`` and the
rules in the game. The clock is injectable so tests drive it without sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, RichLog, Static

import gamenight
from gamenight.games.snap.deck import PICTURES
from gamenight.realtime import LEVELS, Level, RealtimeTable
from gamenight.realtime.table import Outcome

HUMAN = 0
WHY = {
    "good": "first correct call",
    "false": "nothing to call: penalty",
    "too late": "too late, dropped",
    "stale": "not open any more",
    "held back": "held back: saw the table change in time",
}


def card_text(card: str) -> str:
    return f"{card} {PICTURES[card]}"


class SnapApp(App[None]):
    """Seat A is the human; every other seat is a bot at the chosen level."""

    TITLE = "gamenight — Snap"
    BINDINGS = [
        Binding("f", "flip", "flip"),
        Binding("s", "call('snap')", "snap"),
        Binding("space", "call('slap')", "slap"),
        Binding("d", "call('snap_fingers')", "snap fingers"),
        Binding("l", "level", "bot level"),
        Binding("a", "auto", "auto flip"),
        Binding("q", "quit", "quit"),
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
    ) -> None:
        super().__init__()
        self.state: Any = state or gamenight.new_game(game_id, players=players).new_state(seed)
        self.level = level
        self.clock = clock or (lambda: time.monotonic() * 1000.0)
        self.tick_s = tick_s
        self._build_table(seed)

    def _build_table(self, seed: int | None) -> None:
        bots: dict[int, Level | str] = {
            s: self.level for s in range(self.state.players) if s != HUMAN
        }
        self.table = RealtimeTable(self.state, bots, seed=seed)
        self.t0 = self.clock() - self.table.now

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="board")
        yield RichLog(id="calls", max_lines=200)
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        if self.tick_s:
            self.set_interval(self.tick_s, self.tick)

    # --- time and input ---------------------------------------------------------------------
    def tick(self) -> None:
        """Bring the table clock up to the wall clock (or the test's clock)."""
        for out in self.table.advance(self.clock() - self.t0):
            self.report(out)
        self.redraw()

    def action_flip(self) -> None:
        self._press({"type": "flip"})

    def action_call(self, kind: str) -> None:
        self._press({"type": kind})

    def _press(self, action: dict[str, Any]) -> None:
        self.tick()
        if self.state.is_terminal():
            return
        if action not in self.state.legal_actions(HUMAN):
            self.query_one(RichLog).write(f"you cannot {action['type']} now")
            return
        start = len(self.table.outcomes)
        self.table.press(HUMAN, action)
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
        self.redraw()

    # --- drawing ----------------------------------------------------------------------------
    def report(self, out: Outcome) -> None:
        if out.result == "flip":
            return
        who = "you" if out.seat == HUMAN else f"bot {self.state.seat_name(out.seat)}"
        line = f"{out.t / 1000:7.2f}s {who}: {out.action['type']} — {WHY[out.result]}"
        self.query_one(RichLog).write(line)

    def board_text(self) -> str:
        st, view = self.state, self.state.view(HUMAN)
        lines = [
            f"{st.game.title} — bots: {self.level} — auto flip: "
            f"{'on' if self.table.auto_flip_humans else 'off'} — flips {view['flips']}"
        ]
        for s, p in enumerate(view["players"]):
            top = card_text(p["face_up"][-1]) if p["face_up"] else "—"
            name = "you" if s == HUMAN else f"bot {st.seat_name(s)}"
            mark = ">" if view["turn"] == s else " "
            state = " (out)" if view["out"][s] else ""
            lines.append(
                f"{mark} {name:6} pack {p['pack']:2}  face up {len(p['face_up']):2}: {top}{state}"
            )
        centre = card_text(view["center"][-1]) if view["center"] else "—"
        lines.append(f"  centre {len(view['center']):2}: {centre}")
        if st.is_terminal():
            w = st.winner()
            lines.append(
                "GAME OVER — "
                + (
                    "draw"
                    if w is None
                    else ("you win" if w == HUMAN else f"bot {st.seat_name(w)} wins")
                )
            )
        return "\n".join(lines)

    def redraw(self) -> None:
        self.query_one("#board", Static).update(self.board_text())


def run(game_id: str = "snap", players: int = 3, level: str = "normal") -> None:
    SnapApp(game_id, players, level).run()
