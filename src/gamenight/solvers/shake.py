"""Two-player Shake solved exactly: the law of scoring dice and the win tables of optimal play.

A dynamic programme over rounds and the lead in which both players take, shake and stop so as
to win, the All Shake round solved first (compiled: ``shake_dp``, imported on first use, as it
needs Numba). It sits below the bots and the analysis, so the optimal bot plays by it and
``analysis.shake_odds`` reports from it.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

LEAD = 1500  # leads are clamped to +-15,000 points in the win-probability programme
CAP = 400  # a shaker stops at 4,000 points in hand there (a lead past that decides the game)


def hits_law(scoring_faces: int) -> np.ndarray:
    """``p[j]``: chance that exactly j of the six shake dice score."""
    q = scoring_faces / 6
    return np.array([comb(6, j) * q**j * (1 - q) ** (6 - j) for j in range(7)])


@cache
def win_tables(rounds: int, scoring_faces: int) -> tuple[np.ndarray, np.ndarray]:
    """The two-player programme's tables (see ``shake_dp.shake_win_dp``)."""
    from .shake_dp import shake_win_dp

    return shake_win_dp(rounds, hits_law(scoring_faces), LEAD, CAP)
