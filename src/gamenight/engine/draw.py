"""One chance draw from an exact law with one uniform double, in a few float comparisons.

The generic draw walks the outcomes adding Fractions until the uniform falls below the running
sum: exact, but slow. ``Law`` does that walk once: it keeps each running sum rounded up to the
grid of 2**-53 that uniform doubles live on (``random.random()`` and the engine's chance stream
both give multiples of 2**-53), and a uniform ``u`` on that grid is below the exact sum if and
only if it is below the rounded one. So ``Law.draw(u)`` returns exactly what the walk would.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from math import ceil
from typing import Any

GRID = 2**53  # uniform doubles are whole multiples of 1 / GRID


class Law:
    """A finite law of chance actions, drawn by one uniform double from [0, 1)."""

    __slots__ = ("actions", "bounds", "last")

    def __init__(self, outcomes: Sequence[tuple[Any, Fraction]]) -> None:
        self.actions = [action for action, _ in outcomes]
        bounds, acc = [], Fraction(0)
        for _, p in outcomes:
            acc += p
            bounds.append(ceil(acc * GRID) / GRID)  # exact: a whole number over a power of 2
        self.bounds = bounds
        self.last = len(bounds) - 1

    def draw(self, u: float) -> Any:
        """The first outcome whose running sum of probabilities exceeds ``u``."""
        i = bisect_right(self.bounds, u)
        return self.actions[i if i <= self.last else self.last]


def uniform_index(u: float, n: int) -> int:
    """``floor(u * n)`` in exact arithmetic: the walk's pick among ``n`` equally likely
    outcomes, for a uniform ``u`` on the grid."""
    return int(u * GRID) * n // GRID


def walk(outcomes: Sequence[tuple[Any, Fraction]], u: float) -> Any:
    """The generic draw, Fraction by Fraction: what ``Law.draw`` must agree with."""
    r, acc = Fraction(u), Fraction(0)
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]
