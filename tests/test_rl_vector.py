"""The batched Shake environment against the reference engine, move by move on the same dice."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the kernels extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import gamenight  # noqa: E402
from gamenight.bots import make_bot  # noqa: E402
from gamenight.engine import State  # noqa: E402
from gamenight.rl.encoding import WAIT_INDEX, action_key, encoding  # noqa: E402
from gamenight.rl.vector import ShakeVectorEnv  # noqa: E402


class EngineTable:
    """One engine game of Shake fed from a row of tape dice, the other seats the sensible bot."""

    def __init__(self, game: gamenight.Game, tape: np.ndarray, seat: int) -> None:
        self.game, self.tape, self.seat, self.used = game, tape, seat, 0
        self.code = encoding(game)
        self.index = self.code.index()
        self.bot = make_bot("shake", "sensible", seed=0)
        self.new_game()

    def new_game(self) -> None:
        self.state: State = self.game.new_state(seed=0)
        self.advance()

    def dice(self, m: int) -> list[int]:
        out = [int(d) for d in self.tape[self.used : self.used + m]]
        self.used += m
        return out

    def advance(self) -> None:
        state, k = self.state, self.game.options.scoring_faces  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance():
                if state.phase == "shake":  # type: ignore[attr-defined]
                    faces = [10 if d < k else 0 for d in self.dice(6)]
                    state.apply({"type": "shake", "faces": faces})
                else:
                    rolling = state.players if state.phase == "roll" else len(state.contenders)  # type: ignore[attr-defined]
                    state.apply({"type": "dice", "faces": [d + 1 for d in self.dice(rolling)]})
                continue
            seat = state.actors()[0]
            if seat == self.seat:
                return
            state.apply(self.bot.act(state, seat), seat)

    def mask(self) -> np.ndarray:
        mask = np.zeros(len(self.code.actions), dtype=np.int8)
        if self.state.is_terminal():
            mask[WAIT_INDEX] = 1
        else:
            for a in self.state.legal_actions(self.seat):
                mask[self.index[action_key(a)]] = 1
        return mask

    def observation(self) -> np.ndarray:
        return self.code.observe(self.state.view(self.seat), self.seat)


@pytest.mark.parametrize(("players", "seat", "options"), [
    (2, 0, {}), (3, 1, {"final_tie": "roll-off"}), (4, 3, {"rounds": 2, "scoring_faces": 2}),
])  # fmt: skip
def test_every_step_agrees_with_the_engine_on_the_same_dice(
    players: int, seat: int, options: dict[str, object]
) -> None:
    """Same tape of dice, same learner moves: at every step the kernel's observation, mask,
    reward and end equal the engine's (the other seats: the kernel's policy tables against the
    sensible bot itself), and both have read the same dice."""
    tables = 12
    rng = np.random.default_rng(players)
    tape = rng.integers(0, 6, size=(tables, 200_000), dtype=np.int8)
    env = ShakeVectorEnv(num_envs=tables, seat=seat, players=players, **options)
    game = gamenight.new_game("shake", players=players, **options)
    engines = [EngineTable(game, tape[g], seat) for g in range(tables)]
    obs, infos = env.reset(seed=1, options={"tape": tape})
    games = orderings = 0
    for _ in range(400):
        orderings += int(infos["action_mask"][:, 4:].any(axis=1).sum())  # the order entries
        for g, table in enumerate(engines):
            assert np.array_equal(obs[g], table.observation()), f"table {g}"
            assert np.array_equal(infos["action_mask"][g], table.mask()), f"table {g}"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, rewards, ended, truncated, infos = env.step(actions)
        assert not infos["illegal"].any() and not truncated.any()
        for g, table in enumerate(engines):
            if table.state.is_terminal():
                assert ended[g] and rewards[g] == table.state.returns()[seat]
                assert np.array_equal(infos["final_obs"][g], table.observation())
                table.new_game()
                games += 1
                continue
            table.state.apply(dict(table.code.actions[actions[g]]), seat)
            table.advance()
            if table.state.is_terminal():
                assert ended[g] and rewards[g] == table.state.returns()[seat]
                assert np.array_equal(infos["final_obs"][g], table.observation())
                table.new_game()
                games += 1
            else:
                assert not ended[g] and rewards[g] == 0.0
    assert games >= tables, "whole games were compared"
    assert orderings > 0 or players == 2, "the learner ordered a tied group"
    assert env.dice_used().tolist() == [t.used for t in engines]
