"""The bot protocol and a random bot that plays any game through the public protocol."""

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


# Exact-optimal bots where the analysis has one: "module:Class" by game id.
OPTIMAL: dict[str, str] = {"shake": "gamenight.bots.optimal_shake:OptimalShakeBot"}
BOT_KINDS = ("random", "sensible", "optimal", "mcts")


def make_bot(game_id: str, kind: str = "sensible", seed: int | None = None) -> Bot:
    """A bot for ``game_id``: ``"random"``, ``"sensible"`` (random where a game has none),
    ``"optimal"`` (where exact analysis gives one), or ``"mcts"`` / ``"mcts-N"`` (tree search
    with N playouts a move, 200 by default)."""
    if type(kind) is not str:
        raise ValueError(f"unknown bot kind {kind!r}: choose one of {', '.join(BOT_KINDS)}")
    if kind == "mcts" or kind.startswith("mcts-"):
        from .mcts import MCTSBot

        budget = kind.removeprefix("mcts").removeprefix("-") or "200"
        if not budget.isdigit() or not 1 <= int(budget) <= 1_000_000:
            raise ValueError(f"unknown bot kind {kind!r}: mcts-N takes N playouts, 1 to 1000000")
        return MCTSBot(seed=seed, playouts=int(budget))
    if kind == "optimal" and game_id not in OPTIMAL:
        raise ValueError(f"no optimal bot for {game_id!r} (only for {', '.join(OPTIMAL)})")
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}: choose one of {', '.join(BOT_KINDS)}")
    table = OPTIMAL if kind == "optimal" else SENSIBLE
    if kind != "random" and game_id in table:
        module, cls = table[game_id].split(":")
        bot: Bot = getattr(importlib.import_module(module), cls)(seed=seed)
        return bot
    return RandomBot(seed)
