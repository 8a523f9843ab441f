"""GameApp: one table, any registered game, humans (hot-seat) and bots together.

The app only speaks the engine protocol: whose turn (``actors``/chance), ``legal_actions``,
``apply``, ``view`` and ``events``. What a game looks like comes from ``tables.table_for``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Footer, Header, RichLog, Static

from gamenight.bots import Bot, make_bot
from gamenight.bots.explain import explain
from gamenight.engine import Action, Game, GamenightError, State

from .base import BOT, DIALOG_CSS, HUMAN, ConfirmQuit, TableApp
from .tables import table_for

# Keys for actions, in order; q, s and ? are every table's own, space throws.
ACTION_KEYS = "123456789" + "abcdefghijklmnoprtuvwxyz"
__all__ = ["BOT", "HUMAN", "ConfirmQuit", "GameApp"]


class GameApp(TableApp):
    """Plays one game of ``game`` with ``seats`` ("human" or "bot", one per seat)."""

    CSS = (
        DIALOG_CSS
        + """
    #status { height: auto; min-height: 2; max-height: 3; padding: 0 1; background: $boost; }
    #main { height: 1fr; }
    #table { width: 1fr; height: 100%; padding: 0 1; border: round $primary;
             overflow-y: auto; }
    #log { width: 26; border: round $secondary; }
    #keys { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    """
    )
    BINDINGS = [*TableApp.BINDINGS, Binding("space", "throw", "throw", show=False)]
    TABLE_KEYS = (
        ("space", "throw the dice when they are yours"),
        ("1-9, a-z", 'the choices listed under "your keys" (never q or s)'),
    )

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        seed: int | None = None,
        *,
        bot_delay: float = 0.6,
        save_path: str | Path | None = None,
        bots: dict[int, Bot] | None = None,
        state: State | None = None,
        bot: str = "sensible",
    ) -> None:
        super().__init__()
        self.game_id, self.game_title = game.id, game.title
        if len(seats) != game.players or any(s not in (HUMAN, BOT) for s in seats):
            raise ValueError(f"give one of 'human'/'bot' for each of the {game.players} seats")
        self.game = game
        self.seats = list(seats)
        self.seat_kinds = self.seats
        self.state = game.new_state(seed=seed) if state is None else state  # state: resumed
        self.seed = seed
        self.bot_delay = bot_delay
        self.table = table_for(game.id)
        self.save_path = Path(save_path or f"gamenight-{game.id}-seed{seed}.json")
        self.why: str = ""  # the last bot's reason, shown on the status line
        self.bots: dict[int, Bot] = bots or {}
        for s, kind in enumerate(self.seats):
            if kind == BOT and s not in self.bots:
                self.bots[s] = make_bot(game.id, bot, seed=None if seed is None else seed + s)
        lone = self.seats.count(HUMAN) == 1
        self.names = [
            f"{chr(65 + s)}{(' you' if lone else '') if k == HUMAN else ' bot'}"
            for s, k in enumerate(self.seats)
        ]
        humans = [s for s, k in enumerate(self.seats) if k == HUMAN]
        # One human sees only their own view; hot-seat humans share the screen, so the whole table.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.keymap: dict[str, tuple[int, Action]] = {}
        self.waiting_throw: int | None = None  # human seat whose space throws the dice
        self.seen_events = 0
        self.pending = False  # a bot or automatic draw is scheduled

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        with Horizontal(id="main"):
            yield Static(id="table")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="keys")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#log", RichLog).border_title = "events"
        self.query_one("#table", Static).border_title = self.game.title
        self.advance()

    # --- the game loop --------------------------------------------------------------------------
    def advance(self) -> None:
        """Redraw, then decide who moves next: wait for a human key or schedule the machine."""
        self.refresh_table()
        self.keymap, self.waiting_throw = {}, None
        st = self.state
        if st.is_terminal():
            w = st.winner()
            self.set_status(f"Game over. {'Winner: ' + self.names[w] if w is not None else ''}")
            self.set_keys("n new game   q quit   s save the record   ? help")
            self.game_ended()
            return
        if st.is_chance():
            holder = self.table.chance_holder(st.view())
            if holder is not None and self.seats[holder] == HUMAN:
                self.waiting_throw = holder
                self.set_status(f"{self.names[holder]} holds the dice: press space to throw")
                self.set_keys("space  throw the dice")
            else:
                who = f"{self.names[holder]} throws" if holder is not None else "the dice roll"
                self.set_status(f"{who} …", self.why)
                self.set_keys("")
                self.schedule(self.draw_chance)
            return
        seat = st.actors()[0]
        if self.seats[seat] == BOT:
            self.set_status(f"{self.names[seat]} is thinking …", self.why)
            self.set_keys("")
            self.schedule(lambda: self.bot_move(seat))
            return
        actions = st.legal_actions(seat)
        self.keymap = {k: (seat, a) for k, a in zip(ACTION_KEYS, actions, strict=False)}
        self.set_status(f"{self.names[seat]} to act: choose with a key", self.why)
        self.set_keys(
            "   ".join(
                f"[b]{k}[/b] {escape(self.table.label(a))}" for k, (_, a) in self.keymap.items()
            )
        )

    def schedule(self, move: Any) -> None:
        self.pending = True
        super().schedule(move)

    def draw_chance(self) -> None:
        self.pending = False
        if not self.is_running or not self.state.is_chance():
            return
        self.state.sample_chance()
        self.advance()

    def bot_move(self, seat: int) -> None:
        self.pending = False
        if not self.is_running or self.state.is_terminal():
            return
        self.decide(self.bots[seat], seat, lambda action: self.bot_played(seat, action))

    def bot_played(self, seat: int, action: Action) -> None:
        why = explain(self.state, seat, action, getattr(self.bots[seat], "plan", None))
        if why:
            self.why = why
            self.query_one("#log", RichLog).write(Text("  why: " + why, style="italic cyan"))
        self.play(action, seat)

    def play(self, action: Action, seat: int | None) -> None:
        try:
            self.state.apply(action, seat)
        except GamenightError as e:  # the state is unchanged: say why and ask again
            self.notify(escape(str(e)), severity="error")
        self.advance()

    # --- keys -----------------------------------------------------------------------------------
    def on_key(self, event: Any) -> None:
        if event.key in self.keymap and not self.paused:
            seat, action = self.keymap[event.key]
            event.stop()
            self.play(action, seat)

    def action_throw(self) -> None:
        if self.waiting_throw is not None and self.state.is_chance() and not self.paused:
            self.waiting_throw = None
            self.state.sample_chance()
            self.advance()

    # --- drawing --------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        self.query_one("#table", Static).update(
            self.table.render(self.state.view(self.viewer), self.names)
        )
        log = self.query_one("#log", RichLog)
        for line in self.state.events(self.seen_events):
            log.write(line)
        self.seen_events = self.state.event_count

    def set_status(self, text: str, why: str = "") -> None:
        line = Text(text, style="bold")
        if why:
            line.append("\n" + why, style="italic cyan")
        self.query_one("#status", Static).update(line)

    def set_keys(self, text: str) -> None:
        self.query_one("#keys", Static).update(text or "[dim]waiting … (? help)[/dim]")
