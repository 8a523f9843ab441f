"""The two-player Shake solver's dynamic programme, compiled with Numba (see ``shake.py``)."""

from __future__ import annotations

import numpy as np
from numba import njit

# --- Shake, two players: win probability under optimal play by both (ties count one half) ----
# Points are in units of 10. ``w`` arrays are indexed by lead + D, clamped to [-D, D].


@njit(cache=True)
def _w(w: np.ndarray, lead: int, d: int) -> float:
    return w[min(max(lead, -d), d) + d]


@njit(cache=True)
def shake_turn(e: int, w: np.ndarray, d: int, p: np.ndarray, cap: int) -> np.ndarray:
    """``t[i]``: the shaker's win chance with ``i`` units in hand, base lead ``e``, playing on
    optimally; stopping sends the game to the position ``w`` (the next round) at lead e + i."""
    t = np.empty(cap + 7)
    for i in range(cap, cap + 7):
        t[i] = _w(w, e + i, d)
    crap = p[0] * _w(w, e, d)
    for i in range(cap - 1, 0, -1):
        cont = crap
        for j in range(1, 7):
            cont += p[j] * t[i + j]
        t[i] = max(_w(w, e + i, d), cont)
    t[0] = crap
    for j in range(1, 7):
        t[0] += p[j] * t[j]  # the shake chosen: its first throw is not a choice
    return t


@njit(cache=True)
def follower(p: np.ndarray, size: int) -> np.ndarray:
    """All Shake, the last to shake: ``v[h]`` its win chance needing more than ``h`` units, at
    the moment it may stop or shake (h <= 0: level or ahead)."""
    v = np.empty(size + 7)  # index h + 6
    for h in range(-6, 0):
        v[h + 6] = 1.0
    for h in range(0, size + 1):
        s = 0.0
        for j in range(1, 7):
            s += p[j] * v[h - j + 6]
        v[h + 6] = max(0.5, s) if h == 0 else s
    return v


@njit(cache=True)
def follower_start(v: np.ndarray, p: np.ndarray, gap: int) -> float:
    """The last shaker's chance before its first (forced) throw, ``gap`` units behind."""
    s = p[0] * (0.5 if gap == 0 else 0.0)
    for j in range(1, 7):
        s += p[j] * v[gap - j + 6]
    return s


@njit(cache=True)
def leader_turn(lead: int, v: np.ndarray, p: np.ndarray, cap: int) -> np.ndarray:
    """All Shake, the first to shake with ``lead`` >= 0: ``u[i]`` its chance with i in hand."""
    u = np.empty(cap + 7)
    for i in range(cap, cap + 7):
        u[i] = 1.0 - follower_start(v, p, lead + i)
    crap = p[0] * (1.0 - follower_start(v, p, lead))
    for i in range(cap - 1, 0, -1):
        cont = crap
        for j in range(1, 7):
            cont += p[j] * u[i + j]
        u[i] = max(1.0 - follower_start(v, p, lead + i), cont)
    u[0] = crap
    for j in range(1, 7):
        u[0] += p[j] * u[j]
    return u


@njit(cache=True)
def shake_win_dp(rounds: int, p: np.ndarray, d: int, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """``w[r, lead + d]``: win chance before round r (r = rounds is the All Shake round) and
    ``sv[r, e + d + 6]``: a shaker's chance in round r with base lead e, both under optimal play."""
    w = np.empty((rounds + 1, 2 * d + 1))
    sv = np.empty((rounds, 2 * d + 13))
    v = follower(p, d + cap + 7)
    for lead in range(0, d + 1):
        u0 = leader_turn(lead, v, p, cap)[0] if lead > 0 else 0.5
        w[rounds, lead + d] = u0
        w[rounds, -lead + d] = 1.0 - u0
    for r in range(rounds - 1, -1, -1):
        wn = w[r + 1]
        for e in range(-d - 6, d + 7):
            sv[r, e + d + 6] = shake_turn(e, wn, d, p, cap)[0]
        for lead in range(-d, d + 1):
            total = 0.0
            for a in range(1, 7):
                for b in range(1, 7):
                    if a == b:
                        continue
                    mine = sv[r, min(max(lead - b, -d - 6), d + 6) + d + 6]
                    theirs = 1.0 - sv[r, min(max(-(lead + a), -d - 6), d + 6) + d + 6]
                    both_take = _w(wn, lead + a - b, d)
                    if a > b:  # I choose first: take (then they choose) or shake
                        total += max(min(both_take, theirs), mine)
                    else:  # they choose first: take (then I choose) or shake
                        total += min(max(both_take, mine), theirs)
            w[r, lead + d] = total / 30.0
    return w, sv
