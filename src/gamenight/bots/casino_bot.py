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
        # the game last played, and one read-only wager action per area at its table minimum
        self._game: object = None
        self._lo = 0
        self.wagers: dict[str, dict[str, Any]] = {}

    def act(self, state: State, seat: int) -> dict[str, Any]:
        if not isinstance(state, CasinoState):
            raise TypeError("CasinoBot plays snake-eyes-casino only")
        # reads the table's public figures and builds the action itself: apply() validates it,
        # and skipping the full legal-action list keeps simulations fast
        if state.game is not self._game:  # a game (and its options) never changes
            self._game = state.game
            lo = self._lo = state.game.options.table_min  # never over table_max (options check)
            self.wagers = {a: {"type": "wager", "area": a, "amount": lo} for a in self.areas}
        held = state.bets[seat]
        if state.ledger.balances[state.purse[seat]] >= self._lo:
            for area in self.areas:
                if area not in held:
                    return self.wagers[area]
        if state.phase == "offer":
            return _ACCEPT if held else _DECLINE
        if seat == state.shooter:
            return _ROLL if held else _GIVE_UP
        return _DONE
