"""Kernels agree with the reference engine game by game on the very same dice.

The engine defines the rules; each kernel is a fast copy. Both read one tape of dice per game,
and must agree on the winner, the number of moves, the final chips or scores and the dice used.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

import gamenight  # noqa: E402
from gamenight.analysis.kernels import kernel  # noqa: E402
from gamenight.engine import State  # noqa: E402
from kernel_helpers import engine_on_tape, tapes  # noqa: E402


def snake_eyes_dice(state: State, tape: np.ndarray, pos: int) -> tuple[dict[str, Any], int]:
    return {"type": "dice", "faces": [int(tape[pos]) + 1, int(tape[pos + 1]) + 1]}, 2


def shake_dice(state: State, tape: np.ndarray, pos: int) -> tuple[dict[str, Any], int]:
    if state.phase == "shake":  # type: ignore[attr-defined]
        k = state.game.options.scoring_faces  # type: ignore[attr-defined]
        return {"type": "shake", "faces": [10 if v < k else 0 for v in tape[pos : pos + 6]]}, 6
    n = state.players if state.phase == "roll" else len(state.contenders)  # type: ignore[attr-defined]
    return {"type": "dice", "faces": [int(v) + 1 for v in tape[pos : pos + n]]}, n


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
