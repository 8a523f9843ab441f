"""Gambler at the terminal: the board with pieces, money, tickets, IOUs, the Shaker and the log.

Only public protocol calls: the table reads ``view()`` and ``events()`` and sends actions; chance
moves are drawn at once and bot seats play on a timer between the humans' decisions.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, RichLog, Static

from gamenight.bots import Bot, make_bot
from gamenight.engine import GamenightError, State, new_game
from gamenight.games.gambler import odds

from .base import BOT, HUMAN, TableApp

PIECE_STYLES = ("bold white on red", "bold white on blue", "bold black on green",
                "bold black on yellow")  # fmt: skip
DICE = " ⚀⚁⚂⚃⚄⚅"
MARKER_KEYS = {
    "1": "high-1", "2": "high-2", "3": "high-3", "4": "high-4", "5": "high-5", "6": "high-6",
    "7": "split-1-2", "8": "split-2-3", "9": "split-4-5", "0": "split-5-6",
    "t": "straight", "d": "pairs",
}  # fmt: skip
SPACE_WORDS = {
    **{f"high-{p}": f"High number, die {p}" for p in range(1, 7)},
    **{s: f"Split, dice {a} and {b}" for s, (a, b) in odds.SPLITS.items()},
    "straight": "Straight (3 in a row)",
    "pairs": "Pairs (2 alike side by side)",
}
# key -> (action type, what it does)
ACTIONS: dict[str, tuple[str, str]] = {
    "r": ("roll", "roll the dice and move"),
    "b": ("buy_ticket", "buy a lottery ticket ($10)"),
    "a": ("roll_again", "roll again (a second double pays $500)"),
    "h": ("sweepstakes", "hold a Sweepstakes instead"),
    "c": ("claim_start", "claim the money waiting at Start ($100 a pass)"),
    "e": ("end_turn", "end the turn"),
    "i": ("take_iou", "IOU: $200 now, $220 to repay"),
    "p": ("repay_iou", "repay the IOU ($220)"),
}
KIND_MARK = {"collect": ("+", "green"), "pay": ("-", "red")}


def piece(seat: int) -> Text:
    return Text(chr(65 + seat), style=PIECE_STYLES[seat % len(PIECE_STYLES)])


def money(n: int) -> str:
    return f"-${-n:,}" if n < 0 else f"${n:,}"


def board_picture(view: dict[str, Any]) -> RichTable:
    """The 24 spaces in two columns, money spaces in green or red, pieces where they stand."""
    spaces = view["board"]
    half = (len(spaces) + 1) // 2
    grid = RichTable.grid(padding=(0, 1))
    for _ in range(2):
        grid.add_column(justify="right", style="dim")
        grid.add_column(no_wrap=True, width=17)
        grid.add_column(no_wrap=True, width=4)
    cells: list[list[RenderableType]] = []
    for i, sp in enumerate(spaces):
        full = sp["name"] if len(sp["name"]) <= 11 else sp["name"][:10] + "…"
        name = Text(f"{full:<11} ")
        mark = KIND_MARK.get(sp["kind"])
        if mark and sp["amount"]:
            name.append(f"{mark[0]}${sp['amount']}", style=mark[1])
        here = Text()
        for s, p in enumerate(view["players"]):
            if p["position"] == i and not p["out"]:
                here += piece(s)
        cells.append([str(i), name, here])
    for r in range(half):
        right = cells[r + half] if r + half < len(cells) else ["", "", ""]
        grid.add_row(*cells[r], *right)
    return grid


def to_act(view: dict[str, Any]) -> int:
    """The seat whose keys count now: in a Sweepstakes, the next to place a marker (the
    player whose turn it is may have called it, but each places a marker in turn)."""
    queue = view.get("marker_queue") or []
    return int(queue[0]) if view["phase"] == "marker" and queue else int(view["current"])


def players_picture(view: dict[str, Any], names: list[str]) -> Group:
    """Each player's cash, lottery tickets and IOU, and the bank; ▶ marks the seat to act."""
    lines: list[RenderableType] = []
    acting = to_act(view)
    for s, p in enumerate(view["players"]):
        turn = "▶" if s == acting and view["winner"] is None else " "
        label = names[s].removeprefix(chr(65 + s)).strip()
        head = Text(f"{turn}") + piece(s) + Text(f" {label:<4} {money(p['cash']):>7}")
        if p["out"]:
            head.append("  out", style="dim")
        elif p["iou"]:
            head.append("  IOU $220", style="bold red")
        if view["winner"] == s:
            head.append("  ★ wins", style="bold green")
        lines.append(head)
        tickets = " ".join(f"{DICE[a]}{DICE[b]}" for a, b in p["tickets"])
        lines.append(Text(f"  tickets {tickets or 'none'}", style="cyan" if tickets else "dim"))
    lines.append(Text(f"bank {money(view['bank'])}", style="dim"))
    return Group(*lines)


