"""How long ``gamenight --help`` and ``gamenight list`` take to start, as a ratio to a bare Python.

Each command runs in a fresh interpreter, interleaved with the baseline ``python -c pass`` so a
busy machine slows both alike; the median of the runs is reported. The target is 0.25 s each.

    python benchmarks/cli_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "gamenight --help": [sys.executable, "-m", "gamenight.cli", "--help"],
    "gamenight list": [sys.executable, "-m", "gamenight.cli", "list"],
}


def once(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    wall: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpu: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values():  # warm the file cache once
        once(argv)
    for _ in range(args.runs):
        for name, argv in COMMANDS.items():
            w, c = once(argv)
            wall[name].append(w)
            cpu[name].append(c)
    base_w = statistics.median(wall["python -c pass"])
    base_c = statistics.median(cpu["python -c pass"])
    print(f"{'command':20} {'wall s':>8} {'ratio':>7} {'cpu s':>8} {'ratio':>7}")
    for name in COMMANDS:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"{name:20} {w:8.3f} {w / base_w:6.1f}x {c:8.3f} {c / base_c:6.1f}x")
    slow = [n for n in COMMANDS if n != "python -c pass" and statistics.median(wall[n]) > 0.25]
    print("target 0.25 s wall:", "met" if not slow else f"missed by {', '.join(slow)}")


if __name__ == "__main__":
    main()
