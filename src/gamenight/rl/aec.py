"""A PettingZoo AEC environment for any registered game, through the public protocol only.

Only a seat with a decision steps, as in PettingZoo's classic games: in a turn-based game the
seat to move, again and again if it moves again (a Shake shaker), and a seat waiting for others
is skipped. A seat whose moves are all optional (calls in Snap and Slap, wagers, IOUs) has a
decision, so in the calling games every seat steps in turn, with ``wait`` to let a moment go.
Chance moves (dice, deals, shuffles) are drawn by the state between decisions, except in Snake
Eyes, whose every move is a throw: there the thrower's action is ``throw``. The game's end ends
every agent at once; ``max_cycles`` truncates after that many steps per seat (``max_cycles``
times the number of players). Rewards are the seats' ``returns()`` at the end, or with
``shaped_rewards=True`` every change of each seat's standing (rl.shaping). ``flat=True`` makes
an observation the vector alone, the mask moving to ``infos[agent]["action_mask"]``. An illegal
index is refused as a no-op and flagged in ``infos[agent]["illegal"]``. The table changes at
every step, so PettingZoo's ``aec_to_parallel`` does not apply: ``parallel_env`` is the
Parallel version.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamenight.engine import GamenightError, State, new_game

from .encoding import THROW, WAIT, WAIT_INDEX, Action, action_key, encoding
from .shaping import Shaper

# Moves a seat may make or leave: calls in the real-time games, wagers while others decide,
# IOUs at any time. A seat whose legal actions are all optional may also wait.
OPTIONAL = frozenset(
    {"snap", "slap", "snap_fingers", "wager", "remove", "reduce", "take_iou", "repay_iou"}
)


def table_seed(seed: Any) -> Any:
    """The seed for the table: a fresh one for None, a NumPy integer as a plain int (the engine
    checks the rest)."""
    if seed is None:
        return random.SystemRandom().randrange(2**63)
    if isinstance(seed, np.integer):
        return int(seed)
    return seed


class GamenightEnv(AECEnv):
    """One table of ``game_id``; the options are the game's own (``players=3`` ...)."""

    metadata = {"render_modes": ["ansi"], "name": "gamenight_v0", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        shaped_rewards: bool = False,
        flat: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or an int from 1, not {max_cycles!r}")
        self.game = new_game(game_id, **options)
        self.encoding = encoding(self.game)
        self._index = self.encoding.index()
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        for name, value in (("shaped_rewards", shaped_rewards), ("flat", flat)):
            if type(value) is not bool:
                raise ValueError(f"{name} must be True or False, not {value!r}")
        self.shaper = Shaper(self.game) if shaped_rewards else None
        self.flat = flat
        self.metadata = {**self.metadata, "name": f"gamenight_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        n_actions = len(self.encoding.actions)
        self._observation_space: spaces.Space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        if flat:
            self._observation_space = self._observation_space["observation"]
        self._action_space = spaces.Discrete(n_actions)
        self.state_: State | None = None

    # --- pickling: the encoding's observe is a closure, rebuilt from the game -----------------
    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("encoding", "_index")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.encoding = encoding(self.game)
        self._index = self.encoding.index()

    # --- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # --- the table ------------------------------------------------------------------------------
    @property
    def table(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = table_seed(seed)
        self.state_ = self.game.new_state(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._legal: tuple[int, dict[int, list[int]]] = (-1, {})
        self._draw_chance()
        if self.shaper is not None:
            self.shaper.reset()
        if self.flat:
            for a in self.agents:
                self.infos[a]["action_mask"] = self.mask(self.possible_agents.index(a))
        self.agent_selection = self._next_decider(len(self.agents) - 1)

    def _throws(self) -> bool:
        """Snake Eyes: chance is the thrower's move, not something that happens between turns."""
        return self.game.id == "snake-eyes"

    def _draw_chance(self) -> None:
        state = self.table
        if self._throws():
            return
        while state.is_chance() and not state.is_terminal():
            state.sample_chance()

    def _thrower(self) -> int | None:
        view = self.table.view()
        if view["contenders"]:
            return int(view["contenders"][len(view["start_totals"])])
        thrower: int | None = view["thrower"]
        return thrower

    def legal(self, seat: int) -> list[Action]:
        """The catalogue actions open to ``seat`` now (``wait`` when it has no decision)."""
        return [self.encoding.actions[i] for i in self._legal_indices(seat)]

    def _legal_indices(self, seat: int) -> list[int]:
        """Each seat's entries, found once a moment: a step asks for several seats' (who decides
        next), and the mask and the move ask again."""
        version = len(self.table.moves)  # any move, chance too, appends to the history
        if self._legal[0] != version:
            self._legal = (version, {})
        known = self._legal[1]
        if seat not in known:
            known[seat] = self._find_legal(seat)
        return known[seat]

    def _find_legal(self, seat: int) -> list[int]:
        index = self._index
        state = self.table
        if state.is_terminal():
            return [WAIT_INDEX]
        if self._throws():
            return [index[action_key(THROW)]] if self._thrower() == seat else [WAIT_INDEX]
        if seat not in state.actors():
            return [WAIT_INDEX]
        found, optional = [], True
        for a in state.legal_actions(seat):
            i = index.get(action_key(a))  # each action's key made once: the casino lists many
            if i is not None:
                found.append(i)
                optional = optional and a["type"] in OPTIONAL
        return [WAIT_INDEX, *found] if optional else found

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(len(self.encoding.actions), dtype=np.int8)
        mask[self._legal_indices(seat)] = 1
        return mask

    def _next_decider(self, seat: int) -> str:
        """The first seat after ``seat`` (in seat order, ``seat`` itself last) with a decision;
        at the end, simply the next seat (every agent then steps out)."""
        n = len(self.possible_agents)
        if not self.table.is_terminal():
            for k in range(1, n + 1):
                if self._legal_indices((seat + k) % n) != [WAIT_INDEX]:
                    return self.possible_agents[(seat + k) % n]
        return self.possible_agents[(seat + 1) % n]

    def observe(self, agent: str) -> Any:
        seat = self.possible_agents.index(agent)
        if self.flat:
            return self.encoding.observe(self.table.view(seat), seat)
        return {
            "observation": self.encoding.observe(self.table.view(seat), seat),
            "action_mask": self.mask(seat),
        }

    # --- stepping -------------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.step_action(self.catalogue_action(action))

    def catalogue_action(self, index: Any) -> Action | None:
        """The catalogue entry at ``index``, or None for anything the action space does not hold
        (-1 would otherwise pick the last entry, 1.7 the second)."""
        actions = self.encoding.actions
        if type(index) is int:  # the common case, without the space's NumPy checks
            return actions[index] if 0 <= index < len(actions) else None
        if not self._action_space.contains(index):
            return None
        return actions[int(index)]

    def step_action(self, action: Action | None) -> None:
        """Step with an engine action (a bot's), which need not be in the catalogue."""
        agent = self.agent_selection
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {"illegal": action is None or not self._play(seat, action)}
        self._steps += 1
        state = self.table
        if self.shaper is not None:
            self.rewards = dict(zip(self.possible_agents, self.shaper.pay(state), strict=True))
        elif state.is_terminal():
            self.rewards = dict(zip(self.agents, map(float, state.returns()), strict=True))
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._steps >= self.max_cycles * len(self.agents):
            self.truncations = dict.fromkeys(self.agents, True)
        if self.flat:
            for a in self.agents:
                self.infos[a]["action_mask"] = self.mask(self.possible_agents.index(a))
        self.agent_selection = self._next_decider(seat)
        self._accumulate_rewards()

    def _play(self, seat: int, action: Action) -> bool:
        """Apply ``action`` for ``seat``; False (and no change) if it is not legal now."""
        if action is WAIT or action is THROW:
            if action not in self.legal(seat):
                return False
            if action is THROW:
                self.table.sample_chance()
            return True
        if not self.table.actors() or seat not in self.table.actors():
            return False
        try:
            self.table.apply(dict(action), seat)
        except GamenightError:
            return False
        self._draw_chance()
        return True

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.table
        lines = state.events()[-8:]
        if state.is_terminal():
            lines.append(f"Game over; returns {state.returns()}")
        return "\n".join(lines)

    def close(self) -> None:
        self.state_ = None
