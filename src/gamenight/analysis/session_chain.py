"""Exact risk of ruin, chance of a goal and the final bankroll of one player's session.

An absorbing Markov chain: a state is the purse and, per bet, its stake, its wins in a row and
whether it is still up; the table's 36 rolls move it. Ruin, the goal and the stop-loss absorb,
each checked after every roll, the last one included. With a roll limit the distribution is
pushed roll by roll (sparse); with only a goal the fundamental matrix is solved.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamenight.engine.errors import GamenightError

from .strategy import Strategy, next_stake, stakes

CONVENTION = (
    "ruin: nothing on the layout and no stake of the strategy affordable, checked after every "
    "roll, the last one included; goal: chips (purse and layout) at or above the goal; "
    "stop-loss: chips at or below the bankroll less the stop-loss (a stop-loss hit is not "
    "counted as ruin); a winning wager is paid, "
    "taken down with its stake, and placed again at its next stake before the next roll"
)
MAX_STATES = 300_000
"""States the exact chain holds at most; a bigger strategy goes to the Monte Carlo kernel."""

BetState = tuple[int, int, bool]  # stake, wins in a row, up
State = tuple[int, tuple[BetState, ...]]  # purse, bets
RUIN, GOAL, STOP, END = "ruin", "goal", "stop_loss", "survived"


class TooBig(GamenightError):
    """The strategy's chain would pass ``MAX_STATES``: answer by Monte Carlo instead."""


@dataclass(frozen=True)
class Table:
    """What a session needs of a table: each bet's settlement code per roll, and the limits."""

    codes: tuple[tuple[int, ...], ...]  # [roll][bet]: -1 stays, 0 loses, N wins N to 1
    lo: int
    hi: int


def table_for(s: Strategy, settings: dict[str, Any] | None = None) -> Table:
    """The codes of a strategy's wagers under a table's settings (validated as a table's)."""
    from gamenight.engine import new_game

    game: Any = new_game("snake-eyes-casino", players=1, **(settings or {}))
    codes = tuple(tuple(row[b.wager] for b in s.bets) for row in game.codes)
    return Table(codes, game.options.table_min, game.options.table_max)


def start(s: Strategy) -> State:
    return s.bankroll, tuple((b.amount, 0, False) for b in s.bets)


def place(state: State) -> State:
    """Each bet that is down goes up at its stake, in order, while the purse covers it."""
    purse, bets = state
    out = []
    for stake, streak, up in bets:
        if not up and purse >= stake:
            purse -= stake
            up = True
        out.append((stake, streak, up))
    return purse, tuple(out)


def settle(s: Strategy, t: Table, state: State, row: tuple[int, ...]) -> State:
    """One roll: losers are taken, winners paid and taken down, the rest stay up."""
    purse, bets = state
    out = []
    for b, (stake, streak, up), code in zip(s.bets, bets, row, strict=True):
        if up and code >= 0:
            won = code > 0
            if won:
                purse += stake * (code + 1)
            stake, streak = next_stake(b, stake, streak, won, t.lo, t.hi)
            up = False
        out.append((stake, streak, up))
    return purse, tuple(out)


def chips(state: State) -> int:
    return state[0] + sum(stake for stake, _, up in state[1] if up)


def ending(s: Strategy, state: State) -> str | None:
    """Which absorbing end a state after a roll is in, if any: the goal, then the stop-loss
    (the player leaves by choice), then ruin."""
    total = chips(state)
    if s.goal is not None and total >= s.goal:
        return GOAL
    if s.stop_loss is not None and total <= s.bankroll - s.stop_loss:
        return STOP
    purse, bets = state
    if not any(up for _, _, up in bets) and all(purse < stake for stake, _, _ in bets):
        return RUIN
    return None


