"""Snake Eyes, the casino table game (Division 11A): twelve wagers, a shooter, a dealer.

The dealer's side of the table is the chance seat (seat None): it enters the dice of a roll
(drawn by the engine, or read off physical dice at a live table), may amend a wrongly entered
result or declare the roll void, and then settles. Entering and settling are separate moves so
that rule 6.8 (amend before settlement) has a moment to happen in.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from pydantic import Field, model_validator

from gamenight.engine import Game, IllegalAction, Options, State, register_game
from gamenight.engine.chance import check_faces, dice_outcomes
from gamenight.engine.errors import MalformedAction, NotYourTurn
from gamenight.engine.ledger import Ledger

from .casino_wagers import (
    MULTI_ROLL,
    SETTLEMENT,
    WAGER_IDS,
    WAGERS,
    default_payouts,
    settle,
    winning_areas,
)

RESULTS_SHOWN = 20  # the game results display of rule 3.4(b)
DICE_OUTCOMES = dice_outcomes(2)
SETTLE = {"type": "settle"}


class WagerError(IllegalAction):
    """A wager the table cannot take: unknown area, outside the limits, or not covered."""


class CasinoOptions(Options):
    players: int = Field(default=3, description="1 to 8 player seats; the dealer is extra")
    bankroll: int = Field(default=1000, ge=1, le=10**9, description="chips each seat buys in")
    table_min: int = Field(default=5, ge=1, description="smallest wager on one area")
    table_max: int = Field(default=500, ge=1, description="largest wager on one area")
    payouts: dict[str, str] = Field(
        default_factory=default_payouts, description="payout option per wager (rule 4.9)"
    )
    dice: int = Field(default=5, ge=2, le=5, description="dice on the table (rule 1.1)")
    winners_stay_up: bool = Field(default=True, description="winning multi-roll wagers stay up")
    max_rolls: int = Field(default=100, ge=1, description="the session ends after this many")

    @model_validator(mode="after")
    def _consistent(self) -> CasinoOptions:
        if self.table_min > self.table_max:
            raise ValueError("table_min is more than table_max")
        for wid, pays in self.payouts.items():
            if wid not in WAGERS:
                raise ValueError(f"unknown wager {wid!r} (known: {', '.join(WAGER_IDS)})")
            if pays not in WAGERS[wid].pays:
                allowed = ", ".join(WAGERS[wid].pays)
                raise ValueError(f"{wid} cannot pay {pays!r}; rule 4.9 allows {allowed}")
        return self


@register_game
class SnakeEyesCasino(Game):
    id = "snake-eyes-casino"
    title = "Snake Eyes (casino table)"
    Options = CasinoOptions
    min_players = 1
    max_players = 8

    options: CasinoOptions

    def new_state(self, seed: int | None = None) -> CasinoState:
        return CasinoState(self, seed)


class CasinoState(State):
    game: SnakeEyesCasino

    def __init__(self, game: SnakeEyesCasino, seed: int | None = None) -> None:
        super().__init__(game, seed)
        opts = game.options
        self.pays = {**default_payouts(), **opts.payouts}
        self.rows = {w: SETTLEMENT[(w, p)] for w, p in self.pays.items()}  # this table's payouts
        self.purse = [f"seat{i}" for i in range(game.players)]
        self.ledger = Ledger(
            {**{p: opts.bankroll for p in self.purse}, "layout": 0, "bank": 0},
            may_go_negative=("bank",),
        )
        self.bets: dict[tuple[int, str], int] = {}  # (seat, wager id) -> chips on the layout
        self.phase = "offer"  # offer | betting | rolling | entered | closed
        self.shooter: int | None = None  # None while the dealer rolls (rule 5.9(d))
        self.dealer_rolls = False
        self.offer_queue: list[int] = list(range(game.players))  # from the dealer's left
        self.entered: list[int] | None = None
        self.ready: set[int] = set()  # players who said they are done betting for this roll
        self.results: list[int] = []
        self.rolls = 0
        self.voids = 0
        self.handle = dict.fromkeys(WAGER_IDS, 0)  # chips decided per wager
        self.house_net = dict.fromkeys(WAGER_IDS, 0)  # house result per wager
        self.log("the dice are offered to {} (rule 5.3)", self.seat_name(0))

    # --- who acts ----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "closed"

    def is_chance(self) -> bool:
        return self.phase in ("rolling", "entered")

    def actors(self) -> list[int]:
        if self.phase == "offer":
            return [self.offer_queue[0]]
        if self.phase == "betting":
            # anyone may bet before the roll (a wager is checked, not the turn); those not yet
            # done are asked first, then the shooter
            shooter = self.shooter
            first = [s for s in range(self.players) if s not in self.ready and s != shooter]
            return first + ([shooter] if shooter is not None else [])
        return []

    def wagers_of(self, seat: int) -> dict[str, int]:
        return {w: a for (s, w), a in self.bets.items() if s == seat}

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        phase = self.phase
        if phase != "offer" and phase != "betting":
            return []
        opts = self.game.options
        lo, hi = opts.table_min, opts.table_max
        held = self.wagers_of(seat)
        acts: list[dict[str, Any]] = []
        if self.ledger.balances[self.purse[seat]] >= lo:
            acts = [
                {"type": "wager", "area": w, "amount": lo}
                for w in WAGER_IDS
                if held.get(w, 0) + lo <= hi
            ]
        acts += [{"type": "remove", "area": w} for w in held]
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
            return [(SETTLE, Fraction(1))]
        return [({"type": "dice", "faces": list(a["faces"])}, p) for a, p in DICE_OUTCOMES]

    def _sample_chance(self, rng: random.Random) -> dict[str, Any]:
        if self.phase == "entered":
            return SETTLE
        return {"type": "dice", "faces": [rng.randint(1, 6), rng.randint(1, 6)]}

    # --- checks (never mutate) ---------------------------------------------------------------
    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        kind = action["type"]
        if seat is None:
            self._check_dealer(action, kind)
            return
        if kind in ("wager", "reduce", "remove"):
            self._check_wager(action, kind, seat)
        elif kind in ("accept", "decline"):
            if self.phase != "offer" or seat != self.offer_queue[0]:
                raise NotYourTurn(f"the dice are not being offered to {self.seat_name(seat)}")
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
        elif kind == "done":
            if self.phase != "betting" or seat == self.shooter or seat in self.ready:
                raise IllegalAction(f"{self.seat_name(seat)} has nothing to be done with now")
        elif kind in ("roll", "give_up"):
            if self.phase != "betting" or seat != self.shooter:
                raise NotYourTurn(f"{self.seat_name(seat)} is not the shooter")
            if kind == "roll" and not self.wagers_of(seat):
                raise IllegalAction("rule 5.4: the shooter must have a wager on the layout to roll")
        else:
            raise MalformedAction(f"unknown action type {kind!r} for a player")

    def _check_dealer(self, action: dict[str, Any], kind: str) -> None:
        if kind == "dice":
            if self.phase != "rolling":
                raise IllegalAction("a result is already entered: amend it, void it or settle")
            check_faces(action, 2)
        elif kind == "amend":
            if self.phase != "entered":
                raise IllegalAction("rule 6.8: there is no entered, unsettled result to amend")
            check_faces(action, 2)
        elif kind == "void":
            reason = action.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise MalformedAction("a void roll needs a 'reason' (rules 6.3 and 6.4)")
        elif kind == "settle":
            if self.phase != "entered":
                raise IllegalAction("no entered result to settle")
        else:
            raise MalformedAction(f"unknown action type {kind!r} for the dealer")

    def _check_wager(self, action: dict[str, Any], kind: str, seat: int) -> None:
        area = action.get("area")
        if area not in WAGERS:
            raise WagerError(f"unknown wager area {area!r} (known: {', '.join(WAGER_IDS)})")
        if self.phase == "entered" and self.entered is not None:
            result, _ = settle(WAGERS[area], self.pays[area], self.entered)
            if result == "lose" and (seat, area) in self.bets:
                raise IllegalAction(f"rule 4.8: the {area} wager has lost; it may not be touched")
        if self.phase not in ("offer", "betting"):
            raise IllegalAction("rules 4.4 and 4.7: wagers change only before the dice are rolled")
        held = self.bets.get((seat, area), 0)
        opts = self.game.options
        if kind == "remove":
            if not held:
                raise WagerError(f"{self.seat_name(seat)} has no {area} wager to remove")
            return
        amount = action.get("amount")
        if type(amount) is not int or amount <= 0:
            raise MalformedAction(
                f"'amount' must be a positive whole number of chips; got {amount!r}"
            )
        if kind == "reduce":
            left = held - amount
            if not held or left < 0:
                raise WagerError(f"cannot reduce the {area} wager of {held} by {amount}")
            if 0 < left < opts.table_min:
                raise WagerError(
                    f"{left} left on {area} would be under the table minimum {opts.table_min}"
                )
            return
        new = held + amount
        if new < opts.table_min:
            raise WagerError(f"{new} on {area} is under the table minimum {opts.table_min}")
        if new > opts.table_max:
            raise WagerError(f"{new} on {area} is over the table maximum {opts.table_max}")
        have = self.ledger[self.purse[seat]]
        if amount > have:
            raise WagerError(f"{self.seat_name(seat)} has {have} chips, cannot wager {amount}")

    # --- moves -------------------------------------------------------------------------------
    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        kind = action["type"]
        if seat is None:
            getattr(self, f"_dealer_{kind}")(action)
            return
        name = self.seat_name(seat)
        if kind == "wager":
            area, amount = action["area"], action["amount"]
            self.ledger.transfer(self.purse[seat], "layout", amount, f"wager {area}")
            self.bets[(seat, area)] = self.bets.get((seat, area), 0) + amount
            self.log("{} wagers {} on {}", name, amount, area)
        elif kind in ("reduce", "remove"):
            area = action["area"]
            held = self.bets[(seat, area)]
            amount = held if kind == "remove" else action["amount"]
            self.ledger.transfer("layout", self.purse[seat], amount, f"{kind} {area}")
            if amount == held:
                del self.bets[(seat, area)]
            else:
                self.bets[(seat, area)] = held - amount
            self.log("{} takes {} down from {}", name, amount, area)
        elif kind == "accept":
            self.shooter, self.phase = seat, "betting"
            self.log(
                "{} takes the dice and chooses dice {} as the active dice",
                name,
                action.get("dice", [0, 1]),
            )
        elif kind == "decline":
            self.log("{} declines the dice", name)
            self.offer_queue.pop(0)
            self._next_offer()
        elif kind == "done":
            self.ready.add(seat)
        elif kind == "roll":
            self.phase = "rolling"
            self.log("{} rolls", name)
        elif kind == "give_up":
            self.log("{} gives up the dice (rule 5.7)", name)
            self._pass_dice(seat)

    def _dealer_dice(self, action: dict[str, Any]) -> None:
        self.entered = list(action["faces"])
        self.phase = "entered"
        self.log("result entered: {} + {} = {}", *self.entered, sum(self.entered))

    def _dealer_amend(self, action: dict[str, Any]) -> None:
        old = self.entered
        self.entered = list(action["faces"])
        self.log("result amended from {} to {} (rule 6.8)", old, self.entered)

    def _dealer_void(self, action: dict[str, Any]) -> None:
        self.entered = None
        self.voids += 1
        self.phase = "rolling" if self.dealer_rolls else "betting"
        self.log("No roll: {} (the roll is void and settles nothing)", action["reason"])

    def _dealer_settle(self, _action: dict[str, Any]) -> None:
        assert self.entered is not None
        faces, self.entered = self.entered, None
        total = faces[0] + faces[1]
        index = (faces[0] - 1) * 6 + faces[1] - 1
        rows = self.rows
        self.rolls += 1
        self.ready = set()
        self.results = [*self.results[-(RESULTS_SHOWN - 1) :], total]
        self.log("{} rolled{}", total, " hard" if faces[0] == faces[1] else "")
        for (seat, area), amount in sorted(self.bets.items()):
            result, n = rows[area][index]
            if result == "stay":
                continue
            self.handle[area] += amount
            if result == "lose":
                self.ledger.transfer("layout", "bank", amount, f"{area} loses")
                del self.bets[(seat, area)]
                self.house_net[area] += amount
                self.log("{} loses {} on {}", self.seat_name(seat), amount, area)
                continue
            self.ledger.transfer("bank", self.purse[seat], amount * n, f"{area} wins {n}:1")
            self.house_net[area] -= amount * n
            self.log("{} wins {} on {} ({}:1)", self.seat_name(seat), amount * n, area, n)
            if area not in MULTI_ROLL or not self.game.options.winners_stay_up:
                self.ledger.transfer("layout", self.purse[seat], amount, f"{area} returned")
                del self.bets[(seat, area)]
        self._after_roll(total)

    def _after_roll(self, total: int) -> None:
        if self.rolls >= self.game.options.max_rolls:
            self.phase = "closed"
            self.log("the session ends after {} rolls", self.rolls)
            return
        if self.dealer_rolls:
            if total == 7 or not self.bets:
                self.dealer_rolls = False
                self.offer_queue = list(range(self.players))  # afresh from the dealer's left
                self._next_offer()
            else:
                self.phase = "rolling"
            return
        if total == 7:
            self.log(
                "7 Out: {} must give up the dice (rule 5.7(a))", self.seat_name(self.shooter or 0)
            )
            self._pass_dice(self.shooter or 0)
        else:
            self.phase = "betting"

    def _pass_dice(self, seat: int) -> None:
        """Rule 5.9: the dice go round the *other* players who have a wager, from the left.

        After a 7 Out the layout is empty, so nobody qualifies; play then starts afresh from
        the next seat as at rule 5.3, everyone included (a project decision)."""
        self.shooter = None
        n = self.players
        if self.bets:
            with_wager = {s for s, _ in self.bets}
            order = [(seat + i) % n for i in range(1, n)]
            self.offer_queue = [s for s in order if s in with_wager]
        else:
            self.offer_queue = [(seat + i) % n for i in range(1, n + 1)]
        self._next_offer()

    def _next_offer(self) -> None:
        if self.offer_queue:
            self.phase = "offer"
            self.log("the dice are offered to {}", self.seat_name(self.offer_queue[0]))
        elif self.bets:
            self.phase, self.dealer_rolls, self.shooter = "rolling", True, None
            self.log("nobody takes the dice: the dealer rolls (rule 5.9(d))")
        else:
            self.phase = "closed"
            self.log("nobody takes the dice and the layout is empty: the table closes")

    # --- views -------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        lit = winning_areas(self.pays, self.entered) if self.entered else []
        pending: dict[str, int] = {}
        if self.entered:
            for (s, area), amount in self.bets.items():
                result, n = settle(WAGERS[area], self.pays[area], self.entered)
                if result == "win":
                    key = self.seat_name(s)
                    pending[key] = pending.get(key, 0) + amount * n
        return {
            "phase": self.phase,
            "shooter": self.shooter,
            "dealer_rolls": self.dealer_rolls,
            "offered_to": self.offer_queue[0] if self.phase == "offer" else None,
            "bankrolls": [self.ledger[p] for p in self.purse],
            "bank": self.ledger["bank"],
            "layout": [
                {"seat": s, "area": w, "amount": a} for (s, w), a in sorted(self.bets.items())
            ],
            "payouts": dict(self.pays),
            "table_min": self.game.options.table_min,
            "table_max": self.game.options.table_max,
            "entered": self.entered,
            "lit": lit,
            "pending_wins": pending,
            "results": list(self.results),
            "rolls": self.rolls,
        }

    def winner(self) -> int | None:
        return None  # players play against the house, not each other

    def net(self, seat: int) -> int:
        """Chips won or lost by ``seat``: bankroll plus chips still on the layout, less buy-in."""
        on_layout = sum(self.wagers_of(seat).values())
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
