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
from typing import Any

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


# the bot's actions are shared, read-only dicts, as every action is once applied
_SHAKE, _STOP, _TAKE = {"type": "shake"}, {"type": "stop"}, {"type": "take"}


class ShakeBot:
    """Takes or shakes by expected value; shakes the All Shake round to win, not to score.

    Shake hides nothing (every seat's view is the whole table), so the bot reads the few public
    figures it needs straight from the state instead of building a full view per decision."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # for the Bot constructor contract; the bot is deterministic
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
            if state.round > self._rounds:  # the All Shake round
                return _SHAKE if self._races_on(state, seat, points) else _STOP
            values = self._values  # keeps_shaking(points, k), inline: asked every shake
            i = points // STEP
            return _SHAKE if i < len(values) and values[i] > points else _STOP
        if phase == "choose":
            assert state.rolled is not None
            return _SHAKE if self._values[0] > state.rolled[seat] * DIE_POINTS else _TAKE
        if phase == "order":
            tied = next(a["seats"] for a in state.legal_actions(seat))
            return {"type": "order", "seats": [s for s in tied if s != seat] + [seat]}
        return state.legal_actions(seat)[0]

    def _races_on(self, state: ShakeState, seat: int, points: int) -> bool:
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
        values = self._values  # keeps_shaking(points, k), inline
        i = points // STEP
        return i < len(values) and values[i] > points
