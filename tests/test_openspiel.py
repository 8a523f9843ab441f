"""gamenight games registered with OpenSpiel: OpenSpiel's own tests and algorithms run on them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

import gamenight  # noqa: E402
from gamenight.rl import openspiel as gos  # noqa: E402
from gamenight.rl.encoding import encoding  # noqa: E402

GAMES = gamenight.list_games()
# OpenSpiel's random simulation test checks every state's strings, clones and returns; its cost
# grows with the square of a game's length, so the two longest games take MCTS only
SHORT = ["gambler", "shake", "snake-eyes", "snap"]


def test_every_game_is_registered() -> None:
    assert gos.register() == [gos.short_name(g) for g in GAMES]
    names = pyspiel.registered_names()
    assert all(gos.short_name(g) in names for g in GAMES)


@pytest.mark.parametrize("game_id", SHORT)
def test_openspiel_random_simulation_test_passes(game_id: str) -> None:
    game = pyspiel.load_game(gos.short_name(game_id), {"players": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "snake-eyes"])
def test_openspiel_mcts_picks_a_legal_move_in_every_game_with_decisions(game_id: str) -> None:
    """OpenSpiel's own MCTS bot, unchanged, searches from the first decision (Snake Eyes has
    none: every move is a throw)."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(gos.short_name(game_id), {"players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=evaluator, random_state=rng)
    action = bot.step(state)
    assert action in state.legal_actions()


def test_snake_eyes_is_all_chance_with_exact_odds() -> None:
    game = pyspiel.load_game("python_gamenight_snake_eyes", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    table = gamenight.new_game("snake-eyes", players=3).new_state(seed=0)
    expected = [float(p) for _, p in table.chance_outcomes()]
    assert [p for _, p in state.chance_outcomes()] == expected
    assert sum(expected) == pytest.approx(1.0)


def test_the_wrapped_table_is_the_engine_game_move_by_move() -> None:
    """Options pass through; actions are rl.encoding's catalogue; the observation tensor is the
    seat's encoded view; returns are the engine's."""
    game = pyspiel.load_game("python_gamenight_shake", {"players": 3, "rounds": 2})
    code = encoding(gamenight.new_game("shake", players=3, rounds=2))
    assert game.num_distinct_actions() == len(code.actions) and game.num_players() == 3
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            continue
        seat = state.current_player()
        table = state.table
        legal = [code.actions[a] for a in state.legal_actions()]
        assert sorted(map(str, legal)) == sorted(map(str, table.legal_actions(seat)))
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, code.observe(table.view(seat), seat))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == state.table.returns()
    assert state.table.game.options.rounds == 2


def test_calls_are_asked_before_the_card_is_turned() -> None:
    """Snap as a sequential game: at a moment where a seat may call, it is asked (call or wait)
    before the seat to turn plays; waiting moves the question on."""
    game = pyspiel.load_game("python_gamenight_snap", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    waits = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            continue
        seat, legal = state.current_player(), state.legal_actions()
        if 0 in legal:  # a seat with only a call: it may pass
            assert legal == [0, 2]
            before = len(state.table.moves)
            state.apply_action(0)
            waits += 1
            assert len(state.table.moves) == before and state.current_player() != seat
            continue
        state.apply_action(int(rng.choice(legal)))
    assert waits > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_perfect_information_is_declared_exactly_where_every_seat_sees_every_move(
    game_id: str,
) -> None:
    """OpenSpiel's perfect information: every seat's record of a game is the whole record."""
    game = gamenight.new_game(game_id, players=2)
    state, rng = game.new_state(seed=1), np.random.default_rng(1)
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance():
            state.sample_chance()
            continue
        seat = int(rng.choice(state.actors()))
        moves = state.legal_actions(seat)
        state.apply(moves[int(rng.integers(len(moves)))], seat)
    whole = state.record()["moves"]
    open_book = all(state.public_record(s)["moves"] == whole for s in range(2))
    declared = pyspiel.load_game(gos.short_name(game_id)).get_type().information
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    assert (declared == perfect) == open_book
