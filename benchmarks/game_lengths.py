"""How long capped games run when nothing stops them: the figures behind each safety cap.

Snap and Slap the Elephant stop after ``max_flips`` flips, Gambler after ``max_turns`` turns, so
that a game that never ends cannot hang a simulation. A cap must sit far beyond the natural
tail: this plays many bot games per player count with the cap lifted to its upper bound and
prints percentiles of the capped length (flips or turns). Each cap's default is set above the
99.99th percentile measured here (docs/rules/*.md list the figures).

    python benchmarks/game_lengths.py                          # 100,000 random-bot games each
    python benchmarks/game_lengths.py --games 2000 --game snap --bots sensible --jobs 2
    python benchmarks/game_lengths.py --game slap-the-elephant --players 4 --save 4p.txt

With ``--save FILE`` every game's seed and length is appended to FILE as soon as its share is
done, and games already there are not played again: a long run that is stopped resumes.

Prints one JSON line per (game, players, bots) as soon as it is done.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

import gamenight
from gamenight.analysis.simulate import play_out
from gamenight.bots import make_bot

# game id -> (cap option, its upper bound, the stat it caps)
CAPPED: dict[str, tuple[str, int, str]] = {
    "snap": ("max_flips", 1_000_000, "flips"),
    "slap-the-elephant": ("max_flips", 1_000_000, "flips"),
    "gambler": ("max_turns", 100_000, "turns"),
}
QUANTILES = (50, 90, 99, 99.9, 99.99)


def lengths(args: tuple[str, int, str, list[int]]) -> dict[int, int]:
    """Capped length of the game of each seed (one worker's share)."""
    game_id, players, bots, seeds = args
    option, bound, stat = CAPPED[game_id]
    game = gamenight.new_game(game_id, players=players, **{option: bound})
    out = {}
    for seed in seeds:
        seated = [make_bot(game_id, bots, seed=seed * 16 + s) for s in range(players)]
        state = play_out(game.new_state(seed=seed), seated, max_moves=10**9)
        out[seed] = int(state.stats()[stat])
    return out


def saved(path: Path | None) -> dict[int, int]:
    """Lengths by seed already in a ``--save`` file (a torn last line is ignored)."""
    if path is None or not path.exists():
        return {}
    done = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 2:
            done[int(fields[0])] = int(fields[1])
    return done


def measure(
    game_id: str, players: int, bots: str, games: int, jobs: int, save: Path | None = None
) -> dict[str, Any]:
    option, bound, stat = CAPPED[game_id]
    done = saved(save)
    todo = [seed for seed in range(games) if seed not in done]
    chunk = max(1, min(1000, len(todo) // (jobs * 8)))
    work = [(game_id, players, bots, todo[i : i + chunk]) for i in range(0, len(todo), chunk)]
    start = time.perf_counter()
    with Pool(jobs) as pool:
        for part in pool.imap_unordered(lengths, work):
            done.update(part)
            if save is not None:
                with save.open("a") as out:
                    out.writelines(f"{seed} {n}\n" for seed, n in part.items())
    a = np.array([done[seed] for seed in range(games)])
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
    p.add_argument("--save", type=Path, help="seeds and lengths so far (one game and players)")
    a = p.parse_args()
    if a.save and (len(a.game or CAPPED) > 1 or len(a.players or [0, 0]) > 1):
        p.error("--save keeps one measurement: give one --game and one --players")
    for game_id in a.game or sorted(CAPPED):
        cls = gamenight.engine.game.game_class(game_id)
        for n in a.players or range(cls.min_players, cls.max_players + 1):
            if cls.min_players <= n <= cls.max_players:
                print(json.dumps(measure(game_id, n, a.bots, a.games, a.jobs, a.save)), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
