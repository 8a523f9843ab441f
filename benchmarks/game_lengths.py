"""How long capped games run when nothing stops them: the figures behind each safety cap.

Snap and Slap the Elephant stop after ``max_flips`` flips, Gambler after ``max_turns`` turns, so
that a game that never ends cannot hang a simulation. A cap must sit far beyond the natural
tail: this plays many bot games per player count with the cap lifted to its upper bound and
prints percentiles of the capped length (flips or turns). Each cap's default is set above the
99.99th percentile measured here (docs/rules/*.md list the figures).

    python benchmarks/game_lengths.py                          # 100,000 random-bot games each
    python benchmarks/game_lengths.py --games 2000 --game snap --bots sensible --jobs 2

Prints one JSON line per (game, players, bots) as soon as it is done.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from typing import Any

import numpy as np

import gamenight
from gamenight.analysis.simulate import play_out
from gamenight.bots.base import make_bot

# game id -> (cap option, its upper bound, the stat it caps)
CAPPED: dict[str, tuple[str, int, str]] = {
    "snap": ("max_flips", 1_000_000, "flips"),
    "slap-the-elephant": ("max_flips", 1_000_000, "flips"),
    "gambler": ("max_turns", 100_000, "turns"),
}
QUANTILES = (50, 90, 99, 99.9, 99.99)


def lengths(args: tuple[str, int, str, int, int]) -> list[int]:
    """Capped lengths of ``count`` games from seed ``first`` on (one worker's share)."""
    game_id, players, bots, first, count = args
    option, bound, stat = CAPPED[game_id]
    game = gamenight.new_game(game_id, players=players, **{option: bound})
    out = []
    for seed in range(first, first + count):
        seated = [make_bot(game_id, bots, seed=seed * 16 + s) for s in range(players)]
        state = play_out(game.new_state(seed=seed), seated, max_moves=10**9)
        out.append(int(state.stats()[stat]))
    return out


def measure(game_id: str, players: int, bots: str, games: int, jobs: int) -> dict[str, Any]:
    option, bound, stat = CAPPED[game_id]
    chunk = max(1, games // (jobs * 8))
    work = [
        (game_id, players, bots, first, min(chunk, games - first))
        for first in range(0, games, chunk)
    ]
    start = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(lengths, work)
    else:
        parts = [lengths(w) for w in work]
    a = np.array([n for part in parts for n in part])
    return {
        "game": game_id,
        "players": players,
        "bots": bots,
        "games": int(a.size),
        "length": stat,
        **{f"p{q:g}": float(np.percentile(a, q)) for q in QUANTILES},
        "max": int(a.max()),
        "mean": round(float(a.mean()), 1),
        "hit_measuring_cap": int((a >= bound).sum()),
        "default_cap": gamenight.new_game(game_id, players=players).options.model_dump()[option],
        "over_default_cap": int(
            (a >= gamenight.new_game(game_id, players=players).options.model_dump()[option]).sum()
        ),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=100_000, help="games per player count")
    p.add_argument("--game", action="append", choices=sorted(CAPPED), help="repeatable")
    p.add_argument("--players", type=int, action="append", help="repeatable; default all")
    p.add_argument("--bots", choices=("random", "sensible"), default="random")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    a = p.parse_args()
    for game_id in a.game or sorted(CAPPED):
        cls = gamenight.engine.game.game_class(game_id)
        for n in a.players or range(cls.min_players, cls.max_players + 1):
            if cls.min_players <= n <= cls.max_players:
                print(json.dumps(measure(game_id, n, a.bots, a.games, a.jobs)), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
