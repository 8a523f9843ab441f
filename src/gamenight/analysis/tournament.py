"""Round-robin tournaments between bots, rated by a fit to every game played.

Every lineup of bots plays the same deals (common random numbers: deal ``i`` has the same seed
for every lineup) in every rotation of the seats, so neither the luck of the dice nor the seat
favours a bot. Each game ranks its seats by their returns; the head-to-head results are fitted
once at the end (``ratings``), and win shares, mean returns, ratings and every pair's share
come with 95 % intervals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamenight.bots import make_bot
from gamenight.engine import BadOption, new_game
from gamenight.engine.game import is_realtime

from .ratings import Z95, HeadToHead, Rating, wilson
from .simulate import play_out

DEAL_STRIDE = 1_000_003  # deal i of seed s is table seed s * DEAL_STRIDE + i
MAX_SEED = (2**64 - 1 - 1_000_000) // DEAL_STRIDE  # every table seed fits the engine's 64 bits


@dataclass
class BotRecord:
    """One bot's games, wins and returns, and its rating."""

    name: str
    games: int = 0
    wins: float = 0.0
    total: float = 0.0
    total_sq: float = 0.0
    rating: Rating = Rating(0.0, 0.0, 0.0)

    def add(self, ret: float, win: float) -> None:
        self.games += 1
        self.wins += win
        self.total += ret
        self.total_sq += ret * ret

    def summary(self) -> dict[str, Any]:
        n = max(self.games, 1)
        share = self.wins / n
        mean = self.total / n
        # the sample variance (n - 1): the spread of n returns around their own mean is smaller
        var = max(self.total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
        low, high = wilson(share, n)
        return {
            "bot": self.name,
            "games": self.games,
            "win_share": share,
            "win_share_low": low,
            "win_share_high": high,
            "mean_return": mean,
            "mean_return_ci": Z95 * math.sqrt(var / n),
            "rating": self.rating.elo,
            "rating_low": self.rating.low,
            "rating_high": self.rating.high,
        }


@dataclass
class Tournament:
    """The result: one record per bot, best rating first."""

    game: str
    players: int
    deals: int
    records: list[BotRecord] = field(default_factory=list)
    interrupted: bool = False
    head_to_head: HeadToHead | None = None

    def pairwise(self) -> dict[str, dict[str, dict[str, float]]]:
        """Each bot's share of its comparisons with each other bot (row beat column)."""
        h2h = self.head_to_head
        if h2h is None:
            return {}
        names = [r.name for r in self.records]
        out: dict[str, dict[str, dict[str, float]]] = {}
        for row in names:
            out[row] = {}
            for col in names:
                if col != row:
                    share, low, high, n = h2h.share(row, col)
                    out[row][col] = {"share": share, "low": low, "high": high, "pairs": n}
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "deals": self.deals,
            "games": sum(r.games for r in self.records) // self.players,
            "interrupted": self.interrupted,
            "bots": [r.summary() for r in self.records],
            "pairwise": self.pairwise(),
        }


def lineups(bots: int, players: int) -> list[tuple[int, ...]]:
    """Which bots share a table: every combination, or, when seats outnumber the bots, the bots
    cycled from each starting bot in turn, so the extra seats go to each bot equally."""
    if bots >= players:
        return list(itertools.combinations(range(bots), players))
    out: list[tuple[int, ...]] = []
    for first in range(bots):
        lineup = tuple((first + i) % bots for i in range(players))
        if not any(_rotation_of(lineup, seen) for seen in out):  # rotations play anyway
            out.append(lineup)
    return out


def _rotation_of(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return any(a == b[k:] + b[:k] for k in range(len(b)))


def run_tournament(
    game_id: str,
    bots: list[str],
    deals: int,
    players: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Tournament:
    """Play every lineup in every seat rotation on ``deals`` shared deals; rate the bots.
    ``progress(games played, games in all)`` follows each game; Ctrl-C rates what was played."""
    if is_realtime(game_id):
        raise BadOption(
            game_id, "game", "a real-time game is a race: compare bots with simulate-realtime"
        )
    if len(bots) < 2:
        raise BadOption(game_id, "bots", "a tournament needs at least two bots")
    if not 1 <= deals <= 1_000_000:
        raise BadOption(game_id, "games", f"must be from 1 to 1000000 (got {deals})")
    twice = sorted({b for b in bots if bots.count(b) > 1})
    if twice:
        raise BadOption(game_id, "bots", f"{twice[0]!r} is listed twice: each bot is rated once")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise BadOption(game_id, "seed", f"must be from 0 to {MAX_SEED} (got {seed})")
    if players is not None:
        options["players"] = players
    game = new_game(game_id, **options)
    if game.players < 2:  # ratings compare seats with each other: one seat has no rival
        raise BadOption(
            game_id, "players", f"a tournament needs 2 seats or more (got {game.players})"
        )
    for kind in bots:  # a bot that cannot sit at this table fails before any game is played
        make_bot(game_id, kind, seed=0, players=game.players)
    h2h = HeadToHead(bots)
    records = {name: BotRecord(name) for name in bots}
    n = game.players
    seatings = [
        [bots[lineup[(s + turn) % n]] for s in range(n)]
        for lineup in lineups(len(bots), n)
        for turn in range(n)
    ]
    total, played = deals * len(seatings), 0
    try:
        for deal in range(deals):  # a whole deal in every seating at a time: a stop stays fair
            deal_seed = seed * DEAL_STRIDE + deal
            for seating in seatings:
                table = [make_bot(game_id, k, seed=deal_seed + s) for s, k in enumerate(seating)]
                returns = play_out(game.new_state(seed=deal_seed), table).returns()
                _tally(records, seating, returns)
                h2h.add(seating, returns)
                played += 1
                if progress is not None:
                    progress(played, total)
    except KeyboardInterrupt:  # Ctrl-C: rate what was played, and say so
        if played == 0:
            raise
    for name, rating in h2h.ratings().items():
        records[name].rating = rating
    ranked = sorted(records.values(), key=lambda r: r.rating.elo, reverse=True)
    return Tournament(game_id, n, deals, ranked, played < total, h2h)


def _tally(records: dict[str, BotRecord], seating: list[str], returns: list[float]) -> None:
    """One game's returns into the records: a win shared by the seats tied for the best."""
    best = max(returns)
    winners = sum(1 for r in returns if r == best)
    for name, ret in zip(seating, returns, strict=True):
        records[name].add(ret, 1 / winners if ret == best else 0.0)


def plot(result: Tournament, path: str) -> None:
    """A bar chart of ratings and win shares with their intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r.summary() for r in result.records]
    names = [r["bot"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    spans = [
        [r["rating"] - r["rating_low"] for r in rows],
        [r["rating_high"] - r["rating"] for r in rows],
    ]
    left.errorbar(names, [r["rating"] for r in rows], yerr=spans, fmt="o", color="#0072B2")
    left.set_title("rating (Elo, 95 % interval)")
    errors = [
        [r["win_share"] - r["win_share_low"] for r in rows],
        [r["win_share_high"] - r["win_share"] for r in rows],
    ]
    right.bar(names, [r["win_share"] for r in rows], yerr=errors, color="#E69F00")
    right.set_title("win share (95 % interval)")
    fig.suptitle(f"{result.game}, {result.players} players, {result.deals} deals per seating")
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")  # the path given, never path + ".png"
    plt.close(fig)
