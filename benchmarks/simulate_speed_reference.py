"""Games per second of ``simulate`` on the reference engine (the protocol path), per game.

Each game is played by its default bots (the sensible bot where the game has one), through the
public protocol: the bot reads the state and returns an action, ``apply`` validates it fully,
chance is drawn by the state, and every move is kept in the game's record. The casino row also
times the observed house-edge pass that ``gamenight simulate snake-eyes-casino`` prints beside
the figures (its sessions are 500 rolls long, not 100).

Speeds are games per second of this process's CPU time (``time.process_time``): on a shared
machine the wall clock also counts the neighbours. Single-threaded, the two agree on an idle one.

Memory: the bytes a finished ``simulate`` still holds (tracemalloc), after a run and after one four
times as long; with streaming figures the two stay close.

    python benchmarks/simulate_speed_reference.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable

from gamenight.analysis.simulate import simulate

TARGETS = {("shake", 2): 1_000, ("gambler", 2): 300, ("snake-eyes-casino", 2): 150}
GAMES = [
    ("snake-eyes", 2),
    ("shake", 2),
    ("shake", 4),
    ("snap", 2),
    ("slap-the-elephant", 2),
    ("gambler", 2),
    ("gambler", 4),
    ("snake-eyes-casino", 2),
]


def games_per_second(run: Callable[[int, int], object], seconds: float) -> float:
    """Run batches of games (doubling) for ``seconds`` of CPU time; the games per CPU second."""
    batch, played, seed, start = 4, 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        run(batch, seed)
        played, seed = played + batch, seed + 1
        batch = min(batch * 2, 4096)
    return played / (time.process_time() - start)


def casino_cli(games: int, seed: int) -> None:
    """What ``gamenight simulate snake-eyes-casino`` runs: the games, then the edge pass."""
    from gamenight.analysis.casino_sim import observed_edges

    simulate("snake-eyes-casino", games, 2, seed)
    observed_edges(games=games, players=2, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'game':20} {'players':>7} {'games/s':>10}  target")
    speeds = {}
    for game_id, players in GAMES:

        def run(n: int, seed: int, game_id: str = game_id, players: int = players) -> None:
            simulate(game_id, n, players, seed)

        speed = speeds[game_id, players] = games_per_second(run, args.seconds)
        target = TARGETS.get((game_id, players))
        note = f">= {target:,}: {'met' if speed >= target else 'NOT met'}" if target else ""
        print(f"{game_id:20} {players:>7} {speed:>10,.0f}  {note}")
    speed = games_per_second(casino_cli, args.seconds)
    print(f"{'casino + edge pass':20} {2:>7} {speed:>10,.0f}  (what the CLI command runs)")
    n = max(500, int(speeds["snake-eyes", 2] * args.seconds / 4))
    kept = [retained_bytes(games) for games in (n, 4 * n)]
    growth = (kept[1] - kept[0]) / (3 * n)
    print(
        f"memory kept by a finished simulate: {kept[0]:,} bytes after {n:,} Snake Eyes games, "
        f"{kept[1]:,} after {4 * n:,}: {growth:,.0f} bytes more per game"
        + (" (flat)" if growth < 1 else " (NOT flat: per-game figures are kept)")
    )


def retained_bytes(games: int) -> int:
    """Bytes still allocated by a simulate() result of ``games`` games (tracemalloc)."""
    tracemalloc.start()
    try:
        result = simulate("snake-eyes", games, 2, 3)
        kept, _ = tracemalloc.get_traced_memory()
        del result
    finally:
        tracemalloc.stop()
    return kept


if __name__ == "__main__":
    main()
