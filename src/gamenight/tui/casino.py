"""The Snake Eyes casino table in a terminal: a drawn layout you bet on with keys or the mouse.

Each row of the layout is one betting area with what it pays, the house edge and every seat's
chips; the side shows the dice faces, the number just thrown and the bankrolls. Humans sit
hot-seat (keys act for the human whose turn it is); the other seats are bots that bet by a
named strategy, on a timer. In live mode nothing is drawn: the dealer types the dice read off
the physical table, sees the lit areas and payouts, then settles.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, Input, RichLog, Static

from gamenight.analysis.casino_odds import table_odds
from gamenight.bots.casino_bot import CasinoBot
from gamenight.engine import Game, GamenightError, new_game
from gamenight.games.casino_wagers import WAGER_IDS, WAGERS
from gamenight.games.snake_eyes_casino import CasinoState

from .base import BOT, HUMAN, TableApp
from .tables import dice_art

DEALER_HELP = "dealer: dice A B · amend A B · void WHY · settle · force WHY · seat B/off"


def parse_command(text: str) -> tuple[dict[str, Any], bool]:
    """A typed dealer or player command -> (action, is_dealer). ValueError names the problem."""
    words = text.split()
    if not words:
        raise ValueError("type a command: " + DEALER_HELP)
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
    raise ValueError(f"cannot read {text!r}: " + DEALER_HELP)


def _totals(rows: tuple[tuple[int, str], ...]) -> str:
    words = []
    for total, how in rows:
        if how == "hard":
            words.append(f"{total // 2}+{total // 2}")
        elif how == "easy":
            words.append(f"an easy {total}")
        else:
            words.append(f"any {total}" if total == 7 else str(total))
    return ", ".join(words)


def pays_text(area: str, option: str) -> str:
    """What an area pays under ``option``: '9:1', or '1:1; 2 pays 3:1, 12 pays 2:1' when totals
    differ (the common payout, then the exceptions: short enough for 80 columns)."""
    by_total = WAGERS[area].pays[option]
    common = Counter(by_total.values()).most_common(1)[0][0]
    rest = [f"{t} pays {n}:1" for t, n in sorted(by_total.items()) if n != common]
    return f"{common}:1" + (f"; {', '.join(rest)}" if rest else "")


def describe(area: str, option: str, edge: float) -> str:
    """One sentence a newcomer reads: when the area wins and loses, what it pays, the edge."""
    w = WAGERS[area]
    if w.single_roll:
        rule = f"one roll: wins on {_totals(w.wins)}, anything else loses"
    else:
        rule = f"wins on {_totals(w.wins)}; loses on {_totals(w.loses)}; stays up until then"
    return (
        f"{w.name}: {rule}. Pays {pays_text(area, option)}. "
        f"House edge {edge:.2%} (its average take per chip)."
    )


class CasinoApp(TableApp):
    """One table: ``seats`` are "human"/"bot"; bots bet by ``strategy``; ``live``: dealer dice."""

    CSS = (
        TableApp.CSS
        + """
    #top { height: 1fr; }
    #top { height: 16; }
    #layout { width: 1fr; min-width: 40; height: 16; }
    #side { width: 26; padding: 0 1; background: $boost; }
    #about { height: 2; padding: 0 1; color: $text-muted; }
    #keys { height: 1fr; margin-top: 1; }
    #log { height: 1fr; min-height: 2; }
    #command { display: none; border: none; height: 1; padding: 0 1; }
    .live #command { display: block; }
    """
    )
    BINDINGS = [
        *TableApp.BINDINGS,
        Binding("plus,equals_sign", "chip(1)", "+chip"),
        Binding("minus", "chip(-1)", "-chip"),
        Binding("x", "take_down", "take down", show=False),
        Binding("c", "chip_size", "chip size", show=False),
        Binding("a", "say('accept')", "accept dice", show=False),
        Binding("n", "say('decline')", "pass dice", show=False),
        Binding("r", "say('roll')", "roll", show=False),
        Binding("d", "say('done')", "done", show=False),
        Binding("g", "say('give_up')", "give up dice", show=False),
    ]
    TABLE_KEYS = (
        ("↑ ↓ / mouse", "choose a betting area on the layout"),
        ("+ or enter", "put a chip on the chosen area (clicking a chosen row does too)"),
        ("-", "take one chip back;  x  takes the whole wager down"),
        ("c", "change the chip size"),
        ("a / n", "accept the dice and shoot / pass them to the next player"),
        ("d", "done betting: let the shooter roll"),
        ("r", "roll (the shooter, with a wager on the layout)"),
        ("g", "give up the dice"),
        ("tab", "live table: to and from the dealer's line (dice A B, amend A B, void, settle)"),
        ("seat B", "typed on the dealer's line: keys act for seat B; seat off: whoever is asked"),
    )

    def __init__(
        self,
        players: int = 2,
        bots: dict[int, str] | None = None,
        live: bool = False,
        seed: int | None = 0,
        *,
        game: Game | None = None,
        seats: list[str] | None = None,
        strategy: str = "benchmark",
        bot_delay: float = 0.6,
        save_path: str | Path | None = None,
        state: CasinoState | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if state is not None:  # a resumed session: its own game, options and seed
            game, seed = state.game, state.seed
        if game is None:
            game = new_game("snake-eyes-casino", players=players, live=live, **options)
        dealt = game.new_state(seed=seed) if state is None else state
        assert isinstance(dealt, CasinoState)
        state = dealt
        self.state: CasinoState = state
        n = state.players
        if seats is None:
            seats = [BOT if s in (bots or {}) else HUMAN for s in range(n)]
        self.seat_kinds = seats
        strategies = {s: (bots or {}).get(s, strategy) for s in range(n) if seats[s] == BOT}
        self.bots = {s: CasinoBot(seed=s, strategy=k) for s, k in strategies.items()}
        self.live = bool(game.options.live)  # type: ignore[attr-defined]
        self.game_id = game.id
        self.game_title = "Snake Eyes casino" + (" · dealer" if self.live else "")
        self.seed, self.bot_delay = seed, bot_delay
        self.save_path = Path(save_path or f"gamenight-casino-seed{seed}.json")
        self.odds = {o.wager: float(o.house_edge) for o in table_odds(state.pays)}
        chip = game.options.table_min  # type: ignore[attr-defined]
        top = game.options.table_max  # type: ignore[attr-defined]
        self.chip_sizes = [c for c in (chip, chip * 5, chip * 25) if c <= top]
        self.chip = chip
        lone = seats.count(HUMAN) == 1
        self.names = [
            ("you" if lone else state.seat_name(s)) if k == HUMAN else f"{state.seat_name(s)}·bot"
            for s, k in enumerate(seats)
        ]
        self.seat: int | None = None  # typed ``seat N`` (live dealer screen): act for that seat
        self.seen = 0
        self.pending = False

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            yield DataTable(id="layout", cursor_type="row", zebra_stripes=True)
            with Vertical(id="side"):
                yield Static(id="dice")
                yield Static(id="results")
                yield Static(id="keys")
        yield Static(id="about")
        yield Input(placeholder=DEALER_HELP, id="command")
        yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        if self.live:
            self.add_class("live")
        table = self.query_one("#layout", DataTable)
        table.add_column("area", key="area", width=14)
        table.add_column("pays", key="pays", width=6)
        table.add_column("edge", key="edge", width=6)
        for s in range(self.state.players):
            table.add_column(self.state.seat_name(s), key=f"seat{s}", width=4)
        for w in WAGER_IDS:
            table.add_row(*self.row(w), key=w)
        table.focus()
        self.advance()

    def row(self, area: str) -> list[Any]:
        lit = area in self.state.view()["lit"]
        name = Text(WAGERS[area].name.split(" (")[0][:14], style="reverse bold" if lit else "")
        pays = pays_text(area, self.state.pays[area])
        if len(pays) > 6:
            pays = "see ↓"
        chips = [
            Text(str(held[area]), style="bold yellow") if area in held else Text("·", style="dim")
            for held in self.state.bets
        ]
        return [name, pays, f"{self.odds[area]:.2%}", *chips]

    @property
    def area(self) -> str:
        table = self.query_one("#layout", DataTable)
        return WAGER_IDS[min(table.cursor_row, len(WAGER_IDS) - 1)]

    # --- the game loop --------------------------------------------------------------------------
    @property
    def acting(self) -> int | None:
        """The human seat whose keys count now, or None while bots, dice or the dealer act."""
        s = self.state
        if s.is_terminal() or s.is_chance():
            return None
        if self.seat is not None:
            return self.seat
        # anyone may bet before a roll: the first human asked may act even while a bot bets
        return next((a for a in s.actors() if a not in self.bots), None)

    def advance(self) -> None:
        """Draw the dice (unless live), then wait for a human or schedule the next bot move."""
        s = self.state
        while s.is_chance() and not s.is_terminal() and not self.live:
            s.sample_chance()
        bot_first = not s.is_terminal() and not s.is_chance() and s.actors()[0] in self.bots
        if bot_first and not self.pending:
            self.pending = True
            self.schedule(self.bot_move)
        if s.is_terminal():
            self.game_ended()
        self.refresh_table()

    def bot_move(self) -> None:
        self.pending = False
        s = self.state
        if not s.is_terminal() and not s.is_chance() and s.actors()[0] in self.bots:
            seat = s.actors()[0]
            for _ in range(100):  # a bot places all its chips at once, as a player would
                s.apply(self.bots[seat].act(s, seat), seat)
                if s.is_terminal() or s.is_chance() or s.actors()[0] != seat:
                    break
        self.advance()

    def play(self, action: dict[str, Any], seat: int | None) -> bool:
        """Apply one action; a refusal is a red line in the log and changes nothing."""
        try:
            self.state.apply(action, seat)
        except GamenightError as e:
            self.say(str(e), "bold red")
            return False
        self.advance()
        return True

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#log", RichLog).write(Text(text, style=style))

    # --- keys and mouse -------------------------------------------------------------------------
    def human_seat(self) -> int | None:
        seat = self.acting
        if seat is None and not self.paused:
            s = self.state
            who = "the dealer" if s.is_chance() else self.names[s.actors()[0]] if s.actors() else ""
            self.say(f"wait: it is not your turn ({who} acts)" if who else "the session is over")
        return None if self.paused else seat

    def action_chip(self, sign: int) -> None:
        seat = self.human_seat()
        if seat is None:
            return
        area = self.area
        held = self.state.bets[seat].get(area, 0)
        if sign > 0:
            self.play({"type": "wager", "area": area, "amount": self.chip}, seat)
        elif not held:
            self.say(f"you have no chips on {WAGERS[area].name}")
        elif held - self.chip < self.state.game.options.table_min:
            self.play({"type": "remove", "area": area}, seat)
        else:
            self.play({"type": "reduce", "area": area, "amount": self.chip}, seat)

    def action_take_down(self) -> None:
        seat = self.human_seat()
        if seat is not None:
            self.play({"type": "remove", "area": self.area}, seat)

    def action_chip_size(self) -> None:
        i = self.chip_sizes.index(self.chip)
        self.chip = self.chip_sizes[(i + 1) % len(self.chip_sizes)]
        self.refresh_table()

    def action_say(self, kind: str) -> None:
        s = self.state
        # hot-seat: the shooter's and the offered player's own keys act for them
        owner = s.shooter if kind in ("roll", "give_up") else None
        if kind in ("accept", "decline") and s.phase == "offer":
            owner = s.actors()[0]
        if owner is not None and owner not in self.bots and not self.paused and self.seat is None:
            self.play({"type": kind}, owner)
            return
        seat = self.human_seat()
        if seat is not None:
            self.play({"type": kind}, seat)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter, or a click on the chosen row, bets a chip there."""
        self.action_chip(1)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_about()

    # --- typed commands (the live table's dealer) -----------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":  # the save dialog's path is not a dealer command
            return
        event.input.value = ""
        self.run_command(event.value)
        self.query_one("#layout", DataTable).focus()  # keys bet again; tab comes back here

    def run_command(self, text: str) -> None:
        """Apply a typed command for the dealer or the seat at hand; errors go to the log."""
        words = text.split()
        if words and words[0].lower() == "seat":
            self.choose_seat(words[1:])
            return
        try:
            action, dealer = parse_command(text)
            s = self.state
            seat = None if dealer else (self.seat if self.seat is not None else s.actors()[0])
        except (ValueError, IndexError) as e:
            self.say(str(e), "bold red")
            return
        if dealer and action["type"] != "force_give_up" and not (s.is_chance() or s.is_terminal()):
            # the engine's "a chance move (seat None) was given" meant nothing to a dealer
            who = ", ".join(self.names[a] for a in s.actors())
            self.say(f"not yet: the dice are entered once the shooter rolls ({who} to act first)",
                     "bold red")  # fmt: skip
            return
        self.play(action, seat)

    def choose_seat(self, args: list[str]) -> None:
        """``seat B`` or ``seat 1``: keys act for that seat; ``seat off``: for whoever is asked."""
        n = self.state.players
        names = [self.state.seat_name(s) for s in range(n)]
        word = args[0] if len(args) == 1 else ""
        if word.lower() == "off":
            self.seat = None
            self.say("keys act for whoever is asked")
        elif word.upper() in names or (word.isdigit() and int(word) < n):
            self.seat = names.index(word.upper()) if word.upper() in names else int(word)
            self.say(f"now acting for seat {names[self.seat]} (seat off: whoever is asked)")
        else:  # "seat 9" at a 3-seat table was an IndexError that closed the table
            self.say(f"no seat {' '.join(args)!r}: seat {names[0]}-{names[-1]} or seat off",
                     "bold red")  # fmt: skip
            return
        self.refresh_table()

    # --- drawing --------------------------------------------------------------------------------
    def show_about(self) -> None:
        area = self.area
        self.query_one("#about", Static).update(
            Text(describe(area, self.state.pays[area], self.odds[area]))
        )

    def refresh_table(self) -> None:
        s, v = self.state, self.state.view()
        table = self.query_one("#layout", DataTable)
        for w in WAGER_IDS:
            for col, cell in zip(("area", "pays", "edge"), self.row(w)[:3], strict=True):
                table.update_cell(w, col, cell)
            for seat, cell in enumerate(self.row(w)[3:]):
                table.update_cell(w, f"seat{seat}", cell)
        self.query_one("#dice", Static).update(self.dice_picture(v))
        self.query_one("#results", Static).update(self.seats_picture(v))
        self.query_one("#keys", Static).update(self.keys_line())
        self.show_about()
        log = self.query_one("#log", RichLog)
        for line in s.events(self.seen):
            log.write(Text(line))
        self.seen = s.event_count

    def dice_picture(self, v: dict[str, Any]) -> Group:
        faces = v["entered"] or (self.last_faces() if v["results"] else None)
        head = Text()
        if faces:
            a, b = faces
            head.append(f"thrown {a + b}", style="bold")
            head.append("  hard" if a == b and a + b in (4, 6, 8, 10) else "", style="magenta")
            if a + b == 7:
                head.append("  seven", style="bold red")
        else:
            head.append("no throw yet", style="dim")
        recent = " ".join(str(t) for t in v["results"][-8:])
        return Group(dice_art(list(faces) if faces else None), head,
                     Text(f"last: {recent or '-'}", style="dim"))  # fmt: skip

    def last_faces(self) -> tuple[int, int] | None:
        """The faces of the last settled throw, read from the record's last dice move."""
        for _, action in reversed(self.state.moves):
            if action.get("type") in ("dice", "amend") and "faces" in action:
                a, b = action["faces"]
                return a, b
        return None

    def seats_picture(self, v: dict[str, Any]) -> Text:
        s = self.state
        t = Text()
        for seat, bank in enumerate(v["bankrolls"]):
            on = sum(s.bets[seat].values())
            mark = "▶" if seat == v["shooter"] or seat == v["offered_to"] else " "
            t.append(f"{mark}{self.names[seat]:<6}{bank:>6}", style="bold" if mark != " " else "")
            t.append(f" +{on}\n" if on else "\n", style="yellow")
        t.append(f"rolls {v['rolls']}/{s.game.options.max_rolls}", style="dim")
        if v["pending_wins"]:
            t.append(f"\nto pay: {v['pending_wins']}", style="green")
        return t

    def keys_line(self) -> Text:
        s = self.state
        if s.is_terminal():
            return Text("Session over.\nn new game  q quit  s save", style="bold green")
        seat = self.acting
        if s.is_chance():
            if self.live:
                return Text("dealer: tab, then type\ndice A B, then settle", style="bold")
            return Text("the dice are rolling …", style="dim")
        if seat is None:
            return Text(f"{self.names[s.actors()[0]]} is playing …\n? help", style="dim")
        legal = {a["type"] for a in s.legal_actions(seat)}
        t = Text(f"{self.names[seat]}: ", style="bold")
        if seat == s.shooter:
            t.append("the shooter\n", style="bold yellow")
        elif s.phase == "offer" and seat == s.actors()[0]:  # not "offered" to a typed seat
            t.append("dice offered\n", style="bold yellow")
        elif s.shooter is not None:  # hot seat: ▶ alone did not say who shoots while B bets
            t.append(f"bet ({self.names[s.shooter]} shoots)\n")
        else:
            t.append("bet\n")
        for key, action, word in (
            ("+", "chip(1)", f"bet {self.chip}"),
            ("-", "chip(-1)", "back"),
            ("x", "take_down", "down\n"),
            ("c", "chip_size", "chip size\n"),
        ):
            t.append(key, style=Style(bold=True, color="cyan", meta={"@click": f"app.{action}"}))
            t.append(f" {word}" + ("  " if not word.endswith("\n") else ""),
                     style=Style(meta={"@click": f"app.{action}"}))  # fmt: skip
        for key, kind, word in (("a", "accept", "accept dice"), ("n", "decline", "pass dice"),
                                ("r", "roll", "roll"), ("d", "done", "done betting"),
                                ("g", "give_up", "give up dice")):  # fmt: skip
            if kind in legal:
                click = Style(meta={"@click": f"app.say('{kind}')"})  # the mouse works too
                t.append(key, style=Style(bold=True, color="cyan") + click)
                t.append(f" {word}", style=click)
                t.append("  ")
        return t