def _build(s: Strategy, t: Table) -> tuple[list[State], Any, Any, list[tuple[str, int]]]:
    """Every state reachable from the buy-in, and the sparse transient and absorbing steps."""
    from scipy import sparse

    classes = [(n, row) for row, n in Counter(t.codes).items()]
    most = sum(  # the most chips one roll can win
        stakes(b, t.lo, t.hi)[1] * max(0, *(row[k] for row in t.codes))
        for k, b in enumerate(s.bets)
    )
    top = s.goal if s.goal is not None else s.bankroll + most * (s.rolls or 0)
    _estimate(s, t, top)
    first = start(s)
    index = {first: 0}
    states = [first]
    ends: dict[tuple[str, int], int] = {}
    qr: list[int] = []
    qc: list[int] = []
    qv: list[float] = []
    rr: list[int] = []
    rc: list[int] = []
    rv: list[float] = []
    i = 0
    while i < len(states):
        placed = place(states[i])
        for n, row in classes:
            nxt = settle(s, t, placed, row)
            end = ending(s, nxt)
            if end is not None:
                col = ends.setdefault((end, chips(nxt)), len(ends))
                rr.append(i)
                rc.append(col)
                rv.append(n / 36)
                continue
            if chips(nxt) > top:  # reachable only after the last roll: never played
                continue
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(states)
                states.append(nxt)
                if j >= MAX_STATES:
                    raise TooBig(f"more than {MAX_STATES:,} states")
            qr.append(i)
            qc.append(j)
            qv.append(n / 36)
        i += 1
    m = len(states)
    q = sparse.csr_matrix((qv, (qr, qc)), shape=(m, m))
    r = sparse.csr_matrix((rv, (rr, rc)), shape=(m, len(ends)))
    return states, q, r, list(ends)


def _estimate(s: Strategy, t: Table, top: int) -> None:
    """Refuse at once a chain whose bound on states is far past ``MAX_STATES``: building one
    state by state would take minutes before it found out."""
    from math import gcd, log2

    g = s.bankroll
    configs = 1
    for k, b in enumerate(s.bets):
        g = gcd(g, b.amount, b.step or b.amount)
        low, high = stakes(b, t.lo, t.hi)
        if b.progression in ("martingale", "paroli"):
            levels = (
                int(log2(max(high // low, 1))) + 1 + (b.wins if b.progression == "paroli" else 0)
            )
        else:
            levels = (high - low) // (b.step or b.amount) + 1
        configs *= levels * (2 if any(row[k] < 0 for row in t.codes) else 1)
    bound = configs * (top // max(g, 1) + 1)
    if bound > 20 * MAX_STATES:
        raise TooBig(f"up to {bound:,} states (the limit is {MAX_STATES:,})")


def solve(s: Strategy, t: Table) -> dict[str, Any]:
    """The exact answer: chance of each end, expected rolls, final chips, ruin by roll."""
    states, q, r, ends = _build(s, t)
    final: dict[int, float] = {}
    p = dict.fromkeys((RUIN, GOAL, STOP, END), 0.0)
    curve: list[float] = []
    if s.rolls is None:  # the fundamental matrix: expected visits to each transient state
        from scipy import sparse
        from scipy.sparse.linalg import spsolve

        e0 = np.zeros(len(states))
        e0[0] = 1.0
        visits = np.atleast_1d(spsolve((sparse.identity(len(states)) - q).T.tocsc(), e0))
        absorbed = r.T @ visits
        length = float(visits.sum())
    else:
        v = np.zeros(len(states))
        v[0] = 1.0
        absorbed = np.zeros(len(ends))
        ruin_cols = np.array([k == RUIN for k, _ in ends], dtype=bool)
        qt, rt = q.T.tocsr(), r.T.tocsr()
        length = 0.0
        for _ in range(s.rolls):
            length += float(v.sum())
            absorbed += rt @ v
            v = qt @ v
            curve.append(float(absorbed[ruin_cols].sum()))
        for k, mass in enumerate(v):
            if mass:
                final[chips(states[k])] = final.get(chips(states[k]), 0.0) + float(mass)
        p[END] = float(v.sum())
    for (kind, total), mass in zip(ends, absorbed, strict=True):
        p[kind] += float(mass)
        final[total] = final.get(total, 0.0) + float(mass)
    return {
        "method": "exact",
        "states": len(states),
        "risk_of_ruin": p[RUIN],
        "goal_reached": p[GOAL],
        "stop_loss_hit": p[STOP],
        "survived": p[END],
        "expected_rolls": length,
        "final_chips": summary(sorted(final.items())),
        "ruin_by_roll": curve,
    }


def summary(dist: list[tuple[int, float]]) -> dict[str, Any]:
    """Mean, standard deviation and quartiles of a distribution of chips, and the law itself."""
    xs = np.array([x for x, _ in dist], dtype=float)
    ps = np.array([w for _, w in dist])
    mean = float(xs @ ps)
    cum = np.cumsum(ps)

    def q(f: float) -> int:
        return int(xs[min(int(np.searchsorted(cum, f - 1e-12)), xs.size - 1)])

    return {
        "mean": mean,
        "sd": float(np.sqrt(max(((xs - mean) ** 2) @ ps, 0.0))),
        "quartiles": [q(0.25), q(0.5), q(0.75)],
        "distribution": [[int(x), float(w)] for x, w in dist],
    }
