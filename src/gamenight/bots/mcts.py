"""Monte Carlo search over the public protocol, for any game: the sensible bot, improved.

The search is flat (one level: the seat's own candidate moves), the rollout algorithm of
Tesauro and Galperin: every candidate is played on a copy of the table and the game is finished
many times by the game's sensible bot in every seat; the move whose playouts finish first most
often is played. A rollout policy improved this way is never worse than the policy itself
against the same rivals, given enough playouts, which a deeper tree with few playouts is not.

- **Information sets:** every batch of playouts starts from a **determinization**, a copy of the
  table with everything the seat cannot see dealt again at random (the face-down packs of Snap
  and Slap) and a chance stream of its own, so the search never reads a hidden card or a die the
  table has not thrown (single-observer information-set search).
- **Common random numbers:** every candidate's batch uses the same seed, so two moves meet the
  same future dice and their paired difference has a small spread.
- **Kernels:** where a game has a compiled playout (``bots.playouts``), a batch is one call of
  thousands of playouts; elsewhere the engine's fast chance path plays them one by one.
- **What it plays for:** its win share, the tournaments' score (1 for finishing first, shared
  between seats tied for first), not its chips: at the casino table that is the difference.
- **Turn plans:** where one move starts a run of the same seat's decisions (Shake's shakes), a
  game's planner (``PLANNERS``) offers a move together with a plan for the rest of the turn (shake
  on to this many points); playouts follow the plan, and the plan chosen decides the turn's
  later moves without another search. A move at a time cannot see that a lead wants an early
  stop or a deficit a late one: one shake more is worth almost nothing either way.

The sensible bot's own choice is the default. Another move replaces it only when its paired
gain is above zero with 99.5 % confidence after at least ``MIN_SAMPLES`` playouts; a move surely
worse than the best is dropped (successive elimination). The search ends when one move is left,
when no move left could gain ``EPSILON`` of a win, when the playouts are spent, or at the
deadline: the thinking time a move is bounded by the budget plus one batch of one move, and
batches are cut to what the time left allows.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from gamenight.engine import State
from gamenight.engine.chance import ChanceStream

from .base import Bot, sensible_bot

Action = dict[str, Any]
Playouts = Callable[..., np.ndarray]  # (state, n, seed[, plan]) -> returns, a row a playout
MAX_PLAYOUT_MOVES = 20_000  # a playout that runs longer is scored where it stands
MAX_SECONDS = 60.0  # the longest thinking time a bot may be given per move
# How sure a gain must be to leave the sensible move: a bot decides hundreds of times a game,
# so one-sided 0.5 %, and only after enough playouts that the normal approximation holds for
# results that are mostly ties (the first few of a lumpy 0/1 gain look sure by chance)
Z = 2.58
MIN_SAMPLES = 32
EPSILON = 0.005  # a gain in win share too small to search for (one game in 200)
FIRST_BATCH, LAST_BATCH = 32, 4096  # playouts a move per kernel call: doubled each round

# Turn planners by game id: (state, seat, legal, default) -> (the default's plan, [(move, plan)]),
# a plan having ``governs(state, seat)`` and being what the game's sensible bot and kernel follow.
PLANNERS: dict[str, str] = {"shake": "gamenight.bots.shake_bot:turn_plans"}

# Compiled playouts by game id, imported only when asked for (numba is the `kernels` extra).
KERNELS: dict[str, str] = {
    "shake": "gamenight.bots.playouts.shake",
    "snake-eyes-casino": "gamenight.bots.playouts.casino",
    "gambler": "gamenight.bots.playouts.gambler",
}


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


def win_shares(returns: np.ndarray, seat: int) -> np.ndarray:
    """Each playout's score for ``seat``: 1 shared among the seats tied for the best return."""
    best = returns.max(axis=1)
    top = returns == best[:, None]
    return np.where(top[:, seat], 1.0 / top.sum(axis=1), 0.0)


