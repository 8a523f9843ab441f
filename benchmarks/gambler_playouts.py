"""Compiled Gambler playouts (``bots.playouts.gambler``) against the engine's, in one run.

From a 2-player game's first decision (the first player's turn, the throw for first player
done): compiled playouts per CPU second on one core, the engine's playouts with the sensible
bot in every seat per CPU second, and their ratio; then two threads at once (the entry releases
the GIL); then, for three decisions, the variance of the paired difference of two arms played
out with the same seed (common random numbers keyed by turn) against independent seeds.

    python benchmarks/gambler_playouts.py [--playouts 1000000] [--seconds 3]
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any

import gamenight
from gamenight.analysis.simulate import play_out, seated_bots
from gamenight.bots.playouts import gambler as gp
from gamenight.engine.chance import ChanceStream

DOUBLES = [({"type": "roll"}, 0), ({"type": "dice", "faces": [3, 3]}, None)]
DECISIONS: list[tuple[str, list[Any], dict[str, Any], dict[str, Any]]] = [
    ("buy a ticket or roll", [], {"type": "buy_ticket"}, {"type": "roll"}),
    ("roll again or Sweepstakes", DOUBLES, {"type": "roll_again"}, {"type": "sweepstakes"}),
    ("marker on pairs or straight", DOUBLES + [({"type": "sweepstakes"}, 0)],
     {"type": "marker", "space": "pairs"}, {"type": "marker", "space": "straight"}),
]  # fmt: skip


def first_decision() -> Any:
    """A 2-player game once the throw for first player is done."""
    state = gamenight.new_game("gambler", players=2).new_state(seed=1)
    while state.is_chance():
        state.play_chance()
    return state


def compiled_rate(state: Any, n: int) -> float:
    gp.playouts(state, 10, seed=0)  # compile, or load from the cache
    best = 0.0
    for seed in range(3):
        cpu = time.process_time()
        gp.playouts(state, n, seed=seed)
        best = max(best, n / (time.process_time() - cpu))
    return best


def engine_rate(state: Any, seconds: float) -> float:
    bots = seated_bots("gambler", state.players, 0)
    done, cpu = 0, time.process_time()
    while time.process_time() - cpu < seconds:
        copy = state.clone()
        copy.rng = ChanceStream(done, copy.CHANCE_UNIFORMS)
        play_out(copy, bots)
        done += 1
    return done / (time.process_time() - cpu)


def threaded_rate(state: Any, n: int, threads: int) -> float:
    """Playouts per wall-clock second with ``threads`` calls at once."""
    jobs = [threading.Thread(target=gp.playouts, args=(state, n, s)) for s in range(threads)]
    start = time.perf_counter()
    for job in jobs:
        job.start()
    for job in jobs:
        job.join()
    return threads * n / (time.perf_counter() - start)


def spreads(n: int) -> None:
    print(f"\ncommon random numbers: seat 0's returns, {n:,} playouts an arm")
    print(f"{'decision':30} {'paired var':>11} {'unpaired var':>13} {'ratio':>6}")
    for name, moves, a, b in DECISIONS:
        state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=0)
        for action, seat in moves:
            state.apply(action, seat)
        one, other = state.clone(), state.clone()
        one.apply(a, state.next_actor())
        other.apply(b, state.next_actor())
        x = gp.playouts(one, n, seed=1)[:, 0]
        paired = (x - gp.playouts(other, n, seed=1)[:, 0]).var()
        unpaired = (x - gp.playouts(other, n, seed=2)[:, 0]).var()
        print(f"{name:30} {paired:11.4f} {unpaired:13.4f} {paired / unpaired:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=1_000_000, help="compiled, per round")
    parser.add_argument("--seconds", type=float, default=3.0, help="of engine playouts")
    args = parser.parse_args()
    state = first_decision()
    fast = compiled_rate(state, args.playouts)
    slow = engine_rate(state, args.seconds)
    print("2 players, from the first decision, one core (per CPU second)")
    print(f"  compiled playouts {fast:12,.0f} /s")
    print(f"  engine playouts   {slow:12,.0f} /s")
    print(f"  ratio             {fast / slow:12,.0f}x")
    one, two = threaded_rate(state, args.playouts, 1), threaded_rate(state, args.playouts, 2)
    print(f"  threads: 1 {one:,.0f} /s, 2 {two:,.0f} /s wall clock ({two / one:.2f}x)")
    spreads(200_000)


if __name__ == "__main__":
    main()
