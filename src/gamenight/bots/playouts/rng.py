"""The kernels' dice: a SplitMix64 stream per chunk, or a tape of given faces for agreement tests.

A chunk's stream is seeded from ``SeedSequence(seed).spawn``-style keys (see ``chunk_seeds``), so a
chunk draws the same dice whatever thread or Ray worker plays it. A non-empty ``tape`` replaces
the stream: dice are then read in order from it (values 0-5, a die showing ``value + 1``), which
lets a test hand the kernel and the reference engine the very same chance outcomes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import overload

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
SIX = np.uint64(6)
S30, S27, S31, S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
REJECT = np.uint64(4)  # 2**32 mod 6: low products below it would bias a die; they are redrawn

NO_TAPE = np.zeros(0, dtype=np.int8)

# Every kernel's game code never allocates, so it is compiled without Numba's reference counting:
# its atomic increments on every array passed to a call cost, for example, a quarter of Gambler's
# time and two thirds of the casino table's (11 -> 31 million rolls a second). Only the chunk
# functions that allocate a game's arrays keep it.
NO_REFCOUNT: dict[str, Any] = {"_nrt": False, "error_model": "numpy"}


def chunk_seeds(seed: int, first: int, count: int) -> np.ndarray:
    """Seeds of chunks ``first .. first + count - 1`` of a run: independent of how it is split."""
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        ss = np.random.SeedSequence(seed, spawn_key=(first + i,))
        out[i] = ss.generate_state(1, dtype=np.uint64)[0]
    return out


@njit(cache=True)
def chunk_starts(sizes: np.ndarray) -> np.ndarray:
    """Where each chunk's games begin in a batch's result arrays (and, last, their total)."""
    starts = np.zeros(sizes.size + 1, dtype=np.int64)
    starts[1:] = np.cumsum(sizes)
    return starts


@njit(cache=True, inline="always")
def next64(state: np.ndarray) -> np.uint64:
    """SplitMix64: one 64-bit output; ``state[0]`` is the stream's counter."""
    z = state[0] + GAMMA
    state[0] = z
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def d6(state: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> np.int64:
    """One die, 0-5: the next tape value, else an unbiased draw (Lemire's multiply, rejection)."""
    if tape.size:
        v = tape[pos[0]]
        pos[0] += 1
        return np.int64(v)
    while True:
        m = (next64(state) >> S32) * SIX
        if (m & LOW32) >= REJECT:
            return np.int64(m >> S32)


@njit(cache=True, inline="always")
def two_d6(state: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> tuple[np.int64, np.int64]:
    """Two dice, 0-5 each, from one 64-bit draw (its two halves) unless a tape is given."""
    if tape.size:
        a = tape[pos[0]]
        b = tape[pos[0] + 1]
        pos[0] += 2
        return np.int64(a), np.int64(b)
    while True:
        x = next64(state)
        m1 = (x >> S32) * SIX
        m2 = (x & LOW32) * SIX
        if (m1 & LOW32) >= REJECT and (m2 & LOW32) >= REJECT:
            return np.int64(m1 >> S32), np.int64(m2 >> S32)


SHAKE_OUTCOMES = np.uint64(6**6)  # ordered throws of six dice
SHAKE_REJECT = np.uint64(2**32 % 6**6)


@njit(cache=True, inline="always")
def uniform_6pow6(state: np.ndarray) -> np.int64:
    """An unbiased whole number in [0, 6**6): one throw of six dice from one draw."""
    while True:
        m = (next64(state) >> S32) * SHAKE_OUTCOMES
        if (m & LOW32) >= SHAKE_REJECT:
            return np.int64(m >> S32)


@njit(cache=True, inline="always")
def mix(s: Any) -> tuple[Any, Any]:
    """SplitMix64 on a local counter: (next counter, output), kept in registers by the caller."""
    s = s + GAMMA
    z = s
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return s, z ^ (z >> S31)


@njit(cache=True, inline="always")
def output(key: Any, x: Any) -> Any:
    """Output number ``x`` (from 0) of the SplitMix64 stream seeded with ``key``: the seed of a
    stream of its own, so the streams of (key, 0), (key, 1), ... are as far apart as random."""
    _, z = mix(key + np.uint64(x) * GAMMA)
    return z


# A stream keyed by turn, for common random numbers between playouts of two states
# (``gambler_playouts``): ``rng`` is then the SplitMix64 counter itself, an unsigned word, and
# ``r`` holds the playout's key, the turn it serves and where that turn's lottery tickets are
# drawn: its own stream far ahead (``ASIDE``), so that buying one or not leaves the dice as
# they were. A signed ``rng`` is any other stream, which runs on from turn to turn.
ASIDE = np.uint64((2**32 * int(GAMMA)) % 2**64)  # the counter 2**32 outputs on


def keyed(rng: Any) -> bool:
    """(At compile time) does this type of ``rng`` mark a stream keyed by turn?"""
    return rng in types.unsigned_domain


def turn_stream(rng: Any, r: np.ndarray, turns: int) -> Any:
    """Where turn ``turns`` draws from: a stream keyed by turn starts the stream seeded with
    output ``turns`` of the playout's key when the turn changes; any other runs on."""
    raise NotImplementedError("compiled only")


@overload(turn_stream, inline="always")
def _turn_stream_compiled(rng, r, turns):  # type: ignore[no-untyped-def]  # Numba: as the lambdas
    if not keyed(rng):
        return lambda rng, r, turns: rng
    return lambda rng, r, turns: _start_turn(rng, r, np.uint64(turns))


@njit(cache=True, inline="always")
def _start_turn(rng: Any, r: np.ndarray, turn: Any) -> Any:
    """A new turn's streams (its draws', its tickets'); the same turn keeps where it is."""
    if r[1] == turn:
        return rng
    r[1] = turn
    z = output(r[0], turn)
    r[2] = z + ASIDE
    return z


@njit(cache=True, inline="always")
def pair(s: Any, n: Any, reject: Any) -> tuple[Any, Any, Any]:
    """Two unbiased whole numbers in [0, n) from one 64-bit output (``reject`` = 2**32 mod n)."""
    while True:
        s, z = mix(s)
        m1 = (z >> S32) * n
        m2 = (z & LOW32) * n
        if (m1 & LOW32) >= reject and (m2 & LOW32) >= reject:
            return s, np.int64(m1 >> S32), np.int64(m2 >> S32)


@njit(cache=True)
def fill_pairs(state: np.ndarray, buf: np.ndarray, n: Any, reject: Any) -> None:
    """Fill ``buf`` (even size) with unbiased whole numbers in [0, n), two per 64-bit output.

    The outputs are computed side by side (the loop vectorises); in the rare fill where a half
    would bias (its low product below ``reject`` = 2**32 mod n) the fill is redone one draw at
    a time, redrawing such pairs, so the values are exactly those of ``pair`` in a loop."""
    s = state[0]
    bad = False
    for i in range(buf.size // 2):
        _, z = mix(s + np.uint64(i) * GAMMA)
        m1 = (z >> S32) * n
        m2 = (z & LOW32) * n
        buf[2 * i] = m1 >> S32
        buf[2 * i + 1] = m2 >> S32
        bad |= ((m1 & LOW32) < reject) | ((m2 & LOW32) < reject)
    if not bad:
        state[0] = s + np.uint64(buf.size // 2) * GAMMA
        return
    for i in range(buf.size // 2):
        s, a, b = pair(s, n, reject)
        buf[2 * i] = a
        buf[2 * i + 1] = b
    state[0] = s
