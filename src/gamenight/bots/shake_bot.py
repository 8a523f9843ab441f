"""A sensible Shake player: exact expected value of shaking, plus the race in the All Shake round.

In an ordinary round the bot compares the die with the value of a shake turn played to the
stopping rule that maximises expected points (a small dynamic programme over the exact shake
law). In the All Shake round points only matter for winning, so it never stops while a stop
would leave it behind someone, and when nobody shakes after it, it stops the moment it leads.
"""

from __future__ import annotations

import random
from functools import cache
from math import comb
from typing import Any, NamedTuple

from gamenight.engine import State
from gamenight.games.shake import DIE_POINTS, ShakeState

STEP = 10  # points on a scoring shake die
CAP = 3000  # points above which the bot always stops (keeps the table small for any option)


@cache
def shake_values(scoring_faces: int) -> tuple[float, ...]:
    """``values[i]``: expected round score with ``10 * i`` in hand, shaking optimally from there."""
    hit = scoring_faces / 6
    law = [comb(6, j) * hit**j * (1 - hit) ** (6 - j) for j in range(7)]  # j scoring dice
    top = CAP // STEP
    values = [float(i * STEP) for i in range(top + 7)]
    for i in range(top - 1, -1, -1):
        shake_on = sum(law[j] * values[i + j] for j in range(1, 7))  # j = 0 craps out to 0
        values[i] = max(i * STEP, shake_on)
    return tuple(values)


def keeps_shaking(points: int, scoring_faces: int) -> bool:
    """Whether another shake beats stopping with ``points`` in hand, in expectation."""
    values = shake_values(scoring_faces)
    i = points // STEP
    return i < len(values) and values[i] > points


def sensible_stop(scoring_faces: int) -> int:
    """The points in hand at which the sensible bot stops an ordinary round's shakes."""
    values = shake_values(scoring_faces)
    return next(i * STEP for i, v in enumerate(values) if v <= i * STEP)


class TurnPlan(NamedTuple):
    """How one seat shakes one round: on until ``stop_at`` points in hand (the search's plan),
    for the turn in which the table's totals are ``totals`` (they stand still while it shakes)."""

    seat: int
    round: int
    stop_at: int
    totals: tuple[int, ...] = ()

    def governs(self, state: State, seat: int) -> bool:
        """Whether this is the turn the plan was made for, so the plan decides without a search."""
        return (
            isinstance(state, ShakeState)
            and state.phase == "shaken"
            and (seat, state.round) == (self.seat, self.round)
            and tuple(state.scores) == self.totals
        )


# Stops the search tries for a turn, as fractions of the sensible stop past where it starts: the
# sensible bot's stop maximises points, while a lead or a deficit wants an earlier or later one.
PLAN_FRACTIONS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0, 1.25, 1.5, 2.0)


def turn_plans(
    state: State, seat: int, legal: list[dict[str, Any]], default: dict[str, Any]
) -> tuple[TurnPlan | None, list[tuple[dict[str, Any], TurnPlan | None]]]:
    """The search's candidates at a decision that starts a turn: the sensible move with the plan
    it follows, and every other move, a shake once for each stop in ``PLAN_FRACTIONS``."""
    assert isinstance(state, ShakeState)
    if state.phase not in ("choose", "shaken"):
        return None, [(a, None) for a in legal if a != default]
    k = state.game.options.scoring_faces
    stop = sensible_stop(k)
    start = state.points if state.phase == "shaken" else 0
    if state.round > state.game.options.rounds:  # All Shake: a stop behind a rival never wins
        rival = max(t for s, t in enumerate(state.scores) if s != seat)
        start = max(start, rival - state.scores[seat] + STEP)
    stops = sorted({start + STEP * max(1, round(stop * f / STEP)) for f in PLAN_FRACTIONS})
    after = state.clone()  # a shake chosen from the queue scores the dice after it at once
    after.apply(_SHAKE, seat)
    totals = tuple(after.scores)  # type: ignore[attr-defined]  # a clone of a ShakeState
    sensible = TurnPlan(seat, state.round, stop, totals) if default == _SHAKE else None
    arms: list[tuple[dict[str, Any], TurnPlan | None]] = [
        (_SHAKE, TurnPlan(seat, state.round, t, totals)) for t in stops
    ]
    arms += [(a, None) for a in legal if a["type"] != "shake"]
    return sensible, [(a, p) for a, p in arms if a != default or p != sensible]


# the bot's actions are shared, read-only dicts, as every action is once applied
_SHAKE, _STOP, _TAKE = {"type": "shake"}, {"type": "stop"}, {"type": "take"}


class ShakeBot:
    """Takes or shakes by expected value; shakes the All Shake round to win, not to score.

    Shake hides nothing (every seat's view is the whole table), so the bot reads the few public
    figures it needs straight from the state instead of building a full view per decision."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # for the Bot constructor contract; the bot is deterministic
        self.plan: TurnPlan | None = None  # a turn it shakes to a stop of the search's choosing
        # the game last played and what the bot reads of its options, kept between decisions
        self._game: object = None
        self._rounds = 0
        self._values: tuple[float, ...] = ()

    def act(self, state: State, seat: int) -> dict[str, Any]:
        if not isinstance(state, ShakeState):
            raise TypeError("ShakeBot plays shake only")
        if state.game is not self._game:  # a game (and its options) never changes
            self._game, self._rounds = state.game, state.game.options.rounds
            self._values = shake_values(state.game.options.scoring_faces)
        phase = state.phase
        if phase == "shaken":
            points = state.points
            plan = self.plan
            if plan is not None and plan.seat == seat and plan.round == state.round:
                more = points < plan.stop_at
            else:
                values = self._values  # keeps_shaking(points, k), inline: asked every shake
                i = points // STEP
                more = i < len(values) and values[i] > points
            if state.round > self._rounds:  # the All Shake round
                return _SHAKE if self._races_on(state, seat, points, more) else _STOP
            return _SHAKE if more else _STOP
        if phase == "choose":
            assert state.rolled is not None
            return _SHAKE if self._values[0] > state.rolled[seat] * DIE_POINTS else _TAKE
        if phase == "order":
            tied = next(a["seats"] for a in state.legal_actions(seat))
            return {"type": "order", "seats": [s for s in tied if s != seat] + [seat]}
        return state.legal_actions(seat)[0]

    def _races_on(self, state: ShakeState, seat: int, points: int, more: bool) -> bool:
        scores = state.scores  # the totals so far, read in place: nothing is changed
        mine = scores[seat] + points
        best_rival = max(scores[:seat] + scores[seat + 1 :])
        # the All Shake order holds every seat, so someone shakes later exactly when another
        # seat has no All Shake score yet (counted without a comprehension: asked every shake)
        done = state.all_shake
        later = done.count(None) > (done[seat] is None)
        if not later:
            return mine <= best_rival  # stop as soon as a stop wins outright
        if mine <= best_rival:
            return True  # totals never fall, so a stop behind a rival cannot win
        return more  # ahead with shakers to come: on to the turn's stop
