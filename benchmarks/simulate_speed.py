"""Simulation speed: compiled kernels against the reference engine, all measured in one run.

For each game with a kernel, on one core: kernel games/s, reference-engine games/s and their
ratio. Snake Eyes also against the NumPy bound (drawing the same number of dice in bulk with
``Generator.integers``). Then the scaling from one core to all of them, a two-worker Ray run,
and peak memory as the number of games grows (it must stay flat: only tallies are kept).

    python benchmarks/simulate_speed.py [--seconds 3] [--rounds 3] [--memory-games 100000000]
    python benchmarks/simulate_speed.py --games snap,gambler  # those games' rows only
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

import gamenight
from gamenight.analysis.runner import CHUNK, run
from gamenight.analysis.simulate import play_out, seated_bots
from gamenight.engine.game import is_realtime
from gamenight.realtime import RealtimeTable

GAMES: tuple[str, ...] = ("snake-eyes", "shake", "snake-eyes-casino", "gambler")  # with a kernel
GAMES += ("snap", "slap-the-elephant")  # calling games: the realtime table, a bot in each seat


def reference_rate(game_id: str, seconds: float) -> tuple[float, float]:
    """Two-player games of the reference engine with the sensible bots (a calling game at the
    realtime table, as the simulator plays it): per wall-clock second and per CPU second of
    this process (the fair figure on a shared, loaded machine)."""
    game = gamenight.new_game(game_id, players=2)
    rng = random.Random(0)
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        seed = rng.getrandbits(63)
        state = game.new_state(seed=seed)
        if is_realtime(game_id):
            RealtimeTable(state, {0: "normal", 1: "normal"}, seed=seed).run()
        else:
            play_out(state, seated_bots(game_id, 2, seed))
        done += 1
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def kernel_rate(game_id: str, seconds: float, threads: int) -> tuple[float, float]:
    """Kernel games per wall-clock second and per CPU second on ``threads`` threads, warm.

    A run is a whole number of chunks per thread, so no thread sits out the last batch."""
    numba.set_num_threads(threads)
    run(game_id, 2 * CHUNK * threads, players=2)  # compile or load from the cache; every thread
    step = CHUNK * threads
    games = 4 * step
    while True:
        cpu = time.process_time()
        result = run(game_id, games, players=2)
        if result.seconds >= seconds:
            return result.rate, games / (time.process_time() - cpu)
        more = min(8.0, 1.2 * seconds / max(result.seconds, 1e-3))
        games = -(-int(games * more) // step) * step


def numpy_bound(dice: int) -> float:
    """CPU seconds to draw ``dice`` dice with Generator.integers in bulk (10 million at once)."""
    g = np.random.default_rng(0)
    start = time.process_time()
    for i in range(0, dice, 10_000_000):
        g.integers(0, 6, size=min(10_000_000, dice - i), dtype=np.int8)
    return time.process_time() - start


def casino_against_crapssim(rolls: int) -> tuple[float, float]:
    """Rolls/s of the casino kernel and of crapssim: one player, the same bets, the same rolls.

    The strategy is ``benchmark`` (hard 6, hard 8, field, 6 and 8 at the minimum); crapssim
    keeps HardWay 6/8, Field and Place 6/8 up. Both read one list of dice."""
    from casino_speed import crapssim_table  # beside this file: the same crapssim bets

    from gamenight.analysis.kernels import kernel

    tape = np.random.default_rng(7).integers(0, 6, size=2 * rolls, dtype=np.int8)
    opts = dict(gamenight.new_game("snake-eyes-casino", players=1, bankroll=10**9,
                                   max_rolls=rolls).options_dict())  # fmt: skip
    opts["strategy"] = "benchmark"
    k = kernel("snake-eyes-casino")
    k.play_tape(tape[:200], {**opts, "max_rolls": 100})  # compile or load from the cache
    start = time.process_time()
    k.play_tape(tape, opts)
    ours = rolls / (time.process_time() - start)
    table = crapssim_table()
    few = min(rolls, 20_000)  # crapssim is slow: time it on the first rolls of the same list
    dice = [(int(tape[2 * i]) + 1, int(tape[2 * i + 1]) + 1) for i in range(few)]
    start = time.process_time()
    table.fixed_run(dice, verbose=False)
    theirs = few / (time.process_time() - start)
    return ours, theirs


def ray_against_local(seconds: float, ray: Any, cores: int) -> None:
    """Shake on Ray against a local run on the same cores: ``cores`` Ray workers against
    ``cores`` local threads, the same games (about ``seconds`` locally). The local run comes
    before Ray starts (its processes then take no CPU), and the Ray run is timed on warm workers
    (each has loaded the kernel in a warm-up run of those games). Comparing Ray's workers with
    one local thread flattered Ray (1.33x reported where like for like measured 0.46x)."""
    rate = kernel_rate("shake", seconds / 2, cores)[0]
    step = CHUNK * cores
    games = -(-int(seconds * rate) // step) * step
    near = run("shake", games, players=2)
    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    try:
        run("shake", games, backend="ray", players=2)  # workers start and load the kernel
        far = run("shake", games, backend="ray", players=2)
    finally:
        ray.shutdown()
    print(
        f"shake, {games:,} games on {cores} cores: Ray with {cores} workers {far.rate:,.0f} "
        f"games/s, local with {cores} threads {near.rate:,.0f} ({far.rate / near.rate:.2f}x; "
        f"load average {os.getloadavg()[0]:.1f})"
    )


def peak_mib() -> float:
    """This process's own peak resident memory. Linux's ``ru_maxrss`` also counts the parent's
    peak at the fork (a child of this benchmark reported the parent's 698 MiB); VmHWM does not."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_run(games: int) -> None:
    """Play ``games`` Snake Eyes games on every core and print the seconds and this process's
    peak memory: run in a fresh process, so nothing measured before counts."""
    result = run("snake-eyes", games, players=2)
    print(f"{result.seconds} {peak_mib()}")


def scaling(games: tuple[str, ...], seconds: float, cores: int) -> None:
    """Each game from one thread to every core: best of 3 alternating runs each."""
    print("scaling (wall clock, best of 3 alternating runs each; on a loaded machine the cores")
    print("are not ours to scale onto):")
    for game_id in games:
        runs = [kernel_rate(game_id, seconds, t) for _ in range(3) for t in (1, cores)]
        one, one_cpu = max(runs[0::2])
        every, every_cpu = max(runs[1::2])
        print(
            f"  {game_id} 1 -> {cores} threads: {one:,.0f} -> {every:,.0f} games/s "
            f"({every / one:.2f}x); per CPU second {one_cpu:,.0f} -> {every_cpu:,.0f} "
            f"(parallel efficiency {every_cpu / one_cpu:.0%})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3, help="kernel and reference runs, in turn")
    ap.add_argument("--memory-games", type=int, default=100_000_000)
    ap.add_argument("--games", help="comma-separated: only these games' speed and scaling rows")
    ap.add_argument("--memory-run", type=int, help=argparse.SUPPRESS)  # one fresh process's run
    args = ap.parse_args()
    if args.memory_run:
        memory_run(args.memory_run)
        return
    chosen = tuple(args.games.split(",")) if args.games else GAMES
    unknown = set(chosen) - set(GAMES)
    if unknown:
        ap.error(f"--games: no kernel for {', '.join(sorted(unknown))}")
    cores = numba.get_num_threads()
    load = f"{os.getloadavg()[0]:.1f}"
    print(f"one core unless said; {cores} cores; load average {load}")
    print(
        f"two players; games per wall-clock second, and per CPU second (in brackets), the best "
        f"of {args.rounds} runs in turn"
    )
    print(f"{'game':18} {'kernel games/s':>26} {'reference games/s':>22} {'ratio (CPU)':>12}")
    for game_id in chosen:
        # in turn, the best of --rounds each (the same games every round): a busy spell on a
        # shared machine slows one side only, and by luck either one
        runs = [
            (kernel_rate(game_id, args.seconds, 1), reference_rate(game_id, args.seconds))
            for _ in range(args.rounds)
        ]
        fast, fast_cpu = max((k for k, _ in runs), key=lambda r: r[1])
        ref, ref_cpu = max((r for _, r in runs), key=lambda r: r[1])
        print(
            f"{game_id:18} {fast:12,.0f} ({fast_cpu:11,.0f}) {ref:9,.1f} ({ref_cpu:9,.1f}) "
            f"{fast_cpu / ref_cpu:11,.0f}x"
        )

    if args.games:
        scaling(chosen, args.seconds, cores)
        return
    numba.set_num_threads(1)
    cpu, bound = math.inf, math.inf
    for _ in range(3):  # in turn, the best of three each: a busy spell on a shared machine
        start = time.process_time()  # slows one side only, and by luck either one
        result = run("snake-eyes", 2_000_000, players=2)
        cpu = min(cpu, time.process_time() - start)
        throws = result.tally.figures["moves"].total  # every move is a throw, the throw-off too
        bound = min(bound, numpy_bound(2 * throws))
    print(
        f"snake-eyes throws per CPU second (best of 3): kernel {throws / cpu:,.0f}, NumPy bound "
        f"{throws / bound:,.0f} (2 dice a throw): {bound / cpu:.0%} of the bound"
    )

    try:
        ours, theirs = casino_against_crapssim(1_000_000)
    except ImportError:
        print("crapssim: not installed (pip install -e '.[bench]')")
    else:
        print(
            f"casino rolls per CPU second, benchmark strategy, same rolls: kernel {ours:,.0f}, "
            f"crapssim "
            f"{theirs:,.0f}: {ours / theirs:,.0f}x"
        )

    scaling(GAMES, args.seconds, cores)

    try:
        import ray
    except ImportError:
        print("ray: not installed (pip install -e '.[cluster]')")
    else:
        ray_against_local(args.seconds, ray, cores)

    print("peak memory of a fresh process as the number of games grows (constant-memory tallies):")
    games = 1_000_000
    while games <= args.memory_games:
        out = subprocess.run(
            [sys.executable, __file__, "--memory-run", str(games)],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        print(f"  {games:>13,} games: {float(out[-2]):8.1f} s, peak {float(out[-1]):7.1f} MiB")
        games *= 10
    missing = sorted(set(gamenight.list_games()) - set(GAMES))
    if missing:
        print(f"{', '.join(missing)}: no kernel yet; nothing to compare.")


if __name__ == "__main__":
    main()
