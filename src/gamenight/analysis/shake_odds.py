"""Exact Shake figures: the crap-out chance, the value of shaking, and the optimal policies.

Expected value: with ``10 * i`` in hand, one more shake gains ``10 * scoring_faces`` points on
average and loses everything with the crap-out chance q, so it pays exactly while
``10 * i * q < 10 * scoring_faces``; the round's value follows by dynamic programming.
Win probability (two players): a dynamic programme over rounds and the lead, both players
choosing take or shake and when to stop so as to win, the All Shake round solved first.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import ceil
from typing import Any

import numpy as np

from gamenight.games.shake import crap_out_chance
from gamenight.solvers.shake import CAP, LEAD, hits_law, win_tables


def ev_stop_at(scoring_faces: int) -> Fraction:
    """Points in hand from which stopping is at least as good as one more shake (exact)."""
    return Fraction(10 * scoring_faces) / crap_out_chance(scoring_faces)


@cache
def ev_values(scoring_faces: int) -> np.ndarray:
    """``v[i]``: expected round score with 10*i in hand, shaking on while it pays."""
    p = hits_law(scoring_faces)
    top = int(ev_stop_at(scoring_faces) / 10) + 1
    v = np.arange(top + 7, dtype=float) * 10
    for i in range(top - 1, -1, -1):
        v[i] = max(10.0 * i, float(p[1:] @ v[i + 1 : i + 7]))
    return v


def ev_of_shaking(scoring_faces: int) -> float:
    """Expected round score of giving up the colored die to shake, then stopping optimally."""
    p = hits_law(scoring_faces)
    v = ev_values(scoring_faces)
    return float(p[1:] @ v[1:7])


def win_stop_regions(rounds: int, scoring_faces: int, round_no: int, lead: int) -> list[list[int]]:
    """Ranges ``[lo, hi]`` of points in hand at which a win-optimal shaker stops in round
    ``round_no`` (1-based), leading by ``lead`` points before its shake. Not always one range:
    far behind late in the game it may stop at a few hundred, then play on for thousands."""
    from gamenight.solvers.shake_dp import shake_turn

    w, _ = win_tables(rounds, scoring_faces)
    p = hits_law(scoring_faces)
    e = lead // 10
    wn = w[round_no]  # the position after this round, which a stop moves to
    t = shake_turn(e, wn, LEAD, p, CAP)
    regions: list[list[int]] = []
    for i in range(1, CAP):
        if wn[min(max(e + i, -LEAD), LEAD) + LEAD] >= t[i] - 1e-15:
            if regions and regions[-1][1] == 10 * (i - 1):
                regions[-1][1] = 10 * i
            else:
                regions.append([10 * i, 10 * i])
    return regions


def win_stop_points(rounds: int, scoring_faces: int, round_no: int, lead: int) -> int | None:
    """The fewest points in hand at which a win-optimal shaker stops in round ``round_no``
    (1-based), leading by ``lead`` points before its shake; None if it never stops below the cap."""
    regions = win_stop_regions(rounds, scoring_faces, round_no, lead)
    return regions[0][0] if regions else None


def report(rounds: int = 10, leads: tuple[int, ...] = (-500, -200, 0, 200, 500)) -> dict[str, Any]:
    """Crap-out chances and EV tables for every ``scoring_faces``; the 2-player win policy."""
    out: dict[str, Any] = {"game": "shake", "scoring_faces": {}}
    for k in range(1, 6):
        q = crap_out_chance(k)
        stop = ev_stop_at(k)
        v = ev_values(k)
        p = hits_law(k)
        shown = min(len(v) - 7, 300)
        out["scoring_faces"][str(k)] = {
            "crap_out_chance": f"{q.numerator}/{q.denominator}",
            "crap_out_probability": float(q),
            "ev_stop_at_points": float(stop),  # the break-even
            "ev_stop_from_points": 10 * ceil(stop / 10),  # points in hand come in tens
            "ev_of_shaking": ev_of_shaking(k),
            "shake_gives_up_die_faces": [f for f in range(1, 7) if ev_of_shaking(k) > 10 * f],
            "in_hand": [
                {
                    "points": 10 * i,
                    "ev_one_more_shake": float(p[1:] @ (10 * i + 10 * np.arange(1, 7))),
                    "ev_optimal": float(v[i]),
                    "shake_on": bool(v[i] > 10 * i),
                }
                for i in range(0, shown + 1)
            ],
        }
    try:
        w, _ = win_tables(rounds, 3)
    except ImportError:
        out["win_policy"] = "needs Numba: pip install -e '.[kernels]'"
        return out
    out["win_policy"] = {
        "players": 2,
        "rounds": rounds,
        "scoring_faces": 3,
        "win_chance_by_lead_before_round": {
            str(r + 1): {str(lead): float(w[r, lead // 10 + LEAD]) for lead in leads}
            for r in range(rounds + 1)
        },
        "stop_at_points_by_round_and_lead": {
            str(r): {str(lead): win_stop_points(rounds, 3, r, lead) for lead in leads}
            for r in range(1, rounds + 1)
        },
        "stop_regions_by_round_and_lead": {
            str(r): {str(lead): win_stop_regions(rounds, 3, r, lead) for lead in leads}
            for r in range(1, rounds + 1)
        },
        "stop_cap_points": 10 * CAP,
    }
    return out
