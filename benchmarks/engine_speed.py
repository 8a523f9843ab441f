"""Moves per second of random play through the public protocol, for every game, beside pig.

The baseline is OpenSpiel's pig (a C++ dice game driven through pyspiel's Python API), played
here the same way as ours: full games from a fresh state, a chance node samples one outcome by
its probabilities with Python's ``random``, a player node takes a uniformly random legal action
(of its one actor, as pig's current player; a calling game with several picks one at random),
and the same budget per measurement, in CPU seconds of this process (on a shared machine the
wall clock also counts the neighbours; on an idle one the two agree). The games and pig
alternate for ``--rounds`` rounds and each row keeps its best round (as timeit does), so a
noisy neighbour slows both or neither. Without the bench extra (``pip install -e '.[bench]'``)
the pig column is left out.

A third row bounds what pure Python can reach here: Snake Eyes' rules alone (who turns which
card down, who throws next) on a bare object, through the same loop, with none of the engine's
guarantees (no validation, record, event log, ledger, copies or per-draw seeded stream). The
protocol's Snake Eyes can only come near it, never pass it.

Targets: 2-player Snake Eyes at least 1.0 times pig, every other game at least 0.5 times.

    python benchmarks/engine_speed.py [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import time

import gamenight

TARGET = {"snake-eyes": 1.0}  # ratio to pig; every other game 0.5
OTHERS = 0.5


def protocol_speed(game_id: str, players: int, seconds: float) -> float:
    """Moves per second of random play through is_chance/sample_chance/legal_actions/apply."""
    game = gamenight.new_game(game_id, players=players)
    rng = random.Random(1)
    moves, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            if state.is_chance():
                state.sample_chance()
            else:
                seats = state.actors()
                seat = seats[0] if len(seats) == 1 else rng.choice(seats)
                state.apply(rng.choice(state.legal_actions(seat)), seat)
            moves += 1
    return moves / (time.process_time() - start)


def pick(outcomes: list[tuple[int, float]], r: float) -> int:
    """The outcome a uniform ``r`` selects, walking the probabilities in order."""
    for action, p in outcomes:
        if r < p:
            return action
        r -= p
    return outcomes[-1][0]


def pig_speed(seconds: float) -> float | None:
    """Moves per second of random play of OpenSpiel's pig through pyspiel; None without it."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("pig")
    rng = random.Random(1)
    moves, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves / (time.process_time() - start)


CARDS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


class BareSnakeEyes:
    """Snake Eyes' card rules and nothing else (7 passes left, a face-down total passes to the
    nearest seat with it face up; the complete-pass chances are left out): a ceiling."""

    __slots__ = ("up", "left", "thrower", "winner", "players", "random")

    def __init__(self, players: int, seed: int) -> None:
        self.up = [[total in CARDS for total in range(13)] for _ in range(players)]
        self.left = [len(CARDS)] * players
        self.thrower, self.players = 0, players
        self.winner: int | None = None
        self.random = random.Random(seed).random

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance(self) -> bool:
        return self.winner is None

    def sample_chance(self) -> int:
        total = int(self.random() * 6) + int(self.random() * 6) + 2
        seat, n = self.thrower, self.players
        if total == 7:
            self.thrower = (seat + 1) % n
            return total
        for step in range(n):
            other = (seat + step) % n
            if self.up[other][total]:
                self.thrower = other
                self.up[other][total] = False
                self.left[other] -= 1
                if not self.left[other]:
                    self.winner = other
                break
        return total


def bare_speed(seconds: float) -> float:
    """Moves per second of ``BareSnakeEyes`` (2 players) through the protocol loop's calls."""
    moves, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state = BareSnakeEyes(2, seed)
        seed += 1
        while not state.is_terminal():
            if state.is_chance():
                state.sample_chance()
            moves += 1
    return moves / (time.process_time() - start)


def rows() -> list[tuple[str, int]]:
    """Every registered game at its fewest players and at four (or its most, if fewer)."""
    out = []
    for game_id in gamenight.list_games():
        cls = gamenight.engine.game_class(game_id)
        for players in sorted({cls.min_players, min(4, cls.max_players)}):
            out.append((game_id, players))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="keep each row's best round")
    args = parser.parse_args()
    table = rows()
    best: dict[tuple[str, int], float] = dict.fromkeys(table, 0.0)
    pig: float | None = None
    bare = 0.0
    for _ in range(args.rounds):
        speed = pig_speed(args.seconds)
        pig = None if speed is None else max(pig or 0.0, speed)
        bare = max(bare, bare_speed(args.seconds))
        for row in table:
            best[row] = max(best[row], protocol_speed(*row, args.seconds))
    if pig is None:
        print("pig: pyspiel is not installed (pip install -e '.[bench]'): no ratio column")
    else:
        print(f"baseline: OpenSpiel pig through pyspiel, random play: {pig:,.0f} moves/s")
    vs = "" if pig is None else f", {bare / pig:.2f}x pig"
    print(f"ceiling: Snake Eyes' rules alone in bare Python: {bare:,.0f} moves/s{vs}")
    print(f"{'game':20} {'players':>7} {'moves/s':>10}" + ("" if pig is None else "   vs pig"))
    missed = []
    for (game_id, players), speed in best.items():
        line = f"{game_id:20} {players:>7} {speed:>10,.0f}"
        if pig is not None:
            ratio, target = speed / pig, TARGET.get(game_id, OTHERS)
            line += f" {ratio:>7.2f}x"
            if ratio < target:
                line += f"  (target {target:.1f}x: NOT met)"
                missed.append(f"{game_id}/{players}")
        print(line)
    if pig is not None:
        verdict = "every game met it" if not missed else f"not met by {', '.join(missed)}"
        print(f"targets: snake-eyes >= 1.0x pig, every other game >= 0.5x: {verdict}")


if __name__ == "__main__":
    main()
