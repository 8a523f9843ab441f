"""The tree-search bot and round-robin tournaments."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

import gamenight
from gamenight.analysis.simulate import play_out
from gamenight.analysis.tournament import BotRecord, lineups, run_tournament, wilson
from gamenight.bots import make_bot
from gamenight.bots.mcts import MCTSBot, determinize
from gamenight.cli import app


@pytest.mark.parametrize("game", gamenight.list_games())
def test_mcts_plays_every_game_legally_to_the_end(game: str) -> None:
    short = {"snake-eyes-casino": {"max_rolls": 4}, "shake": {"rounds": 3}}.get(game, {})
    state = gamenight.new_game(game, players=2, **short).new_state(seed=4)
    bots = [MCTSBot(seed=1, playouts=3), make_bot(game, "sensible", seed=2)]
    play_out(state, bots, max_moves=50_000)  # apply() refuses any illegal move
    assert state.is_terminal()


@pytest.mark.parametrize("game", ["snap", "slap-the-elephant"])
def test_mcts_never_sees_the_face_down_packs(game: str) -> None:
    """Two tables alike in all a seat can see, unlike in their packs: the same decision."""
    state = gamenight.new_game(game, players=3).new_state(seed=8)
    rng = random.Random(0)
    while state.is_chance() or not state.legal_actions(state.actors()[0]):
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    seat = state.actors()[0]
    other = determinize(state, random.Random(99))
    assert other.view(seat) == state.view(seat)
    assert [p for p in other.pack] != [p for p in state.pack]  # type: ignore[attr-defined]
    assert MCTSBot(seed=5, playouts=10).act(state, seat) == MCTSBot(seed=5, playouts=10).act(
        other, seat
    )


def test_mcts_beats_random_at_shake() -> None:
    wins = 0.0
    for deal in range(4):
        for first in (0, 1):
            options = {"players": 2, "rounds": 4}
            state = gamenight.new_game("shake", **options).new_state(seed=deal)
            bots = [MCTSBot(seed=deal, playouts=12), make_bot("shake", "random", seed=deal)]
            if first:
                bots.reverse()
            wins += play_out(state, bots).returns()[first]
    assert wins >= 6, f"mcts won {wins} of 8 games against random"


def test_make_bot_reads_mcts_budgets() -> None:
    assert make_bot("shake", "mcts-7").playouts == 7  # type: ignore[attr-defined]
    assert make_bot("shake", "mcts-0.5s").seconds == 0.5  # type: ignore[attr-defined]
    for bad in ("mcts-0", "mcts-x", "mcts-10000000"):
        with pytest.raises(ValueError, match="mcts-N"):
            make_bot("shake", bad)
    for bad in ("mcts-0s", "mcts-61s", "mcts-xs", "mcts--1s", "mcts-nans"):
        with pytest.raises(ValueError, match="mcts-Ts"):
            make_bot("shake", bad)


def test_the_search_keeps_to_its_playout_budget_every_move() -> None:
    """The budget bounds the thinking: never more playouts than given, none for a forced move."""
    state = gamenight.new_game("gambler", players=2).new_state(seed=5)
    bot, other = MCTSBot(seed=2, playouts=30), make_bot("gambler", "sensible", seed=3)
    decisions = 0
    while not state.is_terminal() and decisions < 40:
        if state.is_chance():
            state.play_chance()
            continue
        seat = state.actors()[0]
        forced = len(state.legal_actions(seat)) == 1
        state.apply((bot if seat == 0 else other).act(state, seat), seat)
        if seat == 0:
            decisions += 1
            assert bot.searched <= 30 and (bot.searched == 0) == forced


def test_the_search_throws_its_own_dice_not_the_tables() -> None:
    """A copy that kept the table's chance stream would know every die still to come."""
    state = gamenight.new_game("shake", players=2).new_state(seed=1)
    while not state.is_chance():
        seat = state.actors()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    coming = state.clone().sample_chance()
    rng = random.Random(3)
    copies = [determinize(state, rng).sample_chance() for _ in range(20)]
    assert any(c != coming for c in copies)
    assert state.clone().sample_chance() == coming  # the table's own stream is untouched


def test_lineups_rotate_everyone_against_everyone() -> None:
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert lineups(2, 4) == [(0, 1, 0, 1)]


def test_extra_seats_go_to_every_bot_alike() -> None:
    """Three bots at four seats: before, the first bot sat twice at every table (the default
    `gamenight tournament gambler --bots random,sensible,mcts` gave random twice the games)."""
    assert lineups(3, 4) == [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)]
    assert lineups(2, 3) == [(0, 1, 0), (1, 0, 1)]
    result = run_tournament("shake", ["random", "sensible", "mcts-2"], deals=1, players=4)
    assert [r.games for r in result.records] == [16, 16, 16]


@pytest.mark.parametrize(
    ("bots", "seed", "message"),
    [
        (["random", "random"], 0, "'random' is listed twice"),
        (["random", "sensible", "random"], 0, "'random' is listed twice"),
        (["random", "sensible"], -5, r"seed.*\(got -5\)"),
        (["random", "sensible"], 2**64, r"seed.*got 18446744073709551616"),
    ],
)
def test_tournament_refuses_a_bot_twice_and_names_the_seed_given(
    bots: list[str], seed: int, message: str
) -> None:
    """A bot listed twice was merged into one record; a bad seed was reported as the derived
    table seed (-5 showed as -5000015)."""
    with pytest.raises(gamenight.BadOption, match=message):
        run_tournament("shake", bots, deals=1, players=2, seed=seed)


