"""AEC environment steps per second for every game, beside PettingZoo's own classic games, and
the batched Shake and casino environments' decisions per second beside their AEC environments.

Each environment is stepped with random masked actions, resetting at the end of a game, for the
same budget, in alternating rounds; each side's best round counts. Targets: every gamenight
game's AEC step at least as fast as PettingZoo's connect-four step; the batched Shake
environment at least 1,000,000 decisions a second on one core and 50 times Shake's AEC
environment (the casino table has no target; its ratio is printed). Rates are per
second of this process's CPU time (one thread: one core), so other work on a shared machine does
not lower them; the wall-clock rate is printed beside.

    pip install -e '.[rl,kernels]' && python benchmarks/rl_speed.py [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import functools
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import gamenight
from gamenight import rl


def steps_per_second(
    make: Callable[[], Any],
    seconds: float,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Random masked play through the AEC loop for ``seconds`` of ``clock``; steps per second."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    env.reset(seed=int(rng.integers(2**31)))
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (clock() - start)


def batched_decisions(
    game: str, tables: int, options: dict[str, Any], seconds: float, seed: int
) -> tuple[float, float]:
    """Batched tables with random masked actions: learner decisions per CPU second and per
    wall-clock second (other seats, dice and the dealer play inside the step)."""
    env = rl.vector_env(game, num_envs=tables, **options)
    _, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    noise = [rng.random(infos["action_mask"].shape) for _ in range(16)]  # reused: cheap picks
    env.step((noise[0] * infos["action_mask"]).argmax(axis=1))  # compiled (or loaded) first
    steps = i = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        i += 1
        _, _, _, _, infos = env.step((noise[i % 16] * infos["action_mask"]).argmax(axis=1))
        steps += tables
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=4096, help="batched tables")
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

    for game in ("shake", "snake-eyes-casino"):
        aec = batched = wall = 0.0
        for r in range(args.rounds):
            single = functools.partial(rl.env, game, players=args.players)
            aec = max(aec, steps_per_second(single, args.seconds, r, time.process_time))
            cpu_r, wall_r = batched_decisions(
                game, args.tables, {"players": args.players}, args.seconds, r
            )
            if cpu_r > batched:
                batched, wall = cpu_r, wall_r
        print(f"\n{game} decisions per CPU second, {args.players} players:")
        print(f"  AEC environment        {aec:12,.0f}")
        ok = batched >= 1e6 and batched >= 50 * aec
        mark = "" if game != "shake" else "  ok" if ok else "  below target"
        print(f"  batched, {args.tables} tables {batched:12,.0f}  ({batched / aec:.0f}x the AEC; "
              f"{wall:,.0f} per wall-clock second){mark}")  # fmt: skip


if __name__ == "__main__":
    main()
