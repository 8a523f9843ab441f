"""How long Shake lasts under the policy the report shows.

One shaking turn played to the expected-value stop has an exact law (a chain over the points in
hand: each shake adds its scoring dice or craps out). A whole game does not: the All Shake race
depends on the lead, so its shakes come from the compiled kernel (the sensible bot, which plays
that same stop in the ten rounds), with 95 % intervals on the mean and on each quantile.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import Any

from .stats import Z95, Figure

QUANTILES = (0.5, 0.9, 0.99)


def stop_units(scoring_faces: int) -> int:
    """Tens of points in hand at which the expected-value shaker stops (a reachable total)."""
    from .shake_odds import ev_stop_at

    return math.ceil(ev_stop_at(scoring_faces) / 10)


def turn_law(scoring_faces: int) -> list[Fraction]:
    """``law[n]``: the exact chance that a shaking turn lasts n shakes (a crap-out or the stop)."""
    k, stop = scoring_faces, stop_units(scoring_faces)
    weight = [comb(6, j) * k**j * (6 - k) ** (6 - j) for j in range(7)]  # out of 6**6 throws
    alive, law, scale = {0: 1}, [Fraction(0)], 1  # masses of hands still shaking, times scale
    while alive:
        scale *= 6**6
        ended, after = 0, dict.fromkeys(range(1, stop), 0)
        for units, mass in alive.items():
            ended += mass * weight[0]
            for j in range(1, 7):
                if units + j >= stop:
                    ended += mass * weight[j]
                else:
                    after[units + j] += mass * weight[j]
        law.append(Fraction(ended, scale))
        alive = {u: m for u, m in after.items() if m}
    return law


def law_quantile(law: list[float], q: float) -> int:
    """The fewest shakes n with a chance of at least q that the turn ends by n."""
    seen = 0.0
    for n, p in enumerate(law):
        seen += p
        if seen >= q - 1e-12:
            return n
    return len(law) - 1


def quantile_interval(fig: Figure, q: float) -> tuple[int, int]:
    """A distribution-free 95 % interval of the q-quantile: the order statistics whose ranks
    bound a binomial count of games at or below it."""
    half = Z95 * math.sqrt(fig.n * q * (1 - q))
    lo_rank, hi_rank = max(1, math.floor(fig.n * q - half)), min(fig.n, math.ceil(fig.n * q + half))
    lo = hi = None
    seen = 0
    for v in sorted(fig.counts):
        seen += fig.counts[v]
        if lo is None and seen >= lo_rank:
            lo = v
        if seen >= hi_rank:
            hi = v
            break
    assert lo is not None and hi is not None
    return lo, hi


def game_shakes(scoring_faces: int, games: int, seed: int) -> tuple[dict[str, Any], Figure]:
    """Shakes in a two-player game of the default rounds, from the kernel."""
    from gamenight.engine import new_game

    from .runner import CHUNK, kernel_batch

    options = new_game("shake", players=2, scoring_faces=scoring_faces).options_dict()
    fig = kernel_batch("shake", options, seed, games, 0, -(-games // CHUNK)).figures["shakes"]
    lo, hi = fig.ci()
    out: dict[str, Any] = {"games": fig.n, "seed": seed, "options": options,
                           "mean": fig.mean, "ci95": [lo, hi]}  # fmt: skip
    for q in QUANTILES:
        out[f"p{round(q * 100)}"] = fig.quantile(q)
        out[f"p{round(q * 100)}_ci95"] = list(quantile_interval(fig, q))
    return out, fig


def report(scoring_faces: int = 3, games: int = 100_000, seed: int = 0) -> dict[str, Any]:
    """The exact turn law under the stop, and the kernel's law of a whole game's shakes."""
    law = turn_law(scoring_faces)
    mean = sum((n * p for n, p in enumerate(law)), Fraction(0))
    floats = [float(p) for p in law]
    turn: dict[str, Any] = {
        "scoring_faces": scoring_faces,
        "stop_at_points": 10 * stop_units(scoring_faces),
        "mean": float(mean),
        "pmf": floats,
    }
    for q in QUANTILES:
        turn[f"p{round(q * 100)}"] = law_quantile(floats, q)
    game, fig = game_shakes(scoring_faces, games, seed)
    game["pmf"] = {str(v): c / fig.n for v, c in sorted(fig.counts.items())}
    return {"turn": turn, "game": game}
