"""Compiled Gambler playouts from any engine state: the engine's returns on the same draws, its
law on random draws, common random numbers keyed by turn, and hostile input refused.

The states come from random games of random players (who also take and repay IOUs while dice
roll, as the rules allow at any time), stopped at random moves, with a lean towards the rare
moments (a throw for first player half done, a race half dealt, a Shaker with dice shown,
markers placed off the sensible bot's order), so every phase and pending chance move is met.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="compiled playouts need the 'kernels' extra (numba)")

import gamenight  # noqa: E402
from gamenight.analysis.simulate import play_out, seated_bots  # noqa: E402
from gamenight.bots.playouts import gambler as gp  # noqa: E402
from gamenight.engine.chance import ChanceStream  # noqa: E402
from gamenight.games.gambler import GamblerState  # noqa: E402
from kernel_helpers import (  # noqa: E402
    EVENTS_BOARD,
    HARSH_BOARD,
    HARSH_CARDS,
    engine_on_tape,
    gambler_draw,
)

CUSTOM = {"board": HARSH_BOARD, "fortune": HARSH_CARDS,
          "tickets": {"tickets": [[1, 2], [1, 2], [5, 6]] * 4},
          "horses": {"horses": [6, 2, 4, 1]}}  # fmt: skip
TABLES = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, **CUSTOM},
    {"players": 3, **CUSTOM, "board": EVENTS_BOARD},
    {"players": 4, **CUSTOM},
    {"players": 3, "max_turns": 25, "auto_claim_start": True, "first_player": 2},
]


def moment(state: GamblerState) -> str:
    """What the state waits for, finer where a playout must finish something half done."""
    if state.is_terminal():
        return "over"
    kind = state.chance or state.phase
    if kind == "shaker" and state.chance and state.shaker:
        return f"shaker {state.shaker_for}, dice shown"
    if kind in ("shaker", "marker") and state.markers:
        return f"{kind}, markers placed"
    if kind == "horse" and state.horse_cards:
        return "horse, some dealt"
    if kind == "order" and state.order_throws:
        return "order, some thrown"
    return f"{state.phase} {kind}"


RARE = (
    "dice shown",
    "markers placed",
    "some dealt",
    "some thrown",
    "race_die",
    "ticket",
    "fortune",
)


def random_states(options: dict[str, Any], seed: int, count: int) -> list[GamblerState]:
    """``count`` states met in random games of random players, each kept at random (the rare
    moments more often)."""
    game = gamenight.new_game("gambler", **options)
    rng = random.Random(seed)
    kept: list[GamblerState] = []
    while len(kept) < count:
        state: Any = game.new_state(seed=rng.getrandbits(63))
        for _ in range(rng.randrange(50, 3000)):
            if state.is_terminal() or len(kept) == count:
                break
            rare = any(r in moment(state) for r in RARE)
            if rng.random() < (0.3 if rare else 0.02):
                kept.append(state.clone())
            if state.is_chance():
                seats = state.actors()  # IOUs may be taken or repaid while dice roll
                if seats and rng.random() < 0.05:
                    seat = rng.choice(seats)
                    state.apply(rng.choice(state.legal_actions(seat)), seat)
                else:
                    state.play_chance()
            else:
                seat = state.next_actor()
                state.apply(rng.choice(state.legal_actions(seat)), seat)
        else:
            kept.append(state.clone())
    return kept


@cache
def table_states(t: int) -> list[GamblerState]:
    """Sixty states of table ``t`` (read only)."""
    return random_states(TABLES[t], seed=100 + t, count=60)


@pytest.mark.parametrize("t", range(len(TABLES)))
def test_a_tape_played_out_gives_the_engines_returns(t: int) -> None:
    """From every state, the kernel's playout on a tape ends as the engine, fed the same
    outcomes with the sensible bot in every seat: the same returns, the same draws used."""
    options, states = TABLES[t], table_states(t)
    tapes = np.random.default_rng(t).integers(0, 2**31, size=(len(states), 4000))
    seen: Counter[str] = Counter()
    for i, (state, tape) in enumerate(zip(states, tapes, strict=True)):
        seen[moment(state)] += 1
        want, used = engine_on_tape(state.clone(), tape, gambler_draw)
        got = gp.playout_tape(state, tape)
        assert got == (want.returns(), used), f"{options} state {i} ({moment(state)})"
    assert len(seen) >= 8, seen


def test_the_states_cover_every_phase_and_pending_chance_move() -> None:
    """The agreement above is met from every kind of moment (counted over all its tables)."""
    seen = {moment(s) for t in range(len(TABLES)) for s in table_states(t)}
    for phase in ("order", "turn", "doubles", "marker", "claim"):
        assert any(m.startswith(phase) for m in seen), (phase, seen)
    for chance in ("order", "move", "again", "ticket", "fortune", "horse", "race_die", "shaker"):
        assert any(chance in m.split(" ")[1:] or m.startswith(chance) for m in seen), chance
    for rare in ("dice shown", "markers placed", "some dealt", "some thrown"):
        assert any(rare in m for m in seen), rare
    assert "shaker lottery, dice shown" in seen and "shaker sweepstakes, dice shown" in seen


def python_playouts(state: GamblerState, n: int, seed: int) -> np.ndarray:
    """The engine's own playouts: the sensible bot in every seat, chance from a fresh stream."""
    bots = seated_bots("gambler", state.players, seed)
    rows = []
    for i in range(n):
        copy = state.clone()
        copy.rng = ChanceStream(seed * 1_000_003 + i, copy.CHANCE_UNIFORMS)
        rows.append(play_out(copy, bots).returns())
    return np.array(rows)


