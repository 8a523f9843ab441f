"""A Gymnasium single-agent environment: one learning seat, bots in the other chairs."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from gamenight.bots import Bot, make_bot
from gamenight.realtime.table import correct_call

from .aec import GamenightEnv
from .encoding import THROW, WAIT, WAIT_INDEX, Action


class SingleAgentEnv(gym.Env):
    """``game_id`` from ``seat``'s chair; the others are ``opponents`` bots (any make_bot kind).

    The agent is asked only when it has a real decision: turns where its one legal action is
    ``wait`` pass by themselves. The reward is the seat's return at the end of the game. A game
    that ends before the seat has any decision is still one step long: ``reset`` shows the end
    with only ``wait`` allowed, and that step returns the reward (Gymnasium cannot end at
    ``reset``)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str = "sensible",
        render_mode: str | None = None,
        max_cycles: int | None = 10_000,
        flat: bool = False,
        **options: Any,
    ) -> None:
        self.aec = GamenightEnv(game_id, render_mode=render_mode, max_cycles=max_cycles, **options)
        if type(flat) is not bool:
            raise ValueError(f"flat must be True or False, not {flat!r}")
        self.flat = flat  # the vector alone; the mask in infos and action_masks()
        if type(seat) is not int or not 0 <= seat < self.aec.game.players:
            raise ValueError(f"seat must be 0 to {self.aec.game.players - 1}, not {seat!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        make_bot(self.aec.game.id, opponents)  # an unknown kind fails here, not at reset()
        self.opponents = opponents
        self._ended_unasked = False
        self.render_mode = render_mode
        space = self.aec.observation_space(self.agent)
        assert isinstance(space, gym.spaces.Dict)
        self.observation_space = space["observation"] if flat else space
        self.action_space = self.aec.action_space(self.agent)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self.aec.reset(seed=game_seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(self.aec.game.id, self.opponents, seed=game_seed + s)
            for s in range(self.aec.game.players)
            if s != self.seat
        }
        self._others()
        self._ended_unasked = self._over()
        info: dict[str, Any] = {}
        return self._answer(info), info

    def _answer(self, info: dict[str, Any]) -> Any:
        """The observation to hand out (the mask into ``info`` when flat)."""
        obs = self._observe()
        self.mask = obs["action_mask"]
        if not self.flat:
            return obs
        info["action_mask"] = self.mask
        return obs["observation"]

    def action_masks(self) -> np.ndarray:
        """The legal entries now, as bools (MaskablePPO asks for them)."""
        return self.mask.astype(bool)

    def _over(self) -> bool:
        return bool(self.aec.terminations[self.agent] or self.aec.truncations[self.agent])

    def _observe(self) -> dict[str, np.ndarray]:
        obs = self.aec.observe(self.agent)
        if self._ended_unasked:  # the one step left is to take the end: wait only
            obs["action_mask"] = np.zeros_like(obs["action_mask"])
            obs["action_mask"][WAIT_INDEX] = 1
        return obs

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        carried = 0.0  # rewards paid since this seat last stepped (shaped ones, while bots play)
        if self._ended_unasked:  # the game ended before this seat had a decision
            if self.aec.catalogue_action(action) != WAIT:  # only wait: anything else refused
                info = {"illegal": True}
                return self._answer(info), 0.0, False, False, info
            self._ended_unasked = False
            info = {"illegal": False}
        elif self.aec.state_ is None or self._over():
            raise RuntimeError("no game is on: call reset() before step()")
        else:
            carried = float(self.aec._cumulative_rewards[self.agent])  # step() clears it
            self.aec.step(action)
            info = {"illegal": self.aec.infos[self.agent]["illegal"]}
            self._others()
        reward = carried + float(self.aec._cumulative_rewards[self.agent])
        self.aec._cumulative_rewards[self.agent] = 0.0
        obs = self._answer(info)
        return (
            obs,
            reward,
            bool(self.aec.terminations[self.agent]),
            bool(self.aec.truncations[self.agent]),
            info,
        )

    def _others(self) -> None:
        """Let the table run until this seat has a real decision or the game has ended."""
        aec = self.aec
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            seat = aec.possible_agents.index(aec.agent_selection)
            legal = aec.legal(seat)
            if seat == self.seat and legal != [WAIT]:
                return
            aec.step_action(WAIT if seat == self.seat else self._choice(seat, legal))

    def _choice(self, seat: int, legal: list[Action]) -> Action:
        """A bot's move; in a real-time game a bot calls only a call it sees is due."""
        if legal == [WAIT] or legal == [THROW]:
            return legal[0]
        state = self.aec.table
        if state.game.realtime:
            call = correct_call(state)
            if call in legal:
                return call
            return WAIT if WAIT in legal else legal[0]
        if WAIT in legal:  # only optional moves: a bot acts only when it is asked to
            return WAIT
        return self.bots[seat].act(state, seat)

    def render(self) -> str | None:
        return self.aec.render()
