"""Monte Carlo tree search over the public protocol, for any game.

Each playout starts from a *determinization*: a copy of the table in which everything the
seat cannot see is dealt again at random (in Snap and Slap the face-down packs), so the search
never uses a hidden card. Chance moves are drawn with their exact probabilities from
``chance_outcomes()`` by the bot's own generator; decisions follow UCT, each seat maximising
its own return (max^n), and playouts go on with the game's sensible bot for at most
``MAX_PLAYOUT_MOVES`` moves, then score the game as it stands (``returns()``). The tree is
open-loop: a node is a sequence of decisions, averaged over the chance moves between them.
The level is a budget of playouts, or of seconds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from gamenight.engine import State

from .base import sensible_bot

Action = dict[str, Any]
MAX_PLAYOUT_MOVES = 300  # a playout that runs longer is scored where it stands


def _key(action: Action) -> str:
    return repr(sorted(action.items()))


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
    """A copy of ``state`` with everything hidden from the players dealt again at random."""
    copy = state.clone()
    redeal = DETERMINIZERS.get(state.game.id)
    if redeal is not None:
        redeal(copy, rng)
    return copy


def draw_chance(state: State, rng: random.Random) -> Action:
    """A chance action drawn by ``rng`` (not the table's) with its exact probability."""
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    weights = [p.numerator / p.denominator for _, p in outcomes]
    return rng.choices(outcomes, weights)[0][0]


class _Node:
    """Statistics of one decision point along the moves played from the root."""

    __slots__ = ("children", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * players


class MCTSBot:
    """UCT with determinization; ``playouts`` (or ``seconds``) is its strength."""

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 200,
        seconds: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds
        self.exploration = exploration
        self.rollout: dict[str, Any] = {}

    def act(self, state: State, seat: int) -> Action:
        if state.game.id not in self.rollout:
            self.rollout[state.game.id] = sensible_bot(state.game.id, self.rng.randrange(2**32))
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        root = _Node(state.players)
        self.low, self.high = math.inf, -math.inf
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.playouts if deadline is None else time.perf_counter() < deadline:
            self._playout(determinize(state, self.rng), seat, root)
            done += 1

        def strength(a: Action) -> tuple[int, float]:
            child = root.children.get(_key(a))
            return (0, 0.0) if child is None else (child.visits, child.totals[seat] / child.visits)

        return max(legal, key=strength)

    def _playout(self, state: State, root_seat: int, root: _Node) -> None:
        path = [root]
        rollout = self.rollout[state.game.id]
        node: _Node | None = root
        seat: int | None = root_seat
        moves = 0
        while not state.is_terminal() and moves < MAX_PLAYOUT_MOVES:
            moves += 1
            if state.is_chance():
                state.apply(draw_chance(state, self.rng), None)
                continue
            if seat is None:
                seat = state.actors()[0]
            if node is None:  # past the tree: the sensible bot plays on
                state.apply(rollout.act(state, seat), seat)
            else:
                action, node = self._select(state, seat, node)
                path.append(node)
                state.apply(action, seat)
                if node.visits == 0:
                    node = None  # a new leaf: stop growing the tree here
            seat = None
        returns = state.returns()
        self.low = min(self.low, *returns)
        self.high = max(self.high, *returns)
        for n in path:
            n.visits += 1
            for i, r in enumerate(returns):
                n.totals[i] += r

    def _select(self, state: State, seat: int, node: _Node) -> tuple[Action, _Node]:
        """UCT for ``seat`` among its legal actions; an untried action first."""
        legal = state.legal_actions(seat)
        untried = [a for a in legal if _key(a) not in node.children]
        if untried:
            action = self.rng.choice(untried)
            child = node.children[_key(action)] = _Node(state.players)
            return action, child
        log_n = math.log(max(node.visits, 1))
        spread = (self.high - self.low) or 1.0  # returns scaled to [0, 1]: chips or wins alike

        def score(a: Action) -> float:
            child = node.children[_key(a)]
            mean = (child.totals[seat] / max(child.visits, 1) - self.low) / spread
            return mean + self.exploration * math.sqrt(log_n / max(child.visits, 1))

        action = max(legal, key=score)
        return action, node.children[_key(action)]
