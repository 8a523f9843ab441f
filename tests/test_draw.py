"""A Law draws exactly what the generic Fraction walk draws, for every uniform on the grid."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from gamenight.engine.chance import dice_outcomes
from gamenight.engine.draw import GRID, Law, uniform_index, walk
from gamenight.games.shake import shake_law

LAWS = [
    dice_outcomes(2),
    [(i, Fraction(1, 3)) for i in range(3)],  # thirds: no sum is a float
    [("a", Fraction(1, 7)), ("b", Fraction(5, 7)), ("c", Fraction(1, 7))],
    [((f, p), p) for f, p in shake_law(1)],  # 64 uneven outcomes over 6**6
    [("only", Fraction(1))],
]


def grid_points_near(p: Fraction) -> list[float]:
    """The grid doubles just below, at and just above an exact running sum."""
    m = int(p * GRID)
    return [k / GRID for k in (m - 1, m, m + 1) if 0 <= k < GRID]


def test_law_agrees_with_the_walk_at_every_boundary() -> None:
    for outcomes in LAWS:
        law, acc = Law(outcomes), Fraction(0)
        for _, p in outcomes:
            acc += p
            for u in grid_points_near(acc):
                assert law.draw(u) == walk(outcomes, u), (outcomes[:2], u)


@given(st.integers(0, GRID - 1), st.sampled_from(range(len(LAWS))))
def test_law_agrees_with_the_walk_anywhere(m: int, which: int) -> None:
    outcomes, u = LAWS[which], m / GRID
    assert Law(outcomes).draw(u) == walk(outcomes, u)


def test_python_random_gives_grid_doubles() -> None:
    rng = random.Random(5)
    for _ in range(1000):
        u = rng.random()
        assert (u * GRID).is_integer()


@given(st.integers(0, GRID - 1), st.integers(1, 60))
def test_uniform_index_is_the_walk_over_equal_chances(m: int, n: int) -> None:
    u = m / GRID
    outcomes = [(i, Fraction(1, n)) for i in range(n)]
    assert uniform_index(u, n) == walk(outcomes, u)
