"""The bot protocol, a random bot for any game, and the sensible bot each game has."""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from gamenight.engine import State

# Sensible bots by game id: "module:Class", imported only when asked for.
SENSIBLE: dict[str, str] = {
    "shake": "gamenight.bots.shake_bot:ShakeBot",
    "snap": "gamenight.bots.snap_bot:CallerBot",
    "slap-the-elephant": "gamenight.bots.snap_bot:CallerBot",
    "gambler": "gamenight.bots.gambler_bot:GamblerBot",
    "snake-eyes-casino": "gamenight.bots.casino_bot:CasinoBot",
}


class Bot(Protocol):
    """Anything that picks a legal action for a seat."""

    def act(self, state: State, seat: int) -> dict[str, Any]: ...


class RandomBot:
    """Picks uniformly among the legal actions; its own seeded RNG keeps games repeatable."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> dict[str, Any]:
        return self.rng.choice(state.legal_actions(seat))


def load_bot(entry: str, seed: int | None = None) -> Bot:
    """The bot a ``"module:Class"`` entry names, imported only now, seeded with ``seed``."""
    module, cls = entry.split(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(seed=seed)
    return bot


def sensible_bot(game_id: str, seed: int | None = None) -> Bot:
    """The sensible bot for ``game_id``, or a random one where the game has none."""
    if game_id in SENSIBLE:
        return load_bot(SENSIBLE[game_id], seed)
    return RandomBot(seed)
