"""Memory of replaying a record, as a multiple of the record's JSON size (tracemalloc).

For each game, one long random game is recorded; then ``replay`` rebuilds it from the JSON
text. Two figures per game: the peak while replaying (parsing included) and what the rebuilt
state keeps, both divided by the size of the JSON text.

    python benchmarks/replay_memory.py
"""

from __future__ import annotations

import gc
import json
import random
import tracemalloc

import gamenight


def long_game(game_id: str, players: int, seed: int) -> str:
    """The JSON record of one random game played to the end (several for short games)."""
    options = {"players": players}
    if game_id == "snake-eyes-casino":
        options["max_rolls"] = 2000
    state = gamenight.new_game(game_id, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
        else:
            seat = rng.choice(state.actors())
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return json.dumps(state.record())


def measure(text: str) -> tuple[float, float]:
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = gamenight.replay(text)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    del state
    return peak / len(text), kept / len(text)


def main() -> None:
    print(f"{'game':20} {'moves':>7} {'JSON bytes':>11} {'peak/JSON':>10} {'kept/JSON':>10}")
    for game_id in gamenight.list_games():
        players = 1 if game_id == "snake-eyes-casino" else 2
        text = max((long_game(game_id, players, s) for s in range(5)), key=len)
        moves = len(json.loads(text)["moves"])
        peak, kept = measure(text)
        print(f"{game_id:20} {moves:>7} {len(text):>11,} {peak:>9.1f}x {kept:>9.1f}x")


if __name__ == "__main__":
    main()
