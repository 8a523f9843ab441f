"""Snake Eyes, the casino table game (Division 11A): twelve wagers, a shooter, a dealer.

The dealer's side of the table is the chance seat (seat None). Dice the engine draws settle at
once: a random draw cannot be entered wrongly. At a live table (option ``live``) the dealer types
in the dice read off the physical table; entering and settling are then separate moves, so the
winning areas can be lit (rule 3.4(c)) and a wrong entry amended (rule 6.8) or the roll called
void before any chip moves.

This module is the game and its protocol (who acts, what is legal, each move, the view); the
options are in ``casino_options``, the wagers as data in ``casino_wagers``, and the dealer's
procedure (settling a roll, passing the dice) in ``casino_dealer``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamenight.engine import Game, IllegalAction, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.errors import ClashingOptions, MalformedAction, NotYourTurn
from gamenight.engine.schema import Int, IntList, Str, optional

from .casino_dealer import CasinoDealer, roll_index
from .casino_options import MAX_CHIPS, CasinoOptions
from .casino_wagers import (
    LOSE,
    SETTLEMENT,
    SPOKEN,
    STAY,
    WAGER_IDS,
    WAGERS,
    default_payouts,
)

# One shared, read-only action per roll for the engine's draws: a long session's history then
# holds 36 dice actions, not one new dict and list per roll for the cycle collector to walk.
_DRAWS = tuple({"type": "dice", "faces": [a, b]} for a in range(1, 7) for b in range(1, 7))


class WagerError(IllegalAction):
    """A wager the table cannot take: unknown area, outside the limits, or not covered."""


@register_game
class SnakeEyesCasino(Game):
    id = "snake-eyes-casino"
    title = "Snake Eyes (casino table)"
    Options = CasinoOptions
    min_players = 1
    max_players = 8

    options: CasinoOptions

    def validate(self) -> None:
        clash = self.options.clash()
        if clash is not None:
            raise ClashingOptions(self.id, ("table_min", "table_max"), clash)

    def __init__(self, /, **options: Any) -> None:
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


class CasinoState(CasinoDealer):
    """Players wager and shoot; the dealer (chance) enters, settles or voids each roll."""

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
        codes = self.game.codes[roll_index(*entered)] if entered is not None else None
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
            code = self.game.codes[roll_index(*entered)][area] if entered is not None else STAY
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
                    "the dealer takes the dice from {}: {}",
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
                self.log(
                    "the dealer corrects the result from {} to {}",
                    " + ".join(map(str, self.entered or ())),
                    " + ".join(map(str, action["faces"])),
                )
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
            self._events.append(("{} wagers {} on {}", name, amount, SPOKEN[area]))
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
            self.log("{} takes {} down from {}", name, amount, SPOKEN[area])
            if self.phase == "entered":
                self.pulled.append((seat, area, amount))
            offered = self.phase == "offer" and seat == self.offer_queue[0]
            if offered and self.offer_needs_wager and not held:
                self._next_offer()  # rule 5.9(a): the offered player no longer qualifies
        elif kind == "accept":
            self.shooter, self.phase, self.ready = seat, "betting", set()
            first, second = action.get("dice", (0, 1))
            self.active_pair = (first, second)
            self.log(
                "{} takes the dice and throws dice {} and {} of the {}",
                name,
                first + 1,
                second + 1,
                self.game.options.dice,
            )
        elif kind == "decline":
            self.log("{} declines the dice", name)
            self.offer_queue.pop(0)
            self._next_offer()
        elif kind == "done":
            self.ready.add(seat)
        else:  # give_up
            self.log("{} gives up the dice", name)
            self._pass_dice(seat)

    # --- views -------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        lit = []
        pending: dict[str, int] = {}
        if self.entered:
            roll = roll_index(*self.entered)
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
            "last_dice": list(self.last_dice) if self.last_dice else None,
            "dice": self.game.options.dice,
            "active_pair": list(self.active_pair),
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