def shaker_picture(view: dict[str, Any]) -> Text:
    dice = view.get("shaker") or []
    t = Text("Shaker ", style="bold")
    t.append(" ".join(DICE[d] for d in dice) if dice else "empty", style="bold yellow")
    if dice and view.get("shaker_for"):
        t.append(f"  ({view['shaker_for']})", style="dim")
    if view.get("last_roll"):
        t.append("\nlast roll ", style="bold")
        t.append(" ".join(DICE[d] for d in view["last_roll"]), style="bold yellow")
    if view.get("last_card"):
        t.append(f"\nFortune: {view['last_card']}", style="italic")
    return t


def sweepstakes_picture(view: dict[str, Any], names: list[str] | None = None) -> RichTable:
    """The twelve Sweepstakes spaces: key, what wins, prize, chance, and whose marker."""
    free = view.get("odds", {})
    who = f"{names[to_act(view)]}, press" if names else "press"
    t = RichTable(title=f"Sweepstakes: {who} a key to place your marker", box=None,
                  header_style="dim", title_justify="left")  # fmt: skip
    for col in ("key", "space", "prize", "chance", "marker"):
        t.add_column(col, justify="right" if col in ("prize", "chance") else "left")
    for key, space in MARKER_KEYS.items():
        seat = view["markers"].get(space)
        chance = f"{float(Fraction(free[space]['p'])):.1%}" if space in free else ""
        t.add_row(key, SPACE_WORDS[space], f"${odds.prize(space)}", chance,
                  piece(seat) if seat is not None else Text("free", style="dim"))  # fmt: skip
    return t


