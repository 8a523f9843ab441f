"""Shake playouts a second for the search bot: compiled (``bots.playouts.shake``) beside Python.

A playout plays a state to the end with the sensible bot in every seat. The Python row is the
search bot's own loop (``bots.mcts.finish`` on a clone with a fresh chance stream, as the bot
plays it); the compiled row is one ``playouts(state, n, seed)`` call, on one core (the kernel is
single-threaded). Each row is timed in CPU seconds of this process and keeps its best of
``--rounds`` rounds, so a busy neighbour on a shared machine slows both or neither.

Starting points: a new game (its first move), and a game in its last ordinary round.
Target: at least 200,000 compiled playouts a second of a 2-player game from its first move.

    python benchmarks/playouts_speed.py [--seconds 1] [--rounds 3] [--players 2 4]
"""

from __future__ import annotations

import argparse
import time

import gamenight
from gamenight.bots.mcts import finish
from gamenight.bots.playouts.shake import playouts
from gamenight.bots.shake_bot import ShakeBot
from gamenight.engine.chance import ChanceStream
from gamenight.games.shake import ShakeState

TARGET = 200_000  # compiled playouts a second, 2 players, from the first move


def start(players: int, late: bool) -> ShakeState:
    """A new game, or the same game played by the sensible bot into its last ordinary round."""
    state = gamenight.new_game("shake", players=players).new_state(seed=1)
    assert isinstance(state, ShakeState)
    bot = ShakeBot()
    while late and state.round < state.game.options.rounds:
        if state.is_chance():
            state.play_chance()
        else:
            seat = state.actors()[0]
            state.apply(bot.act(state, seat), seat)
    return state


def python_rate(state: ShakeState, seconds: float) -> float:
    bot, done, began = ShakeBot(), 0, time.process_time()
    while time.process_time() - began < seconds:
        copy = state.clone()
        copy.rng = ChanceStream(done, copy.CHANCE_UNIFORMS)
        finish(copy, bot)
        done += 1
    return done / (time.process_time() - began)


def compiled_rate(state: ShakeState, seconds: float) -> float:
    playouts(state, 10, 0)  # compiled (or loaded from the cache) before the clock starts
    n, done, began = 50_000, 0, time.process_time()
    while time.process_time() - began < seconds:
        playouts(state, n, done)
        done += n
    return done / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    print(f"{'players':>7} {'from':<13} {'python/s':>10} {'compiled/s':>12} {'ratio':>7}")
    first = None
    for players in args.players:
        for late in (False, True):
            state = start(players, late)
            slow = max(python_rate(state, args.seconds) for _ in range(args.rounds))
            fast = max(compiled_rate(state, args.seconds) for _ in range(args.rounds))
            where = "last round" if late else "first move"
            print(f"{players:>7} {where:<13} {slow:>10,.0f} {fast:>12,.0f} {fast / slow:>6,.0f}x")
            if players == 2 and not late:
                first = fast
    if first is not None:
        verdict = "met" if first >= TARGET else "MISSED"
        print(f"target {TARGET:,} a second (2 players, first move): {first:,.0f}, {verdict}")


if __name__ == "__main__":
    main()
