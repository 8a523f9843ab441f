"""Pictures of a simulation run (matplotlib, an optional extra): length and win shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .runner import Run
from .stats import Tally

# the first of these a game has is its length: a player's count (throws, rolls, flips, turns,
# shakes) before the bots' moves, which every game has
LENGTHS = ("throws", "rolls", "flips", "turns", "shakes", "moves")
BARS = 60  # at most this many bars: wider lengths are grouped


def length_of(tally: Tally) -> str | None:
    """The figure the length histogram shows."""
    return next((k for k in LENGTHS if k in tally.figures), None)


def grouped(counts: dict[int, int]) -> tuple[list[int], list[int], int]:
    """Bar positions, counts and width: one bar a value, or runs of values when there are many."""
    lo, hi = min(counts), max(counts)
    width = max(1, -(-(hi - lo + 1) // BARS))
    bars: dict[int, int] = {}
    for value, n in counts.items():
        start = lo + (value - lo) // width * width
        bars[start] = bars.get(start, 0) + n
    xs = sorted(bars)
    return xs, [bars[x] for x in xs], width


def plot_run(run: Run, path: Path) -> None:
    """Game-length histogram and win share by seat with 95 % intervals (casino: net chips)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tally = run.tally
    casino = tally.game == "snake-eyes-casino" and bool(run.options)
    length = length_of(tally)
    fig, axes = plt.subplots(1, 3 if casino else 2, figsize=(16 if casino else 11, 4.2))
    left, right = axes[0], axes[1]
    if casino:
        _bankroll_paths(axes[2], run)
    if length is not None:
        xs, ns, width = grouped(tally.figures[length].counts)
        heights = [n / tally.games for n in ns]
        left.bar([x + (width - 1) / 2 for x in xs], heights, width=width, color="#4477aa")
        left.set_xlabel(length if width == 1 else f"{length} (bars of {width})")
        left.set_ylabel("share of games")
        left.set_title(f"{tally.game}: game length ({tally.games:,} games)")
    seats = [chr(65 + s) for s in range(tally.players)]
    if tally.game == "snake-eyes-casino":
        nets = [tally.figures.get(f"net_{s}") for s in seats]
        means = [f.mean if f else 0.0 for f in nets]
        errs = [(f.ci()[1] - f.mean) if f else 0.0 for f in nets]
        right.bar(seats, means, yerr=errs, capsize=4, color="#aa3377")
        right.set_ylabel("mean net chips per session (95 % interval)")
        right.set_title(f"net result by seat, strategy {run.strategy}")
    else:
        shares = tally.shares()
        ys = [s["share"] for s in shares]
        lo = [s["share"] - s["ci95"][0] for s in shares]
        hi = [s["ci95"][1] - s["share"] for s in shares]
        right.bar(seats, ys, yerr=[lo, hi], capsize=4, color="#228833")
        right.set_ylabel("win share (95 % interval)")
        right.set_title("wins by seat")
    fig.tight_layout()
    kind = path.suffix.lower().removeprefix(".") or "png"  # "run" is written as a PNG named "run"
    fig.savefig(path, dpi=110, format=kind)
    plt.close(fig)


def _bankroll_paths(ax: Any, run: Run) -> None:
    """Seat A's chips roll by roll: a few sessions, and the 5/25/50/75/95 % quantiles of 2,000."""
    import numpy as np

    from .kernels.casino import bankroll_paths

    paths = bankroll_paths(run.options, 2000, seed=run.seed)  # the run's own seed
    rolls = np.arange(paths.shape[1])
    for p in paths[:30]:
        ax.plot(rolls, p, color="#bbbbbb", linewidth=0.6)
    for q, style in ((5, ":"), (25, "--"), (50, "-"), (75, "--"), (95, ":")):
        ax.plot(rolls, np.percentile(paths, q, axis=0), style, color="#aa3377", label=f"{q} %")
    ax.set_xlabel("roll")
    ax.set_ylabel("seat A's chips")
    ax.set_title(f"bankroll paths, strategy {run.strategy}")
    ax.legend(fontsize=7)