def test_wilson_interval_is_honest_at_the_edges() -> None:
    low, high = wilson(1.0, 10)
    assert 0.6 < low < 1.0 and high == 1.0
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.404, abs=0.002) and high == pytest.approx(0.596, abs=0.002)


def test_tournament_rates_the_sensible_bot_above_random() -> None:
    result = run_tournament("gambler", ["random", "sensible"], deals=8, players=2, seed=3)
    data = result.to_json()
    assert data["games"] == 16  # one lineup, two rotations, eight shared deals
    assert [b["bot"] for b in data["bots"]] == ["sensible", "random"]
    assert all(b["games"] == 16 for b in data["bots"])
    assert data["bots"][0]["rating"] > data["bots"][1]["rating"]
    shares = sum(b["win_share"] for b in data["bots"])
    assert shares == pytest.approx(1.0)


def test_tournament_is_repeatable_and_seats_rotate() -> None:
    one = run_tournament("shake", ["random", "sensible"], deals=3, players=2, seed=1).to_json()
    two = run_tournament("shake", ["random", "sensible"], deals=3, players=2, seed=1).to_json()
    assert one == two


def test_tournament_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    chart = tmp_path / "t.png"
    out = runner.invoke(
        app,
        [
            "tournament",
            "gambler",
            "--bots",
            "random,sensible",
            "--games",
            "2",
            "--players",
            "2",
            "--json",
            "--plot",
            str(chart),
        ],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["bots"][0]["games"] == 4
    assert chart.read_bytes()[:4] == b"\x89PNG"
    refused = runner.invoke(app, ["tournament", "snap"])
    assert refused.exit_code == 2 and "real-time" in refused.output
    unknown = runner.invoke(app, ["tournament", "shake", "--bots", "random,wizard"])
    assert unknown.exit_code == 2 and "wizard" in unknown.output


def test_make_bot_gives_the_optimal_shake_bot_and_refuses_it_elsewhere() -> None:
    from gamenight.bots.optimal_shake import OptimalShakeBot

    assert isinstance(make_bot("shake", "optimal", seed=1), OptimalShakeBot)
    with pytest.raises(ValueError, match="no optimal bot for 'gambler'"):
        make_bot("gambler", "optimal")


def test_tournament_refuses_a_single_seat_before_playing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The casino table seats one: every game was played, then OpenSkill failed with "Argument
    'teams' must have at least 2 teams". Spaces after commas are fine; a chart goes to the path
    given (a directory was written as '<dir>.png' beside it)."""
    runner = CliRunner()
    one = runner.invoke(
        app, ["tournament", "snake-eyes-casino", "--bots", "random,sensible", "--players", "1"]
    )
    assert one.exit_code == 2 and "2 seats or more (got 1)" in one.output
    spaced = runner.invoke(
        app, ["tournament", "shake", "--bots", "random, sensible", "--games", "1", "--json"]
    )
    assert spaced.exit_code == 0, spaced.output
    assert {b["bot"] for b in json.loads(spaced.stdout)["bots"]} == {"random", "sensible"}
    folder = tmp_path / "charts"
    folder.mkdir()
    drawn = runner.invoke(
        app,
        ["tournament", "shake", "--bots", "random,sensible", "--games", "1", "--plot", str(folder)],
    )
    assert drawn.exit_code == 2 and "is a directory" in drawn.output
    assert not (tmp_path / "charts.png").exists()


def test_mean_return_interval_uses_the_sample_variance() -> None:
    """Returns 1 and 0: sample variance 1/2, so 1.96 * sqrt(1/4) = 0.98 (the population
    variance gave 0.69, too narrow for the few games a quick tournament plays)."""
    rec = BotRecord("x")
    rec.add(1.0, 1.0)
    rec.add(0.0, 0.0)
    assert rec.summary()["mean_return_ci"] == pytest.approx(0.98)


def test_tournament_reports_progress_and_ctrl_c_keeps_the_games_played() -> None:
    """A long tournament (MCTS at the casino table takes minutes a game) showed nothing until
    the end, and Ctrl-C lost every game. Now each game is reported, deal by deal in every
    seating, and an interrupt rates the games played."""
    seen: list[tuple[int, int]] = []

    def stop_after_one_deal(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 6:  # three bots, two seats: one deal is three lineups in two rotations
            raise KeyboardInterrupt

    result = run_tournament(
        "shake", ["random", "sensible", "optimal"], deals=4, players=2, progress=stop_after_one_deal
    )
    assert seen == [(i, 24) for i in range(1, 7)]
    assert result.interrupted and result.to_json()["interrupted"] is True
    assert result.to_json()["games"] == 6
    assert [r.games for r in result.records] == [4, 4, 4]  # the stop came after a whole deal
    whole = run_tournament("shake", ["random", "sensible"], deals=1, players=2)
    assert not whole.interrupted
