"""Feeding the reference engine a tape of dice: the same chance outcomes a kernel reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gamenight.bots.base import make_bot
from gamenight.engine import State

# (state, tape, position) -> (chance action, dice used)
ToAction = Callable[[State, np.ndarray, int], tuple[dict[str, Any], int]]


def engine_on_tape(state: State, tape: np.ndarray, to_action: ToAction) -> tuple[State, int]:
    """Play ``state`` to the end: chance from the tape, every seat by the game's sensible bot."""
    bots = [make_bot(state.game.id, "sensible", seed=s) for s in range(state.players)]
    pos = 0
    while not state.is_terminal():
        if state.is_chance():
            action, used = to_action(state, tape, pos)
            pos += used
            state.apply(action)
        else:
            seat = state.actors()[0]
            state.apply(bots[seat].act(state, seat), seat)
    return state, pos


def tapes(seed: int, count: int, length: int) -> np.ndarray:
    """``count`` tapes of ``length`` dice (0-5), reproducible from ``seed``."""
    return np.random.default_rng(seed).integers(0, 6, size=(count, length), dtype=np.int8)
