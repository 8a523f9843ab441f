"""Exact odds for Gambler's six-dice Shaker: Sweepstakes spaces and lottery tickets.

Every ordered throw of six dice is equally likely, so each probability is a count over 6**6,
kept as a Fraction. The Shaker's positions are numbered 1 to 6 along the handle. Counting takes
over half a second (46,656 throws for each space), so the counts ship as data (``WIN_COUNTS``);
the tests count again and check that the two agree.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from gamenight.engine.chance import dice_faces

HIGH_PRIZE, SPLIT_PRIZE, STRAIGHT_PRIZE, PAIRS_PRIZE = 300, 150, 450, 200
# The board art is lost; gamenight's layout puts its four green Splits over these positions.
SPLITS: dict[str, tuple[int, int]] = {
    "split-1-2": (1, 2),
    "split-2-3": (2, 3),
    "split-4-5": (4, 5),
    "split-5-6": (5, 6),
}
SPACES: tuple[str, ...] = (
    *(f"high-{p}" for p in range(1, 7)),
    *SPLITS,
    "straight",
    "pairs",
)


def prize(space: str) -> int:
    if space.startswith("high-"):
        return HIGH_PRIZE
    if space.startswith("split-"):
        return SPLIT_PRIZE
    return STRAIGHT_PRIZE if space == "straight" else PAIRS_PRIZE


def has_straight(dice: tuple[int, ...] | list[int]) -> bool:
    """Three neighbouring dice that count up or down by one (3-4-5 and 3-2-1 both count)."""
    return any(
        (dice[i + 1] - dice[i]) == (dice[i + 2] - dice[i + 1]) in (1, -1)
        for i in range(len(dice) - 2)
    )


def has_pair(dice: tuple[int, ...] | list[int]) -> bool:
    """The same number on two neighbouring dice."""
    return any(dice[i] == dice[i + 1] for i in range(len(dice) - 1))


def wins(space: str, dice: tuple[int, ...] | list[int]) -> bool:
    """Does a marker on ``space`` win with the Shaker showing ``dice`` (positions 1..6)?"""
    top = max(dice)
    if space.startswith("high-"):
        return dice[int(space[5:]) - 1] == top
    if space in SPLITS:
        a, b = SPLITS[space]
        return top in (dice[a - 1], dice[b - 1])
    if space == "straight":
        return has_straight(dice)
    if space == "pairs":
        return has_pair(dice)
    raise ValueError(f"no Sweepstakes space {space!r}")


THROWS = 6**6
# How many of the 6**6 ordered throws win each space: count_wins(space), computed once, kept here.
WIN_COUNTS: dict[str, int] = {
    **{f"high-{p}": 12201 for p in range(1, 7)},
    **dict.fromkeys(SPLITS, 22127),
    "straight": 6118,
    "pairs": 27906,
}


def count_wins(space: str) -> int:
    """Count the ordered throws of six dice on which a marker on ``space`` wins."""
    return sum(wins(space, t) for t in dice_faces(6))


@cache
def win_probability(space: str) -> Fraction:
    """Exact chance that a marker on ``space`` wins (prizes are not shared, so other markers do
    not change it; they only take spaces away)."""
    if space not in WIN_COUNTS:
        raise ValueError(f"no Sweepstakes space {space!r}")
    return Fraction(WIN_COUNTS[space], THROWS)


def space_odds(taken: set[str] | frozenset[str] = frozenset()) -> dict[str, dict[str, object]]:
    """Each free space with its exact chance and expected prize, as a marker is placed."""
    out: dict[str, dict[str, object]] = {}
    for space in SPACES:
        if space in taken:
            continue
        p = win_probability(space)
        out[space] = {"p": p, "prize": prize(space), "expected": p * prize(space)}
    return out


def ticket_probability(a: int, b: int) -> Fraction:
    """Chance both numbers of a ticket show among six dice: inclusion-exclusion, exactly."""
    if a == b:
        return 1 - Fraction(5, 6) ** 6
    return 1 - 2 * Fraction(5, 6) ** 6 + Fraction(4, 6) ** 6


def ticket_value(a: int, b: int, payout: int = 50) -> Fraction:
    """Expected winnings of one ticket in one Lottery."""
    return payout * ticket_probability(a, b)
