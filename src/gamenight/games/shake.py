"""Shake (Fundex): roll a colored die, then take its points or risk a shake of six dice.

Every round all seats roll their colored die at once (one chance move). Seats whose numbers match
score them and are done; the rest choose in order from the highest whether to take their die or
to shake. Only one seat may shake a round; a shake is a chance move of six two-valued dice and
six blanks lose the round. After ``rounds`` rounds comes the All Shake round in score order,
with roll-offs for tied totals. Colored-die faces are recorded as 1-6 and score ten times that.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from pydantic import Field

from gamenight.engine import Game, Options, State, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.errors import IllegalAction, MalformedAction, NotYourTurn
from gamenight.engine.schema import IntList

SHAKE_DICE = 6
SCORING = 10  # points on a scoring face of a shake die
DIE_POINTS = 10  # a colored die showing face f scores 10 * f
COLORED_DICE = 6  # the box holds six colored dice, so at most six players

Action = dict[str, Any]


class ShakeOptions(Options):
    players: int = Field(default=4, description="2 to 6 players (one colored die each)")
    rounds: int = Field(default=10, ge=1, le=100, description="ordinary rounds before All Shake")
    scoring_faces: int = Field(
        default=3, ge=1, le=5, description="faces worth 10 on each shake die (the rest are 0)"
    )
    final_tie: Literal["share", "roll-off"] = Field(
        default="share", description="a tie for the highest final total: share it, or roll off"
    )


@cache
def shake_law(scoring_faces: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """All 64 shake results with exact probabilities (each die scores with p = k/6)."""
    hit = Fraction(scoring_faces, 6)
    law = []
    for faces in itertools.product((SCORING, 0), repeat=SHAKE_DICE):
        hits = sum(1 for f in faces if f)
        law.append((faces, hit**hits * (1 - hit) ** (SHAKE_DICE - hits)))
    return tuple(law)


def crap_out_chance(scoring_faces: int) -> Fraction:
    """Probability that all six shake dice show 0."""
    return Fraction(6 - scoring_faces, 6) ** SHAKE_DICE


# Every shake result as one shared action, die k scoring when bit k of the index is set: a
# drawn shake is recorded as one of these (never handed out, never changed), not built anew.
_SHAKES = tuple(
    {"type": "shake", "faces": [SCORING if i >> k & 1 else 0 for k in range(SHAKE_DICE)]}
    for i in range(2**SHAKE_DICE)
)

# the player actions each player phase allows
EXPECTED = {"choose": ("take", "shake"), "shaken": ("shake", "stop"), "order": ("order",)}
CHANCE_PHASES = frozenset({"roll", "shake", "order-roll", "final-roll"})


@register_game
class Shake(Game):
    id = "shake"
    title = "Shake"
    Options = ShakeOptions
    min_players = 2
    max_players = COLORED_DICE

    options: ShakeOptions

    def new_state(self, seed: int | None = None) -> ShakeState:
        return ShakeState(self, seed)


class ShakeState(State):
    """Phases: roll, choose, shake, shaken, order-roll, order, final-roll, over."""

    game: Shake

    VIEW_BY_SEAT = False  # every die is on the table
    ACTIONS = {
        "take": {},
        "shake": {},
        "stop": {},
        "order": {"seats": IntList(2, COLORED_DICE, 0, COLORED_DICE - 1)},
    }
    CHANCE_ACTIONS = {
        "dice": {"faces": IntList(1, COLORED_DICE, 1, 6)},
        "shake": {"faces": IntList(SHAKE_DICE, SHAKE_DICE, 0, SCORING)},
    }
    CHANCE_UNIFORMS = 6  # six colored dice, or six shake dice

    def __init__(self, game: Shake, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n, rounds = game.players, game.options.rounds
        self.pad: list[list[int | None]] = [[None] * rounds for _ in range(n)]
        self.all_shake: list[int | None] = [None] * n
        self.scores = [0] * n  # each seat's total so far, kept as it is scored
        self.round = 1  # rounds + 1 is the All Shake round
        self.phase = "roll"
        self.rolled: list[int] | None = None  # this round's colored dice (faces 1-6)
        self.queue: list[int] = []  # seats still to take or shake, highest die first
        self.shaker: int | None = None
        self.points = 0  # shake points in hand this turn
        self.last_shake: list[int] | None = None
        # All Shake order: slots of seats in score order; a slot of several is a tie to roll off.
        self.slots: list[list[int]] = []
        self.tied_slot: int | None = None  # index of the slot being rolled off
        self.contenders: list[int] = []  # seats rolling in the current roll-off
        self.rolloff: list[int] | None = None  # their faces
        self.picker: int | None = None  # high roller who orders the tied slot
        self.order: list[int] = []  # the All Shake order once settled
        self.turn = 0  # index into order during the All Shake round
        self.winners: list[int] = []
        self.crap_outs = [0] * n
        self.shakes = [0] * n
        self._hit = game.options.scoring_faces / 6  # chance that one shake die scores
        self.names = [self.seat_name(s) for s in range(n)]
        self.log("Round 1 of {}: everyone rolls their colored die.", rounds)

    # --- protocol --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def actor(self) -> int | None:
        """The one seat to act, if a player (not chance) is to move."""
        phase = self.phase
        if phase == "shaken":  # the most frequent first: a shaker shakes dozens of times a turn
            return self.shaker
        if phase == "choose":
            return self.queue[0]
        if phase == "order":
            return self.picker
        return None

    next_actor = actor  # the same answer, without building the list

    def actors(self) -> list[int]:
        phase = self.phase  # actor(), inline: play loops ask every move
        if phase == "shaken":
            seat = self.shaker
        elif phase == "choose":
            seat = self.queue[0]
        elif phase == "order":
            seat = self.picker
        else:
            return []
        return [] if seat is None else [seat]

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.actor():
            return []
        if self.phase == "choose":
            return [{"type": "take"}, {"type": "shake"}]
        if self.phase == "shaken":
            return [{"type": "shake"}, {"type": "stop"}]
        slot = self.slots[self.tied_slot or 0]
        return [{"type": "order", "seats": list(p)} for p in itertools.permutations(slot)]

    def totals(self) -> list[int]:
        """Each seat's total: its pad and its All Shake score (a new list)."""
        return self.scores.copy()

    def winner(self) -> int | None:
        """The single winner; None while playing or when the top total is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    def returns(self) -> list[float]:
        """One win shared among the winners (1 each for a sole winner), 0 for the rest."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if s in self.winners else 0.0 for s in range(self.players)]

    def _rollers(self) -> int:
        """How many colored dice the pending roll throws."""
        return self.players if self.phase == "roll" else len(self.contenders)

    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "shake":
            law = shake_law(self.game.options.scoring_faces)
            return [({"type": "shake", "faces": list(f)}, p) for f, p in law]
        return dice_outcomes(self._rollers())

    def _sample_chance(self, rng: Uniforms) -> Action:
        rnd = rng.random
        if self.phase == "shake":  # six shake dice, die k scoring sets bit k (written out)
            hit = self._hit
            return _SHAKES[
                (rnd() < hit)
                + 2 * (rnd() < hit)
                + 4 * (rnd() < hit)
                + 8 * (rnd() < hit)
                + 16 * (rnd() < hit)
                + 32 * (rnd() < hit)
            ]
        return {"type": "dice", "faces": [int(rnd() * 6) + 1 for _ in range(self._rollers())]}

    # --- validation (never mutates) --------------------------------------------------------------
    def _check(self, action: Action, seat: int | None) -> None:
        kind = action["type"]
        phase = self.phase
        # the shaker's move, asked dozens of times a turn: accepted at once
        if (
            phase == "shaken"
            and seat == self.shaker
            and kind in ("shake", "stop")
            and len(action) == 1
        ):
            return
        if seat is None:
            self._check_chance(action, kind)
            return
        if phase in CHANCE_PHASES:
            raise NotYourTurn(f"the dice are to be rolled ({phase}); no player acts now")
        if kind not in ("take", "shake", "stop", "order"):
            raise MalformedAction(f"Shake knows no {kind!r} action")
        if seat != (self.shaker if phase == "shaken" else self.actor()):
            raise NotYourTurn(
                f"it is {self.seat_name(self.actor() or 0)}'s turn, not {self.seat_name(seat)}'s"
            )
        if kind not in EXPECTED[phase]:
            why = {
                "choose": "take the die's points or shake",
                "shaken": "shake again or stop",
                "order": "choose the All Shake order of the tied players",
            }[self.phase]
            raise IllegalAction(f"{kind!r} is not allowed now: {self.seat_name(seat)} must {why}")
        if kind == "order":
            slot = self.slots[self.tied_slot or 0]
            seats = action.get("seats")
            if (
                not isinstance(seats, list)
                or sorted(seats) != sorted(slot)
                or any(type(s) is not int for s in seats)
            ):
                raise MalformedAction(
                    f"an 'order' action needs 'seats': the tied seats {slot} in some order; "
                    f"got {seats!r}"
                )
            if set(action) != {"type", "seats"}:
                raise MalformedAction(f"unexpected fields in {action!r}")
        elif len(action) != 1:  # the type alone
            raise MalformedAction(f"a {kind!r} action has no fields besides 'type': {action!r}")

    def _check_chance(self, action: Action, kind: str) -> None:
        if not self.is_chance():
            raise NotYourTurn("a chance move was given, but a player is to act")
        if self.phase == "shake":
            faces = action.get("faces")
            if kind != "shake" or not (
                isinstance(faces, list)
                and len(faces) == SHAKE_DICE
                and all(type(f) is int and f in (0, SCORING) for f in faces)
            ):
                raise MalformedAction(
                    "the shake case needs {'type': 'shake', 'faces': [six values, each 10 or 0]}; "
                    f"got {action!r}"
                )
        else:
            if kind != "dice":
                raise MalformedAction(f"colored dice are rolled now ({self.phase}), not {kind!r}")
            check_faces(action, self._rollers())
        if set(action) != {"type", "faces"}:
            raise MalformedAction(f"unexpected fields in {action!r}")

    # --- moves -----------------------------------------------------------------------------------
    def _do(self, action: Action, seat: int | None) -> None:
        phase = self.phase  # the chance phases, then a player's move; the most frequent first
        if phase == "shake":  # a shake's result, written out here: a turn shakes dozens of times
            shaker = self.shaker
            assert shaker is not None
            faces = self.last_shake = action["faces"]  # never changed: the record holds it too
            self.shakes[shaker] += 1
            gained = sum(faces)
            if gained == 0:
                self._crap_out(shaker)
                return
            points = self.points = self.points + gained
            self.phase = "shaken"
            # self.log, inline
            self._events.append(("{} shakes {}: {} in hand.", self.names[shaker], gained, points))
            return
        kind = action["type"]
        if phase == "shaken" and kind == "shake":
            self.phase = "shake"  # the shaker, already set, shakes again
        elif phase == "roll":
            self._roll(list(action["faces"]))
        elif phase == "order-roll":
            self._order_roll(list(action["faces"]))
        elif phase == "final-roll":
            self._final_roll(list(action["faces"]))
        elif kind == "take":
            self._take()
        elif kind == "shake":
            self.phase = "shake"
            if self.shaker is None:
                self._start_shaking(seat or 0)
        elif kind == "stop":
            self._stop()
        else:
            self._set_order(list(action["seats"]))

    def _roll(self, faces: list[int]) -> None:
        self.rolled = faces
        self.log(
            "Colored dice: {}.",
            ", ".join(f"{self.seat_name(s)} {f * 10}" for s, f in enumerate(faces)),
        )
        if len(set(faces)) == 1:
            self.log("Everyone rolled {}: everyone re-rolls.", faces[0] * DIE_POINTS)
            return
        counts = [faces.count(f) for f in faces]
        for seat, face in enumerate(faces):
            if counts[seat] > 1:
                self._score(seat, face * DIE_POINTS, "matched")
        self.queue = sorted(
            (s for s in range(self.players) if counts[s] == 1), key=lambda s: -faces[s]
        )
        if self.queue:
            self.phase = "choose"
        else:
            self._end_round()

    def _take(self) -> None:
        seat = self.queue.pop(0)
        assert self.rolled is not None
        self._score(seat, self.rolled[seat] * DIE_POINTS, "takes the die")
        if not self.queue:
            self._end_round()

    def _start_shaking(self, seat: int) -> None:
        """The shaker gives up the die; everyone after scores their die (one shaker a round)."""
        assert self.rolled is not None
        self.queue.pop(0)
        self.shaker, self.points = seat, 0
        self.log("{} gives up the die and shakes.", self.seat_name(seat))
        for other in self.queue:
            self._score(other, self.rolled[other] * DIE_POINTS, "only one shaker a round")
        self.queue = []

    def _crap_out(self, seat: int) -> None:
        """Six blanks: the points in hand are lost and the turn ends."""
        self.crap_outs[seat] += 1
        self.log(
            "{} shakes six blanks and craps out: {} points lost.", self.seat_name(seat), self.points
        )
        self.points = 0
        self._stop()

    def _stop(self) -> None:
        seat = self.shaker
        assert seat is not None
        self._score(seat, self.points, "shake")
        self.shaker, self.points = None, 0
        if self.round > self.game.options.rounds:
            self.turn += 1
            self._next_all_shaker()
        else:
            self._end_round()

    def _score(self, seat: int, points: int, why: str) -> None:
        if self.round > self.game.options.rounds:
            before, self.all_shake[seat] = self.all_shake[seat], points
        else:
            row = self.pad[seat]
            before, row[self.round - 1] = row[self.round - 1], points
        self.scores[seat] += points - (before or 0)
        self.log("{} scores {} ({}).", self.names[seat], points, why)

    def _end_round(self) -> None:
        self.round += 1
        self.queue, self.rolled, self.last_shake = [], None, None
        if self.round <= self.game.options.rounds:
            self.phase = "roll"
            self.log("Round {}: everyone rolls.", self.round)
            return
        totals = self.totals()
        self.log("All Shake round: players shake in order of their totals.")
        by_total: dict[int, list[int]] = {}
        for seat in range(self.players):
            by_total.setdefault(totals[seat], []).append(seat)
        self.slots = [by_total[t] for t in sorted(by_total, reverse=True)]
        self._next_tie()

    # --- the All Shake order ---------------------------------------------------------------------
    def _next_tie(self) -> None:
        """Roll off the next tied slot, or start the All Shake when every slot is settled."""
        start = -1 if self.tied_slot is None else self.tied_slot
        for i in range(start + 1, len(self.slots)):
            slot = self.slots[i]
            if len(slot) > 1:
                self.tied_slot, self.contenders, self.rolloff = i, list(slot), None
                self.phase = "order-roll"
                names = ", ".join(map(self.seat_name, slot))
                self.log("{} are tied: they roll for the right to order them.", names)
                return
        self.tied_slot, self.contenders, self.rolloff = None, [], None
        self.order = [s for slot in self.slots for s in slot]
        self.turn = 0
        self.log("All Shake order: {}.", ", ".join(map(self.seat_name, self.order)))
        self._next_all_shaker()

    def _high_roller(self, faces: list[int]) -> int | None:
        self.rolloff = faces
        best = max(faces)
        top = [s for s, f in zip(self.contenders, faces, strict=True) if f == best]
        rolls = ", ".join(
            f"{self.seat_name(s)} {f * 10}" for s, f in zip(self.contenders, faces, strict=True)
        )
        if len(top) > 1:
            self.log(
                "Roll-off: {}; tie at the top, {} roll again.",
                rolls,
                ", ".join(map(self.seat_name, top)),
            )
            self.contenders = top
            return None
        self.log("Roll-off: {}; {} rolls highest.", rolls, self.seat_name(top[0]))
        return top[0]

    def _order_roll(self, faces: list[int]) -> None:
        high = self._high_roller(faces)
        if high is not None:
            self.picker, self.phase = high, "order"

    def _set_order(self, seats: list[int]) -> None:
        assert self.tied_slot is not None
        self.slots[self.tied_slot] = seats
        self.log(
            "{} orders the tied players: {}.",
            self.seat_name(self.picker or 0),
            ", ".join(map(self.seat_name, seats)),
        )
        self.picker = None
        self._next_tie()

    def _next_all_shaker(self) -> None:
        """All Shake turns open with a shake: the first shake risks nothing, so none declines."""
        if self.turn < len(self.order):
            self.shaker, self.points, self.last_shake = self.order[self.turn], 0, None
            self.phase = "shake"
            self.log("{} shakes in the All Shake round.", self.seat_name(self.shaker))
            return
        self._finish()

    # --- the end ---------------------------------------------------------------------------------
    def _finish(self) -> None:
        totals = self.totals()
        best = max(totals)
        top = [s for s in range(self.players) if totals[s] == best]
        if len(top) > 1 and self.game.options.final_tie == "roll-off":
            self.contenders, self.phase = top, "final-roll"
            self.log(
                "Tie for the win at {}: {} roll off.", best, ", ".join(map(self.seat_name, top))
            )
            return
        self._declare(top)

    def _final_roll(self, faces: list[int]) -> None:
        high = self._high_roller(faces)
        if high is not None:
            self._declare([high])

    def _declare(self, winners: list[int]) -> None:
        self.winners, self.phase = winners, "over"
        self.shaker, self.contenders = None, []
        names = ", ".join(map(self.seat_name, winners))
        self.log(
            "Game over: {} win{} with {}.",
            names,
            "s" if len(winners) == 1 else "",
            max(self.totals()),
        )

    # --- views -----------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """Shake hides nothing: every seat sees the whole score pad and every die."""
        k = self.game.options.scoring_faces
        crap = crap_out_chance(k)
        totals = self.totals()
        rolled = self.rolled
        return {
            "game": self.game.id,
            "round": min(self.round, self.game.options.rounds + 1),
            "rounds": self.game.options.rounds,
            "all_shake_round": self.round > self.game.options.rounds,
            "phase": self.phase,
            "to_act": self.actor(),
            "rolled": list(rolled) if rolled else None,
            "rolled_points": [f * DIE_POINTS for f in rolled] if rolled else None,
            "choosing_order": list(self.queue),
            "shaker": self.shaker,
            "shake_points": self.points,
            "last_shake": list(self.last_shake) if self.last_shake else None,
            "crap_out_chance": f"{crap.numerator}/{crap.denominator}",
            "crap_out_probability": float(crap),
            "all_shake_order": list(self.order),
            "tied_slots": [list(s) for s in self.slots if len(s) > 1] if not self.order else [],
            "roll_off": {
                "seats": list(self.contenders),
                "faces": list(self.rolloff) if self.rolloff else None,
                "picker": self.picker,
            },
            "winners": list(self.winners),
            "players": [
                {
                    "rounds": list(self.pad[s]),
                    "all_shake": self.all_shake[s],
                    "total": totals[s],
                    "crap_outs": self.crap_outs[s],
                    "shakes": self.shakes[s],
                }
                for s in range(self.players)
            ],
        }

    def stats(self) -> dict[str, float]:
        totals = self.totals()
        out: dict[str, float] = {
            "crap_outs": sum(self.crap_outs),
            "shakes": sum(self.shakes),
            "top_score": max(totals),
        }
        for s in range(self.players):
            out[f"score_{self.seat_name(s)}"] = totals[s]
        return out
