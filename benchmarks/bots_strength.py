"""The search bot against the sensible bot, and the optimal Shake bot's rating: tournaments.

For each game with decisions (Shake, Gambler, the casino table) the search bot at ``--seconds``
a move meets the sensible bot in a two-seat tournament (shared deals, seats rotated) and its
win share is printed with a 95 % interval: the target is a share above 50 % with the whole
interval. Then the optimal Shake bot meets the sensible and random bots over ``--optimal``
deals per seating (5,000 deals: 10,000 games a pair), and the ratings are printed beside the
win shares: the target is optimal rated above sensible.

    python benchmarks/bots_strength.py                                # the full run: hours
    python benchmarks/bots_strength.py --seconds 0.1 --games 20 --optimal 500  # a reduced run
"""

from __future__ import annotations

import argparse
import time

from gamenight.analysis.tournament import run_tournament

GAMES = ("shake", "gambler", "snake-eyes-casino")


def row(game: str, result: object) -> None:
    for b in result.to_json()["bots"]:  # type: ignore[attr-defined]
        print(
            f"  {game:18} {b['bot']:14} {b['games']:6} games  win share {b['win_share']:6.1%} "
            f"({b['win_share_low']:.1%}–{b['win_share_high']:.1%})  rating {b['rating']:5.0f} "
            f"({b['rating_low']:.0f}–{b['rating_high']:.0f})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="the search bot's time a move")
    ap.add_argument("--games", type=int, default=200, help="deals per seating, search vs sensible")
    ap.add_argument("--optimal", type=int, default=5000, help="deals per seating, optimal Shake")
    ap.add_argument("--only", default=",".join(GAMES), help="games for the search bot, by commas")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    bot = f"mcts-{args.seconds:g}s"
    print(f"{bot} against the sensible bot, 2 players, {args.games} deals per seating")
    for game in [g for g in args.only.split(",") if g]:
        start = time.perf_counter()
        row(game, run_tournament(game, [bot, "sensible"], deals=args.games, players=2,
                                 seed=args.seed))  # fmt: skip
        print(f"  ({time.perf_counter() - start:,.0f} s)")
    if args.optimal:
        print(f"shake: optimal, sensible and random, {args.optimal} deals per seating")
        row("shake", run_tournament("shake", ["optimal", "sensible", "random"],
                                    deals=args.optimal, players=2, seed=args.seed))  # fmt: skip


if __name__ == "__main__":
    main()
