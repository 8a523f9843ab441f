"""Snake Eyes as a compiled kernel: the engine's rules on a bitmask of face-up cards per seat."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from gamenight.bots.playouts.rng import NO_REFCOUNT, chunk_starts, fill_pairs

THROWS = np.uint64(36)  # a throw is one number in [0, 36): 6 * first die + second die
REJECT36 = np.uint64(2**32 % 36)
TOTAL = np.array([a + b + 2 for a in range(6) for b in range(6)], dtype=np.int64)
BUFFER = 512  # throws drawn at once (vectorised) into a chunk's buffer

GAME = "snake-eyes"
FIGURES = ("throws", "moves", "kitty")
FULL = sum(1 << t for t in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12))


@njit(cache=True, **NO_REFCOUNT)
def refill(state: np.ndarray, buf: np.ndarray) -> None:
    """Draw the next buffer of throws from the stream (a taped game has none: its buffer is the
    whole tape, and running past its end is an error)."""
    if state.size == 0:
        raise IndexError("the tape ran out of dice")
    fill_pairs(state, buf, THROWS, REJECT36)


@njit(cache=True, **NO_REFCOUNT)
def play(
    players: int,
    starting: int,
    ante: int,
    first: int,
    state: np.ndarray,
    buf: np.ndarray,
    pos: np.ndarray,
    up: np.ndarray,
    chips: np.ndarray,
    seats: np.ndarray,
) -> tuple[int, int, int, int]:
    """One game; fills ``chips`` (``up`` and ``seats`` are scratch, one per seat); returns
    (winner, moves, throws, kitty won). Throws come from ``buf`` at ``pos`` (see ``refill``)."""
    at = pos[0]  # kept in a register, written back when the game ends
    kitty = 0
    for s in range(players):
        up[s] = FULL
        chips[s] = starting - ante
        kitty += ante
    moves = 0
    thrower = first
    if first < 0:  # throw for high dice; ties throw again among themselves
        for s in range(players):
            seats[s] = s
        m = players
        while m > 1:  # a contender's throw is kept in ``up`` until the game starts
            best = 0
            for i in range(m):
                if at == buf.size:
                    refill(state, buf)
                    at = 0
                t = TOTAL[buf[at]]
                at += 1
                moves += 1
                up[i] = t
                best = max(best, t)
            k = 0
            for i in range(m):
                if up[i] == best:
                    seats[k] = seats[i]
                    k += 1
            m = k
        thrower = seats[0]
        for s in range(players):
            up[s] = FULL
    throws = 0
    chances = 0
    while True:
        if at == buf.size:
            refill(state, buf)
            at = 0
        total = TOTAL[buf[at]]
        at += 1
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
                pos[0] = at
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
                        pos[0] = at
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
    buf = np.empty(BUFFER, dtype=np.uint8)
    pos = np.full(1, BUFFER, dtype=np.int64)  # empty: the first throw fills it
    up = np.empty(players, dtype=np.int64)
    purse = np.empty(players, dtype=np.int64)
    seats = np.empty(players, dtype=np.int64)
    for g in range(lo, hi):
        w, moves, throws, kitty = play(
            players, starting, ante, first, state, buf, pos, up, purse, seats
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
    """One game on given dice (values 0-5, two a throw): (winner, moves, final chips, dice used)."""
    players, starting, ante, first = kernel_args(options)
    pairs = np.asarray(tape, dtype=np.int64)[: tape.size // 2 * 2].reshape(-1, 2)
    buf = (6 * pairs[:, 0] + pairs[:, 1]).astype(np.uint8)
    pos = np.zeros(1, dtype=np.int64)
    up = np.empty(players, dtype=np.int64)
    chips = np.empty(players, dtype=np.int64)
    seats = np.empty(players, dtype=np.int64)
    no_stream = np.empty(0, dtype=np.uint64)
    w, moves, _, _ = play(players, starting, ante, first, no_stream, buf, pos, up, chips, seats)
    return int(w), int(moves), [int(c) for c in chips], 2 * int(pos[0])
