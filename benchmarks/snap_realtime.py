"""What the discrete-event timing layer costs: Snap games per second with and without it.

The baseline, measured in the same run, plays the same 3-player Snap turn by turn with the
CallerBot (no clock, no reaction times); the ratio is the price of real-time ordering.

    python benchmarks/snap_realtime.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import time

import gamenight
from gamenight.analysis.simulate import play_out
from gamenight.bots.snap_bot import CallerBot
from gamenight.realtime import RealtimeTable


def games_per_second(seconds: float, realtime: bool) -> float:
    game = gamenight.new_game("snap", players=3)
    played, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=played)
        if realtime:
            RealtimeTable(state, {0: "easy", 1: "normal", 2: "expert"}, seed=played).run()
        else:
            play_out(state, [CallerBot(s) for s in range(3)])
        played += 1
    return played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    seconds = parser.parse_args().seconds
    base = games_per_second(seconds, realtime=False)
    timed = games_per_second(seconds, realtime=True)
    print(f"turn by turn (baseline): {base:8.1f} games/s")
    print(f"discrete-event real time: {timed:8.1f} games/s  ratio {timed / base:.2f}")


if __name__ == "__main__":
    main()
