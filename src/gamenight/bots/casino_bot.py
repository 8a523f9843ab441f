"""Casino bots that bet by a named strategy: keep the strategy's wagers up at the table minimum.

Fixed strategies make simulation figures comparable with the exact odds: each bot's wagers
are decided again and again at one stake, so the observed house edge per wager converges.
"""

from __future__ import annotations

import random
from typing import Any

from gamenight.engine import State
from gamenight.games.casino_wagers import WAGER_IDS

STRATEGIES: dict[str, tuple[str, ...]] = {
    "every_area": WAGER_IDS,
    "benchmark": ("hard6", "hard8", "field", "num6", "num8"),
    "hardways": ("hard4", "hard6", "hard8", "hard10", "hardway_combo"),
    "numbers": ("num5", "num6", "num8"),
    "field": ("field",),
    "one_roll": ("any7", "ce_combo", "craps2", "craps3", "craps12", "eleven"),
}


class CasinoBot:
    """Places each missing wager of its strategy, then accepts the dice, rolls or is done."""

    def __init__(self, seed: int | None = None, strategy: str = "every_area") -> None:
        if strategy not in STRATEGIES:
            raise ValueError(
                f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}"
            )
        self.rng = random.Random(seed)
        self.strategy = strategy

    def act(self, state: State, seat: int) -> dict[str, Any]:
        legal = state.legal_actions(seat)
        wagers = {a["area"]: a for a in legal if a["type"] == "wager"}
        held = {a["area"] for a in legal if a["type"] == "remove"}  # cheaper than a view
        for area in STRATEGIES[self.strategy]:
            if area not in held and area in wagers:
                return wagers[area]
        order: tuple[str, ...] = ("accept", "roll", "done", "decline", "give_up")
        if not held:  # a shooter must have a wager (rule 5.4): a broke bot lets the dice pass
            order = ("decline", "give_up", "done")
        for kind in order:
            for a in legal:
                if a["type"] == kind:
                    return a
        return self.rng.choice(legal)
