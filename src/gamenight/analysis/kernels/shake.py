"""Shake as a compiled kernel, each seat played by the sensible bot's policy (``bots.shake_bot``).

The bot's choices reduce to two lookup tables built from its own exact values: shake a colored
die of face f or take it, and shake on or stop with ``10 * i`` points in hand. The All Shake race
(shake while behind, stop once leading with nobody left) is written out as the bot writes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from gamenight.bots.playouts.rng import (
    NO_REFCOUNT,
    NO_TAPE,
    SHAKE_OUTCOMES,
    SHAKE_REJECT,
    chunk_starts,
    d6,
    mix,
    pair,
)

FOUR = np.uint64(4)
SENTINEL = np.int64(1 << 60)  # marks the end of a draw's 60 unused bits
HALF_HITS = np.array([bin(b).count("1") for b in range(64)], dtype=np.int64)  # set bits of b
LOW6 = np.uint64(sum(1 << (6 * i) for i in range(10)))  # the low bit of each of ten 6-bit fields
HIGH6 = LOW6 << np.uint64(5)  # and the high bit
M1, M2 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333)
M4, H01 = np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101)
ONE, TWO, FIFTY_SIX = np.uint64(1), np.uint64(2), np.uint64(56)

GAME = "shake"
FIGURES = ("moves", "shakes", "crap_outs", "top_score")


def policy_tables(scoring_faces: int) -> tuple[np.ndarray, np.ndarray]:
    """The sensible bot's choices as tables: shake a die of face f?  shake on with 10*i?"""
    from gamenight.bots.shake_bot import keeps_shaking, shake_values

    values = shake_values(scoring_faces)
    shake_die = np.array([f > 0 and values[0] > f * 10 for f in range(7)], dtype=np.bool_)
    # padded by six stops: a hand below the table's end plus one shake never reads past it
    keep = np.array([keeps_shaking(i * 10, scoring_faces) for i in range(len(values) + 6)])
    return shake_die, keep.astype(np.bool_)


def hits_table(scoring_faces: int) -> np.ndarray:
    """``table[u]``: scoring dice of ordered throw number u of the 6**6 (sorted by hits), so one
    exact draw and one lookup make a shake, with no branch on the outcome."""
    from math import comb

    k = scoring_faces
    counts = [comb(6, j) * k**j * (6 - k) ** (6 - j) for j in range(7)]
    return np.repeat(np.arange(7, dtype=np.int8), counts)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _shake(
    k: int, hits_of: np.ndarray, s: np.uint64, spare: int, tape: np.ndarray, pos: np.ndarray
) -> tuple[int, np.uint64, int]:
    """Scoring dice of one shake of six dice, each scoring on ``k`` faces of 6: (hits, s, spare).

    From a tape: die by die, as the engine reads them. From the stream (counter ``s``): one
    exact draw among the 6**6 ordered throws, looked up in the binomial table, two shakes per
    64-bit output (``spare`` holds the second); with three scoring faces, six bits a shake.
    Same law, a fraction of the draws."""
    hits: Any = 0
    if tape.size:
        for _ in range(6):
            if tape[pos[0]] < k:
                hits += 1
            pos[0] += 1
        return hits, s, spare
    if k == 3:  # each die scores with chance exactly 1/2: six fair bits, ten shakes a draw
        if spare < 0:
            s, z = mix(s)
            spare = int(np.int64(z >> FOUR) | SENTINEL)
        hits = HALF_HITS[spare & 63]
        spare >>= 6
        if spare == 1:  # only the sentinel is left: the next shake draws again
            spare = -1
        return hits, s, spare
    if spare >= 0:
        u = spare
        spare = -1
    else:
        s, u, spare = pair(s, SHAKE_OUTCOMES, SHAKE_REJECT)
    hits = hits_of[u]
    return hits, s, spare


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _set_bits(x: np.uint64) -> int:
    """Population count of a 64-bit word (the classic SWAR sum; LLVM makes it one popcnt)."""
    x = x - ((x >> ONE) & M1)
    x = (x & M2) + ((x >> TWO) & M2)
    x = (x + (x >> FOUR)) & M4
    return int((x * H01) >> FIFTY_SIX)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _ten_shakes(s: np.uint64, units: int, stop: int) -> tuple[bool, np.uint64, int]:
    """Ten shakes of three scoring faces at once, if none of them can end the turn.

    One draw is ten shakes (six fair bits each, as ``_shake`` reads them). When no 6-bit field is
    zero (no crap-out) and the hand stays below ``stop`` (the bot shakes on below it), all ten
    are taken in one step: (True, next counter, units after). Else (False, s, units) and the
    caller shakes one at a time from the same draw, so the games are the same either way."""
    nxt, z = mix(s)
    x = z >> FOUR
    if (x - LOW6) & ~x & HIGH6:  # some field is zero (the borrow trick for a zero byte)
        return False, s, units
    after = units + _set_bits(x)
    if after >= stop:
        return False, s, units
    return True, nxt, after


