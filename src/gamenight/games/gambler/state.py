"""Gambler's rules as one state machine: phases of decisions, with every throw and draw as chance.

Chance moves: ``dice`` (two dice: throws for first player, moves, the second roll after doubles),
``die`` (one die: each of the six Shaker dice in turn, or the Horse Race die), ``ticket`` (the top
lottery ticket), ``horse`` (a Horse Race card dealt), ``fortune`` (the top Fortune card while some
cards have not been seen yet; once every card has gone to the bottom the deck order is known).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from pydantic import Field

from gamenight.engine import BadOption, Game, IllegalAction, Options, State, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.draw import Law, uniform_index
from gamenight.engine.errors import MalformedAction, NotYourTurn
from gamenight.engine.ledger import Ledger
from gamenight.engine.schema import Int, IntList, Str

from . import odds
from .data import BadGameData, Board, FortuneDeck, GamblerData, Horses, Tickets, builtin_data

START_CASH = 100  # one $50, two $20, one $10 (denominations are display only)
TARGET = 1000
TICKET_PRICE, MAX_TICKETS, LOTTERY_PRIZE = 10, 3, 50
SWEEP_FEE, RACE_FEE, RACE_PRIZE = 10, 20, 80
DOUBLES_PRIZE, START_PAY = 500, 100
IOU_LOAN, IOU_INTEREST = 200, 20
REPAY = IOU_LOAN + IOU_INTEREST
BANK = "bank"
DIE = [({"type": "die", "face": f}, Fraction(1, 6)) for f in range(1, 7)]
TWO_DICE_LAW, DIE_LAW = Law(dice_outcomes(2)), Law(DIE)


class GamblerOptions(Options):
    players: int = Field(default=4, description="2 to 4 players")
    first_player: int | None = Field(
        default=None, ge=0, le=3, description="none: throw for high roll"
    )
    auto_claim_start: bool = Field(default=False, description="claim the $100 at Start at once")
    max_turns: int = Field(
        default=1000, ge=10, le=100_000, description="safety cap on turns (truncated)"
    )
    # Custom game data travels inside the options (and so inside records), never as a path:
    # a record must not make the engine read a file. ``data_options`` reads files for a table.
    board: Board | None = Field(default=None, strict=False, description="the track (board.toml)")
    fortune: FortuneDeck | None = Field(default=None, strict=False, description="Fortune cards")
    tickets: Tickets | None = Field(default=None, strict=False, description="lottery tickets")
    horses: Horses | None = Field(default=None, strict=False, description="Horse Race cards")


@register_game
class Gambler(Game):
    id = "gambler"
    title = "Gambler"
    Options = GamblerOptions
    min_players = 2
    max_players = 4

    options: GamblerOptions

    def validate(self) -> None:
        o = self.options
        if o.first_player is not None and not 0 <= o.first_player < self.players:
            raise BadOption(self.id, "first_player", f"no seat {o.first_player}")
        built_in = builtin_data()
        self.data = GamblerData(
            o.board or built_in.board,
            o.fortune or built_in.fortune,
            o.tickets or built_in.tickets,
            o.horses or built_in.horses,
        )
        kinds = {s.kind for s in self.data.board.space}
        for i, card in enumerate(self.data.fortune.card):
            if card.to is not None and card.to not in kinds:
                raise BadGameData(
                    "option fortune" if o.fortune else "<built-in fortune.toml>",
                    f"card {i + 1}",
                    f"goes to a {card.to!r} space, but the board has none",
                )
        if len(self.data.tickets.tickets) < MAX_TICKETS * self.players:
            raise BadGameData(
                "option tickets" if o.tickets else "<built-in tickets.toml>",
                "tickets",
                f"{self.players} players need {MAX_TICKETS * self.players}",
            )
        if len(self.data.horses.horses) < self.players:
            raise BadGameData(
                "option horses" if o.horses else "<built-in horses.toml>",
                "horses",
                f"{self.players} players need one card each",
            )

    def new_state(self, seed: int | None = None) -> GamblerState:
        return GamblerState(self, seed)


_FACES = IntList(2, 2, 1, 6)


class GamblerState(State):
    game: Gambler

    VIEW_BY_SEAT = False  # tickets are bought face up: nothing is hidden
    ACTIONS = {
        "buy_ticket": {},
        "roll": {},
        "roll_again": {},
        "sweepstakes": {},
        "marker": {"space": Str(max_len=40)},
        "claim_start": {},
        "end_turn": {},
        "take_iou": {},
        "repay_iou": {},
    }
    CHANCE_ACTIONS = {
        "dice": {"faces": _FACES},
        "die": {"face": Int(1, 6)},
        "ticket": {"ticket": IntList(2, 2, 1, 6)},
        "horse": {"horse": Int(1, 6)},
        "fortune": {"card": Int(0, 10_000)},
    }

    def __init__(self, game: Gambler, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n = game.players
        self.space = game.data.board.space
        self.cards = game.data.fortune.card
        self.purse = [f"seat{i}" for i in range(n)]
        self.ledger = Ledger({**{p: 0 for p in self.purse}, BANK: 0}, may_go_negative=[BANK])
        for p in self.purse:
            self.ledger.transfer(BANK, p, START_CASH)
        self.position = [0] * n
        self.iou = [False] * n
        self.out = [False] * n
        self.tickets: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.ticket_deck: list[tuple[int, int]] = [(a, b) for a, b in game.data.tickets.tickets]
        self.fortune_unseen = list(range(len(self.cards)))  # on top, order not yet drawn
        self.fortune_known: list[int] = []  # returned to the bottom, in order
        self.current = 0
        self.phase = "order"  # order turn doubles marker claim over
        self.chance: str | None = None  # what the pending chance move is for
        self.may_buy = False
        self.start_due = 0  # passes of Start this turn whose $100 is not yet claimed
        self.contenders = list(range(n))
        self.order_throws: dict[int, int] = {}
        self.markers: dict[str, int] = {}
        self.marker_queue: list[int] = []
        self.shaker: list[int] = []
        self.shaker_for = ""
        self.event_seat = 0  # who called the Sweepstakes / Lottery / Horse Race
        self.horse_queue: list[int] = []
        self.horse_cards: dict[int, int] = {}
        self.last_roll: list[int] | None = None
        self.last_card: str | None = None
        self._winner: int | None = None
        self.turns = 0
        self.ious_taken = 0
        self.by_limit = False
        self.counts = Counter[str]()
        if game.options.first_player is not None:
            self._begin_turn(game.options.first_player)
        else:
            self.chance = "order"

    # --- protocol -------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.phase != "over" and self.chance is not None

    def _to_move(self) -> int | None:
        """The seat the game waits for: the player on turn, or the next to place a marker."""
        if self.phase == "over" or self.chance is not None:
            return None
        return self.marker_queue[0] if self.phase == "marker" else self.current

    def _may_borrow_or_repay(self, seat: int) -> bool:
        """IOUs are taken "at any time" and repaid "at any time" by any player still in."""
        if self.out[seat]:
            return False
        return not self.iou[seat] or self.ledger[self.purse[seat]] >= IOU_LOAN + IOU_INTEREST

    def actors(self) -> list[int]:
        """The seat the game waits for first, then every other seat that may take or repay an
        IOU now (also while dice roll or cards are drawn): a turn-by-turn driver asks the first.
        """
        phase = self.phase
        if phase == "over":
            return []
        seats: list[int] = []
        first = None
        if self.chance is None:  # _to_move(), inline: this runs before every move
            first = self.marker_queue[0] if phase == "marker" else self.current
            seats.append(first)
        out, iou, cash, purse = self.out, self.iou, self.ledger.balances, self.purse
        for s in range(self.players):  # _may_borrow_or_repay(s), inline
            if s != first and not out[s] and (not iou[s] or cash[purse[s]] >= REPAY):
                seats.append(s)
        return seats

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.phase == "over" or self.out[seat]:
            return []
        iou = self._iou_actions(seat)
        if seat != self._to_move():
            return iou
        acts: list[dict[str, Any]] = []
        if self.phase == "turn":
            if self._ticket_problem(seat) is None:
                acts.append({"type": "buy_ticket"})
            acts.append({"type": "roll"})
        elif self.phase == "doubles":
            acts += [{"type": "roll_again"}, {"type": "sweepstakes"}]
        elif self.phase == "marker":
            acts += [{"type": "marker", "space": s} for s in odds.SPACES if s not in self.markers]
        elif self.phase == "claim":
            acts += [{"type": "claim_start"}, {"type": "end_turn"}]
        if self.start_due and self.phase != "claim" and seat == self.current:
            acts.append({"type": "claim_start"})
        return acts + iou

    def _iou_actions(self, seat: int) -> list[dict[str, Any]]:
        if not self._may_borrow_or_repay(seat):
            return []
        return [{"type": "repay_iou" if self.iou[seat] else "take_iou"}]

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        return [1.0 if s == self._winner else 0.0 for s in range(self.players)]

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        kind = self.chance
        if kind in ("order", "move", "again"):
            return dice_outcomes(2)
        if kind in ("shaker", "race_die"):
            return list(DIE)
        if kind == "ticket":
            c = Counter(self.ticket_deck)
            return [
                ({"type": "ticket", "ticket": list(t)}, Fraction(k, len(self.ticket_deck)))
                for t, k in sorted(c.items())
            ]
        if kind == "horse":
            left = self._horses_left()
            return [({"type": "horse", "horse": h}, Fraction(1, len(left))) for h in left]
        if kind == "fortune":
            u = self.fortune_unseen
            return [({"type": "fortune", "card": i}, Fraction(1, len(u))) for i in u]
        raise IllegalAction("no chance move is pending")

    def _sample_chance(self, rng: Uniforms) -> dict[str, Any]:
        """What the generic walk over ``_chance_outcomes`` draws, without walking: dice from
        laws walked once, cards by their index among equally likely ones."""
        kind, u = self.chance, rng.random()
        if kind == "shaker" or kind == "race_die":
            return DIE_LAW.draw(u)
        if kind == "move" or kind == "again" or kind == "order":
            return TWO_DICE_LAW.draw(u)
        if kind == "ticket":  # each ticket in the deck alike, copies side by side in order
            deck = sorted(self.ticket_deck)
            return {"type": "ticket", "ticket": list(deck[uniform_index(u, len(deck))])}
        if kind == "horse":
            left = self._horses_left()
            return {"type": "horse", "horse": left[uniform_index(u, len(left))]}
        if kind == "fortune":
            unseen = self.fortune_unseen
            return {"type": "fortune", "card": unseen[uniform_index(u, len(unseen))]}
        raise IllegalAction("no chance move is pending")

    # --- checks ---------------------------------------------------------------------------------
    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            self._check_chance(action)
            return
        kind = action["type"]
        if self.out[seat]:
            raise NotYourTurn(f"{self.seat_name(seat)} is out of the game")
        iou_move = kind == "take_iou" or kind == "repay_iou"
        if not iou_move:  # IOUs: at any time (rulebook)
            if self.chance is not None:
                raise NotYourTurn("a chance move (dice or a card) comes next, not a player's")
            if seat != self._to_move():
                raise NotYourTurn(f"seat {seat} may not act now; {self.actors()} may")
        cash = self.ledger[self.purse[seat]]
        if kind == "buy_ticket":
            problem = self._ticket_problem(seat)
            if problem:
                raise IllegalAction(problem)
        elif kind == "take_iou" and self.iou[seat]:
            raise IllegalAction("you already hold an IOU: only one at a time")
        elif kind == "repay_iou":
            if not self.iou[seat]:
                raise IllegalAction("you hold no IOU to repay")
            if cash < IOU_LOAN + IOU_INTEREST:
                raise IllegalAction(f"repaying needs ${IOU_LOAN + IOU_INTEREST}; you have ${cash}")
        elif kind == "marker":
            space = action.get("space")
            if space not in odds.SPACES:
                raise MalformedAction(f"no Sweepstakes space {space!r}; spaces: {odds.SPACES}")
            if self.phase != "marker":
                raise IllegalAction("markers are placed only during a Sweepstakes")
            if space in self.markers:
                raise IllegalAction(
                    f"{space} already holds {self.seat_name(self.markers[space])}'s"
                    " marker: one marker per space"
                )
        elif kind == "claim_start" and not self.start_due:
            raise IllegalAction("no $100 from Start is waiting to be claimed")
        elif kind not in (
            "roll",
            "roll_again",
            "sweepstakes",
            "end_turn",
            "take_iou",
            "claim_start",
        ):
            raise MalformedAction(f"unknown Gambler action {kind!r}")
        # Past the checks above an IOU move is always legal, and a roll is whenever the phase
        # is "turn"; anything else is looked up among the legal actions.
        if iou_move:
            return
        legal = self.phase == "turn" if kind == "roll" else action in self._legal_actions(seat)
        if not legal:
            raise IllegalAction(f"{action} is not allowed in the {self.phase!r} phase")

    def _ticket_problem(self, seat: int) -> str | None:
        if self.phase != "turn" or not self.may_buy or seat != self.current:
            return "lottery tickets may be bought only at the start of your own turn"
        if len(self.tickets[seat]) >= MAX_TICKETS:
            return f"you already hold {MAX_TICKETS} tickets, the most allowed"
        if self.ledger[self.purse[seat]] < TICKET_PRICE:
            return f"a ticket costs ${TICKET_PRICE}; you have ${self.ledger[self.purse[seat]]}"
        if not self.ticket_deck:
            return "no lottery tickets are left to buy"
        return None

    def _check_chance(self, action: dict[str, Any]) -> None:
        kind, want = action["type"], self.chance
        if want in ("order", "move", "again"):
            if kind != "dice":
                raise MalformedAction(f"a throw of two dice is due, not {kind!r}")
            check_faces(action, 2)
        elif want in ("shaker", "race_die"):
            f = action.get("face")
            if kind != "die" or type(f) is not int or not 1 <= f <= 6:
                raise MalformedAction(
                    f"one die {{'type': 'die', 'face': 1..6}} is due; got {action}"
                )
        elif action not in [a for a, _ in self._chance_outcomes()]:
            raise MalformedAction(f"a {want!r} draw is due; {action} is not one of them")

    # --- moves ----------------------------------------------------------------------------------
    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            self._do_chance(action)
        else:
            self._do_player(action, seat)
        if self.phase != "over":
            self._check_end()
        on_turn = self.chance is None and self.phase in ("turn", "doubles", "claim")
        if self.out[self.current] and on_turn:  # went out on their own turn: play passes on
            self.start_due = 0
            self._next_turn()

    def _do_player(self, action: dict[str, Any], seat: int) -> None:
        kind, name = action["type"], self.seat_name(seat)
        if kind == "take_iou":
            self.iou[seat] = True
            self.ious_taken += 1
            self.ledger.transfer(BANK, self.purse[seat], IOU_LOAN)
            self.log("{} takes out an IOU and gets ${}", name, IOU_LOAN)
        elif kind == "repay_iou":
            self.iou[seat] = False
            self.ledger.transfer(self.purse[seat], BANK, IOU_LOAN + IOU_INTEREST)
            self.log("{} repays the IOU: ${} with ${} interest", name, IOU_LOAN, IOU_INTEREST)
        elif kind == "claim_start":
            owed, self.start_due = START_PAY * self.start_due, 0
            self.ledger.transfer(BANK, self.purse[seat], owed)
            self.log("{} claims ${} for Start", name, owed)
            if self.phase == "claim":
                self._next_turn()
        elif kind == "end_turn":
            if self.start_due:
                owed = START_PAY * self.start_due
                self.log("{} did not claim the ${} from Start: it is lost", name, owed)
            self.start_due = 0
            self._next_turn()
        elif kind == "buy_ticket":
            self.ledger.transfer(self.purse[seat], BANK, TICKET_PRICE)
            self.chance = "ticket"
        elif kind == "roll":
            self.may_buy = False
            self.chance = "move"
        elif kind == "roll_again":
            self.chance = "again"
        elif kind == "sweepstakes":
            self.log("{} holds a Sweepstakes", name)
            self._sweepstakes(seat)
        elif kind == "marker":
            self.markers[action["space"]] = seat
            self.marker_queue.pop(0)
            self.log("{} puts a marker on {}", name, action["space"])
            if not self.marker_queue:
                self._shake("sweepstakes")
        if kind != "buy_ticket":  # a bought ticket is in hand once drawn; checked then
            self._knock_out(seat)

    def _do_chance(self, action: dict[str, Any]) -> None:
        kind, self.chance = self.chance, None
        cur = self.current
        if kind == "order":
            self._order_throw(sum(action["faces"]))
        elif kind == "move":
            a, b = action["faces"]
            self.last_roll = [a, b]
            self.log("{} rolls {}-{}", self.seat_name(cur), a, b)
            if a == b:
                self.phase = "doubles"
            else:
                self._move(a + b)
        elif kind == "again":
            a, b = action["faces"]
            self.last_roll = [a, b]
            if a == b:
                self.ledger.transfer(BANK, self.purse[cur], DOUBLES_PRIZE)
                self.log(
                    "{} rolls {}-{}: doubles again! The bank pays ${}",
                    self.seat_name(cur),
                    a,
                    b,
                    DOUBLES_PRIZE,
                )
            else:
                self.log("{} rolls {}-{}: no second doubles", self.seat_name(cur), a, b)
            self._end_turn()
        elif kind == "ticket":
            t = (action["ticket"][0], action["ticket"][1])
            self.ticket_deck.remove(t)
            self.tickets[cur].append(t)
            self.log("{} buys lottery ticket {}-{}", self.seat_name(cur), *t)
            self._knock_out(cur)
        elif kind == "fortune":
            self.fortune_unseen.remove(action["card"])
            self._fortune(action["card"])
        elif kind == "horse":
            self.horse_cards[self.horse_queue.pop(0)] = action["horse"]
            self.chance = "horse" if self.horse_queue else "race_die"
        elif kind == "race_die":
            self._settle_race(action["face"])
        elif kind == "shaker":
            self.shaker.append(action["face"])
            if len(self.shaker) < 6:
                self.chance = "shaker"
            elif self.shaker_for == "lottery":
                self._settle_lottery()
            else:
                self._settle_sweepstakes()

    # --- turn flow ------------------------------------------------------------------------------
    def _order_throw(self, total: int) -> None:
        seat = self.contenders[len(self.order_throws)]
        self.order_throws[seat] = total
        self.log("{} throws {} for first player", self.seat_name(seat), total)
        if len(self.order_throws) < len(self.contenders):
            self.chance = "order"
            return
        best = max(self.order_throws.values())
        self.contenders = [s for s, t in self.order_throws.items() if t == best]
        self.order_throws = {}
        if len(self.contenders) == 1:
            self._begin_turn(self.contenders[0])
        else:
            self.log("tie at {}: they throw again", best)
            self.chance = "order"

    def _begin_turn(self, seat: int) -> None:
        self.turns += 1
        self.current, self.phase, self.may_buy, self.last_roll = seat, "turn", True, None
        self.log("{}'s turn", self.seat_name(seat))

    def _end_turn(self) -> None:
        """The turn is over; an unclaimed Start payment waits for a claim before the next roll."""
        if self.start_due and not self.out[self.current]:
            self.phase = "claim"
        else:
            self.start_due = 0
            self._next_turn()

    def _next_turn(self) -> None:
        if self.phase == "over":
            return
        if self.turns >= self.game.options.max_turns:
            self.by_limit = self.truncated = True
            self._finish(max(self._alive(), key=self._net_worth))
            return
        seat = self.current
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if not self.out[seat]:
                break
        self._begin_turn(seat)

    def _move(self, steps: int) -> None:
        cur, n = self.current, len(self.space)
        new = self.position[cur] + steps
        if new >= n:
            self._pass_start(cur)
        self.position[cur] = new % n
        self._land()

    def _pass_start(self, seat: int) -> None:
        if self.game.options.auto_claim_start:
            self.ledger.transfer(BANK, self.purse[seat], START_PAY)
            self.log("{} reaches Start and collects ${}", self.seat_name(seat), START_PAY)
        else:
            self.start_due += 1  # "each time" a player passes Start (a Fortune card may add one)
            self.log(
                "{} reaches Start: ${} may be claimed before the next roll",
                self.seat_name(seat),
                START_PAY,
            )

    def _land(self) -> None:
        cur, name = self.current, self.seat_name(self.current)
        sp = self.space[self.position[cur]]
        self.log("{} lands on {}", name, sp.name)
        if sp.kind == "collect":
            self.ledger.transfer(BANK, self.purse[cur], sp.amount or 0)
            self.log("{} collects ${}", name, sp.amount)
        elif sp.kind == "pay":
            self._charge(cur, sp.amount or 0, sp.name)
        elif sp.kind == "fortune":
            self._draw_fortune()
            return
        elif sp.kind == "sweepstakes":
            self._sweepstakes(cur)
            return
        elif sp.kind == "lottery":
            self._lottery()
            return
        elif sp.kind in ("races", "daily_double"):
            self._horse_race()
            return
        self._end_turn()

    # --- money ----------------------------------------------------------------------------------
    def _charge(self, seat: int, amount: int, why: str, to: str = BANK) -> None:
        """A payment the rules force: an IOU is taken if needed; a holder who runs dry is out."""
        purse = self.purse[seat]
        if self.ledger[purse] < amount and not self.iou[seat]:
            self.iou[seat] = True
            self.ious_taken += 1
            self.ledger.transfer(BANK, purse, IOU_LOAN)
            self.log("{} must take out an IOU to pay", self.seat_name(seat))
        paid = self.ledger.pay_what_you_can(purse, to, amount)
        self.log("{} pays ${} ({})", self.seat_name(seat), paid, why)
        self._knock_out(seat)

    def _knock_out(self, seat: int) -> None:
        """An IOU holder whose cash reaches $0 has lost all the borrowed money: out."""
        if self.iou[seat] and not self.out[seat] and self.ledger[self.purse[seat]] == 0:
            self.out[seat] = True
            self.ticket_deck += self.tickets[seat]
            self.tickets[seat] = []
            self.marker_queue = [s for s in self.marker_queue if s != seat]
            self.log("{} has lost all the borrowed money and is out", self.seat_name(seat))

    def _alive(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    def _net_worth(self, seat: int) -> int:
        return self.ledger[self.purse[seat]] - (IOU_LOAN + IOU_INTEREST) * self.iou[seat]

    def _from_caller(self, caller: int) -> list[int]:
        return [
            (caller + k) % self.players
            for k in range(self.players)
            if not self.out[(caller + k) % self.players]
        ]

    def _check_end(self) -> None:
        out, iou, cash, purse = self.out, self.iou, self.ledger.balances, self.purse
        rich = [
            s for s in range(self.players) if not out[s] and not iou[s] and cash[purse[s]] >= TARGET
        ]
        if rich:
            order = self._from_caller(self.current)
            self._finish(max(rich, key=lambda s: (self.ledger[self.purse[s]], -order.index(s))))
        elif out.count(False) == 1:
            self._finish(out.index(False))

    def _finish(self, seat: int) -> None:
        self._winner, self.phase, self.chance = seat, "over", None
        why = "after the turn limit, richest" if self.by_limit else "wins"
        self.log("{} {} with ${}", self.seat_name(seat), why, self.ledger[self.purse[seat]])

    # --- events ---------------------------------------------------------------------------------
    def _shake(self, purpose: str) -> None:
        self.shaker, self.shaker_for, self.chance = [], purpose, "shaker"

    def _sweepstakes(self, caller: int) -> None:
        self.counts["sweepstakes"] += 1
        self.event_seat, self.markers = caller, {}
        players = self._from_caller(caller)
        for s in players:
            self._charge(s, SWEEP_FEE, "Sweepstakes entry")
        self.marker_queue = [s for s in players if not self.out[s]]
        self.phase = "marker"
        if not self.marker_queue:
            self._shake("sweepstakes")

    def _settle_sweepstakes(self) -> None:
        dice = self.shaker
        self.log("the Shaker shows {}", "-".join(map(str, dice)))
        for space, seat in sorted(self.markers.items(), key=lambda kv: odds.SPACES.index(kv[0])):
            if odds.wins(space, dice):
                self.ledger.transfer(BANK, self.purse[seat], odds.prize(space))
                self.log("{} wins ${} on {}", self.seat_name(seat), odds.prize(space), space)
        self.markers = {}
        self._end_turn()

    def _lottery(self) -> None:
        if not any(self.tickets):
            self.log("nobody holds a lottery ticket: no Lottery")
            self._end_turn()
            return
        self.counts["lotteries"] += 1
        self._shake("lottery")

    def _settle_lottery(self) -> None:
        dice = self.shaker
        self.log("Lottery: the Shaker shows {}", "-".join(map(str, dice)))
        for seat in range(self.players):
            for a, b in self.tickets[seat]:
                if a in dice and b in dice:
                    self.ledger.transfer(BANK, self.purse[seat], LOTTERY_PRIZE)
                    self.log(
                        "{}'s ticket {}-{} wins ${}", self.seat_name(seat), a, b, LOTTERY_PRIZE
                    )
            self.ticket_deck += self.tickets[seat]
            self.tickets[seat] = []
        self.log("all tickets go back and are reshuffled")
        self._end_turn()

    def _horse_race(self) -> None:
        self.counts["horse_races"] += 1
        self.event_seat = self.current
        for s in self._from_caller(self.current):
            self._charge(s, RACE_FEE, "Horse Race entry")
        self.horse_queue, self.horse_cards = self._from_caller(self.current), {}
        self.chance = "horse" if self.horse_queue else "race_die"

    def _horses_left(self) -> list[int]:
        dealt = set(self.horse_cards.values())
        return [h for h in self.game.data.horses.horses if h not in dealt]

    def _settle_race(self, face: int) -> None:
        self.log("the horse die shows {}", face)
        for seat, horse in self.horse_cards.items():
            if horse == face:
                self.ledger.transfer(BANK, self.purse[seat], RACE_PRIZE)
                self.log("{} holds horse {} and wins ${}", self.seat_name(seat), face, RACE_PRIZE)
                break
        else:
            self.log("nobody holds horse {}: the bank keeps the fees", face)
        self.horse_cards = {}
        self._end_turn()

    def _draw_fortune(self) -> None:
        if self.fortune_unseen:
            self.chance = "fortune"
        else:
            self._fortune(self.fortune_known.pop(0))

    def _fortune(self, index: int) -> None:
        card, cur = self.cards[index], self.current
        self.fortune_known.append(index)  # back to the bottom of the deck
        self.last_card = card.text
        self.log('{} reads a Fortune card: "{}"', self.seat_name(cur), card.text)
        amount = card.amount or 0
        others = [s for s in self._alive() if s != cur]
        if card.effect == "collect":
            self.ledger.transfer(BANK, self.purse[cur], amount)
        elif card.effect == "pay":
            self._charge(cur, amount, "Fortune")
        elif card.effect == "collect_from_each":
            for s in others:
                self._charge(s, amount, "Fortune", to=self.purse[cur])
        elif card.effect == "pay_each":
            for s in others:
                self._charge(cur, amount, "Fortune", to=self.purse[s])
        elif card.effect == "advance":
            self._move(amount)
            return
        elif card.effect == "go_to":
            n, pos = len(self.space), self.position[cur]
            steps = next(k for k in range(1, n + 1) if self.space[(pos + k) % n].kind == card.to)
            self._move(steps)
            return
        elif card.effect == "sweepstakes":
            self._sweepstakes(cur)
            return
        elif card.effect == "lottery":
            self._lottery()
            return
        elif card.effect == "horse_race":
            self._horse_race()
            return
        if self.out[cur]:
            self._next_turn()
        else:
            self._end_turn()

    # --- views ----------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """Gambler hides nothing that matters: tickets are bought face up, so all is shown."""
        v: dict[str, Any] = {
            "game": self.game.id,
            "phase": self.phase,
            "chance": self.chance,
            "current": self.current,
            "turn": self.turns,
            "winner": self._winner,
            "truncated": self.truncated,
            "bank": self.ledger[BANK],
            "last_roll": list(self.last_roll) if self.last_roll else None,
            "last_card": self.last_card,
            "start_due": self.start_due > 0,
            "start_owed": START_PAY * self.start_due,
            "board": [{"name": s.name, "kind": s.kind, "amount": s.amount} for s in self.space],
            "markers": dict(self.markers),
            "marker_queue": list(self.marker_queue),
            "shaker": list(self.shaker),
            "shaker_for": self.shaker_for,
            "horse_cards": {str(s): h for s, h in self.horse_cards.items()},
            "tickets_left": len(self.ticket_deck),
            "players": [
                {
                    "cash": self.ledger[self.purse[s]],
                    "position": self.position[s],
                    "iou": self.iou[s],
                    "tickets": [list(t) for t in self.tickets[s]],
                    "out": self.out[s],
                }
                for s in range(self.players)
            ],
        }
        if self.phase == "marker" and self.chance is None:
            v["odds"] = {
                sp: {"p": str(o["p"]), "prize": o["prize"], "expected": str(o["expected"])}
                for sp, o in odds.space_odds(set(self.markers)).items()
            }
        return v

    def stats(self) -> dict[str, float]:
        return {
            "turns": self.turns,
            "ious_taken": self.ious_taken,
            "players_out": sum(self.out),
            "sweepstakes": self.counts["sweepstakes"],
            "lotteries": self.counts["lotteries"],
            "horse_races": self.counts["horse_races"],
            "turn_limit": float(self.by_limit),
        }
