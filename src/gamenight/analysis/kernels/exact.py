"""Compiled inner loops of the exact analyses (the chains are too big for plain Python)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

CARD_WAYS = np.array([1, 2, 3, 4, 5, 5, 4, 3, 2, 1], dtype=np.float64)  # #2-#6, #8-#12
FULL = (1 << 10) - 1


@njit(cache=True)
def _solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = b.size
    for col in range(n):
        piv = col
        for r in range(col + 1, n):
            if abs(a[r, col]) > abs(a[piv, col]):
                piv = r
        for k in range(n):
            a[col, k], a[piv, k] = a[piv, k], a[col, k]
        b[col], b[piv] = b[piv], b[col]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            for k in range(col, n):
                a[r, k] -= f * a[col, k]
            b[r] -= f * b[col]
    x = np.zeros(n)
    for r in range(n - 1, -1, -1):
        s = b[r]
        for k in range(r + 1, n):
            s -= a[r, k] * x[k]
        x[r] = s / a[r, r]
    return x


@njit(cache=True)
def snake_eyes_two_player() -> np.ndarray:
    """Expected throws left from every state (row A, row B, thrower, chances) of a 2-player game."""
    p = CARD_WAYS / 36.0
    seven = 6.0 / 36.0
    e = np.zeros((FULL + 1, FULL + 1, 2, 4))
    m = np.empty((8, 8))
    rhs = np.empty(8)
    for a in range(1, FULL + 1):
        for b in range(1, FULL + 1):
            m[:] = 0.0
            for s in range(8):
                m[s, s] = 1.0
                rhs[s] = 1.0
            for t in range(2):
                me = a if t == 0 else b
                other = b if t == 0 else a
                for c in range(4):
                    s = t * 4 + c
                    m[s, (1 - t) * 4] -= seven
                    for i in range(10):
                        bit = 1 << i
                        if me & bit:
                            nxt = me & ~bit
                            if nxt:
                                if t == 0:
                                    rhs[s] += p[i] * e[nxt, other, 0, 0]
                                else:
                                    rhs[s] += p[i] * e[other, nxt, 1, 0]
                        elif c > 1:
                            m[s, t * 4 + c - 1] -= p[i]
                        elif c == 1:
                            m[s, (1 - t) * 4] -= p[i]
                        elif other & bit:
                            nxt = other & ~bit
                            if nxt:
                                if t == 0:
                                    rhs[s] += p[i] * e[me, nxt, 1, 0]
                                else:
                                    rhs[s] += p[i] * e[nxt, me, 0, 0]
                        else:
                            m[s, t * 4 + 3] -= p[i]
            x = _solve(m.copy(), rhs.copy())
            for s in range(8):
                e[a, b, s // 4, s % 4] = x[s]
    return e


# --- Casino, one player betting a strategy: risk of ruin and session length ------------------


@njit(cache=True)
def _settle_set(placed: np.ndarray, roll: int, codes: np.ndarray, multi_bit: np.ndarray,
                stay_up: bool) -> tuple[int, int]:  # fmt: skip
    """Units back to the purse and the multi-roll areas still up after ``roll``."""
    back = 0
    up = 0
    for i in range(placed.size):
        if not placed[i]:
            continue
        code = codes[roll, i]
        if code < 0:
            up |= multi_bit[i]
            continue
        if code == 0:
            continue
        back += code
        if stay_up and multi_bit[i]:
            up |= multi_bit[i]
        else:
            back += 1
    return back, up


def casino_ruin(units: int, rolls: int, codes: np.ndarray, multi_bit: np.ndarray,
                stay_up: bool) -> tuple[float, float]:  # fmt: skip
    """(chance of running out before ``rolls`` rolls, expected rolls) for one player with
    ``units`` table minimums who keeps one unit on each area (columns of ``codes``) while it can.

    The state between rolls is the purse in units and which multi-roll wagers are still up;
    the distribution is pushed forward roll by roll, one compiled call a roll, so that Ctrl-C
    stops a long chain at once. A purse too big to run out in the rolls left is counted as
    surviving them all."""
    n = codes.shape[1]
    tables = _ruin_tables(codes, multi_bit, stay_up)
    masks = tables[1].size
    top = max(units, n * rolls) + 1
    dist = np.zeros((masks, top))  # a purse's masses side by side: the full-purse step vectorises
    dist[0, units] = 1.0
    new = np.zeros_like(dist)
    # where each mask has mass: purses first[m] <= p < last[m] (empty when first >= last)
    first = np.full(masks, top, dtype=np.int64)
    last = np.zeros(masks, dtype=np.int64)
    first[0], last[0] = units, units + 1
    new_first, new_last = np.empty_like(first), np.empty_like(last)
    below = np.zeros(top + 1)  # a row's running sums: the mass of any run of purses at once
    totals = np.zeros(2)  # ruin, rolls played
    for t in range(rolls):
        _ruin_roll(rolls - t - 1, n, dist, first, last, new, new_first, new_last, below, totals,
                   *tables)  # fmt: skip
        dist, new, first, new_first, last, new_last = new, dist, new_first, first, new_last, last
    return float(totals[0]), float(totals[1])


@njit(cache=True)
def _ruin_tables(codes: np.ndarray, multi_bit: np.ndarray, stay_up: bool) -> tuple[Any, ...]:
    """What a roll does from each state, worked out once: the full purse's distinct outcomes
    (units back, areas still up, count of 36), each mask's cost to place every missing area,
    and for a short purse (under n units) its purse after placing what it can (-1: nothing,
    ruin) and each roll's units back and areas still up."""
    n = codes.shape[1]
    masks = 1
    for i in range(n):
        if multi_bit[i]:
            masks *= 2
    placed = np.ones(n, dtype=np.bool_)
    outcomes = np.zeros((36, 3), dtype=np.int64)
    kinds = 0
    for r in range(36):
        back, up = _settle_set(placed, r, codes, multi_bit, stay_up)
        k = 0
        while k < kinds and (outcomes[k, 0] != back or outcomes[k, 1] != up):
            k += 1
        if k == kinds:
            outcomes[k, 0], outcomes[k, 1] = back, up
            kinds += 1
        outcomes[k, 2] += 1
    cost = np.zeros(masks, dtype=np.int64)
    for m in range(masks):
        for i in range(n):
            if not (multi_bit[i] and (m & multi_bit[i])):
                cost[m] += 1
    short_purse = np.empty((masks, n), dtype=np.int64)
    short_back = np.empty((masks, n, 36), dtype=np.int64)
    short_up = np.empty((masks, n, 36), dtype=np.int64)
    for m in range(masks):
        for p in range(n):
            purse = p
            anything = False
            for i in range(n):
                if multi_bit[i] and (m & multi_bit[i]):
                    placed[i] = True
                    anything = True
                elif purse >= 1:
                    placed[i] = True
                    purse -= 1
                    anything = True
                else:
                    placed[i] = False
            short_purse[m, p] = purse if anything else -1
            for r in range(36):
                short_back[m, p, r], short_up[m, p, r] = _settle_set(
                    placed, r, codes, multi_bit, stay_up
                )
    return outcomes[:kinds], cost, short_purse, short_back, short_up


