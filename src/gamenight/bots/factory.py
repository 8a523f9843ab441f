"""make_bot: a bot of any kind (random, sensible, optimal, tree search) for any game, by name.

Above ``base`` and ``mcts`` both: tree search plays its rollouts with the sensible bots of
``base``, and this factory names them all.
"""

from __future__ import annotations

from .base import SENSIBLE, Bot, RandomBot, load_bot
from .mcts import MAX_SECONDS, MCTSBot

# Exact-optimal bots where the analysis has one: "module:Class" and the seats it is exact for.
OPTIMAL: dict[str, tuple[str, int]] = {"shake": ("gamenight.bots.optimal_shake:OptimalShakeBot", 2)}
BOT_KINDS = ("random", "sensible", "optimal", "mcts", "mcts-N", "mcts-Ts")
HELP = (
    "random; sensible (each game's rule-of-thumb bot); optimal (exact, 2-player shake only); "
    "mcts (Monte Carlo search, at most 1 s a move); mcts-N (N playouts a move); "
    f"mcts-Ts (T seconds a move, at most {MAX_SECONDS:g}, e.g. mcts-1s or mcts-0.2s)"
)


def _unknown(kind: object) -> ValueError:
    return ValueError(f"unknown bot kind {kind!r}: choose one of {', '.join(BOT_KINDS)}")


def _mcts(kind: str, seed: int | None) -> MCTSBot:
    """``mcts``, ``mcts-N`` (playouts a move) or ``mcts-Ts`` (seconds a move)."""
    budget = kind.removeprefix("mcts").removeprefix("-") or "1s"
    if budget.endswith("s"):
        try:
            seconds = float(budget[:-1])
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"unknown bot kind {kind!r}: mcts-Ts takes T seconds a move, above 0 and at "
                f"most {MAX_SECONDS:g}"
            )
        return MCTSBot(seed=seed, seconds=seconds)
    if not budget.isdigit() or not 1 <= int(budget) <= 1_000_000:
        raise ValueError(f"unknown bot kind {kind!r}: mcts-N takes N playouts, 1 to 1000000")
    return MCTSBot(seed=seed, playouts=int(budget))


def make_bot(
    game_id: str, kind: str = "sensible", seed: int | None = None, players: int | None = None
) -> Bot:
    """A bot for ``game_id`` (see ``HELP`` for the kinds). Given ``players``, a bot that cannot
    play that many seats is refused by name instead of quietly playing as another."""
    if type(kind) is not str:
        raise _unknown(kind)
    if kind == "mcts" or kind.startswith("mcts-"):
        return _mcts(kind, seed)
    if kind == "optimal":
        if game_id not in OPTIMAL:
            raise ValueError(f"no optimal bot for {game_id!r} (only for {', '.join(OPTIMAL)})")
        entry, seats = OPTIMAL[game_id]
        if players is not None and players != seats:
            raise ValueError(
                f"the optimal {game_id} bot plays {seats} players only, not {players}: "
                "use sensible or mcts"
            )
        return load_bot(entry, seed)
    if kind not in BOT_KINDS:
        raise _unknown(kind)
    if kind == "sensible" and game_id in SENSIBLE:
        return load_bot(SENSIBLE[game_id], seed)
    return RandomBot(seed)
