"""Rolls per second of a Snake Eyes casino table, beside crapssim with the same kinds of bets.

One player keeps hard 6, hard 8, field, 6 and 8 up at the table minimum. gamenight plays
through the public protocol (bot -> action -> apply, which validates it fully; chance drawn by
the state, and every move kept in the game's record); crapssim keeps HardWay 6/8, Field and
Place 6/8 up. Both run in this process, so the ratio is measured on the same machine at the
same moment. The two alternate for several rounds and each side's best round counts (as
timeit does), so a noisy neighbour slows both or neither.
Run: python benchmarks/casino_speed.py [ROLLS] [ROUNDS]
(needs the bench extra: pip install -e '.[bench]').
"""

from __future__ import annotations

import sys
import time
from typing import Any

from gamenight.analysis.simulate import play_out
from gamenight.bots.casino_bot import CasinoBot
from gamenight.engine import new_game

ROLLS = 20_000
ROUNDS = 5


def gamenight_rolls_per_second(rolls: int = ROLLS) -> float:
    game = new_game("snake-eyes-casino", players=1, bankroll=10**9, max_rolls=rolls)
    state = game.new_state(seed=1)
    bots = [CasinoBot(seed=1, strategy="benchmark")]
    start = time.perf_counter()
    play_out(state, bots)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    assert state.rolls == rolls, state.rolls
    return rolls / elapsed


def crapssim_table() -> Any:
    """A crapssim table whose one player keeps our ``benchmark`` bets up: hard 6 and 8, field,
    place 6 and 8 (the other benchmarks reuse it, so every comparison bets alike)."""
    import crapssim
    from crapssim.bet import Field, HardWay, Place
    from crapssim.strategy.tools import AddIfNotBet, AggregateStrategy

    table = crapssim.Table(seed=1)
    strategy = AggregateStrategy(
        AddIfNotBet(HardWay(6, 5)),
        AddIfNotBet(HardWay(8, 5)),
        AddIfNotBet(Field(5)),
        AddIfNotBet(Place(6, 6)),
        AddIfNotBet(Place(8, 6)),
    )
    table.add_player(bankroll=10**9, strategy=strategy)
    return table


def crapssim_rolls_per_second(rolls: int = ROLLS) -> float:
    table = crapssim_table()
    start = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    elapsed = time.perf_counter() - start
    return table.dice.n_rolls / elapsed


def main() -> None:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else ROLLS
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    ours = theirs = 0.0
    for _ in range(rounds):
        ours = max(ours, gamenight_rolls_per_second(rolls))
        theirs = max(theirs, crapssim_rolls_per_second(rolls))
    print(f"gamenight snake-eyes-casino: {ours:12,.0f} rolls/s (through the protocol)")
    print(f"crapssim craps:              {theirs:12,.0f} rolls/s")
    print(f"ratio: {ours / theirs:.2f}x  (target: at least 5x; best of {rounds} rounds each)")


if __name__ == "__main__":
    main()