def kernel_playouts(game_id: str) -> Playouts | None:
    """The game's compiled playouts, or None where it has none or Numba is missing."""
    name = KERNELS.get(game_id)
    if name is None:
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    play: Playouts = module.playouts
    return play


def _planner(game_id: str) -> Callable[..., tuple[Any, list[tuple[Action, Any]]]] | None:
    """The game's turn planner, or None."""
    entry = PLANNERS.get(game_id)
    if entry is None:
        return None
    module, name = entry.split(":")
    planner: Callable[..., tuple[Any, list[tuple[Action, Any]]]]
    planner = getattr(importlib.import_module(module), name)
    return planner


@contextmanager
def _following(base: Bot, plan: Any) -> Iterator[None]:
    """The sensible bot follows ``plan`` (where it has one) for the duration."""
    if plan is None:
        yield
        return
    base.plan = plan  # type: ignore[attr-defined]  # a planning game's bot has the attribute
    try:
        yield
    finally:
        base.plan = None  # type: ignore[attr-defined]


class _Arm:
    """One candidate action (and the plan its playouts follow): its paired gains over the
    sensible move, summed."""

    __slots__ = ("action", "plan", "n", "total", "squares")

    def __init__(self, action: Action, plan: Any = None) -> None:
        self.action = action
        self.plan = plan
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, gains: np.ndarray) -> None:
        self.n += gains.size
        self.total += float(gains.sum())
        self.squares += float(gains @ gains)

    def bounds(self) -> tuple[float, float, float]:
        """The mean gain and its one-sided 99.5 % bounds."""
        if self.n == 0:
            return 0.0, -math.inf, math.inf
        mean = self.total / self.n
        var = max(self.squares / self.n - mean * mean, 0.0) * self.n / max(self.n - 1, 1)
        half = Z * math.sqrt(var / self.n)
        return mean, mean - half, mean + half


