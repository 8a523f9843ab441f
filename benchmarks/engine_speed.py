"""Moves per second of random play through the public protocol, for every game.

The baseline, measured in the same run, is a bare loop of 2-player Snake Eyes written inline
with no protocol at all (same dice, same rules, no validation, records or log). The ratio says
what the protocol costs; the issue's target is 150,000 moves/s for 2-player Snake Eyes.

    python benchmarks/engine_speed.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import time

import gamenight

CARDS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def bare_snake_eyes(seconds: float) -> float:
    """Throws per second of a minimal inline 2-player Snake Eyes (the baseline)."""
    rng = random.Random(0)
    throws, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        up = [set(CARDS), set(CARDS)]
        chips, kitty, thrower, chances = [48, 48], 4, 0, 0
        while up[0] and up[1]:
            r = int(rng.random() * 36)
            total = r // 6 + r % 6 + 2
            throws += 1
            if total == 7:
                chips[thrower] -= 2
                kitty += 2
                thrower, chances = 1 - thrower, 0
            elif total in up[thrower]:
                up[thrower].discard(total)
                chances = 0
            elif chances:
                chances -= 1
                if not chances:
                    thrower = 1 - thrower
            elif total in up[1 - thrower]:
                thrower = 1 - thrower
                up[thrower].discard(total)
            else:
                chances = 3
    return throws / (time.perf_counter() - start)


def protocol_speed(game_id: str, players: int, seconds: float) -> float:
    """Moves per second of random play through is_chance/sample_chance/legal_actions/apply."""
    game = gamenight.new_game(game_id, players=players)
    rng = random.Random(1)
    moves, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            if state.is_chance():
                state.sample_chance()
            else:
                seat = rng.choice(state.actors())
                state.apply(rng.choice(state.legal_actions(seat)), seat)
            moves += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    baseline = bare_snake_eyes(args.seconds)
    print(f"baseline: bare inline 2-player Snake Eyes loop: {baseline:,.0f} throws/s")
    print(f"{'game':20} {'players':>7} {'moves/s':>12} {'vs baseline':>12}")
    for game_id in gamenight.list_games():
        cls = gamenight.engine.game_class(game_id)
        for players in sorted({cls.min_players, 4 if cls.max_players >= 4 else cls.max_players}):
            speed = protocol_speed(game_id, players, args.seconds)
            print(f"{game_id:20} {players:>7} {speed:>12,.0f} {speed / baseline:>11.2f}x")
    se = protocol_speed("snake-eyes", 2, args.seconds)
    print(
        f"target: 2-player snake-eyes >= 150,000 moves/s: {se:,.0f} "
        f"({'met' if se >= 150_000 else 'NOT met'}; {se / 150_000:.2f}x the target)"
    )


if __name__ == "__main__":
    main()
