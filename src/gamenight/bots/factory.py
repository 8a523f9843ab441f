"""make_bot: a bot of any kind (random, sensible, optimal, tree search) for any game, by name.

Above ``base`` and ``mcts`` both: tree search plays its rollouts with the sensible bots of
``base``, and this factory names them all.
"""

from __future__ import annotations

from .base import SENSIBLE, Bot, RandomBot, load_bot
from .mcts import MCTSBot

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
        return load_bot(table[game_id], seed)
    return RandomBot(seed)
