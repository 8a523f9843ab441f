"""PettingZoo Parallel environments: every agent acts at once, on the table all of them see.

A step is one moment of the table. Every agent's index is judged against the mask it was
shown; one outside it is refused (``infos[agent]["illegal"]``). The moves made at that moment
(calls in Snap and Slap, a turn-based game's decision, wagers and IOUs) *race*: they arrive in
a random order drawn from the environment's seeded generator and are judged by the rules in
that order; a call for what an earlier one took, or a move an earlier one made impossible, is
too late and dropped, as the engine's real-time table drops it (``infos[agent]["late"]``); a
call at nothing is false however many make it. Turning a card comes last; a turn the moment's
calls made impossible is late too. In a turn-based game only one seat has a
decision at a moment (the others' masks offer only ``wait``), so a step is one decision, made on
the table every agent sees. ``max_cycles`` truncates after that many steps; ``shaped_rewards``
and ``flat`` are as in the AEC environment.

PettingZoo's ``aec_to_parallel`` does not apply: the AEC table changes at every step, so a
converted environment would judge a later seat's action on a table it never saw.
"""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from gamenight.realtime.table import correct_call

from .aec import GamenightEnv, table_seed
from .encoding import Action

NOT_MOVES = frozenset({"flip", "wait"})


class GamenightParallelEnv(ParallelEnv):
    """One table of ``game_id`` where every agent acts at each step."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "gamenight_v0"}

    def __init__(self, game_id: str, **kwargs: Any) -> None:
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
        seed = table_seed(seed)
        self.aec.reset(seed=seed)
        self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observations(), {a: dict(self.aec.infos[a]) for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        aec, state = self.aec, self.aec.table
        strangers = [a for a in actions if a not in self.agents]
        if strangers:  # nothing is played: the whole step is refused
            raise ValueError(f"no agent {strangers[0]!r} at this table: agents are {self.agents}")
        seats = {a: self.possible_agents.index(a) for a in actions}
        chosen = {a: self._chosen(seats[a], i) for a, i in actions.items()}
        illegal = {a: act is None for a, act in chosen.items()}
        late = dict.fromkeys(actions, False)
        moves = [(a, act) for a, act in chosen.items() if act and act["type"] not in NOT_MOVES]
        self.rng.shuffle(moves)
        moment = len(state.moves)  # any move, chance too, appends to the history
        right = correct_call(state) if state.game.realtime else None  # what a call could win
        for agent, move in moves:
            changed = len(state.moves) != moment
            took = move == right and move != correct_call(state)  # (a false call takes nothing)
            if changed and (took or move not in aec.legal(seats[agent])):
                late[agent] = True  # an earlier move took what this one was for: too late
                continue
            illegal[agent] = not aec._play(seats[agent], move)
        for agent, act in chosen.items():
            if act is not None and act["type"] == "flip":
                changed = len(state.moves) != moment
                played = not state.is_terminal() and aec._play(seats[agent], act)
                late[agent] = changed and not played  # a call took the turn away first
                illegal[agent] = not played and not changed
        self.steps += 1
        done = state.is_terminal()
        if aec.shaper is not None:  # each seat's change of standing (rl.shaping)
            returns = aec.shaper.pay(state)
        else:
            returns = state.returns() if done else [0.0] * len(self.possible_agents)
        rewards = {a: float(returns[self.possible_agents.index(a)]) for a in self.agents}
        truncated = not done and self.max_cycles is not None and self.steps >= self.max_cycles
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, truncated)
        observations = self._observations()
        infos: dict[str, dict[str, Any]] = {
            a: {"illegal": illegal.get(a, False), "late": late.get(a, False)} for a in self.agents
        }
        if aec.flat:  # the observation is the vector alone: the masks travel here
            for a in self.agents:
                infos[a]["action_mask"] = aec.mask(self.possible_agents.index(a))
        if done or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _chosen(self, seat: int, index: Any) -> Action | None:
        """The catalogue action at ``index`` if the mask allows it now, else None (refused)."""
        action = self.aec.catalogue_action(index)
        if action is None or not self.aec.mask(seat)[int(index)]:
            return None
        return action

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


RealtimeParallelEnv = GamenightParallelEnv  # the name it had when only Snap and Slap used it
