"""Every wager of a table held up on every roll at one unit, compiled: the report's check that
each simulated house edge lies within its interval of the exact one.

A wager decided on a roll is placed again at once, so each roll with a decision adds one
independent decision to that wager's sum; nothing else about a session matters here.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gamenight.bots.playouts.rng import NO_TAPE, chunk_seeds, two_d6


@njit(cache=True)
def _chunk(seed: np.uint64, rolls: int, codes: np.ndarray, out: np.ndarray) -> None:
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    k = codes.shape[1]
    for _ in range(rolls):
        a, b = two_d6(state, NO_TAPE, pos)
        row = a * 6 + b
        for w in range(k):
            code = codes[row, w]
            if code >= 0:
                x = 1.0 if code == 0 else -float(code)  # the house's result per unit
                out[0, w] += 1.0
                out[1, w] += x
                out[2, w] += x * x


@njit(cache=True, parallel=True)
def _run(seeds: np.ndarray, sizes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    parts = np.zeros((seeds.size, 3, codes.shape[1]))
    for c in prange(seeds.size):
        _chunk(seeds[c], sizes[c], codes, parts[c])
    return parts.sum(axis=0)


def decisions(codes: np.ndarray, rolls: int, seed: int = 0, chunks: int = 64) -> np.ndarray:
    """Per wager (columns of ``codes``): decisions, the house's sum and its sum of squares."""
    sizes = np.full(chunks, rolls // chunks, dtype=np.int64)
    sizes[: rolls % chunks] += 1
    return _run(chunk_seeds(seed, 0, chunks), sizes, np.ascontiguousarray(codes, dtype=np.int64))
