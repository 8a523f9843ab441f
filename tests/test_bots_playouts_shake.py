"""Compiled Shake playouts against the engine: the same endings on the same dice, the same law
from a seed, and common dice for two states one decision apart."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="compiled playouts need the 'kernels' extra (numba)")

import gamenight  # noqa: E402
from gamenight.bots import RandomBot  # noqa: E402
from gamenight.bots.mcts import finish  # noqa: E402
from gamenight.bots.playouts.shake import (  # noqa: E402
    MAX_PLAYOUTS,
    Unsupported,
    playout_tape,
    playouts,
)
from gamenight.bots.shake_bot import ShakeBot, TurnPlan, sensible_stop  # noqa: E402
from gamenight.engine.chance import ChanceStream  # noqa: E402
from gamenight.games.shake import ShakeState  # noqa: E402
from kernel_helpers import chance_from_tape, shake_dice, tapes  # noqa: E402

PHASES = {"roll", "choose", "shake", "shaken", "order-roll", "order", "final-roll", "over"}
OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "rounds": 2, "scoring_faces": 2, "final_tie": "roll-off"},
    {"players": 4, "rounds": 1, "scoring_faces": 1, "final_tie": "roll-off"},
    {"players": 4, "rounds": 3, "scoring_faces": 5},
    {"players": 2, "rounds": 1, "scoring_faces": 4, "final_tie": "roll-off"},
    {"players": 6, "rounds": 1, "scoring_faces": 3, "final_tie": "roll-off"},
]


def random_states(options: dict[str, Any], games: int, seed: int) -> list[ShakeState]:
    """States met in random games of random bots: from each game, one of every phase it passed
    through, taken at a random move."""
    game = gamenight.new_game("shake", **options)
    pick = random.Random(seed)
    found: list[ShakeState] = []
    for g in range(games):
        state = game.new_state(seed=seed * 1000 + g)
        bot = RandomBot(seed=g)
        seen: dict[str, list[ShakeState]] = {}
        while True:
            seen.setdefault(state.phase, []).append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance():
                state.play_chance()
            else:
                seat = state.actors()[0]
                state.apply(bot.act(state, seat), seat)
        found += [pick.choice(states) for states in seen.values()]
    return found


def python_playout(state: ShakeState, seed: int) -> list[float]:
    """The engine's own ending of a copy of ``state``: its chance stream reseeded, the sensible
    bot in every seat."""
    copy = state.clone()
    copy.rng = ChanceStream(seed, copy.CHANCE_UNIFORMS)
    return finish(copy, ShakeBot(seed=0))


def test_a_tape_plays_out_exactly_as_the_engine_does() -> None:
    """From hundreds of states in every phase (2 to 6 seats, scoring faces 1 to 5, a final
    roll-off or a shared win), the kernel on a tape and the engine fed the same dice through
    the search bot's playout (every seat the sensible bot) give every seat the same return and
    read the same dice; the state handed in is not changed."""
    compared = 0
    phases: set[str] = set()
    for i, options in enumerate(OPTION_SETS):
        states = random_states(options, 25, seed=i + 1)
        for state, tape in zip(states, tapes(100 + i, len(states), 20_000), strict=True):
            before = state.view()
            got, used = playout_tape(state, tape)
            assert state.view() == before, "the kernel reads the state, never changes it"
            engine = state.clone()
            engine_used = chance_from_tape(engine, tape, shake_dice)
            want = finish(engine, ShakeBot(seed=0))
            assert engine.is_terminal()
            assert (got, used) == (want, engine_used[0]), f"{options}, phase {state.phase}"
            phases.add(state.phase)
            compared += 1
    assert compared >= 200
    assert phases == PHASES, f"phases never started from: {PHASES - phases}"


def play_until(options: dict[str, Any], seed: int, there: Any) -> ShakeState:
    """A game of sensible bots, played until ``there(state)`` holds."""
    state = gamenight.new_game("shake", **options).new_state(seed=seed)
    bot = ShakeBot()
    while not there(state):
        assert not state.is_terminal()
        if state.is_chance():
            state.play_chance()
        else:
            seat = state.actors()[0]
            state.apply(bot.act(state, seat), seat)
    return state


@pytest.mark.parametrize(
    ("options", "seed", "there"),
    [  # early in an ordinary round; the last ordinary round; into the All Shake round
        ({"players": 2, "rounds": 3}, 1, lambda s: s.moves and s.phase == "shake"),
        ({"players": 3, "rounds": 2, "scoring_faces": 2, "final_tie": "roll-off"}, 2,
         lambda s: s.round == 2 and s.phase == "shaken"),
        ({"players": 3, "rounds": 1, "scoring_faces": 4}, 3,
         lambda s: s.round == 2 and s.phase == "shaken" and None in s.all_shake),
    ],
)  # fmt: skip
def test_mean_returns_agree_with_python_playouts(
    options: dict[str, Any], seed: int, there: Any
) -> None:
    """Each seat's mean return over 20,000 compiled playouts and over 1,000 engine playouts
    differ by less than five standard errors of the difference (fixed seeds: never flaky)."""
    state = play_until(options, seed, there)
    fast = playouts(state, 20_000, seed)
    slow = np.array([python_playout(state, 10_000 * seed + j) for j in range(1_000)])
    assert np.allclose(fast.sum(axis=1), 1.0) and np.allclose(slow.sum(axis=1), 1.0)
    se = np.sqrt(fast.var(axis=0) / len(fast) + slow.var(axis=0) / len(slow))
    gap = np.abs(fast.mean(axis=0) - slow.mean(axis=0))
    assert (gap < 5 * se + 1e-12).all(), (fast.mean(axis=0), slow.mean(axis=0), se)
    assert fast.var(axis=0).max() > 0, "the playouts differ"


def shaken_state() -> ShakeState:
    """A 2-seat game in round 3 of 10 with a shaker holding points, to shake on or stop."""
    return play_until({"players": 2}, 5, lambda s: s.phase == "shaken" and s.round >= 3)


def test_one_decision_apart_two_states_meet_the_same_later_dice() -> None:
    """Stop or shake once more, played out with the same seed: every later turn draws the same
    dice, so the paired difference of the shaker's returns varies far less than the difference
    of independent playouts (other seed); both estimate the same mean gain."""
    state = shaken_state()
    seat = state.shaker
    assert seat is not None
    arms = []
    for move in ({"type": "stop"}, {"type": "shake"}):
        arm = state.clone()
        arm.apply(move, seat)
        arms.append(arm)
    stop, shake, shake_other = (
        playouts(arms[0], 20_000, 11)[:, seat],
        playouts(arms[1], 20_000, 11)[:, seat],
        playouts(arms[1], 20_000, 12)[:, seat],
    )
    paired, unpaired = shake - stop, shake_other - stop
    assert paired.var() < 0.5 * unpaired.var(), (paired.var(), unpaired.var())
    assert (paired == 0).mean() > 0.5, "most endings are the very same game"
    se = np.sqrt(unpaired.var() / len(unpaired))
    assert abs(paired.mean() - unpaired.mean()) < 5 * se


def test_a_seed_gives_the_same_playouts_and_another_seed_others() -> None:
    state = gamenight.new_game("shake", players=3).new_state(seed=0)
    a, b, c = playouts(state, 500, 1), playouts(state, 500, 1), playouts(state, 500, 2)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.array_equal(playouts(state, np.int64(500), np.uint64(1)), a)
    assert a.shape == (500, 3) and set(np.unique(a)) <= {0.0, 1 / 3, 0.5, 1.0}


def test_threads_playing_at_once_get_what_one_thread_gets() -> None:
    """The server runs search bots in threads: calls at once (the kernel releases the GIL)
    share only read-only tables, so each gets the playouts it would get alone."""
    from concurrent.futures import ThreadPoolExecutor

    states = [shaken_state(), gamenight.new_game("shake", players=4).new_state(seed=1)]
    jobs = [(states[j % 2], 5_000, j) for j in range(8)]
    alone = [playouts(*job) for job in jobs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda job: playouts(*job), jobs))
    assert all(np.array_equal(a, b) for a, b in zip(alone, together, strict=True))


def test_a_finished_game_returns_its_own_result() -> None:
    state = gamenight.new_game("shake", players=2, rounds=1).new_state(seed=3)
    finish(state, ShakeBot())
    assert np.array_equal(playouts(state, 3, 0), np.array([state.returns()] * 3))


@pytest.mark.parametrize("n", [0, -1, MAX_PLAYOUTS + 1, True, 2.0, "10"])
def test_a_bad_count_is_named(n: Any) -> None:
    state = gamenight.new_game("shake", players=2).new_state(seed=0)
    with pytest.raises(ValueError, match="n must be a whole number from 1 to 10,000,000"):
        playouts(state, n, 0)


def test_hostile_input_is_named_and_changes_nothing() -> None:
    state = gamenight.new_game("shake", players=2).new_state(seed=0)
    before = state.view()
    with pytest.raises(ValueError, match="seed must be"):
        playouts(state, 1, -1)
    with pytest.raises(ValueError, match="seed must be"):
        playouts(state, 1, 2**64)
    snap = gamenight.new_game("snap", players=2).new_state(seed=0)
    with pytest.raises(TypeError, match="Shake state, not SnapState \\(game 'snap'\\)"):
        playouts(snap, 1, 0)
    with pytest.raises(TypeError, match="not dict"):
        playouts({"phase": "roll"}, 1, 0)
    with pytest.raises(ValueError, match="values 0 to 5"):
        playout_tape(state, [0, 6, 1])
    with pytest.raises(ValueError, match="non-empty row of whole numbers"):
        playout_tape(state, np.zeros((2, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="the tape ran out"):
        playout_tape(state, [0, 1, 2])
    assert state.view() == before


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("phase", "limbo", "phase 'limbo'"),
        ("round", 12, "round 12"),
        ("shaker", None, "shaker None"),
        ("queue", [], "choosing queue"),
        ("scores", [0], "scores"),
    ],
)
def test_a_state_the_kernel_cannot_start_from_is_unsupported(
    field: str, value: Any, match: str
) -> None:
    """The caller's cue to fall back to Python playouts: a phase the kernel does not know, or
    fields no engine move leaves (edited by hand), named; nothing is read out of bounds."""
    state = shaken_state()
    if field in ("queue", "shaker"):  # where that field is read
        state.phase = "choose" if field == "queue" else "shake"
    setattr(state, field, value)
    with pytest.raises(Unsupported, match=match):
        playouts(state, 1, 0)


def planned_states(options: dict[str, Any], seed: int) -> list[tuple[ShakeState, TurnPlan]]:
    """Shaken states of random games (ordinary and All Shake rounds), each with a plan for its
    shaker's turn to a random stop, some below the points in hand."""
    pick = random.Random(seed)
    found = []
    for state in random_states(options, 40, seed):
        if state.phase == "shaken" and state.shaker is not None:
            stop = state.points + 10 * pick.randrange(-3, 60)
            found.append((state, TurnPlan(state.shaker, state.round, max(stop, 0))))
    return found


