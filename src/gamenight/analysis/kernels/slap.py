"""Slap the Elephant as a compiled kernel: the realtime table of ``race`` with its Slap rules."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import race

GAME = "slap-the-elephant"
FIGURES = race.FIGURES


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners and named figures of a batch of chunks."""
    return race.batch(True, seeds, sizes, options)


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
    """One game on given chance outcomes (see ``race.play_tape``)."""
    return race.play_tape(True, tape, options)
