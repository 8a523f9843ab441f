"""Casino bots that bet by a named strategy: keep the strategy's wagers up at the table minimum.

Fixed strategies make simulation figures comparable with the exact odds: each bot's wagers
are decided again and again at one stake, so the observed house edge per wager converges.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine import State
from gamenight.games.casino_wagers import WAGER_IDS
from gamenight.games.snake_eyes_casino import CasinoState

STRATEGIES: dict[str, tuple[str, ...]] = {
    "every_area": WAGER_IDS,
    "benchmark": ("hard6", "hard8", "field", "num6", "num8"),
    "hardways": ("hard4", "hard6", "hard8", "hard10", "hardway_combo"),
    "numbers": ("num5", "num6", "num8"),
    "field": ("field",),
    "one_roll": ("any7", "ce_combo", "craps2", "craps3", "craps12", "eleven"),
}

# the bot's actions are shared, read-only dicts: a game's history stores actions as given
_ACCEPT, _DECLINE, _ROLL, _GIVE_UP, _DONE = (
    {"type": t} for t in ("accept", "decline", "roll", "give_up", "done")
)


class CasinoBot:
    """Places each missing wager of its strategy, then accepts the dice, rolls or is done.

    It draws nothing, so ``seed`` (taken like every bot's) changes nothing."""

    def __init__(self, seed: int | None = None, strategy: str = "every_area") -> None:
        if strategy not in STRATEGIES:
            raise ValueError(
                f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}"
            )
        self.strategy = strategy
        self.areas = STRATEGIES[strategy]
        self.wagers: dict[tuple[str, int], dict[str, Any]] = {}  # one read-only action each

    def act(self, state: State, seat: int) -> dict[str, Any]:
        if not isinstance(state, CasinoState):
            raise TypeError("CasinoBot plays snake-eyes-casino only")
        # reads the table's public figures and builds the action itself: apply() validates it,
        # and skipping the full legal-action list keeps simulations fast
        held = state.bets[seat]
        lo = state.game.options.table_min  # never over table_max: the options check that
        if state.ledger.balances[state.purse[seat]] >= lo:
            for area in self.areas:
                if area not in held:
                    action = self.wagers.get((area, lo))
                    if action is None:
                        action = self.wagers[area, lo] = {
                            "type": "wager",
                            "area": area,
                            "amount": lo,
                        }
                    return action
        if state.phase == "offer":
            return _ACCEPT if held else _DECLINE
        if seat == state.shooter:
            return _ROLL if held else _GIVE_UP
        return _DONE