@njit(cache=True)
def _ruin_roll(left: int, n: int, dist: np.ndarray, first: np.ndarray, last: np.ndarray,
               new: np.ndarray, new_first: np.ndarray, new_last: np.ndarray, below: np.ndarray,
               totals: np.ndarray, outcomes: np.ndarray, cost: np.ndarray,
               short_purse: np.ndarray, short_back: np.ndarray,
               short_up: np.ndarray) -> None:  # fmt: skip
    """One roll: ``dist`` (mass per mask and purse) pushed into ``new`` (all zeros), with
    ``left`` rolls after it; ruin and rolls played added to ``totals``; ``dist`` left zeroed."""
    ruin, length = 0.0, 0.0
    new_first[:] = new.shape[1]
    new_last[:] = 0
    for m in range(dist.shape[0]):
        if first[m] >= last[m]:
            continue
        row = dist[m]
        # purses of n units or more place every missing area: the same step for each,
        # shifted by the purse; a purse landing where it cannot run out survives the rest
        a, b = max(first[m], n), last[m]
        if a < b:
            below[a] = 0.0
            for p in range(a, b):
                below[p + 1] = below[p] + row[p]
            length += below[b] - below[a]
            for k in range(outcomes.shape[0]):
                shift = outcomes[k, 0] - cost[m]
                share = outcomes[k, 2] / 36.0
                u = outcomes[k, 1]
                to = new[u]
                stop = min(b, max(a, n * left - shift))  # below it the purse stays in play
                for p in range(a, stop):
                    to[p + shift] += row[p] * share
                if a < stop:
                    new_first[u] = min(new_first[u], a + shift)
                    new_last[u] = max(new_last[u], stop + shift)
                length += (below[b] - below[stop]) * share * left
        for p in range(first[m], min(n, last[m])):  # a short purse: what it can place
            mass = row[p]
            if mass == 0.0:
                continue
            if short_purse[m, p] < 0:  # nothing: ruin
                ruin += mass
                continue
            length += mass
            share = mass / 36.0
            for r in range(36):
                q = short_purse[m, p] + short_back[m, p, r]
                if q >= n * left:
                    length += share * left
                else:
                    u = short_up[m, p, r]
                    new[u, q] += share
                    new_first[u] = min(new_first[u], q)
                    new_last[u] = max(new_last[u], q + 1)
        row[first[m] : last[m]] = 0.0  # ready to be the next roll's ``new``
    totals[0] += ruin
    totals[1] += length
