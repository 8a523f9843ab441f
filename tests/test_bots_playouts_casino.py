"""The compiled casino playouts against the engine: the same dice give the same returns."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the kernels extra is not installed")

import gamenight  # noqa: E402
from gamenight.bots.casino_bot import CasinoBot  # noqa: E402
from gamenight.bots.mcts import finish  # noqa: E402
from gamenight.bots.playouts.casino import (  # noqa: E402
    MAX_PLAYOUTS,
    Unsupported,
    playout_tape,
    playouts,
)
from gamenight.engine.chance import ChanceStream  # noqa: E402
from gamenight.games.casino_wagers import WAGER_IDS  # noqa: E402
from gamenight.games.snake_eyes_casino import CasinoState  # noqa: E402

GAME = "snake-eyes-casino"
M64 = 2**64 - 1
OPTION_SETS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2, "max_rolls": 60},
    {"players": 3, "bankroll": 60, "table_min": 5, "table_max": 20, "max_rolls": 80},
    {"players": 4, "bankroll": 40, "table_min": 2, "table_max": 9, "max_rolls": 40, "dice": 2,
     "winners_stay_up": False},
    {"players": 2, "dice": 3, "max_rolls": 50,
     "payouts": {"field": "option-3", "craps2": "31:1", "craps12": "30:1", "hard4": "6:1",
                 "hard6": "8:1", "hard8": "8:1", "hard10": "6:1"}},
    {"players": 3, "bankroll": 25, "table_min": 1, "table_max": 4, "max_rolls": 30,
     "live": True},
    {"players": 2, "bankroll": 500, "table_min": 10, "table_max": 100, "max_rolls": 25,
     "dice": 5, "winners_stay_up": False, "payouts": {"field": "option-2"}},
    {"players": 4, "bankroll": 30, "table_min": 3, "table_max": 12, "max_rolls": 20},
    {"players": 8, "bankroll": 45, "table_min": 3, "table_max": 30, "max_rolls": 30},
]  # fmt: skip


# --- dice for the engine's finish(): read from a tape, or drawn as the kernel's streams -----------
class _Dice:
    """A chance stream for ``finish``: each dice draw calls ``faces``; a live dealer's settle
    draws nothing (the engine's casino sample reads one double, ``(6a + b + 0.5) / 36``)."""

    base = 0

    def __init__(self) -> None:
        self.slots = self
        self.used = 0

    def __len__(self) -> int:
        return 2**62

    def __getitem__(self, slot: int) -> _Dice:
        return self

    def __iter__(self) -> _Dice:
        return self

    def __next__(self) -> float:
        a, b = self.faces()
        self.used += 2
        return (6 * a + b + 0.5) / 36

    def faces(self) -> tuple[int, int]:
        raise NotImplementedError


class TapeDice(_Dice):
    def __init__(self, tape: np.ndarray) -> None:
        super().__init__()
        self.tape = tape

    def faces(self) -> tuple[int, int]:
        return int(self.tape[self.used]), int(self.tape[self.used + 1])


def _h(x: int) -> int:
    """SplitMix64's output for counter ``x``."""
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class KeyedDice(_Dice):
    """The module docstring's keying written again in Python: roll j of playout i, seed s."""

    def __init__(self, state: CasinoState, seed: int, i: int) -> None:
        super().__init__()
        self.state, self.mine = state, _h(_h(seed & M64) ^ i)

    def faces(self) -> tuple[int, int]:
        c = _h(self.mine ^ (self.state.rolls + 1))
        while True:  # unbiased pairs by Lemire's multiply, redrawn on the rare biased half
            z = _h(c)
            c = (c + 0x9E3779B97F4A7C15) & M64
            m1, m2 = (z >> 32) * 6, (z & 0xFFFFFFFF) * 6
            if m1 & 0xFFFFFFFF >= 4 and m2 & 0xFFFFFFFF >= 4:
                return m1 >> 32, m2 >> 32


def engine_finish(state: CasinoState, dice: _Dice) -> list[float]:
    """``finish`` with the casino bot in every seat, its chance draws given by ``dice``."""
    state.rng = dice  # type: ignore[assignment]
    return finish(state, CasinoBot())


# --- random states -------------------------------------------------------------------------------
def _random_move(state: CasinoState, rng: random.Random) -> None:
    """One move of a random player (wagers of varied amounts, take-downs, declines, give-ups)
    or of the dealer (dice, and at a live table settle, amend or void)."""
    if state.is_chance():
        takers = state.actors()
        if takers and rng.random() < 0.2:  # a wager taken down while the dice are in the air
            seat = rng.choice(takers)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        elif state.phase == "entered":
            pick = rng.random()
            faces = [rng.randint(1, 6), rng.randint(1, 6)]
            if pick < 0.1:
                state.apply({"type": "amend", "faces": faces})
            elif pick < 0.15:
                state.apply({"type": "void", "reason": "a die left the table"})
            else:
                state.apply({"type": "settle"})
        else:
            state.apply({"type": "dice", "faces": [rng.randint(1, 6), rng.randint(1, 6)]})
        return
    if state.phase == "betting" and rng.random() < 0.01:
        state.apply({"type": "force_give_up", "reason": "delay"})
        return
    seat = rng.choice(state.actors())
    if rng.random() < 0.3:  # a wager of any amount the limits and the purse allow
        area = rng.choice(WAGER_IDS)
        held = state.bets[seat].get(area, 0)
        top = min(state.table_max - held, state.ledger.balances[state.purse[seat]])
        bottom = max(state.table_min - held, 1)
        if bottom <= top:
            state.apply({"type": "wager", "area": area, "amount": rng.randint(bottom, top)}, seat)
            return
    legal = state.legal_actions(seat)
    weights = [{"decline": 3, "give_up": 1, "roll": 6, "accept": 6, "done": 6}.get(a["type"], 1)
               for a in legal]  # fmt: skip
    action = rng.choices(legal, weights)[0]
    if action["type"] == "accept":
        n = state.game.options.dice
        action = {"type": "accept", "dice": rng.sample(range(n), 2)}
    state.apply(action, seat)


# how likely a random game is snapshot at a move, by phase: the dice in the air are rarer
SNAPSHOT = {"offer": 0.02, "betting": 0.01, "rolling": 0.1, "entered": 0.2, "closed": 0.2}


def random_states(per_set: int, seed: int) -> list[CasinoState]:
    """``per_set`` states of every option set, snapshots of random games at random moves."""
    rng = random.Random(seed)
    out: list[CasinoState] = []
    for options in OPTION_SETS:
        game = gamenight.new_game(GAME, **options)
        taken = 0
        while taken < per_set:
            state: Any = game.new_state(seed=rng.randrange(2**32))
            for _ in range(3000):
                if rng.random() < SNAPSHOT[state.phase] and taken < per_set:
                    out.append(state.clone())
                    taken += 1
                if state.is_terminal():
                    break
                _random_move(state, rng)
    return out


def test_the_tape_gives_the_engines_returns_from_random_states() -> None:
    """From 270 random states (every phase, 1-4 and 8 seats, nine option sets) the kernel on a tape
    returns exactly what the engine's finish() returns on the same dice, every seat."""
    states = random_states(30, seed=31)
    phases = Counter(s.phase for s in states)
    assert {"offer", "betting", "rolling", "entered", "closed"} <= set(phases), phases
    assert any(s.dealer_rolls for s in states), "some states have the dealer rolling out"
    assert any(s.rolls and not s.is_terminal() for s in states)
    tapes = np.random.default_rng(7).integers(0, 6, size=(len(states), 20_000))
    for k, (state, tape) in enumerate(zip(states, tapes, strict=True)):
        before = state.view()
        got, used = playout_tape(state, tape)
        dice = TapeDice(tape)
        want = engine_finish(state.clone(), dice)  # type: ignore[arg-type]
        assert (got, used) == (want, dice.used), f"state {k}: {state.phase}, {state.rolls} rolls"
        assert state.view() == before, "the state itself is not played"


def test_the_streams_are_keyed_as_documented() -> None:
    """``playouts(state, n, seed)[i]`` is the engine's finish() on the dice the module docstring
    keys by (seed, playout, roll number): the kernel's own streams give the engine's returns."""
    for state in random_states(2, seed=5):
        seed = 2**64 + 12345  # taken modulo 2**64
        rows = playouts(state, 4, seed)
        for i, row in enumerate(rows):
            copy: Any = state.clone()
            assert row.tolist() == engine_finish(copy, KeyedDice(copy, seed, i))


def test_the_dealer_rolls_out_a_layout_nobody_will_shoot() -> None:
    """Rule 5.9(d) begun inside the kernel: seat B is broke, A has a wager but declined the
    dice, so when B declines the dealer rolls until A's wager is decided (then offers afresh)."""
    state: Any = gamenight.new_game(
        GAME, players=2, bankroll=10, table_min=5, table_max=10, max_rolls=20
    ).new_state(seed=0)
    for seat, action in [
        (0, {"type": "decline"}), (1, {"type": "accept"}), (0, {"type": "done"}),
        (1, {"type": "wager", "area": "craps12", "amount": 10}), (1, {"type": "roll"}),
        (None, {"type": "dice", "faces": [2, 3]}),  # craps 12 loses: B is broke
        (0, {"type": "done"}), (1, {"type": "give_up"}),
        (0, {"type": "wager", "area": "num6", "amount": 5}), (0, {"type": "decline"}),
    ]:  # fmt: skip
        state.apply(action, seat)
    assert state.phase == "offer" and state.offer_queue == [1] and state.returns() == [0.0, -10.0]
    for tape in ([2, 2, *[0, 1] * 50], [3, 2, *[0, 1] * 50], [0, 3, 2, 2, *[1, 1] * 60]):
        dice = TapeDice(np.array(tape))
        want = engine_finish(state.clone(), dice)
        assert playout_tape(state, tape) == (want, dice.used) and dice.used >= 2


def _python_playouts(state: CasinoState, n: int) -> np.ndarray:
    """``n`` playouts through the engine, each on a chance stream of its own."""
    rows = []
    for i in range(n):
        copy: Any = state.clone()
        copy.rng = ChanceStream(1000 + i, copy.CHANCE_UNIFORMS)
        rows.append(finish(copy, CasinoBot()))
    return np.array(rows)


@pytest.mark.parametrize(("options", "moves", "python"), [
    ({"players": 2, "max_rolls": 100}, 0, 150),
    ({"players": 3, "bankroll": 60, "max_rolls": 40}, 25, 400),
    ({"players": 2, "bankroll": 30, "table_min": 2, "max_rolls": 30, "winners_stay_up": False,
      "payouts": {"field": "option-2"}}, 40, 600),
])  # fmt: skip
def test_mean_returns_agree_with_python_playouts(
    options: dict[str, Any], moves: int, python: int
) -> None:
    """The mean of 20,000 compiled playouts agrees with the engine's playouts within four
    standard errors of their difference, seat by seat (fixed seeds: the same draw every run)."""
    state: Any = gamenight.new_game(GAME, **options).new_state(seed=3)
    rng = random.Random(4)
    for _ in range(moves):
        _random_move(state, rng)
    fast = playouts(state, 20_000, seed=9)
    slow = _python_playouts(state, python)
    assert fast.shape == (20_000, state.players) and fast.dtype == np.float64
    se = np.sqrt(fast.var(axis=0, ddof=1) / len(fast) + slow.var(axis=0, ddof=1) / len(slow))
    assert (se > 0).all()
    assert (np.abs(fast.mean(axis=0) - slow.mean(axis=0)) <= 4 * se).all(), (
        fast.mean(axis=0), slow.mean(axis=0), se)  # fmt: skip


@pytest.mark.parametrize("decision", [
    {"type": "wager", "area": "hard8", "amount": 40},
    {"type": "wager", "area": "field", "amount": 25},
    {"type": "decline"},
])  # fmt: skip
def test_one_decision_apart_the_arms_meet_the_same_dice(decision: dict[str, Any]) -> None:
    """Common random numbers: two states a decision apart, played out with one seed, differ by
    far less spread than when played out with two seeds."""
    base: Any = gamenight.new_game(GAME, players=2, max_rolls=100).new_state(seed=1)
    arm = base.clone()
    arm.apply(decision, 0)
    with_, without = playouts(arm, 20_000, seed=3)[:, 0], playouts(base, 20_000, seed=3)[:, 0]
    other = playouts(base, 20_000, seed=4)[:, 0]
    paired, unpaired = np.var(with_ - without), np.var(with_ - other)
    assert paired < unpaired / 5, (paired, unpaired)


def test_playouts_are_repeatable_and_seeded() -> None:
    state = gamenight.new_game(GAME, players=3).new_state(seed=2)
    one, two = playouts(state, 500, 11), playouts(state, 500, 11)
    assert np.array_equal(one, two) and not np.array_equal(one, playouts(state, 500, 12))
    assert len({tuple(r) for r in one}) > 100, "playouts differ from one another"
    assert np.array_equal(playouts(state, 3, 11), one[:3]), "playout i keys its own dice"


def test_threads_play_at_once_with_their_own_results() -> None:
    """The kernel releases the GIL (a server's search bots run in threads): calls from four
    threads at once give what each gives alone."""
    from concurrent.futures import ThreadPoolExecutor

    from gamenight.bots.playouts.casino import run

    assert run.targetoptions["nogil"]
    states = random_states(1, seed=8)
    alone = [playouts(s, 2000, k) for k, s in enumerate(states)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda k: playouts(states[k], 2000, k), range(len(states))))
    assert all(np.array_equal(a, b) for a, b in zip(alone, together, strict=True))