@pytest.mark.parametrize("t", [0, 2, 4])
def test_playouts_follow_the_engines_law(t: int) -> None:
    """Mean returns of 20,000 compiled playouts agree with the engine's playouts' within
    4.5 standard errors of their difference, seat by seat."""
    options = TABLES[t]
    states = [s for s in random_states(options, seed=200 + t, count=40) if not s.is_terminal()]
    for state in states[::20]:
        fast = gp.playouts(state, 20_000, seed=t)
        slow = python_playouts(state, 800, seed=t)
        spread = np.sqrt(fast.var(0) / len(fast) + slow.var(0) / len(slow))
        gap = np.abs(fast.mean(0) - slow.mean(0))
        assert (gap <= 4.5 * spread + 1e-9).all(), (moment(state), fast.mean(0), slow.mean(0))


def decision(options: dict[str, Any], moves: list[tuple[dict[str, Any], int | None]]) -> Any:
    state = gamenight.new_game("gambler", **options).new_state(seed=0)
    for action, seat in moves:
        state.apply(action, seat)
    return state


def arms(state: Any, a: dict[str, Any], b: dict[str, Any]) -> tuple[Any, Any]:
    one, other = state.clone(), state.clone()
    one.apply(a, state.next_actor())
    other.apply(b, state.next_actor())
    return one, other


DOUBLES = [({"type": "roll"}, 0), ({"type": "dice", "faces": [3, 3]}, None)]


@pytest.mark.parametrize(
    ("moves", "a", "b"),
    [
        ([], {"type": "buy_ticket"}, {"type": "roll"}),
        (DOUBLES, {"type": "roll_again"}, {"type": "sweepstakes"}),
        (DOUBLES + [({"type": "sweepstakes"}, 0)], {"type": "marker", "space": "pairs"},
         {"type": "marker", "space": "straight"}),
    ],
    ids=["ticket or roll", "again or sweepstakes", "pairs or straight"],
)  # fmt: skip
def test_common_random_numbers_shrink_the_spread_of_a_difference(
    moves: list[tuple[dict[str, Any], int | None]], a: dict[str, Any], b: dict[str, Any]
) -> None:
    """Two arms of one decision played out with the same seed meet the same draws turn by turn:
    their paired difference varies much less than that of independent runs."""
    state = decision({"players": 2, "first_player": 0}, moves)
    one, other = arms(state, a, b)
    x, y = gp.playouts(one, 20_000, seed=7)[:, 0], gp.playouts(other, 20_000, seed=7)[:, 0]
    apart = gp.playouts(other, 20_000, seed=8)[:, 0]
    paired, unpaired = (x - y).var(), (x - apart).var()
    assert paired < 0.7 * unpaired, (paired, unpaired)


