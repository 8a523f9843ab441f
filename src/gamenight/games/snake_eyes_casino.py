"""Snake Eyes, the casino table game (Division 11A): twelve wagers, a shooter, a dealer.

The dealer's side of the table is the chance seat (seat None). Dice the engine draws settle at
once: a random draw cannot be entered wrongly. At a live table (option ``live``) the dealer types
in the dice read off the physical table; entering and settling are then separate moves, so the
winning areas can be lit (rule 3.4(c)) and a wrong entry amended (rule 6.8) or the roll called
void before any chip moves.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator, model_validator

from gamenight.engine import Game, IllegalAction, Options, State, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.errors import GamenightError, MalformedAction, NotYourTurn, describe
from gamenight.engine.ledger import Ledger
from gamenight.engine.schema import Int, IntList, Str, optional

from .casino_wagers import (
    LOSE,
    MULTI_ROLL,
    SETTLEMENT,
    STAY,
    WAGER_IDS,
    WAGERS,
    default_payouts,
)

RESULTS_SHOWN = 20  # the game results display of rule 3.4(b)
MAX_CHIPS = 10**9  # bound of bankrolls, limits and wagers: a record cannot ask for more
MAX_ROLLS = 10**7  # bound of a session's length


# One shared, read-only action per roll for the engine's draws: a long session's history then
# holds 36 dice actions, not one new dict and list per roll for the cycle collector to walk.
_DRAWS = tuple({"type": "dice", "faces": [a, b]} for a in range(1, 7) for b in range(1, 7))


def _index(a: int, b: int) -> int:
    """The roll's row in the settlement table: (a, b) -> (a - 1) * 6 + b - 1."""
    return a * 6 + b - 7


# A roll and everything it decided are logged as one event whose format is built from these
# pieces, with strings and numbers as arguments: a long session's log stays cheap to hold.
_LOSES = "; {} loses {} on {}"
_WINS = "; {} wins {} on {} ({}:1)"


class WagerError(IllegalAction):
    """A wager the table cannot take: unknown area, outside the limits, or not covered."""


class CasinoOptions(Options):
    players: int = Field(default=3, description="1 to 8 player seats; the dealer is extra")
    bankroll: int = Field(default=1000, ge=1, le=MAX_CHIPS, description="chips each seat buys in")
    table_min: int = Field(default=5, ge=1, le=MAX_CHIPS, description="smallest wager on one area")
    table_max: int = Field(default=500, ge=1, le=MAX_CHIPS, description="largest wager on one area")
    payouts: dict[str, str] = Field(
        default_factory=default_payouts, description="payout option per wager (rule 4.9)"
    )
    dice: int = Field(default=5, ge=2, le=5, description="dice on the table (rule 1.1)")
    winners_stay_up: bool = Field(default=True, description="winning multi-roll wagers stay up")
    max_rolls: int = Field(
        default=100, ge=1, le=MAX_ROLLS, description="the session ends after this many"
    )
    live: bool = Field(
        default=False,
        description="live table: the dealer enters each result, then settles it (rule 6.8)",
    )

    @field_validator("payouts")
    @classmethod
    def _allowed(cls, payouts: dict[str, str]) -> dict[str, str]:
        """Each payout one rule 4.9 lists for its wager (errors then name 'payouts')."""
        for wid, pays in payouts.items():
            if wid not in WAGERS:
                known = ", ".join(WAGER_IDS)
                raise ValueError(f"unknown wager {describe(wid)} (known: {known})")
            if pays not in WAGERS[wid].pays:
                allowed = ", ".join(WAGERS[wid].pays)
                raise ValueError(f"{wid} cannot pay {describe(pays)}; rule 4.9 allows {allowed}")
        return payouts

    @model_validator(mode="after")
    def _consistent(self) -> CasinoOptions:
        if self.table_min > self.table_max:
            raise ValueError(f"table_min {self.table_min} is more than table_max {self.table_max}")
        return self


