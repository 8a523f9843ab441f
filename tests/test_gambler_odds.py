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


def test_cli_odds_gambler_prints_every_space_ticket_race_and_the_doubles_choice() -> None:
    """`gamenight odds gambler` was refused ('exact odds are worked out for snake-eyes, shake
    and snake-eyes-casino'), though the Shaker's odds are exact and shown at the table. The
    figures here are worked out afresh: the ticket and pairs by complement, the race by its
    six horses, the doubles choice from rule 'ROLLING DOUBLES'."""
    import json
    from itertools import product

    from typer.testing import CliRunner

    from gamenight.cli import app

    cli = CliRunner()
    out = json.loads(cli.invoke(app, ["odds", "gambler", "--json"]).stdout)
    rows = {r["space"]: r for r in out["sweepstakes"]["spaces"]}
    assert len(rows) == 12
    no_pair = 6 * 5**5  # each die differs from the one before it
    assert Fraction(rows["pairs"]["win"]) == 1 - Fraction(no_pair, 6**6)
    high = sum(1 for t in product(range(1, 7), repeat=6) if t[2] == max(t))
    assert Fraction(rows["high-3"]["win"]) == Fraction(high, 6**6)
    assert rows["pairs"]["expected_net"]["exact"] == str(Fraction(no_pair, 6**6) * -200 + 190)
    assert out["sweepstakes"]["best_space"] == "pairs"
    both = 1 - 2 * Fraction(5, 6) ** 6 + Fraction(4, 6) ** 6
    assert Fraction(out["lottery_ticket"]["win"]) == both
    assert out["lottery_ticket"]["expected_prize_per_lottery"]["dollars"] == 20.9
    assert Fraction(out["horse_race"]["expected_net"]["exact"]) == Fraction(80, 6) - 20
    assert Fraction(out["doubles"]["roll_again_worth"]["exact"]) == Fraction(500, 6)
    text = " ".join(cli.invoke(app, ["odds", "gambler"], terminal_width=200).stdout.split())
    assert "pairs │ 4651/7776 (59.81%) │ $200 │ $119.62 │ +$109.62" in text
    assert "expected net -$6.67" in text and "worth $83.33" in text
    bad = cli.invoke(app, ["odds", "gambler", "--strategy", "numbers"])
    assert bad.exit_code == 2 and "--strategy" in bad.output
