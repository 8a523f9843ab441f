"""Compiled inner loops of the exact analyses (the chains are too big for plain Python)."""

from __future__ import annotations

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
