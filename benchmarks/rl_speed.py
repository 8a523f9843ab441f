"""AEC environment steps per second for every game, beside PettingZoo's own classic games.

Each environment is stepped with random masked actions, resetting at the end of a game, for the
same wall-clock budget, in alternating rounds; each side's best round counts. The target: every
gamenight game's AEC step at least as fast as PettingZoo's connect-four step.

    pip install -e '.[rl]' && python benchmarks/rl_speed.py [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import gamenight
from gamenight import rl


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Random masked play through the AEC loop for ``seconds``; steps per second."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    env.reset(seed=int(rng.integers(2**31)))
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    peers: dict[str, Callable[[], Any]] = {
        "pettingzoo connect_four_v3": connect_four_v3.env,
        "pettingzoo tictactoe_v3": tictactoe_v3.env,
    }
    ours: dict[str, Callable[[], Any]] = {
        g: (lambda g=g: rl.env(g, players=args.players)) for g in gamenight.list_games()
    }
    best: dict[str, float] = {}
    for r in range(args.rounds):
        for name, make in {**peers, **ours}.items():
            best[name] = max(best.get(name, 0.0), steps_per_second(make, args.seconds, r))
    base = best["pettingzoo connect_four_v3"]
    print(f"{'environment':32} {'steps/s':>10} {'vs connect four':>16}")
    for name, rate in best.items():
        mark = "" if name in peers else ("  ok" if rate >= base else "  below target")
        print(f"{name:32} {rate:10,.0f} {rate / base:15.2f}x{mark}")


if __name__ == "__main__":
    main()