def table_settings(text: str) -> dict[str, Any]:
    """A table file (JSON options: payouts, limits, ...) as options for ``new_game``, which
    validates them; text that is not a JSON object is refused here."""
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as e:
        raise GamenightError(f"the table file is not JSON: {e}") from None
    except RecursionError:
        raise GamenightError("the table file is nested too deeply to be table settings") from None
    except ValueError:  # a number of thousands of digits (Python's int conversion limit)
        raise GamenightError("the table file holds a number too long to be a setting") from None
    if not isinstance(settings, dict):
        raise GamenightError("the table file must hold a JSON object of table settings")
    seats = settings.get("players", 1)
    if type(seats) is not int:  # the CLI counts bots from it before new_game checks it
        raise GamenightError(f"'players' must be a whole number of seats; got {describe(seats)}")
    return settings


@register_game
class SnakeEyesCasino(Game):
    id = "snake-eyes-casino"
    title = "Snake Eyes (casino table)"
    Options = CasinoOptions
    min_players = 1
    max_players = 8

    options: CasinoOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # this table's payout per wager, and for each of the 36 rolls every wager's settlement
        # code under those payouts, read once for all its states
        self.pays: dict[str, str] = {**default_payouts(), **self.options.payouts}
        self.codes: tuple[dict[str, int], ...] = tuple(
            {w: SETTLEMENT[(w, p)][roll] for w, p in self.pays.items()} for roll in range(36)
        )

    def new_state(self, seed: int | None = None) -> CasinoState:
        return CasinoState(self, seed)


_AREA = Str(max_len=40)
_CHIPS = Int(1, MAX_CHIPS)
_FACES = IntList(2, 2, 1, 6)


