"""Streaming statistics in constant memory that merge exactly (batches, threads, Ray workers).

Every figure a simulation reports is a whole number per game (throws, moves, chips, points), so
a figure is kept as a histogram of integers plus exact integer sums: merging two tallies adds
integers, and the result does not depend on how the games were split or in what order they came.
Means, spreads, quantiles and intervals are derived only when asked for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
TRUNCATED = -2  # a kernel's winner code for a game a safety cap stopped (-1: no single winner)


def t975(df: int) -> float:
    """Student's t 97.5 % quantile: a mean over few games needs a wider 95 % interval than the
    normal one (df 1 and 2 exactly, then the Cornish-Fisher series, within 0.2 % at df 3)."""
    if df == 1:
        return math.tan(0.475 * math.pi)
    if df == 2:
        return 0.95 / math.sqrt(2 * 0.975 * 0.025)
    z, v = Z95, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a share: sound near 0 and 1, unlike the plain normal one."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


FEW = 8  # values in a range this narrow are counted one vectorised comparison each


def value_counts(a: np.ndarray) -> tuple[list[int], list[int]]:
    """The distinct values of an int64 array and how often each occurs, at NumPy speed.

    bincount's increments of a few counters wait on each other (3 ns a value when all are
    alike), so a range of one value is counted by its size and a narrow one by comparisons."""
    lo, hi = int(a.min()), int(a.max())
    if lo == hi:
        return [lo], [int(a.size)]
    if hi - lo < FEW:
        few = [(v, int(np.count_nonzero(a == v))) for v in range(lo, hi + 1)]
        return [v for v, c in few if c], [c for _, c in few if c]
    if hi - lo <= 4 * a.size:  # a dense range: count by index, one pass
        binned = np.bincount(a)[lo:] if 0 <= lo <= hi - lo else np.bincount(a - lo)
        seen = np.flatnonzero(binned)
        return (seen + lo).tolist(), binned[seen].tolist()
    # spread thin (chips, bankrolls): a histogram by index would not fit in memory
    found, counted = np.unique(a, return_counts=True)
    return found.tolist(), counted.tolist()


@dataclass
class Figure:
    """One integer figure over many games: a histogram with exact running sums."""

    counts: dict[int, int] = field(default_factory=dict)
    n: int = 0
    total: int = 0
    total_sq: int = 0

    def add(self, value: int, times: int = 1) -> None:
        v = int(value)
        self.counts[v] = self.counts.get(v, 0) + times
        self.n += times
        self.total += v * times
        self.total_sq += v * v * times

    def add_array(self, values: np.ndarray) -> None:
        """Add a batch of values (any integer array) at NumPy speed."""
        if values.size == 0:
            return
        a = np.asarray(values, dtype=np.int64)
        distinct, times = value_counts(a)
        # one pass over the distinct values in plain ints (exact; this runs serially between
        # parallel kernel batches, so its cost limits the scaling over cores)
        counts, total, total_sq = self.counts, 0, 0
        for v, c in zip(distinct, times, strict=True):
            counts[v] = counts.get(v, 0) + c
            total += v * c
            total_sq += v * v * c
        self.n += int(a.size)
        self.total += total
        self.total_sq += total_sq

    def merge(self, other: Figure) -> None:
        for v, c in other.counts.items():
            self.counts[v] = self.counts.get(v, 0) + c
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def variance(self) -> float:
        """Sample variance, from exact integer sums (no cancellation error)."""
        if self.n < 2:
            return 0.0
        return (self.n * self.total_sq - self.total * self.total) / (self.n * (self.n - 1))

    def ci(self, z: float | None = None) -> tuple[float, float]:
        """95 % interval of the mean: Student's t on the sample variance (the normal one at
        large counts); a given ``z`` sets the half-width in standard errors instead."""
        if self.n == 0:
            return (math.nan, math.nan)
        if z is None:
            z = t975(self.n - 1) if self.n > 1 else Z95
        half = z * math.sqrt(self.variance / self.n)
        return (self.mean - half, self.mean + half)

    def quantile(self, q: float) -> int:
        """The smallest value with at least a share ``q`` of games at or below it."""
        need = q * self.n
        seen = 0
        for v in sorted(self.counts):
            seen += self.counts[v]
            if seen >= need:
                return v
        return max(self.counts)

    def summary(self) -> dict[str, Any]:
        lo, hi = self.ci()
        return {
            "mean": self.mean,
            "ci95": [lo, hi],
            "sd": math.sqrt(self.variance),
            "min": min(self.counts) if self.counts else None,
            "p50": self.quantile(0.5) if self.counts else None,
            "p99": self.quantile(0.99) if self.counts else None,
            "max": max(self.counts) if self.counts else None,
        }

    def to_state(self) -> dict[str, Any]:
        return {"counts": {str(k): v for k, v in self.counts.items()}}

    @classmethod
    def from_counts(cls, counts: Mapping[int, int]) -> Figure:
        f = cls()
        for v, c in counts.items():
            f.add(int(v), int(c))
        return f


@dataclass
class Tally:
    """Everything a simulation run reports: wins by seat, no-single-winner games, figures.

    A game a safety cap stopped (``truncated``) is counted apart: not a win, not a draw."""

    game: str
    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    no_winner: int = 0
    truncated: int = 0
    figures: dict[str, Figure] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players

    def add_game(
        self, winner: int | None, figures: Mapping[str, int], truncated: bool = False
    ) -> None:
        self.games += 1
        if truncated:
            self.truncated += 1
        elif winner is None or winner < 0:
            self.no_winner += 1
        else:
            self.wins[winner] += 1
        for k, v in figures.items():
            self.figures.setdefault(k, Figure()).add(int(v))

    def add_batch(self, winners: np.ndarray, figures: Mapping[str, np.ndarray]) -> None:
        """Add a batch of games: ``winners`` holds a seat, -1 (no single winner) or
        ``TRUNCATED`` (stopped by a safety cap, counted apart as ``add_game`` does) per game."""
        w = np.asarray(winners, dtype=np.int64)
        self.games += int(w.size)
        for code, times in zip(*value_counts(w), strict=True) if w.size else ():
            if code == TRUNCATED:
                self.truncated += times
            elif code < 0:
                self.no_winner += times
            else:
                self.wins[code] += times
        for k, values in figures.items():
            self.figures.setdefault(k, Figure()).add_array(values)

    def merge(self, other: Tally) -> None:
        """Fold another tally of the same game in; exact, so any split gives the same total."""
        if (other.game, other.players) != (self.game, self.players):
            raise ValueError("cannot merge tallies of different games or player counts")
        self.games += other.games
        self.no_winner += other.no_winner
        self.truncated += other.truncated
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        for k, f in other.figures.items():
            self.figures.setdefault(k, Figure()).merge(f)

    def shares(self) -> list[dict[str, Any]]:
        """Each seat's win share with its 95 % Wilson interval."""
        return [
            {"share": w / self.games if self.games else 0.0, "ci95": list(wilson(w, self.games))}
            for w in self.wins
        ]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "wins_by_seat": list(self.wins),
            "win_share": self.shares(),
            "no_single_winner": self.no_winner,
            "no_single_winner_share": {
                "share": self.no_winner / self.games if self.games else 0.0,
                "ci95": list(wilson(self.no_winner, self.games)),
            },
            "truncated": self.truncated,
        }
        for k in sorted(self.figures):
            out[k] = self.figures[k].summary()
        return out
