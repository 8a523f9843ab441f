"""The search bot's rules: what it plays for, when it stops, when it leaves the sensible move."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

import gamenight
from gamenight.bots import make_bot
from gamenight.bots.mcts import MCTSBot, finish, win_shares
from gamenight.bots.shake_bot import TurnPlan, sensible_stop, turn_plans
from gamenight.engine import State
from gamenight.engine.chance import ChanceStream

Arm = tuple[dict[str, Any], TurnPlan | None]  # a move and the plan for the rest of its turn


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
    legal = state.legal_actions(seat)
    arms = len(turn_plans(state, seat, legal, make_bot("shake").act(state, seat))[1])
    clock = SteppingClock(step=0.4)  # the deadline (1 s) passes during the first round
    bot = MCTSBot(seed=1, seconds=1.0, kernels=False, clock=clock)
    action = bot.act(state, seat)
    assert action in state.legal_actions(seat)
    assert 0 < bot.searched <= 32 * (arms + 1)  # the first round, cut at the deadline
    # with time to spare the same search goes on for more rounds
    roomy = MCTSBot(seed=1, seconds=1.0, kernels=False, clock=SteppingClock(step=0.02))
    roomy.act(state, seat)
    assert roomy.searched > bot.searched


def _engine_gain(state: State, seat: int, better: Arm, worse: Arm, n: int) -> float:
    """The win-share gain of move and plan ``better`` over ``worse``, by n fresh engine playouts
    each (the sensible bot playing on, the seat's turn as the plan says)."""
    totals = []
    for action, plan in (better, worse):
        sensible = make_bot(state.game.id, "sensible", seed=0)
        sensible.plan = plan
        rows = []
        for i in range(n):
            copy = state.clone()
            copy.apply(action, seat)
            copy.rng = ChanceStream(10**9 + i, copy.CHANCE_UNIFORMS)
            rows.append(finish(copy, sensible))
        totals.append(float(win_shares(np.array(rows), seat).mean()))
    return totals[0] - totals[1]


@pytest.mark.parametrize("kernels", [False, True])
def test_the_search_leaves_the_sensible_play_only_for_a_gain_fresh_playouts_confirm(
    kernels: bool,
) -> None:
    """Late in short Shake games (the engine's playouts, or compiled ones): wherever the search
    plays other than the sensible bot, a move or a plan for the turn (shake on to a stop), 4,000
    fresh engine playouts each (other dice) find its move and plan the better ones."""
    if kernels:
        pytest.importorskip("numba", reason="compiled playouts need the 'kernels' extra")
    options = {"players": 2, "rounds": 1}
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
            if len(legal) > 1:
                bot = MCTSBot(seed=seed, playouts=4000 if kernels else 1500, kernels=kernels)
                chosen = bot.act(state, seat)
                sensible_plan, _ = turn_plans(state, seat, legal, default)
                if (chosen, bot.plan) != (default, sensible_plan):
                    left += 1
                    gain = _engine_gain(
                        state, seat, (chosen, bot.plan), (default, sensible_plan), 4000
                    )
                    assert gain > 0, (seed, chosen, bot.plan)
            state.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.3 else default, seat)
        if left >= 2 or seed > 40:
            break
    assert left >= 2, "the search never left the sensible play: nothing was checked"


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


def test_a_planned_turn_is_played_to_its_plan_without_another_search() -> None:
    """Once the search has chosen how its shake turn goes, the turn's later shakes follow that
    plan without searching again; the plan governs no other turn (another seat, round or
    totals), where the search thinks afresh."""
    state = gamenight.new_game("shake", players=2, rounds=2).new_state(seed=4)
    bot = MCTSBot(seed=2, playouts=3000, kernels=False)
    sensible = make_bot("shake", "sensible")
    while not (state.phase == "choose" and len(state.legal_actions(state.actors()[0])) > 1):
        if state.is_chance():
            state.play_chance()
        else:
            seat = state.actors()[0]
            state.apply(sensible.act(state, seat), seat)
    seat = state.actors()[0]
    state.apply(bot.act(state, seat), seat)
    assert bot.searched > 0
    plan = bot.plan
    assert state.shaker == seat, "on these dice the search shakes (seed 4)"
    assert isinstance(plan, TurnPlan) and plan.governs(state, seat) is False  # a throw is due
    follows = 0
    while state.round == plan.round and not state.is_terminal():
        if state.is_chance():
            state.play_chance()
            continue
        assert state.shaker == seat and plan.governs(state, seat)
        action = bot.act(state, seat)
        assert bot.searched == 0 and action["type"] == (
            "shake" if state.points < plan.stop_at else "stop"
        )
        follows += 1
        state.apply(action, seat)
    assert follows > 0
    other = plan._replace(totals=(plan.totals[0] + 10, *plan.totals[1:]))
    assert not other.governs(state, seat) and not plan._replace(seat=1 - seat).governs(state, seat)


@pytest.mark.parametrize("faces", [1, 3])
def test_a_turns_candidates_are_every_move_with_every_stop_but_the_sensible_play(
    faces: int,
) -> None:
    """At the choice that starts a turn: take, or shake to each stop (the sensible stop among
    them); the sensible play itself (its move and plan) is the default, never a candidate."""
    state, seat = _shake_decision(1, {"players": 2, "scoring_faces": faces})
    assert state.phase == "choose"
    legal = state.legal_actions(seat)
    default = make_bot("shake").act(state, seat)
    mine, arms = turn_plans(state, seat, legal, default)
    stop = sensible_stop(faces)
    if default == {"type": "shake"}:
        assert mine is not None and mine.stop_at == stop
        assert ({"type": "take"}, None) in arms
    else:  # one scoring face: the sensible bot takes a high die, and a shake is a candidate
        assert mine is None and ({"type": "shake"}, mine) not in arms
        assert any(p is not None and p.stop_at == stop for _, p in arms)
    assert (default, mine) not in arms
    stops = sorted(p.stop_at for _, p in arms if p is not None)
    assert len(stops) >= 5 and stops[0] < stop < stops[-1]
