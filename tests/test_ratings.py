"""Tournament ratings agree with the games: a synthetic tournament of known strengths, order
independence, and bots refused by name where they cannot play."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gamenight.analysis.ratings import ELO, HeadToHead
from gamenight.analysis.tournament import run_tournament
from gamenight.bots import make_bot
from gamenight.cli import app

TRUE_ELO = {"weak": 1300.0, "fair": 1480.0, "good": 1520.0, "strong": 1700.0}


def synthetic(seed: int, games: int, seats: int) -> list[tuple[list[str], list[float]]]:
    """Games among bots of known Elo: Plackett–Luce orders (the best seat drawn by strength,
    then the next among the rest), each seat's return its place counted from the bottom."""
    rng = random.Random(seed)
    names = list(TRUE_ELO)
    out = []
    for _ in range(games):
        seating = rng.sample(names, seats)
        left, order = list(range(seats)), []
        while left:
            weights = [math.exp(TRUE_ELO[seating[s]] / ELO) for s in left]
            pick = rng.choices(left, weights)[0]
            order.append(pick)
            left.remove(pick)
        returns = [0.0] * seats
        for place, s in enumerate(order):
            returns[s] = float(seats - place)
        out.append((seating, returns))
    return out


@pytest.mark.parametrize("seats", [2, 4])
def test_a_synthetic_tournament_recovers_the_known_strengths(seats: int) -> None:
    h2h = HeadToHead(list(TRUE_ELO))
    for seating, returns in synthetic(seed=11, games=6000, seats=seats):
        h2h.add(seating, returns)
    fitted = h2h.ratings()
    assert sorted(fitted, key=lambda n: fitted[n].elo) == ["weak", "fair", "good", "strong"]
    mean = sum(TRUE_ELO.values()) / len(TRUE_ELO)
    for name, rating in fitted.items():  # centred alike, each true value inside its interval
        assert rating.low < TRUE_ELO[name] - mean + 1500 < rating.high, (name, rating)


def test_ratings_do_not_depend_on_the_order_of_the_games() -> None:
    """The online update followed the last games: reversed, the same games rated otherwise."""
    games = synthetic(seed=3, games=2000, seats=2)
    forward, backward = HeadToHead(list(TRUE_ELO)), HeadToHead(list(TRUE_ELO))
    for seating, returns in games:
        forward.add(seating, returns)
    for seating, returns in reversed(games):
        backward.add(seating, returns)
    assert forward.ratings() == backward.ratings()


@given(st.integers(0, 400), st.integers(0, 400))
def test_two_bots_the_gap_is_the_one_their_results_imply(won: int, lost: int) -> None:
    h2h = HeadToHead(["a", "b"])
    for k in range(won + lost):
        a_wins = k < won
        if k % 2:  # seats alternate, as in a tournament
            h2h.add(["a", "b"], [1.0, 0.0] if a_wins else [0.0, 1.0])
        else:
            h2h.add(["b", "a"], [0.0, 1.0] if a_wins else [1.0, 0.0])
    r = h2h.ratings()
    gap = r["a"].elo - r["b"].elo
    # the odds of the results (with the half-win each way the fit starts from), on Elo's scale
    assert gap == pytest.approx(ELO * math.log((won + 0.5) / (lost + 0.5)), abs=1e-6)
    assert (gap > 0) == (won > lost) and r["a"].low < r["a"].elo < r["a"].high


def test_ties_count_half_and_seats_of_one_bot_are_not_compared() -> None:
    h2h = HeadToHead(["a", "b"])
    h2h.add(["a", "b", "a"], [1.0, 1.0, 0.0])
    assert h2h.share("a", "b")[0] == pytest.approx(0.25)  # a tie and a loss, half weight each
    assert h2h.share("a", "b")[3] == pytest.approx(1.0)


def test_the_pairwise_table_reads_the_head_to_head_results() -> None:
    data = run_tournament("shake", ["random", "sensible"], deals=4, players=2, seed=1).to_json()
    cell, back = data["pairwise"]["sensible"]["random"], data["pairwise"]["random"]["sensible"]
    assert cell["pairs"] == 8 and cell["share"] + back["share"] == pytest.approx(1.0)
    assert cell["low"] <= cell["share"] <= cell["high"]
    shares = {b["bot"]: b["win_share"] for b in data["bots"]}
    assert cell["share"] == pytest.approx(shares["sensible"])  # two seats: the same games


def test_a_bot_that_cannot_play_the_table_is_refused_by_name() -> None:
    """At three seats the optimal Shake bot played as the sensible one under its own label."""
    with pytest.raises(ValueError, match="optimal shake bot plays 2 players only, not 3"):
        make_bot("shake", "optimal", players=3)
    with pytest.raises(ValueError, match="optimal"):
        run_tournament("shake", ["sensible", "optimal"], deals=1, players=3)
    out = CliRunner().invoke(
        app, ["tournament", "shake", "--bots", "sensible,optimal", "--players", "3"]
    )
    assert out.exit_code == 2 and "optimal" in out.output and "not 3" in out.output


def test_tournament_help_lists_every_bot_and_prints_the_pairwise_table() -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "200"})
    from gamenight.bots.factory import BOT_KINDS, HELP
    from gamenight.cli.analyse import BOT_HELP

    assert BOT_HELP == HELP
    for kind in BOT_KINDS:
        assert kind in shown.output
    out = runner.invoke(
        app, ["tournament", "shake", "--bots", "random,sensible", "--games", "2", "--players", "2"]
    )
    assert out.exit_code == 0 and "head to head" in out.output and "Elo" in out.output
    data = json.loads(
        runner.invoke(
            app, ["tournament", "shake", "--bots", "random,sensible", "--games", "1", "--json"]
        ).stdout
    )
    assert {"rating", "rating_low", "rating_high"} <= set(data["bots"][0])
