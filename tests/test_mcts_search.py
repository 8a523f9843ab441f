"""The search bot's rules: what it plays for, when it stops, when it leaves the sensible move."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import gamenight
from gamenight.bots import make_bot
from gamenight.bots.mcts import MCTSBot, finish, win_shares
from gamenight.engine import State
from gamenight.engine.chance import ChanceStream


def test_a_playout_scores_its_win_share_shared_among_the_seats_tied_first() -> None:
    returns = np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 3.0], [-5.0, -7.0], [4.0, 4.0]])
    assert win_shares(returns, 0).tolist() == [0.5, 1.0, 0.0, 1.0, 0.5]
    assert win_shares(np.array([[3.0, 3.0, 3.0]]), 2).tolist() == [1 / 3]


def _shake_decision(seed: int, options: dict[str, int]) -> tuple[State, int]:
    """A Shake table at a seat's first choice with more than one move."""
    state = gamenight.new_game("shake", **options).new_state(seed=seed)
    sensible = make_bot("shake", "sensible", seed=seed)
    while True:
        if state.is_chance():
            state.play_chance()
            continue
        seat = state.next_actor()
        assert seat is not None
        if len(state.legal_actions(seat)) > 1:
            return state, seat
        state.apply(sensible.act(state, seat), seat)


class SteppingClock:
    """A clock that moves ``step`` seconds at each reading: the bot's deadline without waiting."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_search_that_runs_out_of_time_stops_within_the_round_it_is_in() -> None:
    state, seat = _shake_decision(3, {"players": 2, "rounds": 2})
    arms = len(state.legal_actions(seat)) - 1
    clock = SteppingClock(step=0.4)  # the deadline (1 s) passes during the first round
    bot = MCTSBot(seed=1, seconds=1.0, kernels=False, clock=clock)
    action = bot.act(state, seat)
    assert action in state.legal_actions(seat)
    assert 0 < bot.searched <= 32 * (arms + 1)  # the first round, cut at the deadline
    # with time to spare the same search goes on for more rounds
    roomy = MCTSBot(seed=1, seconds=1.0, kernels=False, clock=SteppingClock(step=1e-4))
    roomy.act(state, seat)
    assert roomy.searched > bot.searched


def _engine_gain(state: State, seat: int, better: dict, worse: dict, n: int) -> float:
    """The win-share gain of ``better`` over ``worse``, by n fresh engine playouts each."""
    sensible = make_bot(state.game.id, "sensible", seed=0)
    totals = []
    for action in (better, worse):
        rows = []
        for i in range(n):
            copy = state.clone()
            copy.apply(action, seat)
            copy.rng = ChanceStream(10**9 + i, copy.CHANCE_UNIFORMS)
            rows.append(finish(copy, sensible))
        totals.append(float(win_shares(np.array(rows), seat).mean()))
    return totals[0] - totals[1]


def test_the_search_leaves_the_sensible_move_only_for_a_gain_fresh_playouts_confirm() -> None:
    """Late in a two-round Shake game: wherever the search plays other than the sensible bot,
    4,000 fresh engine playouts a move (other dice) find its move the better one."""
    options = {"players": 2, "rounds": 2}
    left = 0
    for seed in itertools.count():
        state = gamenight.new_game("shake", **options).new_state(seed=seed)
        rng = random.Random(seed)
        sensible = make_bot("shake", "sensible", seed=seed)
        while not state.is_terminal() and left < 2:
            if state.is_chance():
                state.play_chance()
                continue
            seat = state.next_actor()
            assert seat is not None
            legal = state.legal_actions(seat)
            default = sensible.act(state, seat)
            if len(legal) > 1 and getattr(state, "round", 0) >= 2:
                chosen = MCTSBot(seed=seed, playouts=1200, kernels=False).act(state, seat)
                if chosen != default:
                    left += 1
                    assert _engine_gain(state, seat, chosen, default, 4000) > 0, (seed, chosen)
            state.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.3 else default, seat)
        if left >= 2 or seed > 40:
            break
    assert left >= 2, "the search never left the sensible move: nothing was checked"


def test_at_the_casino_table_the_compiled_search_plays_to_finish_ahead() -> None:
    """With compiled playouts: whenever the search leaves the sensible move in the first rolls
    of a session, 20,000 fresh paired playouts (other dice) value its move above the sensible
    one's; and it does leave it (betting every area is not how to finish ahead of the table)."""
    casino = pytest.importorskip("gamenight.bots.playouts.casino", reason="needs numba")
    state = gamenight.new_game("snake-eyes-casino", players=2).new_state(seed=5)
    sensible = make_bot(state.game.id, "sensible", seed=1)
    bot = MCTSBot(seed=0, seconds=5.0)
    left = 0
    while not state.is_terminal() and getattr(state, "rolls", 0) < 4:
        if state.is_chance():
            state.play_chance()
            continue
        seat = state.next_actor()
        assert seat is not None
        usual = sensible.act(state, seat)
        chosen = bot.act(state, seat) if seat == 0 else usual
        if chosen != usual:
            left += 1
            shares = []
            for action in (chosen, usual):
                after = state.clone()
                after.apply(action, seat)
                shares.append(win_shares(casino.playouts(after, 20_000, 12345 + left), seat))
            assert (shares[0] - shares[1]).mean() > 0, (chosen, usual)
        state.apply(chosen, seat)
    assert left > 0, "the search never left the sensible move"