def test_the_same_seed_gives_the_same_playouts_and_another_seed_others() -> None:
    state = decision({"players": 3}, [])
    first = gp.playouts(state, 2000, seed=3)
    assert (first == gp.playouts(state, 2000, seed=3)).all()
    assert (first != gp.playouts(state, 2000, seed=4)).any()
    assert (first.sum(1) <= 1).all() and first.sum() > 1900  # one winner a game, or none


def test_a_finished_game_plays_out_to_its_own_returns() -> None:
    state = play_out(
        random_states({"players": 2}, seed=5, count=1)[0], seated_bots("gambler", 2, 0)
    )
    assert (gp.playouts(state, 5, seed=1) == np.array(state.returns())).all()
    assert gp.playout_tape(state, np.zeros(1, dtype=np.int64)) == (state.returns(), 0)


@pytest.mark.parametrize("n", [0, -1, 10_000_001])
def test_a_count_out_of_range_is_refused(n: int) -> None:
    state = decision({"players": 2}, [])
    with pytest.raises(ValueError, match=f"n must be from 1 to 10,000,000, not {n}"):
        gp.playouts(state, n, seed=0)


@pytest.mark.parametrize("n", [True, 2.0, "5", None])
def test_a_count_that_is_no_whole_number_is_refused(n: object) -> None:
    with pytest.raises(TypeError, match="n must be a whole number of playouts"):
        gp.playouts(decision({"players": 2}, []), n, seed=0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (2**64, ValueError),
                                              (1.5, TypeError), ("0", TypeError)])  # fmt: skip
def test_a_bad_seed_is_refused(seed: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="seed must be a whole number from 0 to 2\\*\\*64 - 1"):
        gp.playouts(decision({"players": 2}, []), 10, seed=seed)  # type: ignore[arg-type]


def test_a_state_of_another_game_is_refused_by_name() -> None:
    snap = gamenight.new_game("shake", players=2).new_state(seed=0)
    with pytest.raises(TypeError, match="need a Gambler state, not a 'shake' state"):
        gp.playouts(snap, 10, seed=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="need a Gambler state, not"):
        gp.playout_tape({"phase": "turn"}, np.zeros(10, dtype=np.int64))  # type: ignore[arg-type]


def test_a_state_the_kernel_cannot_read_is_unsupported_and_unchanged() -> None:
    """A phase or chance move the kernel does not know (an engine newer than it) is named."""
    state = decision({"players": 2}, [])
    before = state.view()
    state.chance = "auction"
    with pytest.raises(gp.Unsupported, match="no Gambler chance move 'auction'"):
        gp.playouts(state, 10, seed=0)
    state.chance, state.phase = "order", "auction"
    with pytest.raises(gp.Unsupported, match="no Gambler phase 'auction'"):
        gp.playouts(state, 10, seed=0)
    state.phase = "order"
    assert state.view() == before  # the refusals changed nothing


def test_a_tape_must_be_whole_numbers_in_a_row() -> None:
    state = decision({"players": 2}, [])
    with pytest.raises(TypeError, match="1-D array of whole numbers"):
        gp.playout_tape(state, np.zeros((2, 5), dtype=np.int64))
    with pytest.raises(TypeError, match="1-D array of whole numbers"):
        gp.playout_tape(state, np.zeros(5))
    with pytest.raises(IndexError, match="the tape ran out"):
        gp.playout_tape(state, np.zeros(3, dtype=np.int64))


def test_the_playouts_release_the_gil_for_a_servers_search_threads() -> None:
    assert gp._playouts.targetoptions["nogil"]
