"""Kernels agree with the reference engine game by game on the very same dice.

The engine defines the rules; each kernel is a fast copy. Both read one tape of dice per game,
and must agree on the winner, the number of moves, the final chips or scores and the dice used.
Snap and Slap read their cards and the bots' reaction draws from tapes at the realtime table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

import gamenight  # noqa: E402
from gamenight.analysis.kernels import kernel  # noqa: E402
from gamenight.analysis.simulate import reference_figures  # noqa: E402
from gamenight.engine import State  # noqa: E402
from kernel_helpers import (  # noqa: E402
    engine_on_tape,
    realtime_on_tape,
    realtime_tapes,
    shake_dice,
    tapes,
)


def snake_eyes_dice(state: State, tape: np.ndarray, pos: int) -> tuple[dict[str, Any], int]:
    return {"type": "dice", "faces": [int(tape[pos]) + 1, int(tape[pos + 1]) + 1]}, 2


def agree(game_id: str, options: dict[str, Any], seed: int, games: int, length: int,
          to_action: Any, final: Any) -> None:  # fmt: skip
    game = gamenight.new_game(game_id, **options)
    full = game.options_dict()
    k = kernel(game_id)
    for i, tape in enumerate(tapes(seed, games, length)):
        state, used = engine_on_tape(game.new_state(seed=0), tape, to_action)
        assert used < length, "tape too short for this game"
        w, moves, finals, k_used = k.play_tape(tape, full)
        ref_w = state.winner()
        got = (None if w < 0 else w, moves, finals, k_used)
        want = (ref_w, len(state.moves), final(state), used)
        assert got == want, f"{game_id} {options} tape {i} (seed {seed})"


@pytest.mark.parametrize("players", range(2, 9))
def test_snake_eyes_kernel_agrees_with_the_engine(players: int) -> None:
    chips = lambda s: [s.ledger[p] for p in s.purse]  # noqa: E731
    agree("snake-eyes", {"players": players}, players, 400, 8000, snake_eyes_dice, chips)
    # low purses (paying what you can), no ante, a fixed first thrower
    agree("snake-eyes", {"players": players, "starting_chips": 3, "ante": 0, "first_player":
          players - 1}, 100 + players, 200, 8000, snake_eyes_dice, chips)  # fmt: skip


@pytest.mark.parametrize("players", range(2, 7))
def test_shake_kernel_agrees_with_the_engine(players: int) -> None:
    agree("shake", {"players": players}, players, 100, 20000, shake_dice, lambda s: s.totals())
    options = {"players": players, "rounds": 3, "scoring_faces": 1, "final_tie": "roll-off"}
    agree("shake", options, 50 + players, 150, 20000, shake_dice, lambda s: s.totals())
    options = {"players": players, "rounds": 2, "scoring_faces": 5}
    agree("shake", options, 70 + players, 150, 20000, shake_dice, lambda s: s.totals())


def casino_on_tape(game: Any, tape: np.ndarray, strategy: str) -> tuple[Any, int]:
    from gamenight.analysis.simulate import play_out  # noqa: F401
    from gamenight.bots.casino_bot import CasinoBot

    state = game.new_state(seed=0)
    bots = [CasinoBot(strategy=strategy) for _ in range(state.players)]
    pos = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(snake_eyes_dice(state, tape, pos)[0])
            pos += 2
        else:
            seat = state.actors()[0]
            state.apply(bots[seat].act(state, seat), seat)
    return state, pos


@pytest.mark.parametrize("players", range(1, 9))
def test_casino_kernel_agrees_with_the_engine(players: int) -> None:
    """Every strategy, two tables (one where purses run dry: gives up, declines, closing).

    The dealer's own rolls (rule 5.9(d)) never come up with these bots: a seat holding a wager
    always takes the dice it is offered."""
    from gamenight.bots.casino_bot import STRATEGIES

    k = kernel("snake-eyes-casino")
    settings = [
        {"bankroll": 60, "max_rolls": 60},  # bankrolls run dry: gives up, declines, dealer rolls
        {"bankroll": 300, "max_rolls": 90, "table_min": 10, "winners_stay_up": False,
         "payouts": {"hard6": "8:1", "field": "option-3", "craps2": "30:1"}},
    ]  # fmt: skip
    for i, strategy in enumerate(STRATEGIES):
        for j, extra in enumerate(settings):
            game = gamenight.new_game("snake-eyes-casino", players=players, **extra)
            options = {**game.options_dict(), "strategy": strategy}
            for t, tape in enumerate(tapes(1000 * players + 10 * i + j, 5, 500)):
                state, used = casino_on_tape(game, tape, strategy)
                got = k.play_tape(tape, options)
                want = (-1, len(state.moves), [state.net(s) for s in range(players)], used)
                assert got == want, f"{strategy} {extra} tape {t}"


def realtime_agree(game_id: str, players: int, seed: int, games: int, levels: list[str],
                   max_events: int | None = None, **extra: Any) -> None:  # fmt: skip
    """The realtime table on the engine and the kernel, on the same cards and reaction draws:
    the same winner, length, figures, every seat's cards in order and the same draws used."""
    game = gamenight.new_game(game_id, players=players, **extra)
    options = {**game.options_dict(), "levels": levels, "max_events": max_events}
    k = kernel(game_id)
    for i, tape in zip(range(games), realtime_tapes(seed, 60_000), strict=False):
        state, used = realtime_on_tape(game.new_state(seed=0), tape, levels, max_events)
        up = getattr(state, "up", None)  # Snap's face-up piles
        want = {
            "winner": state.winner(),
            "stopped": state.truncated,
            **{k: int(v) for k, v in reference_figures(state).items()},
            "cards": [state.pack[s] + (up[s] if up else []) for s in range(players)],
            "used": used,
        }
        assert k.play_tape(tape, options) == want, f"{game_id} {levels} {extra} tape {i} ({seed})"


def realtime_cases(game_id: str, players: int) -> None:
    """Whole games (normal bots as the simulator seats them, and mixed levels, whose false
    calls and lopsided races end games sooner), games the flip cap stops, games the table's
    cap on event rounds leaves unfinished."""
    rng = np.random.default_rng(players)
    normal = ["normal"] * players
    realtime_agree(game_id, players, players, 3, normal)
    for g in range(12):
        levels = [str(v) for v in rng.choice(["easy", "normal", "expert"], players)]
        realtime_agree(game_id, players, 100 * players + g, 1, levels)
    for g in range(15):
        cap = int(rng.integers(5, 80))
        realtime_agree(game_id, players, 200 * players + g, 10, normal, max_flips=cap)
    rounds = int(rng.integers(20, 300))
    realtime_agree(game_id, players, 300 * players, 8, normal, max_events=rounds)


@pytest.mark.parametrize("players", range(2, 9))
def test_snap_kernel_agrees_with_the_realtime_table(players: int) -> None:
    realtime_cases("snap", players)


@pytest.mark.parametrize("players", range(2, 5))
def test_slap_kernel_agrees_with_the_realtime_table(players: int) -> None:
    realtime_cases("slap-the-elephant", players)
