"""One player's betting sessions at the casino table, compiled: the Monte Carlo of a strategy.

A fast copy of ``session_chain``'s step (place, settle, move each stake, check the ends after
every roll), reading the strategy as arrays; tests hold it to the exact chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from gamenight.analysis.strategy import PROGRESSIONS, Strategy
from gamenight.bots.playouts.rng import NO_REFCOUNT, NO_TAPE, chunk_seeds, chunk_starts, two_d6

SURVIVED, RUIN, GOAL, STOP, UNFINISHED = 0, 1, 2, 3, 4
ENDS = ("survived", "ruin", "goal", "stop_loss", "unfinished")
FLAT, MARTINGALE, PAROLI, DALEMBERT, PRESS, REGRESS = range(6)
NO_LIMIT = 10**7  # rolls a session with only a goal may take before it counts as unfinished


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _next(kind: int, amount: int, step: int, cap: int, floor: int, wins: int, stake: int,
          streak: int, won: bool) -> tuple[int, int]:  # fmt: skip
    streak = streak + 1 if won else 0
    if kind == MARTINGALE:
        new = amount if won or stake * 2 > cap else stake * 2
    elif kind == PAROLI:
        if won and streak < wins and stake * 2 <= cap:
            new = stake * 2
        else:
            new, streak = amount, 0
    elif kind == DALEMBERT:
        new = max(stake - step, amount) if won else min(stake + step, cap)
    elif kind == PRESS:
        new = min(stake + step, cap) if won else amount
    elif kind == REGRESS:
        new = max(stake - step, floor) if won else amount
    else:
        new = stake
    return new, streak if kind == PAROLI else 0


@njit(cache=True, **NO_REFCOUNT)
def session(codes: np.ndarray, bets: np.ndarray, bankroll: int, goal: int, loss_floor: int,
            rolls: int, state: np.ndarray, tape: np.ndarray, pos: np.ndarray,
            stake: np.ndarray, streak: np.ndarray, up: np.ndarray,
            path: np.ndarray) -> tuple[int, int, int]:  # fmt: skip
    """One session: (how it ended, rolls played, final chips). ``bets`` rows: progression,
    amount, step, cap, floor, wins; ``goal`` 0 for none, ``loss_floor`` -1 for none."""
    k = codes.shape[1]
    purse = bankroll
    for i in range(k):
        stake[i], streak[i], up[i] = bets[i, 1], 0, False
    t = 0
    while t < rolls:
        for i in range(k):
            if not up[i] and purse >= stake[i]:
                purse -= stake[i]
                up[i] = True
        a, b = two_d6(state, tape, pos)
        row = a * 6 + b
        t += 1
        total = purse
        anything = False
        for i in range(k):
            code = codes[row, i]
            if up[i] and code >= 0:
                if code > 0:
                    purse += stake[i] * (code + 1)
                stake[i], streak[i] = _next(bets[i, 0], bets[i, 1], bets[i, 2], bets[i, 3],
                                            bets[i, 4], bets[i, 5], stake[i], streak[i],
                                            code > 0)  # fmt: skip
                up[i] = False
            if up[i]:
                anything = True
        total = purse
        can = False
        for i in range(k):
            if up[i]:
                total += stake[i]
            elif purse >= stake[i]:
                can = True
        if path.size:
            path[t] = total
        if goal and total >= goal:
            return GOAL, t, total
        if loss_floor >= 0 and total <= loss_floor:
            return STOP, t, total
        if not anything and not can:
            return RUIN, t, total
    total = purse
    for i in range(k):
        if up[i]:
            total += stake[i]
    return (UNFINISHED if rolls == NO_LIMIT else SURVIVED), t, total


@njit(cache=True)
def _chunk(seed: np.uint64, lo: int, hi: int, codes: np.ndarray, bets: np.ndarray,
           bankroll: int, goal: int, loss_floor: int, rolls: int,
           out: np.ndarray) -> None:  # fmt: skip
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    k = codes.shape[1]
    stake, streak = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    up = np.empty(k, dtype=np.bool_)
    no_path = np.zeros(0, dtype=np.int64)
    codes, bets = codes.copy(), bets.copy()
    for g in range(lo, hi):
        end, t, total = session(codes, bets, bankroll, goal, loss_floor, rolls, state, NO_TAPE,
                                pos, stake, streak, up, no_path)  # fmt: skip
        out[0, g], out[1, g], out[2, g] = end, t, total


@njit(cache=True, parallel=True)
def run_chunks(seeds: np.ndarray, sizes: np.ndarray, codes: np.ndarray, bets: np.ndarray,
               bankroll: int, goal: int, loss_floor: int, rolls: int) -> np.ndarray:  # fmt: skip
    """Each session's end, rolls and final chips, chunks in parallel (a stream each)."""
    starts = chunk_starts(sizes)
    out = np.empty((3, starts[-1]), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], codes, bets, bankroll, goal, loss_floor,
               rolls, out)  # fmt: skip
    return out


def arrays(s: Strategy, codes: Any, lo: int, hi: int) -> tuple[Any, ...]:
    """The strategy as the kernel reads it: codes [roll, bet], bet rows, and the stops."""
    rows = [
        (PROGRESSIONS.index(b.progression), b.amount, b.step or b.amount,
         min(b.cap or hi, hi), max(b.floor or lo, lo), b.wins)
        for b in s.bets
    ]  # fmt: skip
    return (
        np.asarray(codes, dtype=np.int64).reshape(36, len(s.bets)),
        np.array(rows, dtype=np.int64),
        s.bankroll,
        s.goal or 0,
        s.bankroll - s.stop_loss if s.stop_loss is not None else -1,
        s.rolls or NO_LIMIT,
    )


def simulate(s: Strategy, codes: Any, lo: int, hi: int, sessions: int, seed: int = 0) -> np.ndarray:
    """``sessions`` sessions as rows (end, rolls, final chips), the same for any thread count.

    The chunks (a stream each) go to the kernel a few at a time, about a million rolls a call
    at most, so that Ctrl-C, which Python sees only between calls, stops a long run at once."""
    args = arrays(s, codes, lo, hi)
    rolls = min(args[-1], 10_000)
    chunks = int(min(sessions, max(64, sessions * rolls // 10**6)))
    sizes = np.full(chunks, sessions // chunks, dtype=np.int64)
    sizes[: sessions % chunks] += 1
    seeds = chunk_seeds(seed, 0, chunks)
    per_call = 16
    parts = [
        run_chunks(seeds[i : i + per_call], sizes[i : i + per_call], *args)
        for i in range(0, chunks, per_call)
    ]
    return np.concatenate(parts, axis=1)


def paths(s: Strategy, codes: Any, lo: int, hi: int, sessions: int, seed: int = 0) -> np.ndarray:
    """Chips after each roll (column 0: the buy-in) of ``sessions`` sessions of a roll limit."""
    c, bets, bankroll, goal, floor, rolls = arrays(s, codes, lo, hi)
    out = np.empty((sessions, rolls + 1), dtype=np.int64)
    state = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)
    pos = np.zeros(1, dtype=np.int64)
    k = c.shape[0 + 1]
    stake, streak, up = np.empty(k, np.int64), np.empty(k, np.int64), np.empty(k, np.bool_)
    for g in range(sessions):
        out[g, 0] = bankroll
        _, t, _ = session(c, bets, bankroll, goal, floor, rolls, state, NO_TAPE, pos, stake,
                          streak, up, out[g])  # fmt: skip
        out[g, t + 1 :] = out[g, t]
    return out
