"""Gambler at the terminal: the board with pieces, money, tickets, the Shaker layout and the log.

Only public protocol calls: the table reads ``view()`` and ``events()`` and sends actions; chance
moves and bot seats are played by the app itself between the human's decisions.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, RichLog, Static

from gamenight.bots.base import Bot, make_bot
from gamenight.engine import IllegalAction, State, new_game
from gamenight.games.gambler import odds

PIECES = "ABCD"
MARKER_KEYS = {
    "1": "high-1", "2": "high-2", "3": "high-3", "4": "high-4", "5": "high-5", "6": "high-6",
    "7": "split-1-2", "8": "split-2-3", "9": "split-4-5", "0": "split-5-6",
    "t": "straight", "d": "pairs",
}  # fmt: skip
ACTION_KEYS = {
    "r": "roll", "b": "buy_ticket", "a": "roll_again", "h": "sweepstakes",
    "c": "claim_start", "e": "end_turn", "i": "take_iou", "p": "repay_iou",
}  # fmt: skip


def board_text(view: dict[str, Any]) -> str:
    """One line per space, with the pieces standing on it."""
    lines = []
    for i, sp in enumerate(view["board"]):
        here = "".join(
            PIECES[s] for s, p in enumerate(view["players"]) if p["position"] == i and not p["out"]
        )
        amount = f" ${sp['amount']}" if sp["amount"] else ""
        lines.append(f"{i:>2} {sp['name']:<20}{amount:<6} {here}")
    return "\n".join(lines)


def players_text(view: dict[str, Any]) -> str:
    lines = [f"bank {view['bank']:>7}"]
    for s, p in enumerate(view["players"]):
        flags = (" IOU" if p["iou"] else "") + (" OUT" if p["out"] else "")
        tickets = " ".join(f"{a}-{b}" for a, b in p["tickets"]) or "-"
        turn = ">" if s == view["current"] and view["winner"] is None else " "
        lines.append(f"{turn}{PIECES[s]} ${p['cash']:>5} tickets {tickets}{flags}")
    if view["winner"] is not None:
        lines.append(f"winner: {PIECES[view['winner']]}")
    return "\n".join(lines)


def shaker_text(view: dict[str, Any]) -> str:
    """The twelve Sweepstakes spaces, who sits there, the key and the exact odds of free ones."""
    dice = view["shaker"]
    lines = ["Shaker: " + (" ".join(map(str, dice)) if dice else "(empty)")]
    free = view.get("odds", {})
    for key, space in MARKER_KEYS.items():
        seat = view["markers"].get(space)
        who = PIECES[seat] if seat is not None else "."
        hint = f"p={free[space]['p']}" if space in free else ""
        lines.append(f"[{key}] {space:<10} ${odds.prize(space):<4} {who} {hint}")
    return "\n".join(lines)


class GamblerApp(App[None]):
    """A Gambler table: the human plays ``seat``; bots play the others."""

    CSS = "#board { width: 40; } #side { width: 1fr; } #log { height: 12; }"
    BINDINGS = [
        *(Binding(k, f"act('{v}')", v.replace("_", " ")) for k, v in ACTION_KEYS.items()),
        *(Binding(k, f"marker('{v}')", v, show=False) for k, v in MARKER_KEYS.items()),
        Binding("x", "quit", "quit"),
    ]

    def __init__(self, state: State | None = None, seat: int = 0, seed: int = 0) -> None:
        super().__init__()
        self.state = state or new_game("gambler", players=4).new_state(seed)
        self.seat = seat
        self.bots: dict[int, Bot] = {
            s: make_bot("gambler", "sensible", seed=seed + s)
            for s in range(self.state.players)
            if s != seat
        }
        self.seen = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="shaker")
                yield Static(id="status")
        yield RichLog(id="log", wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.advance()

    def advance(self) -> None:
        """Play chance moves and bot seats until the human must decide or the game ends."""
        st = self.state
        while not st.is_terminal():
            if st.is_chance():
                st.sample_chance()
            elif st.actors()[0] in self.bots:
                seat = st.actors()[0]
                st.apply(self.bots[seat].act(st, seat), seat)
            else:
                break
        self.refresh_table()

    def refresh_table(self, problem: str = "") -> None:
        view = self.state.view()
        self.query_one("#board", Static).update(board_text(view))
        self.query_one("#players", Static).update(players_text(view))
        self.query_one("#shaker", Static).update(shaker_text(view))
        legal = ", ".join(
            str(a.get("space", a["type"])) for a in self.state.legal_actions(self.seat)
        )
        self.query_one("#status", Static).update(f"{problem}\nyou may: {legal or '-'}")
        log = self.query_one("#log", RichLog)
        for line in self.state.events(self.seen):
            log.write(line)
        self.seen = self.state.event_count

    def _send(self, action: dict[str, Any]) -> None:
        try:
            self.state.apply(action, self.seat)
        except IllegalAction as e:
            self.refresh_table(f"not now: {e}")
            return
        self.advance()

    def action_act(self, kind: str) -> None:
        self._send({"type": kind})

    def action_marker(self, space: str) -> None:
        self._send({"type": "marker", "space": space})


if __name__ == "__main__":  # python -m gamenight.tui.gambler
    GamblerApp().run()
