"""The Shaker odds ship as counts; counting every throw again must give the same numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamenight.games.gambler import odds


@pytest.mark.parametrize("space", odds.SPACES)
def test_shipped_count_equals_a_fresh_count_over_every_throw(space: str) -> None:
    assert odds.count_wins(space) == odds.WIN_COUNTS[space]


def test_every_space_has_a_count_and_nothing_else_does() -> None:
    assert set(odds.WIN_COUNTS) == set(odds.SPACES)


def test_win_probability_is_the_count_over_all_ordered_throws() -> None:
    assert odds.win_probability("straight") == Fraction(6118, 6**6)
    # a high space wins whenever its die shows the top face, ties included: more than 1/6
    assert odds.win_probability("high-3") > Fraction(1, 6)


def test_unknown_space_is_refused() -> None:
    with pytest.raises(ValueError, match="no Sweepstakes space"):
        odds.win_probability("high-7")