class CasinoState(State):
    game: SnakeEyesCasino

    VIEW_BY_SEAT = False  # wagers and dice are on the layout for all to see
    ACTIONS = {
        "wager": {"area": _AREA, "amount": _CHIPS},
        "reduce": {"area": _AREA, "amount": _CHIPS},
        "remove": {"area": _AREA},
        "roll": {},
        "give_up": {},
        "accept": {"dice": optional(IntList(2, 2, 0, 4))},
        "decline": {},
        "done": {},
    }
    CHANCE_ACTIONS = {
        "dice": {"faces": _FACES},
        "amend": {"faces": _FACES},
        "settle": {},
        "void": {"reason": Str()},
        "force_give_up": {"reason": Str()},  # the dealer's move between rolls (rule 5.7(b))
    }

    def __init__(self, game: SnakeEyesCasino, seed: int | None = None) -> None:
        super().__init__(game, seed)
        opts = game.options
        n = game.players
        self.pays = game.pays
        self.live = opts.live
        self.max_rolls = opts.max_rolls
        # the table limits, read by every wager's check (an options field costs more to read)
        self.table_min, self.table_max = opts.table_min, opts.table_max
        self.names = [self.seat_name(s) for s in range(n)]
        self.purse = [f"seat{s}" for s in range(n)]
        self.ledger = Ledger(
            {**{p: opts.bankroll for p in self.purse}, "layout": 0, "bank": 0},
            may_go_negative=("bank",),
        )
        self.bets: list[dict[str, int]] = [{} for _ in range(n)]  # per seat: area -> chips
        self.phase = "offer"  # offer | betting | rolling | entered (live only) | closed
        self.shooter: int | None = None  # None while the dealer rolls (rule 5.9(d))
        self.dealer_rolls = False
        self.offer_queue: list[int] = list(range(n))  # from the dealer's left
        self.offer_needs_wager = False  # rule 5.9: only players with a wager are offered the dice
        self.undecided: set[tuple[int, str]] = set()  # (seat, area) the dealer rolls out (5.9(d))
        # while seat s shoots: the other seats from the dealer's left, then the shooter
        self.betting_order = [[*(o for o in range(n) if o != s), s] for s in range(n)]
        self.entered: list[int] | None = None
        self.pulled: list[tuple[int, str, int]] = []  # (seat, area, chips) taken down since entry
        self.ready: set[int] = set()  # players who said they are done betting for this roll
        self.results: list[int] = []
        self.rolls = 0
        self.voids = 0
        self.handle = dict.fromkeys(WAGER_IDS, 0)  # chips decided per wager
        self.house_net = dict.fromkeys(WAGER_IDS, 0)  # house result per wager
        self.log("the dice are offered to {} (rule 5.3)", self.names[0])

    # --- who acts ----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "closed"

    def is_chance(self) -> bool:
        return self.phase == "rolling" or self.phase == "entered"

    def actors(self) -> list[int]:
        """Seats that may act now. While the dice are in the air (a chance node) that is whoever
        may still take a wager down (rule 4.7); a driver samples the dice first."""
        phase = self.phase
        if phase == "betting":  # the most frequent first: every wager is a move
            # anyone may bet before the roll (a wager is checked, not the turn); those not yet
            # done are asked first, then the shooter
            order = self.betting_order[self.shooter]  # type: ignore[index]
            ready = self.ready
            return [s for s in order if s not in ready] if ready else order.copy()
        if phase == "offer":
            return [self.offer_queue[0]]
        if phase == "rolling" or phase == "entered":
            return [s for s in range(self.players) if self._takedowns(s)]
        return []

    def next_actor(self) -> int | None:
        """``actors()[0]`` without building the list while players bet (most moves)."""
        if self.phase == "betting":
            ready = self.ready
            for s in self.betting_order[self.shooter]:  # type: ignore[index]
                if s not in ready:
                    return s
            return None
        actors = self.actors()
        return actors[0] if actors else None

    def wagers_of(self, seat: int) -> dict[str, int]:
        """A copy of ``seat``'s chips on the layout, by area."""
        return dict(self.bets[seat])

    def has_wagers(self) -> bool:
        return any(self.bets)

    def _takedowns(self, seat: int) -> list[dict[str, Any]]:
        """Rule 4.7: a remove and a reduce for every wager whose deciding dice are not at rest.

        The reduce listed takes the wager down by the table minimum, or to it when less is
        over it; any other legal amount is accepted by ``apply`` too."""
        held = self.bets[seat]
        if not held or self.phase == "closed":
            return []
        lo = self.table_min
        entered = self.entered
        codes = self.game.codes[_index(*entered)] if entered is not None else None
        acts: list[dict[str, Any]] = []
        for w, amount in held.items():
            if codes is not None and codes[w] != STAY:
                continue  # the dice at rest decided it
            acts.append({"type": "remove", "area": w})
            step = lo if amount == lo or amount >= 2 * lo else amount - lo
            acts.append({"type": "reduce", "area": w, "amount": step})
        return acts

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        phase = self.phase
        if phase != "offer" and phase != "betting":
            return self._takedowns(seat)
        lo, hi = self.table_min, self.table_max
        held = self.bets[seat]
        acts: list[dict[str, Any]] = []
        if self.ledger.balances[self.purse[seat]] >= lo:
            acts = [
                {"type": "wager", "area": w, "amount": lo}
                for w in WAGER_IDS
                if held.get(w, 0) + lo <= hi
            ]
        acts += self._takedowns(seat)
        if phase == "offer":
            if seat == self.offer_queue[0]:
                acts += [{"type": "accept", "dice": [0, 1]}, {"type": "decline"}]
        elif seat == self.shooter:
            if held:
                acts.append({"type": "roll"})
            acts.append({"type": "give_up"})
        elif seat not in self.ready:
            acts.append({"type": "done"})
        return acts

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        if self.phase == "entered":
            return [({"type": "settle"}, Fraction(1))]
        return dice_outcomes(2)

    def _sample_chance(self, rng: Uniforms) -> dict[str, Any]:
        if self.phase == "entered":
            return {"type": "settle"}
        return _DRAWS[int(rng.random() * 36)]

    # --- checks (never mutate) ---------------------------------------------------------------
    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        kind = action["type"]
        if seat is None:
            self._check_dealer(action, kind)
        elif kind == "wager" or kind == "reduce" or kind == "remove":
            self._check_wager(action, kind, seat)
        elif kind == "roll" or kind == "give_up":
            if self.phase != "betting" or seat != self.shooter:
                raise NotYourTurn(f"{self.names[seat]} is not the shooter")
            if kind == "roll" and not self.bets[seat]:
                raise IllegalAction("rule 5.4: the shooter must have a wager on the layout to roll")
        elif kind == "accept" or kind == "decline":
            if self.phase != "offer" or seat != self.offer_queue[0]:
                raise NotYourTurn(f"the dice are not being offered to {self.names[seat]}")
            if kind == "accept":
                dice = action.get("dice", [0, 1])
                n = self.game.options.dice
                if (
                    not isinstance(dice, list)
                    or len(dice) != 2
                    or len(set(dice)) != 2
                    or not all(type(d) is int and 0 <= d < n for d in dice)
                ):
                    raise MalformedAction(
                        f"'dice' names two different dice of the {n} on the table (0 to {n - 1})"
                    )
        elif kind == "done":  # "has nothing to be done with now" left a hot-seat shooter lost
            name = self.names[seat]
            if self.phase != "betting":
                raise IllegalAction(f"no betting is open now: {name} has no bets to be done with")
            if seat == self.shooter:
                raise IllegalAction(f"{name} is the shooter: roll once the bets are down")
            if seat in self.ready:
                raise IllegalAction(f"{name} is already done betting")
        else:
            raise MalformedAction(f"unknown action type {kind!r} for a player")

    def _check_dealer(self, action: dict[str, Any], kind: str) -> None:
        if kind == "dice":
            if self.phase != "rolling":
                raise IllegalAction("a result is already entered: amend it, void it or settle")
            check_faces(action, 2)
        elif kind == "amend" or kind == "settle":
            if not self.live:
                raise IllegalAction(
                    f"{kind} is a live dealer's move (option live); drawn dice settle at once"
                )
            if self.phase != "entered":
                raise IllegalAction(
                    "rule 6.8: there is no entered, unsettled result to amend"
                    if kind == "amend"
                    else "no entered result to settle"
                )
            if kind == "amend":
                check_faces(action, 2)
        elif kind == "void":
            reason = action.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise MalformedAction("a void roll needs a 'reason' (rules 6.3 and 6.4)")
        elif kind == "force_give_up":
            if self.phase != "betting":
                raise IllegalAction("rule 5.7(b): the dealer can only take the dice from a shooter")
            reason = action.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise MalformedAction(
                    "rule 5.7(b) needs a 'reason' (delay, repeated void rolls, a broken rule)"
                )
        else:
            raise MalformedAction(f"unknown action type {kind!r} for the dealer")

    def _check_wager(self, action: dict[str, Any], kind: str, seat: int) -> None:
        area = action.get("area")
        if area not in WAGERS:
            raise WagerError(f"unknown wager area {area!r} (known: {', '.join(WAGER_IDS)})")
        held = self.bets[seat].get(area, 0)
        if self.phase != "betting" and self.phase != "offer":
            if kind == "wager":
                raise IllegalAction(
                    "rule 4.4: wagers are placed before the dice are rolled (bets called while"
                    " the dice are in the air are not taken at this table)"
                )
            entered = self.entered
            code = self.game.codes[_index(*entered)][area] if entered is not None else STAY
            if held and code == LOSE:
                raise IllegalAction(f"rule 4.8: the {area} wager has lost; it may not be touched")
            if held and code != STAY:
                raise IllegalAction(
                    f"rule 4.7: the dice that decide the {area} wager have come to rest"
                )
        if kind == "remove":
            if not held:
                raise WagerError(f"{self.names[seat]} has no {area} wager to remove")
            return
        amount = action.get("amount")
        if type(amount) is not int or amount <= 0:
            raise MalformedAction(
                f"'amount' must be a positive whole number of chips; got {amount!r}"
            )
        lo, hi = self.table_min, self.table_max
        if kind == "reduce":
            left = held - amount
            if not held or left < 0:
                raise WagerError(f"cannot reduce the {area} wager of {held} by {amount}")
            if 0 < left < lo:
                raise WagerError(f"{left} left on {area} would be under the table minimum {lo}")
            return
        new = held + amount
        if not lo <= new <= hi:
            limit = "under the table minimum" if new < lo else "over the table maximum"
            bound = lo if new < lo else hi
            raise WagerError(f"{new} on {area} is {limit} {bound}")
        have = self.ledger.balances[self.purse[seat]]
        if amount > have:
            raise WagerError(f"{self.names[seat]} has {have} chips, cannot wager {amount}")

    # --- moves -------------------------------------------------------------------------------
    def _house_move(self, action: dict[str, Any]) -> bool:
        return action["type"] == "force_give_up"

    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        kind = action["type"]
        if seat is None:
            if kind == "force_give_up":
                shooter = self.shooter
                assert shooter is not None
                self.log(
                    "the dealer takes the dice from {} (rule 5.7(b)): {}",
                    self.names[shooter],
                    action["reason"],
                )
                self._pass_dice(shooter)
            elif kind == "dice":
                self._enter(action["faces"])
            elif kind == "settle":
                assert self.entered is not None
                self.pulled = []
                self._settle(*self.entered)
            elif kind == "amend":
                self.log("result amended from {} to {} (rule 6.8)", self.entered, action["faces"])
                self.entered = list(action["faces"])
                self._restore_pulled()
            else:
                self._void(action["reason"])
            return
        name = self.names[seat]
        if kind == "wager":
            area, amount = action["area"], action["amount"]
            held = self.bets[seat]
            self.ledger.transfer(self.purse[seat], "layout", amount)
            held[area] = held.get(area, 0) + amount
            # self.log, inline: most moves of a session are wagers
            self._events.append(("{} wagers {} on {}", name, amount, area))
        elif kind == "roll":
            self.phase = "rolling"  # the roll's event names the shooter once the dice are in
        elif kind == "reduce" or kind == "remove":
            area = action["area"]
            held = self.bets[seat]
            amount = held[area] if kind == "remove" else action["amount"]
            self.ledger.transfer("layout", self.purse[seat], amount)
            if amount == held[area]:
                del held[area]
                self.undecided.discard((seat, area))
            else:
                held[area] -= amount
            self.log("{} takes {} down from {}", name, amount, area)
            if self.phase == "entered":
                self.pulled.append((seat, area, amount))
            offered = self.phase == "offer" and seat == self.offer_queue[0]
            if offered and self.offer_needs_wager and not held:
                self._next_offer()  # rule 5.9(a): the offered player no longer qualifies
        elif kind == "accept":
            self.shooter, self.phase, self.ready = seat, "betting", set()
            first, second = action.get("dice", (0, 1))
            self.log(
                "{} takes the dice and chooses dice {} and {} as the active pair",
                name,
                first,
                second,
            )
        elif kind == "decline":
            self.log("{} declines the dice", name)
            self.offer_queue.pop(0)
            self._next_offer()
        elif kind == "done":
            self.ready.add(seat)
        else:  # give_up
            self.log("{} gives up the dice (rule 5.7)", name)
            self._pass_dice(seat)

    def _enter(self, faces: list[int]) -> None:
        """A result in: a live table shows it until the dealer settles; a drawn one settles."""
        if self.live:
            self.entered = list(faces)
            self.phase = "entered"
            self.log("result entered: {} + {} = {}", faces[0], faces[1], faces[0] + faces[1])
        else:
            self._settle(faces[0], faces[1])

    def _restore_pulled(self) -> None:
        """Rules 4.8 and 6.9: a take-down allowed under a wrongly entered result is undone once
        the corrected dice decide that wager; the chips are still in the purse (nobody may wager
        while a result is entered), so they go back on the layout to be settled."""
        codes = self.game.codes[_index(*self.entered)]  # type: ignore[misc]
        kept = []
        for seat, area, amount in self.pulled:
            if codes[area] == STAY:
                kept.append((seat, area, amount))
                continue
            self.ledger.transfer(self.purse[seat], "layout", amount)
            held = self.bets[seat]
            held[area] = held.get(area, 0) + amount
            self.log(
                "the corrected dice decide {}'s {} wager: the {} taken down go back on it"
                " (rules 4.8, 6.9)",
                self.names[seat],
                area,
                amount,
            )
        self.pulled = kept

    def _void(self, reason: str) -> None:
        self.entered = None
        self.pulled = []
        self.voids += 1
        self.phase = "rolling" if self.dealer_rolls else "betting"
        self.log("No roll: {} (the roll is void and settles nothing)", reason)

    def _settle(self, a: int, b: int) -> None:
        """Rules 4.1, 4.2 and 4.8: losers to the bank, winners paid, the roll on the display.

        The roll and what it decided for every seat go into the log as one event."""
        self.entered = None
        total = a + b
        self.rolls += 1
        if self.ready:
            self.ready = set()
        results = self.results
        results.append(total)
        if len(results) > RESULTS_SHOWN:
            del results[0]
        shooter = self.shooter
        fmt = ["{} rolls {}{}"]
        args: list[object] = [
            "the dealer" if shooter is None else self.names[shooter],
            total,
            " hard" if a == b and total in (4, 6, 8, 10) else "",  # rule 4.1(a): the hardway totals
        ]
        if any(self.bets):
            self._pay(_index(a, b), fmt, args)
        self.log("".join(fmt), *args)
        self._after_roll(total, _index(a, b))

    def _pay(self, roll: int, fmt: list[str], args: list[object]) -> None:
        """Settle every wager on the layout against roll number ``roll`` (see ``_index``),
        adding each decided wager to the roll's event (``fmt`` and ``args``).

        As a dealer sweeps the layout: each seat's losers go to the bank in one move, its wins
        come from the bank in one move, and decided one-roll stakes come back with them."""
        codes = self.game.codes[roll]
        handle, house = self.handle, self.house_net
        stay_up = self.game.options.winners_stay_up
        transfer = self.ledger.transfer
        for seat, held in enumerate(self.bets):
            if not held:
                continue
            name = self.names[seat]
            lost = won = back = 0
            gone = []
            for area, amount in held.items():
                n = codes[area]
                if n < 0:  # STAY: not decided by this roll
                    continue
                handle[area] += amount
                if n == LOSE:
                    lost += amount
                    house[area] += amount
                    gone.append(area)
                    fmt.append(_LOSES)
                    args += (name, amount, area)
                    continue
                won += amount * n
                house[area] -= amount * n
                fmt.append(_WINS)
                args += (name, amount * n, area, n)
                if not stay_up or area not in MULTI_ROLL:
                    back += amount
                    gone.append(area)
            for area in gone:
                del held[area]
            purse = self.purse[seat]
            if lost:
                transfer("layout", "bank", lost)
            if won:
                transfer("bank", purse, won)
            if back:
                transfer("layout", purse, back)

    def _after_roll(self, total: int, roll: int) -> None:
        if self.rolls >= self.max_rolls:
            self.phase = "closed"
            self.log("the session ends after {} rolls", self.rolls)
            return
        if self.dealer_rolls:
            codes = self.game.codes[roll]
            self.undecided = {(s, w) for s, w in self.undecided if codes[w] == STAY}
            if total == 7 or not self.undecided:
                self._dealer_done()
            else:
                self.phase = "rolling"
            return
        if total == 7:
            shooter = self.shooter or 0
            self.log("7 Out: {} must give up the dice (rule 5.7(a))", self.names[shooter])
            self._pass_dice(shooter)
        else:
            self.phase = "betting"

    def _pass_dice(self, seat: int) -> None:
        """Rule 5.9: the dice go round the *other* players who have a wager, from the left;
        whether a player has one is checked as the dice reach him (5.9(a), (b)).

        After a 7 Out the layout is empty, so nobody qualifies; play then starts afresh from
        the next seat as at rule 5.3, everyone included (a project decision)."""
        self.shooter = None
        n = self.players
        order = [(seat + i) % n for i in range(1, n + 1)]
        self.offer_needs_wager = any(self.bets)
        self.offer_queue = order[:-1] if self.offer_needs_wager else order
        self._next_offer()

    def _dealer_done(self) -> None:
        """Rule 5.9(d) is met: the dice are offered afresh from the dealer's left."""
        self.dealer_rolls = False
        self.undecided = set()
        self.offer_queue = list(range(self.players))
        self.offer_needs_wager = False
        self._next_offer()

    def _next_offer(self) -> None:
        queue, bets = self.offer_queue, self.bets
        if self.offer_needs_wager:
            while queue and not bets[queue[0]]:
                queue.pop(0)
        if queue:
            self.phase = "offer"
            self.log("the dice are offered to {}", self.names[queue[0]])
        elif any(bets):
            self.phase, self.dealer_rolls, self.shooter = "rolling", True, None
            self.undecided = {(s, w) for s, held in enumerate(bets) for w in held}
            self.log("nobody takes the dice: the dealer rolls (rule 5.9(d))")
        else:
            self.phase = "closed"
            self.log("nobody takes the dice and the layout is empty: the table closes")

    # --- views -------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        lit = []
        pending: dict[str, int] = {}
        if self.entered:
            roll = _index(*self.entered)
            codes = self.game.codes[roll]
            lit = [w for w in WAGER_IDS if codes[w] > 0]
            for s, held in enumerate(self.bets):
                won = sum(amount * max(codes[w], 0) for w, amount in held.items())
                if won:
                    pending[self.names[s]] = won
        return {
            "phase": self.phase,
            "shooter": self.shooter,
            "dealer_rolls": self.dealer_rolls,
            "offered_to": self.offer_queue[0] if self.phase == "offer" else None,
            "bankrolls": [self.ledger[p] for p in self.purse],
            "bank": self.ledger["bank"],
            "layout": [
                {"seat": s, "area": w, "amount": held[w]}
                for s, held in enumerate(self.bets)
                for w in WAGER_IDS
                if w in held
            ],
            "payouts": dict(self.pays),
            "table_min": self.game.options.table_min,
            "table_max": self.game.options.table_max,
            "entered": list(self.entered) if self.entered else None,
            "lit": lit,
            "pending_wins": pending,
            "results": list(self.results),
            "rolls": self.rolls,
        }

    def winner(self) -> int | None:
        return None  # players play against the house, not each other

    def net(self, seat: int) -> int:
        """Chips won or lost by ``seat``: bankroll plus chips still on the layout, less buy-in."""
        on_layout = sum(self.bets[seat].values())
        return self.ledger[self.purse[seat]] + on_layout - self.game.options.bankroll

    def returns(self) -> list[float]:
        return [float(self.net(s)) for s in range(self.players)]

    def stats(self) -> dict[str, float]:
        out: dict[str, float] = {
            "rolls": self.rolls,
            "voids": self.voids,
            "bank": self.ledger["bank"],
        }
        for w in WAGER_IDS:
            out[f"handle_{w}"] = self.handle[w]
            out[f"house_{w}"] = self.house_net[w]
        return out
