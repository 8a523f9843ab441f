"""Snake Eyes as a compiled kernel: the engine's rules on a bitmask of face-up cards per seat."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from .rng import NO_TAPE, chunk_starts, pair, two_d6

THROWS = np.uint64(36)
REJECT36 = np.uint64(2**32 % 36)
TOTAL = np.array([a + b + 2 for a in range(6) for b in range(6)], dtype=np.int64)

GAME = "snake-eyes"
FIGURES = ("throws", "moves", "kitty")
FULL = sum(1 << t for t in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12))


@njit(cache=True)
def play(
    players: int,
    starting: int,
    ante: int,
    first: int,
    state: np.ndarray,
    tape: np.ndarray,
    pos: np.ndarray,
    up: np.ndarray,
    chips: np.ndarray,
) -> tuple[int, int, int, int]:
    """One game; fills ``chips``; returns (winner, moves, throws, kitty won)."""
    kitty = 0
    for s in range(players):
        up[s] = FULL
        chips[s] = starting - ante
        kitty += ante
    moves = 0
    thrower = first
    if first < 0:  # throw for high dice; ties throw again among themselves
        contenders = np.arange(players)
        m = players
        totals = np.empty(players, dtype=np.int64)
        while m > 1:
            best = 0
            for i in range(m):
                a, b = two_d6(state, tape, pos)
                moves += 1
                totals[i] = a + b
                if a + b > best:
                    best = int(a + b)
            k = 0
            for i in range(m):
                if totals[i] == best:
                    contenders[k] = contenders[i]
                    k += 1
            m = k
        thrower = contenders[0]
    throws = 0
    chances = 0
    ctr: Any = state[0]  # the stream's counter lives in a register; two throws per 64-bit draw
    spare: Any = -1
    taped = tape.size > 0
    while True:
        if taped:
            a, b = two_d6(state, tape, pos)
            total = a + b + 2
        elif spare >= 0:
            total = TOTAL[spare]
            spare = -1
        else:
            ctr, r, spare = pair(ctr, THROWS, REJECT36)
            total = TOTAL[r]
        moves += 1
        throws += 1
        bit = 1 << total
        if total == 7:
            paid = min(2, max(chips[thrower], 0))
            chips[thrower] -= paid
            kitty += paid
            chances = 0
            thrower += 1  # no modulo: a division per 7 thrown costs more than the rest
            if thrower == players:
                thrower = 0
        elif up[thrower] & bit:
            chances = 0
            up[thrower] ^= bit
            if up[thrower] == 0:
                chips[thrower] += kitty
                state[0] = ctr
                return thrower, moves, throws, kitty
            if total == 2:
                got = min(2, kitty)
                kitty -= got
                chips[thrower] += got
        elif chances:
            chances -= 1
            if chances == 0:
                paid = min(2, max(chips[thrower], 0))
                chips[thrower] -= paid
                kitty += paid
                thrower += 1
                if thrower == players:
                    thrower = 0
        else:
            if total == 2:
                got = min(1, kitty)
                kitty -= got
                chips[thrower] += got
            else:
                paid = min(1, max(chips[thrower], 0))
                chips[thrower] -= paid
                kitty += paid
            passed = False
            seat = thrower
            for _ in range(1, players):
                seat += 1
                if seat == players:
                    seat = 0
                if up[seat] & bit:
                    thrower = seat
                    up[seat] ^= bit
                    passed = True
                    if up[seat] == 0:
                        chips[seat] += kitty
                        state[0] = ctr
                        return seat, moves, throws, kitty
                    break
            if not passed:
                chances = 3


@njit(cache=True)
def _chunk(
    seed: np.uint64,
    lo: int,
    hi: int,
    players: int,
    starting: int,
    ante: int,
    first: int,
    winners: np.ndarray,
    figures: np.ndarray,
    chips: np.ndarray,
) -> None:
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    up = np.empty(players, dtype=np.int64)
    purse = np.empty(players, dtype=np.int64)
    for g in range(lo, hi):
        w, moves, throws, kitty = play(
            players, starting, ante, first, state, NO_TAPE, pos, up, purse
        )
        winners[g] = w
        figures[0, g] = throws
        figures[1, g] = moves
        figures[2, g] = kitty
        for s in range(players):
            chips[s, g] = purse[s]


@njit(cache=True, parallel=True)
def run_chunks(
    seeds: np.ndarray,
    sizes: np.ndarray,
    players: int,
    starting: int,
    ante: int,
    first: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play every chunk (its own stream each) in parallel; per-game winners, figures, chips."""
    starts = chunk_starts(sizes)
    n = starts[-1]
    winners = np.empty(n, dtype=np.int64)
    figures = np.empty((3, n), dtype=np.int64)
    chips = np.empty((players, n), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], players, starting, ante, first,
               winners, figures, chips)  # fmt: skip
    return winners, figures, chips


def kernel_args(options: dict[str, Any]) -> tuple[int, ...]:
    """The kernel's scalar arguments from validated game options."""
    fp = options.get("first_player")
    return (
        int(options["players"]),
        int(options["starting_chips"]),
        int(options["ante"]),
        -1 if fp is None else int(fp),
    )


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners and named figures of a batch of chunks."""
    winners, figures, chips = run_chunks(seeds, sizes, *kernel_args(options))
    named = {name: figures[i] for i, name in enumerate(FIGURES)}
    for s in range(chips.shape[0]):
        named[f"chips_{chr(65 + s)}"] = chips[s]
    return winners, named


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> tuple[int, int, list[int], int]:
    """One game on given dice (values 0-5): (winner, moves, final chips, dice used)."""
    players, starting, ante, first = kernel_args(options)
    pos = np.zeros(1, dtype=np.int64)
    up = np.empty(players, dtype=np.int64)
    chips = np.empty(players, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    w, moves, _, _ = play(players, starting, ante, first, state, tape, pos, up, chips)
    return int(w), int(moves), [int(c) for c in chips], int(pos[0])