class GamblerApp(TableApp):
    """A Gambler table: ``seats`` says which seats are humans (hot-seat) and which bots."""

    CSS = (
        TableApp.CSS
        + """
    #top { height: 1fr; }
    #board { width: 57; padding: 0 1; border: round $primary; overflow-y: auto; }
    #side { width: 1fr; }
    #players { height: auto; padding: 0 1; border: round $secondary; }
    #shaker { height: 1fr; padding: 0 1; }
    #keys { height: auto; min-height: 2; max-height: 4; padding: 0 1; background: $boost; }
    #log { height: 4; }
    """
    )
    BINDINGS = [
        *TableApp.BINDINGS,
        *(Binding(k, f"act('{v[0]}')", v[0].replace("_", " "), show=False)
          for k, v in ACTIONS.items()),
        *(Binding(k, f"marker('{v}')", v, show=False) for k, v in MARKER_KEYS.items()),
    ]  # fmt: skip
    TABLE_KEYS = (
        *((k, what) for k, (_, what) in ACTIONS.items()),
        ("1-6", "Sweepstakes: a marker on a High number die"),
        ("7 8 9 0", "Sweepstakes: a marker on a Split"),
        ("t / d", "Sweepstakes: a marker on Straight / Pairs"),
    )

    def __init__(
        self,
        state: State | None = None,
        seat: int = 0,
        seed: int | None = 0,
        *,
        seats: list[str] | None = None,
        bot_delay: float = 0.6,
        save_path: str | Path | None = None,
        bot: str = "sensible",
    ) -> None:
        super().__init__()
        self.state = state or new_game("gambler", players=4).new_state(seed)
        n = self.state.players
        self.seat_kinds = seats or [HUMAN if s == seat else BOT for s in range(n)]
        self.game_id, self.game_title = "gambler", self.state.game.title
        self.seed, self.bot_delay = seed, bot_delay
        self.save_path = Path(save_path or f"gamenight-gambler-seed{seed}.json")
        self.bots: dict[int, Bot] = {
            s: make_bot("gambler", bot, seed=None if seed is None else seed + s)
            for s, k in enumerate(self.seat_kinds)
            if k == BOT
        }
        lone = self.seat_kinds.count(HUMAN) == 1
        self.names = [
            ("you" if lone else chr(65 + s)) if k == HUMAN else f"{chr(65 + s)} bot"
            for s, k in enumerate(self.seat_kinds)
        ]
        self.seen = 0
        self.pending = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="shaker")
        yield Static(id="keys")
        yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#board", Static).border_title = "board"
        self.advance()

    @property
    def human(self) -> int | None:
        """The human seat to act now, if it is a human's turn."""
        st = self.state
        if st.is_terminal() or st.is_chance():
            return None
        seat: int = st.actors()[0]
        return seat if seat not in self.bots else None

    def advance(self) -> None:
        """Draw chance moves, then wait for a human or schedule the next bot move."""
        st = self.state
        while st.is_chance() and not st.is_terminal():
            st.sample_chance()
        if not st.is_terminal() and self.human is None and not self.pending:
            self.pending = True
            self.schedule(self.bot_move)
        if st.is_terminal():
            self.game_ended()
        self.refresh_table()

    def bot_move(self) -> None:
        self.pending = False
        st = self.state
        if st.is_terminal() or st.is_chance() or st.actors()[0] not in self.bots:
            self.advance()
            return
        seat = st.actors()[0]
        self.decide(self.bots[seat], seat, lambda action: self.bot_played(seat, action))

    def bot_played(self, seat: int, action: dict[str, Any]) -> None:
        self.state.apply(action, seat)
        self.advance()

    def refresh_table(self, problem: str = "") -> None:
        view = self.state.view()
        board = self.query_one("#board", Static)
        if view["phase"] == "marker":
            board.update(sweepstakes_picture(view, self.names))
        else:
            board.update(board_picture(view))
        self.query_one("#players", Static).update(players_picture(view, self.names))
        self.query_one("#shaker", Static).update(shaker_picture(view))
        self.query_one("#keys", Static).update(self.keys_text(problem))
        log = self.query_one("#log", RichLog)
        for line in self.state.events(self.seen):
            log.write(line)
        self.seen = self.state.event_count

    def keys_text(self, problem: str) -> Text:
        t = Text()
        if problem:
            t.append(problem + "\n", style="bold red")
        st = self.state
        if st.is_terminal():
            w = st.winner()
            won = f"{self.names[w]} won" if w is not None else "no winner"
            return t + Text(f"Game over: {won}.   n new game   q quit   s save", style="bold green")
        seat = self.human
        if seat is None:
            who = self.names[st.actors()[0]] if not st.is_chance() else "the dice"
            return t + Text(f"{who} is playing …   (? help)", style="dim")
        legal = {a["type"] for a in st.legal_actions(seat)}
        t.append(f"{self.names[seat]}: ", style="bold")
        owed = money(st.view(seat)["start_owed"])  # $200 after two passes in one turn
        said = {"claim_start": f"claim the {owed} from Start"}
        keys = [(k, said.get(kind, what)) for k, (kind, what) in ACTIONS.items() if kind in legal]
        parts = [f"[b]{k}[/b] {what}" for k, what in keys]
        if "marker" in legal:
            parts.insert(0, "a key from the Sweepstakes table")
        return t + Text.from_markup("   ".join(parts))

    def _send(self, action: dict[str, Any]) -> None:
        seat = self.human
        if self.paused or seat is None:
            return
        try:
            self.state.apply(action, seat)
        except GamenightError as e:
            self.refresh_table(self.why_not(action, e))
            return
        self.advance()

    @staticmethod
    def why_not(action: dict[str, Any], error: GamenightError) -> str:
        """The refusal in the table's words: the engine's own names a move by its dict."""
        if str(error).startswith(str(action)):  # "{'type': 'roll'} is not allowed in ..."
            key, what = next((k, w) for k, (t, w) in ACTIONS.items() if t == action["type"])
            return f"not now: {key} ({what}) is not open at this point"
        return f"not now: {error}"

    def action_act(self, kind: str) -> None:
        self._send({"type": kind})

    def action_marker(self, space: str) -> None:
        self._send({"type": "marker", "space": space})


if __name__ == "__main__":  # python -m gamenight.tui.gambler
    GamblerApp().run()
