"""PettingZoo Parallel environments: every agent acts at once.

For the real-time games (Snap, Slap the Elephant) a step is one moment of the table: every seat
may call at the card now showing, and the seat to turn a card may turn it. Calls are made
against the same card, so they race: they arrive in a random order drawn from the environment's
seeded generator, the first is judged by the rules, and a call that arrives after an earlier
one changed the table is too late and dropped, as the engine's real-time table drops it
(``infos[agent]["late"]``). The turn comes last. An index the mask does not allow is refused
(``infos[agent]["illegal"]``). Turn-based games get PettingZoo's AEC-to-parallel conversion of
``env``.
"""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from gamenight.engine.game import is_realtime

from .aec import GamenightEnv
from .encoding import Action

NOT_CALLS = frozenset({"flip", "wait"})


class RealtimeParallelEnv(ParallelEnv):
    """Snap or Slap the Elephant with simultaneous calls."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "gamenight_realtime_v0"}

    def __init__(self, game_id: str, **kwargs: Any) -> None:
        if not is_realtime(game_id):
            raise ValueError(f"{game_id!r} is turn-based: use its AEC env or aec_to_parallel")
        self.aec = GamenightEnv(game_id, **kwargs)
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.possible_agents = list(self.aec.possible_agents)
        self.render_mode = self.aec.render_mode
        self.max_cycles = self.aec.max_cycles

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.aec.reset(seed=seed)
        self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        aec, state = self.aec, self.aec.table
        seats = {a: self.possible_agents.index(a) for a in actions}
        chosen = {a: self._chosen(seats[a], i) for a, i in actions.items()}
        illegal = {a: act is None for a, act in chosen.items()}
        late = dict.fromkeys(actions, False)
        calls = [(a, act) for a, act in chosen.items() if act and act["type"] not in NOT_CALLS]
        self.rng.shuffle(calls)
        moment = (state.view()["flips"], len(state.events()))
        for agent, call in calls:
            if (state.view()["flips"], len(state.events())) != moment:
                late[agent] = True  # an earlier call changed the table: this one is too late
                continue
            illegal[agent] = not aec._play(seats[agent], call)
        for agent, act in chosen.items():
            if act is not None and act["type"] == "flip" and not state.is_terminal():
                illegal[agent] = not aec._play(seats[agent], act)
        self.steps += 1
        done = state.is_terminal()
        returns = state.returns() if done else [0.0] * len(self.possible_agents)
        rewards = {a: float(returns[self.possible_agents.index(a)]) for a in self.agents}
        truncated = not done and self.max_cycles is not None and self.steps >= self.max_cycles
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, truncated)
        observations = self._observations()
        infos = {
            a: {"illegal": illegal.get(a, False), "late": late.get(a, False)} for a in self.agents
        }
        if done or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _chosen(self, seat: int, index: Any) -> Action | None:
        """The catalogue action at ``index`` if the mask allows it now, else None (refused)."""
        try:
            i = int(index)
        except (TypeError, ValueError):
            return None
        if not 0 <= i < len(self.aec.encoding.actions) or not self.aec.mask(seat)[i]:
            return None
        return self.aec.encoding.actions[i]

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
