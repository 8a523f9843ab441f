"""Playouts per second of a casino table for the search bot: compiled kernel vs the engine.

A 2-player, 100-roll session from its first move, every seat the sensible casino bot: the
kernel (``bots.playouts.casino.playouts``, one call of N playouts on one thread) against the
engine's ``finish`` on clones (what the search bot does without the kernel). Both run in this
process and alternate for several rounds, each side's best round counting (as timeit does).
Then the kernel on two threads at once (it releases the GIL), as a server's search bots run.
Run: python benchmarks/casino_playouts.py [N] [ROUNDS]   (needs the kernels extra)
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gamenight.bots.casino_bot import CasinoBot
from gamenight.bots.mcts import finish
from gamenight.bots.playouts.casino import playouts
from gamenight.engine import new_game
from gamenight.engine.chance import ChanceStream

N = 200_000
ROUNDS = 3
PYTHON_PLAYOUTS = 100


def _state() -> Any:
    return new_game("snake-eyes-casino", players=2, max_rolls=100).new_state(seed=1)


def kernel_rate(n: int, threads: int = 1) -> float:
    state = _state()
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda t: playouts(state, n, seed=t), range(threads)))
    return threads * n / (time.perf_counter() - start)


def python_rate(n: int = PYTHON_PLAYOUTS) -> float:
    state, bot = _state(), CasinoBot()
    start = time.perf_counter()
    for i in range(n):
        copy = state.clone()
        copy.rng = ChanceStream(i, copy.CHANCE_UNIFORMS)
        finish(copy, bot)
    return n / (time.perf_counter() - start)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    playouts(_state(), 1, seed=0)  # compile (or load the cache) outside the clock
    kernel = python = two = 0.0
    for _ in range(rounds):
        kernel = max(kernel, kernel_rate(n))
        python = max(python, python_rate())
        two = max(two, kernel_rate(n, threads=2))
    print(f"kernel, 1 thread:  {kernel:12,.0f} playouts/s (target: at least 100,000)")
    print(f"kernel, 2 threads: {two:12,.0f} playouts/s ({two / kernel:.2f}x one thread)")
    print(f"engine finish():   {python:12,.0f} playouts/s")
    print(f"ratio: {kernel / python:,.0f}x  (2 players, 100 rolls; best of {rounds} rounds each)")


if __name__ == "__main__":
    main()
