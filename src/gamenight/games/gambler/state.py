"""Gambler's game and state: options, legal actions, checks, moves and views (the protocol).

The state machine is built in layers below this one: the table's fields and amounts
(``table``), money and IOUs (``money``), turn flow (``turns``), and the spaces with their
Sweepstakes, Lottery and Horse Races (``spaces``); this module ties them to the protocol.

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

from gamenight.engine import BadOption, Game, IllegalAction, Options, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.draw import uniform_index
from gamenight.engine.errors import MalformedAction, NotYourTurn
from gamenight.engine.schema import Int, IntList, Str

from . import odds
from .data import BadGameData, Board, FortuneDeck, GamblerData, Horses, Tickets, builtin_data
from .spaces import GamblerSpaces
from .table import (
    BANK,
    DIE,
    DIE_LAW,
    DOUBLES_PRIZE,
    IOU_INTEREST,
    IOU_LOAN,
    MAX_TICKETS,
    REPAY,
    START_PAY,
    TICKET_PRICE,
    TWO_DICE_LAW,
)


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


class GamblerState(GamblerSpaces):
    """Gambler as phases of decisions, with every throw and draw as chance."""

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
