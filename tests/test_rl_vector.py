"""The batched Shake environment against the reference engine, move by move on the same dice."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the kernels extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import gamenight  # noqa: E402
from gamenight import rl  # noqa: E402
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


def test_an_action_outside_the_mask_changes_nothing_at_that_table() -> None:
    env = ShakeVectorEnv(num_envs=3, players=2)
    obs, infos = env.reset(seed=4)
    good = infos["action_mask"].argmax(axis=1)
    bad = good.copy()
    bad[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    bad[2] = 10**6
    twin = ShakeVectorEnv(num_envs=3, players=2)
    twin.reset(seed=4)
    after, _, _, _, out = env.step(bad)
    assert out["illegal"].tolist() == [False, True, True]
    assert np.array_equal(after[1:], obs[1:])
    assert np.array_equal(after[0], twin.step(good)[0][0])  # the legal table went on


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_envs": 0}, "num_envs"),
        ({"opponents": "grandmaster"}, "opponents"),
        ({"seat": 2, "players": 2}, "seat"),
        ({"rounds": 0}, "rounds"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises((ValueError, gamenight.GamenightError), match=match):
        ShakeVectorEnv(**kwargs)  # type: ignore[arg-type]


def test_misuse_says_what_is_wrong() -> None:
    env = ShakeVectorEnv(num_envs=2, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="2 whole-number actions"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="tape"):
        env.reset(options={"tape": np.full((2, 10), 6)})
    with pytest.raises(ValueError, match="no batched environment for 'snap'"):
        rl.vector_env("snap")


def test_random_opponents_play_whole_games_within_the_masks() -> None:
    """Against random seats every reward is a share of one win and the games end; the seeded
    streams make two runs equal."""
    runs = []
    for _ in range(2):
        env = rl.vector_env("shake", num_envs=64, players=3, opponents="random")
        obs, infos = env.reset(seed=9)
        rng = np.random.default_rng(0)
        total, games = 0.0, 0
        for _ in range(300):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            obs, rewards, ended, _, infos = env.step(acts)
            assert not infos["illegal"].any()
            assert set(rewards[ended]) <= {0.0, 1 / 3, 0.5, 1.0}
            assert not rewards[~ended].any()
            total, games = total + rewards.sum(), games + int(ended.sum())
            assert env.single_observation_space.contains(obs[0])
        runs.append((total, games, obs.tobytes()))
    assert runs[0] == runs[1] and runs[0][1] > 64


def test_maskable_ppo_trains_on_the_batched_tables() -> None:
    """examples/train_shake.py --batched: MaskablePPO learns on the compiled tables through the
    Stable-Baselines3 adapter, and its moves stay inside the masks."""
    pytest.importorskip("sb3_contrib", reason="the rl-train extra is not installed")
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "train_shake.py"
    module = runpy.run_path(str(example))
    venv = module["Batched"](32, "sensible", 2, 0)
    model = module["MaskablePPO"]("MlpPolicy", venv, n_steps=8, batch_size=64, seed=0,
                                  device="cpu")  # fmt: skip
    model.learn(total_timesteps=512)
    obs = venv.reset()
    for _ in range(20):
        actions, _ = model.predict(obs, action_masks=venv.action_masks())
        obs, _, _, _ = venv.step(actions)
        assert not venv.venv._illegal.any()


def test_the_bots_fast_shaking_loop_plays_the_same_game_as_shake_by_shake() -> None:
    """With no tape the sensible seats' ordinary shaking turns run in one loop reading ten
    shakes from a draw; with a tape (here one die, then the stream) they go shake by shake
    through the rules. Same policy for the learner, thousands of games: the other seat's final
    totals and its decisions a step have the same law (within four standard errors)."""
    tables, steps = 1024, 150
    rival = 8 + 2 + 2 * 2 + 2 + 3  # the other seat's total / 1000 in a 2-player observation
    runs = []
    for tape in (None, np.zeros((tables, 1), dtype=np.int8)):
        env = ShakeVectorEnv(num_envs=tables, players=2)
        _, infos = env.reset(seed=3, options=None if tape is None else {"tape": tape})
        totals, decisions = [], []
        for _ in range(steps):
            masks = infos["action_mask"]
            _, _, ended, _, infos = env.step(masks.shape[1] - 1 - masks[:, ::-1].argmax(1))
            totals += (1000 * infos["final_obs"][ended, rival]).tolist()
            decisions.append(env.opponent_decisions / tables)
        runs.append((np.mean(totals), np.var(totals) / len(totals), np.mean(decisions),
                     np.var(decisions) / steps))  # fmt: skip
    (fast, fast_var, d1, d1_var), (slow, slow_var, d2, d2_var) = runs
    assert abs(fast - slow) < 4 * np.sqrt(fast_var + slow_var), runs
    assert abs(d1 - d2) < 4 * np.sqrt(d1_var + d2_var), runs