class MCTSBot:
    """Search with a budget: ``playouts`` a move, or ``seconds`` a move (a wall-clock bound)."""

    thinks = True  # its moves take time: the server decides them off the event loop

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 200,
        seconds: float | None = None,
        kernels: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be above 0 and at most {MAX_SECONDS:g}, not {seconds}")
        self.rng = random.Random(seed)
        self.playouts = playouts if seconds is None else 1_000_000_000
        self.seconds = seconds
        self.kernels = kernels  # False: the engine plays every playout (agreement tests)
        self.clock = clock  # the deadline's clock (a test gives its own)
        self.rollout: dict[str, Bot] = {}
        self.compiled: dict[str, Playouts | None] = {}
        self.searched = 0  # playouts of the last decision, for benchmarks and tests
        self.plan: Any = None  # the turn plan of the last search, deciding the turn's next moves

    def _sensible(self, game_id: str) -> Bot:
        if game_id not in self.rollout:
            self.rollout[game_id] = sensible_bot(game_id, self.rng.randrange(2**32))
        return self.rollout[game_id]

    def _compiled(self, game_id: str) -> Playouts | None:
        if game_id not in self.compiled:
            self.compiled[game_id] = kernel_playouts(game_id) if self.kernels else None
        return self.compiled[game_id]

    def act(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        self.searched = 0
        if len(legal) == 1:
            return legal[0]
        base = self._sensible(state.game.id)
        if self.plan is not None and self.plan.governs(state, seat):
            return self._planned(base, self.plan, state, seat)
        default = base.act(state, seat)
        planner = _planner(state.game.id)
        if planner is None:
            mine_plan, moves = None, [(a, None) for a in legal if a != default]
        else:
            mine_plan, moves = planner(state, seat, legal, default)
        arms = [_Arm(a, plan) for a, plan in moves]
        deadline = None if self.seconds is None else self.clock() + self.seconds
        batch, each = FIRST_BATCH, 0.0  # playouts a move this round; seconds a playout so far
        while arms and self.searched + len(arms) + 1 <= self.playouts:
            size = max(1, min(batch, (self.playouts - self.searched) // (len(arms) + 1)))
            if deadline is not None:
                left = deadline - self.clock()
                if left <= 0:
                    break
                if each > 0:  # a round that ends by the deadline
                    size = max(1, min(size, int(left / each / (len(arms) + 1))))
            started, before = self.clock(), self.searched
            # one deal (where cards are hidden) and one seed for every move; each batch copies it
            hidden = state.game.id in DETERMINIZERS
            world = determinize(state, self.rng) if hidden else state
            seed = self.rng.getrandbits(63)
            mine = self._batch(world, default, mine_plan, seat, size, seed, base)
            for arm in arms:
                if deadline is not None and self.clock() >= deadline:
                    break  # the moves searched this round keep their paired gains
                arm.add(self._batch(world, arm.action, arm.plan, seat, size, seed, base) - mine)
            each = (self.clock() - started) / (self.searched - before)
            batch = min(batch * 2, LAST_BATCH)
            if min(arm.n for arm in arms) >= MIN_SAMPLES:
                arms = self._survivors(arms)
                if self._settled(arms):
                    break
        chosen = self._choice(arms)
        self.plan = mine_plan if chosen is None else chosen.plan
        return default if chosen is None else chosen.action

    @staticmethod
    def _planned(base: Bot, plan: Any, state: State, seat: int) -> Action:
        """The move ``plan`` makes here: the sensible bot's, following the plan."""
        with _following(base, plan):
            return base.act(state, seat)

    def _batch(
        self, world: State, action: Action, plan: Any, seat: int, size: int, seed: int, base: Bot
    ) -> np.ndarray:
        """Win shares of ``size`` playouts after ``action`` (then ``plan``, if any), on the dice
        ``seed`` names."""
        state = world.clone()
        state.apply(action, seat)
        self.searched += size
        if state.is_terminal():
            return np.full(size, win_shares(np.array([state.returns()]), seat)[0])
        compiled = self._compiled(state.game.id)
        if compiled is not None:
            try:
                planned = () if plan is None else (plan,)  # only a planning game's kernel
                return win_shares(compiled(state, size, seed, *planned), seat)
            except ValueError:  # a state the kernel cannot start from: the engine plays it
                self.compiled[state.game.id] = None
        played = []
        with _following(base, plan):
            for i in range(size):
                copy = state.clone() if i < size - 1 else state
                copy.rng = ChanceStream((seed + i) % 2**63, copy.CHANCE_UNIFORMS)
                played.append(finish(copy, base))
        return win_shares(np.array(played, dtype=float), seat)

    @staticmethod
    def _survivors(arms: list[_Arm]) -> list[_Arm]:
        """Drop each action whose gain is surely below the best lower bound (or below zero,
        which is the sensible move's, always kept), and each that cannot gain EPSILON nor is
        sure to gain at all: a move that plays out like the sensible one costs no more rounds."""
        floor = max(0.0, max(arm.bounds()[1] for arm in arms))
        kept = []
        for arm in arms:
            _, low, high = arm.bounds()
            if high >= floor and (high >= EPSILON or low > 0.0):
                kept.append(arm)
        return kept

    @staticmethod
    def _settled(arms: list[_Arm]) -> bool:
        """Nothing left to learn: no move could gain EPSILON, or one sure gain stands alone."""
        if all(arm.bounds()[2] < EPSILON for arm in arms):
            return True
        return len(arms) == 1 and arms[0].bounds()[1] > 0.0

    @staticmethod
    def _choice(arms: list[_Arm]) -> _Arm | None:
        """The best gain sure to be above zero, else None (the sensible move)."""
        sure = [arm for arm in arms if arm.n >= MIN_SAMPLES and arm.bounds()[1] > 0.0]
        return max(sure, key=lambda a: a.bounds()[0]) if sure else None