def test_a_closed_table_returns_where_it_stands() -> None:
    state: Any = gamenight.new_game(GAME, players=2, max_rolls=1).new_state(seed=2)
    finish(state, CasinoBot())
    assert state.is_terminal()
    assert playouts(state, 3, 0).tolist() == [state.returns()] * 3
    assert playout_tape(state, []) == (state.returns(), 0)


@pytest.mark.parametrize(("n", "error", "match"), [
    (0, ValueError, "n must be"),
    (MAX_PLAYOUTS + 1, ValueError, "n must be"),
    (2.5, ValueError, "n must be"),
    (True, ValueError, "n must be"),
])  # fmt: skip
def test_hostile_counts_are_named(n: Any, error: type[Exception], match: str) -> None:
    state = gamenight.new_game(GAME, players=2).new_state(seed=2)
    with pytest.raises(error, match=match):
        playouts(state, n, 1)


def test_hostile_input_is_named_and_changes_nothing() -> None:
    state: Any = gamenight.new_game(GAME, players=2).new_state(seed=2)
    before = state.view()
    with pytest.raises(TypeError, match="seed"):
        playouts(state, 10, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not shake"):
        playouts(gamenight.new_game("shake", players=2).new_state(seed=1), 10, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not dict"):
        playouts({"phase": "offer"}, 10, 1)  # type: ignore[arg-type]
    for tape in ([0, 6], [-1], [[1, 2]], [[1], [1, 2]], ["a"], [0.5, 1.0], None):
        with pytest.raises(ValueError, match="from 0 to 5"):
            playout_tape(state, tape)
    with pytest.raises(ValueError, match="ran out"):
        playout_tape(state, [0, 1, 2])
    for queue in ([1, 0, 1], [0, 0], []):  # no table sends the dice round like this
        state.offer_queue = queue
        with pytest.raises(Unsupported, match="offer queue"):
            playouts(state, 10, 1)
    state.offer_queue = [0, 1]
    assert state.view() == before