def test_a_planned_turn_plays_out_as_the_sensible_bot_with_that_plan() -> None:
    """The search's turn plans (shake on to a stop): from shaken states of every kind of table,
    the kernel on a tape and the engine with ``ShakeBot.plan`` set give the same returns and
    read the same dice, and a plan changes how the turn ends for some of them."""
    compared = changed = 0
    for i, options in enumerate(OPTION_SETS):
        found = planned_states(options, 50 + i)
        for (state, plan), tape in zip(found, tapes(300 + i, len(found), 20_000), strict=True):
            got, used = playout_tape(state, tape, plan)
            engine = state.clone()
            engine_used = chance_from_tape(engine, tape, shake_dice)
            bot = ShakeBot(seed=0)
            bot.plan = plan
            assert (got, used) == (finish(engine, bot), engine_used[0]), f"{options}, {plan}"
            compared += 1
            changed += playout_tape(state, tape) != (got, used)
    assert compared >= 60 and changed >= 10, (compared, changed)


def test_the_sensible_stop_as_a_plan_is_the_sensible_bot() -> None:
    """A plan to stop where the sensible bot stops changes no playout; another stop does."""
    state = shaken_state()
    seat, k = state.shaker, state.game.options.scoring_faces
    assert seat is not None
    same = TurnPlan(seat, state.round, sensible_stop(k))
    assert np.array_equal(playouts(state, 2_000, 4, same), playouts(state, 2_000, 4))
    early = TurnPlan(seat, state.round, state.points + 10)
    assert not np.array_equal(playouts(state, 2_000, 4, early), playouts(state, 2_000, 4))


@pytest.mark.parametrize(
    "plan",
    [(0, 3, 100), TurnPlan(2, 3, 100), TurnPlan(0, -1, 100), TurnPlan(0, 3, 2**62),
     TurnPlan(0, 3, "100"), TurnPlan(True, 3, 100), "plan"],
)  # fmt: skip
def test_a_bad_plan_is_named(plan: Any) -> None:
    state = shaken_state()
    with pytest.raises(ValueError, match="plan"):
        playouts(state, 10, 0, plan)
