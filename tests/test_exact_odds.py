"""Exact figures (Markov chains, dynamic programmes) checked against long simulations."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("numba", reason="exact analysis needs the 'kernels' extra (numba)")

from gamenight.analysis import shake_odds, snake_eyes_odds  # noqa: E402
from gamenight.analysis.runner import run  # noqa: E402
from gamenight.analysis.stats import Figure, wilson  # noqa: E402
from gamenight.bots.shake_bot import keeps_shaking  # noqa: E402
from gamenight.cli import app  # noqa: E402


def test_two_player_snake_eyes_length_by_markov_chain_matches_a_long_simulation() -> None:
    exact = snake_eyes_odds.two_player_mean_throws()
    assert exact == pytest.approx(73.7385, abs=5e-5)
    sim = run("snake-eyes", 400_000, seed=21, players=2, first_player=0).tally
    lo, hi = sim.figures["throws"].ci()
    assert lo <= exact <= hi


def test_one_player_throws_to_clear_distribution_matches_a_simulation() -> None:
    pmf = snake_eyes_odds.one_player_distribution()
    mean = float(snake_eyes_odds.one_player_mean())
    assert pmf.sum() == pytest.approx(1.0, abs=1e-9)
    assert (np.arange(pmf.size) * pmf).sum() == pytest.approx(mean, rel=1e-9)
    assert pmf[:10].sum() == 0 and pmf[10] == pytest.approx(np.prod([w / 36 for w in range(1, 6)]
                                                          * 2) * 3628800, rel=1e-9)  # fmt: skip
    # one player alone, 200,000 times at once in NumPy
    rng = np.random.default_rng(5)
    cards = np.array([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
    bit = np.zeros(13, dtype=np.int64)
    bit[cards] = 1 << np.arange(10)
    up = np.full(200_000, 1023)
    throws = np.zeros(200_000, dtype=np.int64)
    while (live := up > 0).any():
        totals = rng.integers(1, 7, size=up.size) + rng.integers(1, 7, size=up.size)
        throws += live
        up &= ~bit[totals]
    fig = Figure()
    fig.add_array(throws)
    lo, hi = fig.ci()
    assert lo <= mean <= hi
    p50 = int(np.searchsorted(np.cumsum(pmf), 0.5))
    assert abs(fig.quantile(0.5) - p50) <= 1


def test_crap_out_chance_is_what_the_shake_kernel_sees() -> None:
    for k in (1, 3):
        sim = run("shake", 20_000, seed=k, players=2, scoring_faces=k).tally
        craps, shakes = sim.figures["crap_outs"].total, sim.figures["shakes"].total
        lo, hi = wilson(craps, shakes)
        assert lo <= float(shake_odds.crap_out_chance(k)) <= hi


def test_ev_of_shaking_matches_simulated_shake_turns_and_the_bots_rule() -> None:
    k = 3
    stop = shake_odds.ev_stop_at(k)
    assert stop == 1920
    assert all(keeps_shaking(p, k) == (p < stop) for p in range(0, 2500, 10))
    ev = shake_odds.ev_of_shaking(k)
    rng = np.random.default_rng(8)
    n = 200_000
    points = np.zeros(n, dtype=np.int64)
    live = np.ones(n, dtype=bool)
    while live.any():
        hits = rng.binomial(6, k / 6, size=n)
        crapped = live & (hits == 0)
        points[crapped] = 0
        live &= ~crapped
        points[live] += 10 * hits[live]
        live &= points < stop
    fig = Figure()
    fig.add_array(points)
    lo, hi = fig.ci()
    assert lo <= ev <= hi


def test_all_shake_follower_chance_matches_simulation() -> None:
    from gamenight.solvers.shake_dp import follower, follower_start

    k = 2
    p = shake_odds.hits_law(k)
    v = follower(p, 200)
    rng = np.random.default_rng(13)
    for gap in (0, 5, 30):
        n = 100_000
        got = np.zeros(n, dtype=np.int64)
        live = np.ones(n, dtype=bool)
        score = np.zeros(n)  # 1 win, 0.5 tie, 0 loss
        first = True
        while live.any():
            hits = rng.binomial(6, k / 6, size=n)
            crapped = live & (hits == 0)
            score[crapped] = 0.5 if gap == 0 else 0.0
            live &= ~crapped
            got[live] += hits[live]
            ahead = live & (got > gap)
            score[ahead] = 1.0
            live &= ~ahead
            # level after a shake: shake on only while that beats the half share
            level = live & (got == gap) & ~first
            if 1 - p[0] <= 0.5:
                score[level] = 0.5
                live &= ~level
            first = False
        exact = follower_start(v, p, gap)
        half = 1.96 * score.std() / np.sqrt(n)
        assert abs(score.mean() - exact) <= half


def test_win_programme_is_fair_at_the_start_and_rises_with_the_lead() -> None:
    w, _ = shake_odds.win_tables(10, 3)
    mid = shake_odds.LEAD
    assert w[0, mid] == pytest.approx(0.5, abs=1e-12)
    row = w[0, mid - 300 : mid + 301]
    assert np.all(np.diff(row) >= -1e-12) and row[0] < 0.35 and row[-1] > 0.65


def test_optimal_bot_plays_whole_games_and_does_not_lose_to_the_sensible_bot() -> None:
    import gamenight
    from gamenight.analysis.simulate import play_out
    from gamenight.bots.optimal_shake import OptimalShakeBot
    from gamenight.bots.shake_bot import ShakeBot

    game = gamenight.new_game("shake", players=2, rounds=3)
    score = 0.0
    n = 160
    for i in range(n):
        bots = [OptimalShakeBot(), ShakeBot()]
        if i % 2:
            bots.reverse()
        state = play_out(game.new_state(seed=i), bots)
        score += state.returns()[i % 2]
    assert score / n > 0.45  # a sanity bound; the programme's edge is a few points
    three = gamenight.new_game("shake", players=3, rounds=2)
    assert play_out(three.new_state(seed=1), [OptimalShakeBot() for _ in range(3)]).is_terminal()


def test_cli_odds_prints_both_games_exactly() -> None:
    cli = CliRunner()
    se = json.loads(cli.invoke(app, ["odds", "snake-eyes", "--json"]).stdout)
    assert round(se["two_player_mean_throws"], 4) == 73.7385
    assert se["one_player_throws_to_clear"]["mean_exact"] == "3958536053701/64696932300"
    sh = json.loads(cli.invoke(app, ["odds", "shake", "--json"]).stdout)
    assert sh["scoring_faces"]["3"]["crap_out_chance"] == "1/64"
    assert sh["win_policy"]["win_chance_by_lead_before_round"]["1"]["0"] == pytest.approx(0.5)
    text = cli.invoke(app, ["odds", "shake"]).stdout
    assert "1/64" in text and "win-optimal" in text
    bad = cli.invoke(app, ["odds", "shake", "--table", "pyproject.toml"])
    assert bad.exit_code == 2


def test_cli_odds_casino_adds_the_risk_for_a_strategy() -> None:
    cli = CliRunner()
    args = ["odds", "snake-eyes-casino", "--strategy", "numbers", "--bankroll", "200"]
    out = json.loads(cli.invoke(app, [*args, "--unit", "10", "--rolls", "50", "--json"]).stdout)
    assert out["risk"]["settings"]["rolls"] == 50 and 0 < out["risk"]["risk_of_ruin"] < 1
    assert out["risk"]["expected_rolls"] <= 50
    assert "risk of ruin" in cli.invoke(app, args).stdout
    bad = cli.invoke(app, ["odds", "snake-eyes-casino", "--strategy", "martingale"])
    assert bad.exit_code == 2 and "choose one of" in bad.output


def test_shake_stop_table_reads_each_round_against_the_round_after_it() -> None:
    """`gamenight odds shake` labelled round r with the policy of round r - 1 (it read the win
    table before the round instead of after it), so the last round before the All Shake was
    never shown. A stop in the last round moves the game to the All Shake round: check that row
    against the All Shake table directly."""
    from gamenight.solvers.shake_dp import shake_turn

    rounds = 10
    w, _ = shake_odds.win_tables(rounds, 3)
    p = shake_odds.hits_law(3)
    d, cap = shake_odds.LEAD, shake_odds.CAP
    policy = shake_odds.report(rounds)["win_policy"]
    for lead in (-500, -200, 0, 200, 500):
        e = lead // 10
        t = shake_turn(e, w[rounds], d, p, cap)
        stops = [10 * i for i in range(1, cap) if w[rounds][e + i + d] >= t[i] - 1e-15]
        assert policy["stop_at_points_by_round_and_lead"][str(rounds)][str(lead)] == stops[0]
        shown = policy["stop_regions_by_round_and_lead"][str(rounds)][str(lead)]
        assert [x for lo, hi in shown for x in range(lo, hi + 10, 10)] == stops


def test_shake_stop_table_shows_every_range_where_the_shaker_stops() -> None:
    """Far behind late on, the win-optimal shaker stops at a few hundred points, shakes on
    above that, and stops again in the thousands: one "stop at" figure hid the second range."""
    policy = shake_odds.report(10)["win_policy"]
    assert policy["stop_regions_by_round_and_lead"]["8"]["-500"] == [[400, 430], [3170, 3990]]
    text = CliRunner().invoke(app, ["odds", "shake"]).stdout
    assert "400-430, 3170+" in text


def test_shake_ev_table_shows_the_points_a_shaker_can_hold_when_it_stops() -> None:
    """The column said "stop at 29.9", the break-even, which nobody can hold: points come in
    tens, and the EV shaker (the sensible bot) stops from 30. Each row is where the bot stops,
    with the break-even beside it in brackets (issue 30)."""
    import re

    text = CliRunner().invoke(app, ["odds", "shake"]).stdout
    for k in (1, 2):  # (the third row's break-even wraps to a second line at 80 columns)
        row = re.search(rf"│\s+{k} │[^│]+│[^│]+│\s+([\d,]+) \(([\d,.]+)\) │", text)
        assert row is not None, text
        stop = int(row.group(1).replace(",", ""))
        assert keeps_shaking(stop - 10, k) and not keeps_shaking(stop, k)
        figures = shake_odds.report()["scoring_faces"][str(k)]
        assert figures["ev_stop_from_points"] == stop
        assert row.group(2) == f"{figures['ev_stop_at_points']:,.1f}"


def test_shake_rules_page_says_what_the_sensible_bot_does_with_one_scoring_face() -> None:
    """The page said the bot takes with one scoring face; a shake turn is worth about 14
    points there, so it shakes a die of 10 (and takes 20 or more)."""
    from pathlib import Path

    from gamenight.bots.shake_bot import shake_values

    worth = shake_values(1)[0]
    assert 10 < worth < 20
    page = " ".join((Path(__file__).parents[1] / "docs/rules/shake.md").read_text().split())
    assert "it shakes a 10 and takes anything higher" in page


def test_shake_rules_page_example_of_the_win_optimal_stops_is_what_odds_prints() -> None:
    """The rules page now explains the policy table; its worked example is the programme's."""
    import re
    from pathlib import Path

    page = " ".join((Path(__file__).parents[1] / "docs/rules/shake.md").read_text().split())
    found = re.search(
        r"in round (\d+), (\d+) points behind, it stops at (\d+)-(\d+) .*? stops again from (\d+)",
        page,
    )
    assert found is not None
    r, behind, lo, hi, again = (int(x) for x in found.groups())
    policy = shake_odds.report(10)["win_policy"]
    assert policy["stop_regions_by_round_and_lead"][str(r)][str(-behind)] == [
        [lo, hi],
        [again, policy["stop_cap_points"] - 10],
    ]


def test_snake_eyes_rules_page_quotes_the_exact_figures_odds_prints() -> None:
    """The page named the simulated figures only; the exact lengths it now quotes are the
    chains' own."""
    import re
    from pathlib import Path

    page = " ".join((Path(__file__).parents[1] / "docs/rules/snake-eyes.md").read_text().split())
    found = re.search(
        r"one player alone needs ([\d.]+) throws on average .*?\(median (\d+), 99 % within "
        r"(\d+)\), and a two-player game lasts ([\d.]+) throws",
        page,
    )
    assert found is not None
    mean, p50, p99, two = found.groups()
    one = snake_eyes_odds.report()["one_player_throws_to_clear"]
    assert (f"{one['mean']:.2f}", str(one["p50"]), str(one["p99"])) == (mean, p50, p99)
    assert f"{snake_eyes_odds.two_player_mean_throws():.2f}" == two
