"""Monte Carlo search over the public protocol, for any game: the sensible bot, improved.

Information sets are handled by determinization (SO-ISMCTS style): each round of the search
deals again everything the seat cannot see (the face-down packs of Snap and Slap) and gives
the copy a chance stream of its own, so the search never reads a hidden card or a future die.
From that one determinization every candidate action is played once and the game is finished
by the game's sensible bot through the engine's fast chance path: common random numbers, so
two actions are compared on the same dice and their difference has a small spread.

The sensible bot's own choice is the default. Another action replaces it only when its paired
gain is above zero with 99.5 % confidence after at least 30 rounds; an action clearly worse
than the best is dropped (successive elimination, from round 30 on), and the search ends when
one action is left, when the budget of playouts is spent, or at the deadline. So the bot keeps
to the sensible move unless the search shows a gain, and its thinking time per move is bounded:
the deadline plus one playout (a playout is cut at ``MAX_PLAYOUT_MOVES``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from gamenight.engine import State
from gamenight.engine.chance import ChanceStream

from .base import Bot, sensible_bot

Action = dict[str, Any]
MAX_PLAYOUT_MOVES = 20_000  # a playout that runs longer is scored where it stands
MAX_SECONDS = 60.0  # the longest thinking time a bot may be given per move
# How sure a gain must be to leave the sensible move: a bot decides hundreds of times a game,
# so one-sided 0.5 %, and only after enough rounds that the normal approximation holds for
# results that are mostly ties (the first rounds of a lumpy 0/1 gain looked sure by chance)
Z = 2.58
MIN_ROUNDS = 30


def _redeal_packs(state: Any, rng: random.Random) -> None:
    """Snap and Slap: the face-down packs are unseen, so their cards are dealt again."""
    cards = sorted(c for pack in state.pack for c in pack)  # what was there, not where
    rng.shuffle(cards)
    for pack in state.pack:
        n = len(pack)
        pack[:], cards = cards[:n], cards[n:]


# What a seat cannot see, by game; games that hide nothing draw their unseen cards as chance.
DETERMINIZERS: dict[str, Callable[[Any, random.Random], None]] = {
    "snap": _redeal_packs,
    "slap-the-elephant": _redeal_packs,
}


def determinize(state: State, rng: random.Random) -> State:
    """A copy of ``state`` with everything hidden from the players dealt again at random and a
    chance stream of its own, so it knows no card nor die the table has not shown."""
    copy = state.clone()
    redeal = DETERMINIZERS.get(state.game.id)
    if redeal is not None:
        redeal(copy, rng)
    copy.rng = ChanceStream(rng.getrandbits(63), copy.CHANCE_UNIFORMS)
    return copy


def finish(state: State, bot: Bot, max_moves: int = MAX_PLAYOUT_MOVES) -> list[float]:
    """Play ``state`` on with ``bot`` in every seat; its returns at the end (or at the cut)."""
    is_terminal, is_chance = state.is_terminal, state.is_chance
    apply, play_chance, next_actor = state.apply, state.play_chance, state.next_actor
    for _ in range(max_moves):
        if is_chance():
            play_chance()
        elif is_terminal():
            break
        else:
            seat = next_actor()
            if seat is None:
                break
            apply(bot.act(state, seat), seat)
    return state.returns()


class _Arm:
    """One candidate action: its paired gains over the sensible move, summed."""

    __slots__ = ("action", "n", "total", "squares")

    def __init__(self, action: Action) -> None:
        self.action = action
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, gain: float) -> None:
        self.n += 1
        self.total += gain
        self.squares += gain * gain

    def bounds(self) -> tuple[float, float, float]:
        """The mean gain and its 95 % interval."""
        if self.n == 0:
            return 0.0, -math.inf, math.inf
        mean = self.total / self.n
        var = max(self.squares / self.n - mean * mean, 0.0) * self.n / max(self.n - 1, 1)
        half = Z * math.sqrt(var / self.n)
        return mean, mean - half, mean + half


class MCTSBot:
    """Search with a budget: ``playouts`` a move, or ``seconds`` a move (a wall-clock bound)."""

    def __init__(
        self, seed: int | None = None, playouts: int = 200, seconds: float | None = None
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be above 0 and at most {MAX_SECONDS:g}, not {seconds}")
        self.rng = random.Random(seed)
        self.playouts = playouts if seconds is None else 1_000_000_000
        self.seconds = seconds
        self.rollout: dict[str, Bot] = {}
        self.searched = 0  # playouts of the last decision, for benchmarks and tests

    def _sensible(self, game_id: str) -> Bot:
        if game_id not in self.rollout:
            self.rollout[game_id] = sensible_bot(game_id, self.rng.randrange(2**32))
        return self.rollout[game_id]

    def act(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        self.searched = 0
        if len(legal) == 1:
            return legal[0]
        base = self._sensible(state.game.id)
        default = base.act(state, seat)
        arms = [_Arm(a) for a in legal if a != default]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rounds = 0
        while arms and self.searched + len(arms) + 1 <= self.playouts:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = determinize(state, self.rng)  # one deal and one chance stream for all
            mine = self._play(world.clone(), default, seat, base)
            for arm in arms:
                here = world if arm is arms[-1] else world.clone()
                arm.add(self._play(here, arm.action, seat, base) - mine)
            rounds += 1
            if rounds >= MIN_ROUNDS:
                arms = self._survivors(arms)
        return self._choice(arms, default)

    def _play(self, state: State, action: Action, seat: int, base: Bot) -> float:
        self.searched += 1
        state.apply(action, seat)
        return finish(state, base)[seat]

    @staticmethod
    def _survivors(arms: list[_Arm]) -> list[_Arm]:
        """Drop each action whose gain is surely below the best lower bound (or below zero,
        which is the sensible move's, always kept)."""
        floor = max(0.0, max(arm.bounds()[1] for arm in arms))
        return [arm for arm in arms if arm.bounds()[2] >= floor]

    @staticmethod
    def _choice(arms: list[_Arm], default: Action) -> Action:
        """The best gain sure to be above zero, else the sensible move."""
        sure = [arm for arm in arms if arm.n >= MIN_ROUNDS and arm.bounds()[1] > 0.0]
        return max(sure, key=lambda a: a.bounds()[0]).action if sure else default
