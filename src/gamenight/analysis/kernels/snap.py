"""Snap as a compiled kernel: the realtime table of ``race`` with its Snap rules."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import race

GAME = "snap"
FIGURES = race.FIGURES


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners and named figures of a batch of chunks."""
    return race.batch(False, seeds, sizes, options)


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
    """One game on given chance outcomes (see ``race.play_tape``)."""
    return race.play_tape(False, tape, options)
