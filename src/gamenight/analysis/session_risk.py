"""One answer to "what happens to my bankroll?": exact where the chain fits, else Monte Carlo.

Both paths return the same keys, with ``method`` saying which was used; the Monte Carlo adds
95 % intervals (Wilson for chances, Student for means) and how many sessions it played.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .session_chain import CONVENTION, Table, TooBig, solve, summary, table_for
from .stats import t975, wilson
from .strategy import Strategy, with_table

SESSIONS = 200_000
"""Sessions the Monte Carlo plays by default: intervals of about ±0.2 points on a chance."""


def monte_carlo(s: Strategy, t: Table, sessions: int = SESSIONS, seed: int = 0) -> dict[str, Any]:
    """The strategy played ``sessions`` times in the kernel, with 95 % intervals."""
    from .kernels.sessions import ENDS, simulate

    out = simulate(s, t.codes, t.lo, t.hi, sessions, seed)
    ends, rolls, final = out
    counts = np.bincount(ends, minlength=len(ENDS))
    chance = {e: float(counts[i] / sessions) for i, e in enumerate(ENDS)}
    intervals = {e: list(wilson(int(counts[i]), sessions)) for i, e in enumerate(ENDS)}
    values, times = np.unique(final, return_counts=True)
    final_law = summary([(int(v), float(c / sessions)) for v, c in zip(values, times, strict=True)])
    final_law["mean_interval"] = _mean_ci(final, sessions)
    return {
        "method": "monte-carlo",
        "sessions": sessions,
        "seed": seed,
        "risk_of_ruin": chance["ruin"],
        "goal_reached": chance["goal"],
        "stop_loss_hit": chance["stop_loss"],
        "survived": chance["survived"],
        "unfinished": chance["unfinished"],
        "expected_rolls": float(rolls.mean()),
        "intervals": {
            "risk_of_ruin": intervals["ruin"],
            "goal_reached": intervals["goal"],
            "stop_loss_hit": intervals["stop_loss"],
            "survived": intervals["survived"],
            "expected_rolls": _mean_ci(rolls, sessions),
        },
        "final_chips": final_law,
        "ruin_by_roll": [],
    }


def _mean_ci(x: np.ndarray, n: int) -> list[float]:
    """Student's 95 % interval of a mean over ``n`` sessions."""
    m = float(x.mean())
    half = t975(n - 1) * float(x.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
    return [m - half, m + half]


def answer(
    s: Strategy,
    table: dict[str, Any] | None = None,
    method: str = "auto",
    sessions: int = SESSIONS,
    seed: int = 0,
) -> dict[str, Any]:
    """The strategy's session figures: ``method`` exact, monte-carlo, or auto (exact if it
    fits in ``session_chain.MAX_STATES`` states, else Monte Carlo, and the answer says why)."""
    t = table_for(s, table)
    with_table(s, t.lo, t.hi)
    why = None
    if method == "monte-carlo":
        out = monte_carlo(s, t, sessions, seed)
    else:
        try:
            out = solve(s, t)
        except TooBig as e:
            if method == "exact":
                raise
            why = f"the exact chain would hold {e}; played {sessions:,} sessions instead"
            out = monte_carlo(s, t, sessions, seed)
    return {
        "strategy": s.describe(),
        "settings": s.model_dump(mode="json", exclude_none=True),
        **out,
        **({"why_monte_carlo": why} if why else {}),
        "convention": CONVENTION,
    }
