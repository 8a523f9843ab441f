"""The batched casino table against the reference engine, move by move on the same dice."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the kernels extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import gamenight  # noqa: E402
from gamenight import rl  # noqa: E402
from gamenight.analysis.kernels.casino_env import ACCEPT, DECLINE, DONE, ROLL  # noqa: E402
from gamenight.bots.casino_bot import CasinoBot  # noqa: E402
from gamenight.engine import State  # noqa: E402
from gamenight.rl.encoding import WAIT_INDEX, action_key, encoding  # noqa: E402
from gamenight.rl.vector import CasinoVectorEnv  # noqa: E402


class EngineTable:
    """One engine session, its dice read from a row of the tape, the other seats casino bots."""

    def __init__(self, game: gamenight.Game, tape: np.ndarray, seat: int, strategy: str) -> None:
        self.game, self.tape, self.seat, self.used = game, tape, seat, 0
        self.bot = CasinoBot(strategy=strategy)
        self.code = encoding(game)
        self.index = self.code.index()
        self.new_game()

    def new_game(self) -> None:
        self.state: State = self.game.new_state(seed=0)
        self.advance()

    def advance(self) -> None:
        """The dealer's draws and the bots' moves until the seat decides or the session ends."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance():
                a, b = (int(d) + 1 for d in self.tape[self.used : self.used + 2])
                self.used += 2
                state.apply({"type": "dice", "faces": [a, b]})
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


@pytest.mark.parametrize(("players", "seat", "strategy", "options"), [
    (1, 0, "sensible", {}),
    (1, 0, "sensible", {"bankroll": 40, "table_min": 10, "table_max": 30, "max_rolls": 25}),
    (3, 1, "every_area", {}),
    (2, 0, "numbers", {"bankroll": 40, "table_min": 10, "table_max": 30, "max_rolls": 40}),
    (4, 3, "one_roll", {"winners_stay_up": False, "max_rolls": 60, "table_min": 1,
                        "table_max": 3, "bankroll": 5,
                        "payouts": {"field": "option-2", "craps2": "30:1", "hard6": "8:1"}}),
])  # fmt: skip
def test_every_step_agrees_with_the_engine_on_the_same_dice(
    players: int, seat: int, strategy: str, options: dict[str, object]
) -> None:
    """Same tape of dice, same moves of the seat: at every step the kernel's observation, mask,
    reward and end equal the engine's (the other seats: the kernel's policy against the casino
    bot itself), and both have read the same dice."""
    tables = 12
    rng = np.random.default_rng(players + len(options))
    tape = rng.integers(0, 6, size=(tables, 100_000), dtype=np.int8)
    env = CasinoVectorEnv(num_envs=tables, seat=seat, opponents=strategy, players=players,
                          **options)  # fmt: skip
    game = gamenight.new_game("snake-eyes-casino", players=players, **options)
    bot = "every_area" if strategy == "sensible" else strategy
    engines = [EngineTable(game, tape[g], seat, bot) for g in range(tables)]
    obs, infos = env.reset(seed=1, options={"tape": tape})
    games = rolled = 0
    for step in range(600):
        for g, table in enumerate(engines):
            assert np.array_equal(obs[g], table.observation()), f"table {g}"
            assert np.array_equal(infos["action_mask"][g], table.mask()), f"table {g}"
        # mostly bets and rolls, so sessions run long enough to settle many wagers
        masks = infos["action_mask"].astype(float)
        masks[:, [ACCEPT, ROLL, DONE]] *= 8
        masks[:, DECLINE] *= 0.05 if step % 50 else 1.0  # now and then
        actions = np.array([rng.choice(len(m), p=m / m.sum()) for m in masks])
        obs, rewards, ended, truncated, infos = env.step(actions)
        assert not infos["illegal"].any() and not truncated.any()
        rolled += env.rolls
        for g, table in enumerate(engines):
            table.state.apply(dict(table.code.actions[actions[g]]), seat)
            table.advance()
            if table.state.is_terminal():
                assert ended[g] and rewards[g] == table.state.returns()[seat]
                assert np.array_equal(infos["final_obs"][g], table.observation())
                table.new_game()
                games += 1
            else:
                assert not ended[g] and rewards[g] == 0.0
    assert games >= tables and rolled > 10 * tables, "whole sessions and many rolls compared"
    assert env.dice_used().tolist() == [t.used for t in engines]


def test_the_stream_plays_whole_sessions_within_the_masks() -> None:
    """Without a tape the seeded streams play: net chips are the rewards, two runs are equal,
    and every observation is inside the space."""
    runs = []
    for _ in range(2):
        env = rl.vector_env("snake-eyes-casino", num_envs=256, players=2, max_rolls=20)
        obs, infos = env.reset(seed=5)
        rng = np.random.default_rng(0)
        total, games = 0.0, 0
        for _ in range(200):  # wagers, and moves that bring the dice out, alike likely
            masks = infos["action_mask"].astype(float)
            masks[:, ACCEPT:] *= 20
            acts = np.array([rng.choice(len(m), p=m / m.sum()) for m in masks])
            obs, rewards, ended, _, infos = env.step(acts)
            assert not infos["illegal"].any() and not rewards[~ended].any()
            total, games = total + rewards.sum(), games + int(ended.sum())
            assert env.single_observation_space.contains(obs[0])
        runs.append((total, games, obs.tobytes()))
    assert runs[0] == runs[1] and runs[0][1] > 256


def test_an_action_outside_the_mask_changes_nothing_at_that_table() -> None:
    env = CasinoVectorEnv(num_envs=3)
    obs, infos = env.reset(seed=4)
    bad = np.array([ACCEPT, ROLL, 10**6])  # accept; roll with nothing on the layout; no such entry
    after, _, _, _, out = env.step(bad)
    assert out["illegal"].tolist() == [False, True, True]
    assert np.array_equal(after[1:], obs[1:]) and not np.array_equal(after[0], obs[0])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_envs": 0}, "num_envs"),
        ({"players": 3, "seat": 3}, "seat"),
        ({"opponents": "martingale"}, "opponents"),
        ({"live": True}, "live"),
        ({"table_min": 50, "table_max": 10}, "table_min"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises((ValueError, gamenight.GamenightError), match=match):
        CasinoVectorEnv(**kwargs)  # type: ignore[arg-type]
