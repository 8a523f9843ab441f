"""The Snake Eyes casino table in a terminal: layout with chips, results display, odds, dealer.

Humans sit hot-seat (commands act for the seat whose turn it is, or ``seat N``); seats given a
strategy are played by bots. In live mode nothing is drawn: the dealer types the dice read off
the physical table, sees the lit areas and payouts, then settles.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, RichLog, Static

from gamenight.analysis.casino_odds import table_odds
from gamenight.bots.casino_bot import CasinoBot
from gamenight.engine import GamenightError, new_game
from gamenight.games.casino_wagers import WAGER_IDS, WAGERS
from gamenight.games.snake_eyes_casino import CasinoState

HELP = (
    "wager AREA N | reduce AREA N | remove AREA | accept | decline | roll | done | give | "
    "seat N | dealer: dice A B | amend A B | void REASON | settle | force REASON"
)


def parse_command(text: str) -> tuple[dict[str, Any], bool]:
    """A typed command -> (action, is_dealer). Raises ValueError naming what is wrong."""
    words = text.split()
    if not words:
        raise ValueError("type a command: " + HELP)
    verb, args = words[0].lower(), words[1:]
    simple = {"accept": "accept", "decline": "decline", "roll": "roll", "done": "done",
              "give": "give_up", "settle": "settle"}  # fmt: skip
    if verb in simple and not args:
        return {"type": simple[verb]}, verb == "settle"
    if verb in ("wager", "reduce") and len(args) == 2 and args[1].isdigit():
        return {"type": verb, "area": args[0], "amount": int(args[1])}, False
    if verb == "remove" and len(args) == 1:
        return {"type": "remove", "area": args[0]}, False
    if verb in ("dice", "amend") and len(args) == 2 and all(a.isdigit() for a in args):
        return {"type": verb, "faces": [int(a) for a in args]}, True
    if verb == "void" and args:
        return {"type": "void", "reason": " ".join(args)}, True
    if verb == "force" and args:  # rule 5.7(b): the dealer takes the dice from the shooter
        return {"type": "force_give_up", "reason": " ".join(args)}, True
    raise ValueError(f"cannot read {text!r}: " + HELP)


def layout_table(state: CasinoState) -> Table:
    """The wager areas with each seat's chips, the payout and the house edge at hand."""
    lit = set(state.view()["lit"])
    odds = {o.wager: o for o in table_odds(state.pays)}
    t = Table(title="layout", expand=True)
    for col in ("area", "pays", "edge", *(state.seat_name(s) for s in range(state.players))):
        t.add_column(col)
    for w in WAGER_IDS:
        chips = [str(held.get(w, "")) for held in state.bets]
        name = f"[reverse]{WAGERS[w].name}[/]" if w in lit else WAGERS[w].name
        t.add_row(name, state.pays[w], f"{float(odds[w].house_edge):.2%}", *chips)
    return t


class CasinoApp(App[None]):
    """One table. ``bots`` maps seats to strategy names; ``live`` makes the dealer enter dice."""

    CSS = "#side { width: 40; } #layout { height: auto; }"

    def __init__(
        self,
        players: int = 2,
        bots: dict[int, str] | None = None,
        live: bool = False,
        seed: int = 0,
        **options: Any,
    ) -> None:
        super().__init__()
        state = new_game("snake-eyes-casino", players=players, live=live, **options).new_state(
            seed=seed
        )
        assert isinstance(state, CasinoState)
        self.state = state
        self.bots = {s: CasinoBot(seed=seed + s, strategy=k) for s, k in (bots or {}).items()}
        self.live = live
        self.seat: int | None = None  # a human's chosen seat; None: whoever is to act
        self.seen = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical():
                yield Static(id="layout")
                yield Input(placeholder=HELP, id="command")
            with Vertical(id="side"):
                yield Static(id="results")
                yield Static(id="status")
                yield RichLog(id="log", wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Snake Eyes casino" + (" — dealer screen (live table)" if self.live else "")
        self.advance()

    def advance(self) -> None:
        """Let bots and (unless live) the dice play until a human or the dealer must act."""
        s = self.state
        for _ in range(10_000):
            if s.is_terminal():
                break
            if s.is_chance():
                if self.live:
                    break
                s.sample_chance()
                continue
            seat = s.actors()[0]
            if seat not in self.bots:
                break
            s.apply(self.bots[seat].act(s, seat), seat)
        self.refresh_table()

    def refresh_table(self) -> None:
        s, v = self.state, self.state.view()
        self.query_one("#layout", Static).update(layout_table(s))
        self.query_one("#results", Static).update(
            "results: " + " ".join(str(t) for t in v["results"][-20:])
        )
        who = "dealer" if s.is_chance() else ", ".join(s.seat_name(a) for a in s.actors()[:1])
        banks = "  ".join(f"{s.seat_name(i)}:{b}" for i, b in enumerate(v["bankrolls"]))
        entered = f"\nentered {v['entered']} pays {v['pending_wins']}" if v["entered"] else ""
        over = "\nthe session is over" if s.is_terminal() else ""
        self.query_one("#status", Static).update(
            f"{v['phase']}; to act: {who}\n{banks}  bank:{v['bank']}{entered}{over}"
        )
        log = self.query_one("#log", RichLog)
        for line in s.events(self.seen):
            log.write(line)
        self.seen = s.event_count

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_command(event.value)

    def run_command(self, text: str) -> None:
        """Apply a typed command for the dealer or the seat at hand; errors go to the log."""
        log = self.query_one("#log", RichLog)
        words = text.split()
        if len(words) == 2 and words[0] == "seat" and words[1].isdigit():
            self.seat = int(words[1])
            log.write(f"now acting for seat {self.state.seat_name(self.seat)}")
            return
        try:
            action, dealer = parse_command(text)
            s = self.state
            seat = None if dealer else (self.seat if self.seat is not None else s.actors()[0])
            s.apply(action, seat)
        except (ValueError, IndexError, GamenightError) as e:
            log.write(f"[red]{e}[/]")
            return
        self.advance()
