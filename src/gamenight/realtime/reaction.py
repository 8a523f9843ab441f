"""A human-like reaction-time model for bots: the ex-Gaussian distribution.

A reaction time is a normal part (perception and motor time, mean ``mu``, spread ``sigma``) plus
an exponential tail (mean ``tau``: the slow, distracted responses), the shape that fits human
choice reaction times well (Hohle 1965; Ratcliff 1979; Heathcote, Popiel & Mewhort 1991; Luce,
*Response Times*, 1986). Fits for simple visual choice tasks in adults are around
mu 350-450 ms, sigma 30-60 ms, tau 80-200 ms. Spotting a match among several piles is harder than
a lab choice task, so our three levels span that range and beyond:

=======  ======  =========  =======  =========  ==============================
level    mu ms   sigma ms   tau ms   mean ms    false calls per exposed card
=======  ======  =========  =======  =========  ==============================
easy     650     90         250      900        0.04
normal   480     60         150      630        0.015
expert   360     40         80       440        0
=======  ======  =========  =======  =========  ==============================

The numbers are the project's choice inside the published ranges, not a fit of our own data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

FLOOR_MS = 120.0  # faster than this is anticipation, not reaction


@dataclass(frozen=True)
class Level:
    name: str
    mu: float
    sigma: float
    tau: float
    false_rate: float

    @property
    def mean_ms(self) -> float:
        return self.mu + self.tau


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 650.0, 90.0, 250.0, 0.04),
    "normal": Level("normal", 480.0, 60.0, 150.0, 0.015),
    "expert": Level("expert", 360.0, 40.0, 80.0, 0.0),
}


def level(name: str) -> Level:
    """The level called ``name``; a clear error lists the known ones."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown bot level {name!r}: choose {', '.join(LEVELS)}") from None


def reaction_ms(lv: Level, rng: random.Random) -> float:
    """One ex-Gaussian reaction time in milliseconds, drawn with the caller's RNG."""
    return max(FLOOR_MS, rng.gauss(lv.mu, lv.sigma) + rng.expovariate(1.0 / lv.tau))
