"""Bot ratings fitted to a whole tournament at once, so they agree with the games played.

A bot's skill does not change between games, so the ratings are the maximum-likelihood fit of
the Bradley–Terry model to every head-to-head result (each game broken into its pairs of seats,
a tie counting half to each), found by Hunter's MM iteration. An online rating system (the
OpenSkill update used before) treats each game as news about a skill that drifts: its ratings
follow the last few hundred games and depend on their order, so with 52.8 % of 10,000 games
the better Shake bot could still be rated below the other. Here the order cannot matter, and
with two bots the rating gap is exactly the one their win share implies.

Ratings are on the Elo scale (400 points: 10-to-1 odds), centred on 1500, each with a 95 %
interval from the fit's Fisher information. In a game of n seats each pair counts 1/(n - 1), so
one game weighs one comparison per seat: its pairs share the same deal and are not independent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.96
ELO = 400 / math.log(10)  # Elo points per unit of log-strength
CENTRE = 1500.0
PRIOR = 0.5  # a virtual half-win each way per pair: a bot that won every game stays finite
ITERATIONS = 10_000
TOLERANCE = 1e-12


def wilson(share: float, n: float) -> tuple[float, float]:
    """The Wilson 95 % interval of a share: honest at 0 and 1, unlike share ± z·se."""
    if n <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


@dataclass(frozen=True)
class Rating:
    """One bot's Elo rating and its 95 % interval."""

    elo: float
    low: float
    high: float


class HeadToHead:
    """Pairwise results between named bots: ``wins[i, j]`` is how often bot i beat bot j."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.wins = np.zeros((len(names), len(names)))

    def add(self, seating: list[str], returns: list[float]) -> None:
        """One game: every pair of seats held by different bots, the higher return winning."""
        weight = 1.0 / max(len(seating) - 1, 1)
        for a in range(len(seating)):
            for b in range(a + 1, len(seating)):
                i, j = self.index[seating[a]], self.index[seating[b]]
                if i == j:
                    continue
                ra, rb = returns[a], returns[b]
                share = 1.0 if ra > rb else 0.0 if ra < rb else 0.5
                self.wins[i, j] += weight * share
                self.wins[j, i] += weight * (1.0 - share)

    def share(self, row: str, column: str) -> tuple[float, float, float, float]:
        """How often ``row`` beat ``column``: (share, low, high, comparisons)."""
        i, j = self.index[row], self.index[column]
        n = self.wins[i, j] + self.wins[j, i]
        share = self.wins[i, j] / n if n else 0.5
        low, high = wilson(share, n)
        return share, low, high, n

    def ratings(self) -> dict[str, Rating]:
        """The Bradley–Terry fit of every pair's results, on the Elo scale."""
        k = len(self.names)
        wins = self.wins + PRIOR * (1 - np.eye(k))
        games = wins + wins.T
        won = wins.sum(axis=1)
        strength = np.ones(k)
        for _ in range(ITERATIONS):  # Hunter (2004): each step raises the likelihood
            pair = strength[:, None] + strength[None, :]
            new = won / (games / pair).sum(axis=1)
            new /= math.exp(np.log(new).mean())
            done = np.abs(new - strength).max() < TOLERANCE
            strength = new
            if done:
                break
        theta = np.log(strength)
        p = strength[:, None] / (strength[:, None] + strength[None, :])
        # Fisher information of the log-strengths; its pseudo-inverse is the covariance under
        # the constraint that they sum to zero (only differences are identified)
        info = -games * p * p.T
        np.fill_diagonal(info, 0.0)
        np.fill_diagonal(info, -info.sum(axis=1))
        var = np.clip(np.diag(np.linalg.pinv(info)), 0.0, None)
        out = {}
        for i, name in enumerate(self.names):
            elo, half = CENTRE + ELO * theta[i], Z95 * ELO * math.sqrt(var[i])
            out[name] = Rating(elo, elo - half, elo + half)
        return out
