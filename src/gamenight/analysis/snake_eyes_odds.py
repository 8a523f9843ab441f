"""Exact Snake Eyes figures by Markov chains over the face-up cards (no sampling).

One player alone: the distribution of the throws needed to turn all ten cards down. Two players:
the expected number of throws of a game (the first-player throw-off aside), solving the chain
over both rows of cards, who holds the dice and the chances left after a complete pass.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from gamenight.games.snake_eyes import CARDS

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}  # ordered ways to throw each total of two dice
FULL = (1 << len(CARDS)) - 1  # bit i: card CARDS[i] face up


@cache
def one_player_mean() -> Fraction:
    """Exact expected throws for one player to turn every card down."""
    mean = [Fraction(0)] * (FULL + 1)
    for mask in range(1, FULL + 1):
        hit = sum(WAYS[c] for i, c in enumerate(CARDS) if mask >> i & 1)
        rest = sum(
            (WAYS[c] * mean[mask & ~(1 << i)] for i, c in enumerate(CARDS) if mask >> i & 1),
            Fraction(0),
        )
        mean[mask] = Fraction(36 + rest, hit)  # E = 1 + (hit/36) E[after] + (1 - hit/36) E
    return mean[FULL]


def one_player_distribution(tail: float = 1e-12) -> np.ndarray:
    """``pmf[n]``: probability that one player needs exactly n throws, until the tail is tiny."""
    dist = np.zeros(FULL + 1)
    dist[FULL] = 1.0
    masks = np.arange(FULL + 1)
    pmf = [0.0]
    while dist[1:].sum() > tail:
        new = np.zeros_like(dist)
        stay = np.full(FULL + 1, 36.0)
        for i, c in enumerate(CARDS):
            up = (masks >> i & 1).astype(bool)
            np.add.at(new, masks[up] & ~(1 << i), dist[up] * WAYS[c] / 36)
            stay[up] -= WAYS[c]
        new[1:] += dist[1:] * stay[1:] / 36
        pmf.append(new[0])
        new[0] = 0.0
        dist = new
    return np.array(pmf)


def two_player_mean_throws() -> float:
    """Expected throws of a two-player game, A throwing first: the chain solved exactly in floats.

    States: both rows of cards, the thrower (0 or 1), chances left (0-3). Cards only go down, so
    each pair of rows is an 8-state system whose exits lead to pairs already solved."""
    from .kernels.exact import snake_eyes_two_player  # a million small systems: needs Numba

    return float(snake_eyes_two_player()[FULL, FULL, 0, 0])


def report(tail: float = 1e-12) -> dict[str, Any]:
    """The exact figures as JSON-ready data."""
    pmf = one_player_distribution(tail)
    cdf = np.cumsum(pmf)
    mean = one_player_mean()

    def q(x: float) -> int:
        return int(np.searchsorted(cdf, x))

    return {
        "game": "snake-eyes",
        "one_player_throws_to_clear": {
            "mean": float(mean),
            "mean_exact": f"{mean.numerator}/{mean.denominator}",
            "sd": float(np.sqrt((pmf * (np.arange(pmf.size) - float(mean)) ** 2).sum())),
            "min": int(np.flatnonzero(pmf)[0]),
            "p50": q(0.5),
            "p90": q(0.9),
            "p99": q(0.99),
            "pmf": [float(x) for x in pmf],
        },
        "two_player_mean_throws": two_player_mean_throws(),
    }