@njit(cache=True, **NO_REFCOUNT)
def _roll_off(
    seats: np.ndarray,
    faces: np.ndarray,
    m: int,
    state: np.ndarray,
    tape: np.ndarray,
    pos: np.ndarray,
) -> tuple[int, int]:
    """Colored dice among ``seats[:m]`` (thrown into ``faces``) until one rolls highest; (that
    seat, rolls made)."""
    rolls = 0
    while True:
        best = -1
        for i in range(m):
            faces[i] = d6(state, tape, pos)
            if faces[i] > best:
                best = faces[i]
        rolls += 1
        k = 0
        for i in range(m):
            if faces[i] == best:
                seats[k] = seats[i]
                k += 1
        if k == 1:
            return seats[0], rolls
        m = k


@njit(cache=True)
def scratch(players: int) -> np.ndarray:
    """Rows for a game's faces, face counts, turn order, roll-off seats and their throws."""
    return np.zeros((5, max(players, 7)), dtype=np.int64)


@njit(cache=True, **NO_REFCOUNT)
def play(
    players: int,
    rounds: int,
    k: int,
    final_rolloff: bool,
    shake_die: np.ndarray,
    keep: np.ndarray,
    hits_of: np.ndarray,
    state: np.ndarray,
    tape: np.ndarray,
    pos: np.ndarray,
    total: np.ndarray,
    work: np.ndarray,
) -> tuple[int, int, int, int]:
    """One game; fills ``total`` (final scores); returns (winner or -1, moves, shakes, craps).

    ``work`` is scratch space (``scratch(players)``), reused so a game allocates nothing."""
    moves = shakes = craps = 0
    faces, count, order, slot, thrown = work[0], work[1], work[2], work[3], work[4]
    for s in range(players):
        total[s] = 0
    c = state[0]  # the stream's counter, kept local in the shaking loops
    spare = -1
    bulk = k == 3 and tape.size == 0  # the stream of three scoring faces: ten shakes a draw
    stop = 0  # the bot shakes on with fewer units than this in hand (keep is True below it)
    while stop < keep.size and keep[stop]:
        stop += 1
    for _ in range(rounds):
        state[0] = c
        while True:
            for f in range(7):
                count[f] = 0
            for s in range(players):
                faces[s] = d6(state, tape, pos) + 1
                count[faces[s]] += 1
            moves += 1
            if count[faces[0]] < players:
                break
        c = state[0]
        shaker = -1
        for f in range(6, 0, -1):
            for s in range(players):
                if faces[s] != f:
                    continue
                if count[f] > 1 or shaker >= 0:
                    total[s] += 10 * f  # matched, or someone already shakes this round
                    continue
                moves += 1
                if not shake_die[f]:
                    total[s] += 10 * f
                    continue
                shaker = s
                units = 0  # points in hand / 10
                while True:
                    if bulk and spare < 0:  # at a fresh draw: ten shakes in one step if we may
                        took, c, units = _ten_shakes(c, units, stop)
                        if took:
                            moves += 20  # each shake and the choice to shake on
                            shakes += 10
                            continue
                    moves += 1
                    shakes += 1
                    hits, c, spare = _shake(k, hits_of, c, spare, tape, pos)
                    if hits == 0:
                        craps += 1
                        units = 0
                        break
                    units += hits
                    moves += 1
                    if units >= keep.size or not keep[units]:
                        break
                total[s] += 10 * units
    # All Shake order: by total, highest first; each tie rolled off, the high roller goes last.
    state[0] = c
    for i in range(players):  # seats by total, highest first, ties in seat order (stable)
        j = i
        while j > 0 and total[order[j - 1]] < total[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    i = 0
    while i < players:
        j = i
        while j < players and total[order[j]] == total[order[i]]:
            j += 1
        if j - i > 1:
            m = j - i
            for t in range(m):
                slot[t] = order[i + t]
            picker, rolls = _roll_off(slot, thrown, m, state, tape, pos)
            moves += rolls + 1
            t = i
            for u in range(i, j):
                if order[u] != picker:
                    order[t] = order[u]
                    t += 1
            order[j - 1] = picker  # the others keep seat order, as the bot orders them
        i = j
    c = state[0]
    for turn in range(players):
        s = order[turn]
        points = 0
        while True:
            moves += 1
            shakes += 1
            hits, c, spare = _shake(k, hits_of, c, spare, tape, pos)
            if hits == 0:
                craps += 1
                points = 0
                break
            points += 10 * hits
            moves += 1
            mine = total[s] + points
            rivals = -1
            for o in range(players):
                if o != s and total[o] > rivals:
                    rivals = total[o]
            if turn == players - 1:
                go_on = mine <= rivals
            elif mine <= rivals:
                go_on = True
            else:
                i = points // 10
                go_on = i < keep.size and keep[i]
            if not go_on:
                break
        total[s] += points
    state[0] = c
    best = total[0]  # (a loop: ndarray.max needs Numba's runtime)
    for s in range(1, players):
        best = max(best, total[s])
    m = 0
    for s in range(players):
        if total[s] == best:
            slot[m] = s
            m += 1
    if m == 1:
        return slot[0], moves, shakes, craps
    if not final_rolloff:
        return -1, moves, shakes, craps
    w, rolls = _roll_off(slot, thrown, m, state, tape, pos)
    return w, moves + rolls, shakes, craps


@njit(cache=True)
def _chunk(
    seed: np.uint64,
    lo: int,
    hi: int,
    players: int,
    rounds: int,
    k: int,
    final_rolloff: bool,
    shake_die: np.ndarray,
    keep: np.ndarray,
    hits_of: np.ndarray,
    winners: np.ndarray,
    figures: np.ndarray,
    scores: np.ndarray,
) -> None:
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    total = np.empty(players, dtype=np.int64)
    work = scratch(players)
    # the chunk's own copies: no cache line shared between threads (race.run_chunks)
    shake_die, keep, hits_of = shake_die.copy(), keep.copy(), hits_of.copy()
    for g in range(lo, hi):
        w, moves, shakes, craps = play(players, rounds, k, final_rolloff, shake_die, keep,
                                       hits_of, state, NO_TAPE, pos, total, work)  # fmt: skip
        winners[g] = w
        figures[0, g] = moves
        figures[1, g] = shakes
        figures[2, g] = craps
        figures[3, g] = total.max()
        for s in range(players):
            scores[s, g] = total[s]


@njit(cache=True, parallel=True)
def run_chunks(
    seeds: np.ndarray,
    sizes: np.ndarray,
    players: int,
    rounds: int,
    k: int,
    final_rolloff: bool,
    shake_die: np.ndarray,
    keep: np.ndarray,
    hits_of: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play every chunk (its own stream each) in parallel; per-game winners, figures, scores."""
    starts = chunk_starts(sizes)
    n = starts[-1]
    winners = np.empty(n, dtype=np.int64)
    figures = np.empty((4, n), dtype=np.int64)
    scores = np.empty((players, n), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], players, rounds, k, final_rolloff,
               shake_die, keep, hits_of, winners, figures, scores)  # fmt: skip
    return winners, figures, scores


def kernel_args(options: dict[str, Any]) -> tuple[Any, ...]:
    k = int(options["scoring_faces"])
    shake_die, keep = policy_tables(k)
    return (
        int(options["players"]),
        int(options["rounds"]),
        k,
        options["final_tie"] == "roll-off",
        shake_die,
        keep,
        hits_table(k),
    )


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners and named figures of a batch of chunks."""
    winners, figures, scores = run_chunks(seeds, sizes, *kernel_args(options))
    named = {name: figures[i] for i, name in enumerate(FIGURES)}
    for s in range(scores.shape[0]):
        named[f"score_{chr(65 + s)}"] = scores[s]
    return winners, named


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> tuple[int, int, list[int], int]:
    """One game on given dice (values 0-5): (winner or -1, moves, final scores, dice used)."""
    players, rounds, k, rolloff, shake_die, keep, hits_of = kernel_args(options)
    pos = np.zeros(1, dtype=np.int64)
    total = np.empty(players, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    work = scratch(players)
    w, moves, _, _ = play(
        players, rounds, k, rolloff, shake_die, keep, hits_of, state, tape, pos, total, work
    )
    return int(w), int(moves), [int(t) for t in total], int(pos[0])
