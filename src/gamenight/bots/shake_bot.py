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


class ShakeBot:
    """Takes or shakes by expected value; shakes the All Shake round to win, not to score."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # for the Bot constructor contract; the bot is deterministic

    def act(self, state: State, seat: int) -> dict[str, Any]:
        view = state.view(seat)
        k = state.game.options.scoring_faces  # type: ignore[attr-defined]
        phase = view["phase"]
        if phase == "choose":
            die = view["rolled_points"][seat]
            return {"type": "shake" if shake_values(k)[0] > die else "take"}
        if phase == "order":
            tied = next(a["seats"] for a in state.legal_actions(seat))
            return {"type": "order", "seats": [s for s in tied if s != seat] + [seat]}
        if phase == "shaken":
            points = view["shake_points"]
            if view["all_shake_round"]:
                return {"type": "shake" if self._races_on(view, seat, points, k) else "stop"}
            return {"type": "shake" if keeps_shaking(points, k) else "stop"}
        return state.legal_actions(seat)[0]

    @staticmethod
    def _races_on(view: dict[str, Any], seat: int, points: int, k: int) -> bool:
        players = view["players"]
        mine = players[seat]["total"] + points
        rivals = [p["total"] for s, p in enumerate(players) if s != seat]
        later = [
            s for s in view["all_shake_order"] if s != seat and players[s]["all_shake"] is None
        ]
        if not later:
            return mine <= max(rivals)  # stop as soon as a stop wins outright
        if mine <= max(rivals):
            return True  # totals never fall, so a stop behind a rival cannot win
        return keeps_shaking(points, k)
