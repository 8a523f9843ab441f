"""Train a Shake agent with MaskablePPO on CPU, then measure it against two bots.

Install and run (about 20 minutes on a loaded 2-core machine, most of it the 10,000 games against
the sensible bot; see docs/rl.md for the measured figures)::

    python -m pip install -e '.[rl-train]'     # pettingzoo, gymnasium, sb3-contrib, torch (CPU)
    python examples/train_shake.py --timesteps 100000 --games 10000

The agent learns seat 0 of a two-player Shake table (``single_agent_env``) whose other seat is
the ``--train-against`` bot. Illegal moves are masked out: the environment's ``action_mask`` is
handed to MaskablePPO through ``action_masks()``. The agent then plays ``--games`` games against
each bot, in the seat it trained in, and the script prints its win rate with a Wilson 95 %
interval. A win is the seat's return (1 for a sole winner, 1/k for a k-way tie) summed over the
games, so ties count as fractions. ``--save PATH`` keeps the trained model.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np

from gamenight.analysis.tournament import wilson
from gamenight.rl import single_agent_env

try:  # the rl-train extra; without it --help still answers and a run says what to install
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

    MISSING = ""
except ImportError as e:
    MISSING = e.name or "sb3-contrib"
    VecEnv = object  # type: ignore[assignment,misc]

GAME = "shake"


def make_env(opponents: str, players: int) -> gym.Env:
    """Seat 0 of a Shake table: the observation vector alone, the mask in ``action_masks()``."""
    return single_agent_env(GAME, players=players, opponents=opponents, flat=True)


class Batched(VecEnv):  # type: ignore[misc,valid-type]
    """gamenight's compiled batch of Shake tables (rl.vector_env) as a Stable-Baselines3 VecEnv:
    the same observations, catalogue and rewards as ``make_env``, thousands of tables a call."""

    def __init__(self, tables: int, opponents: str, players: int, seed: int) -> None:
        from gamenight.rl import vector_env

        self.venv = vector_env(GAME, num_envs=tables, players=players, opponents=opponents)
        space = self.venv.single_observation_space
        super().__init__(tables, space, self.venv.single_action_space)
        self._seed = seed

    def reset(self) -> np.ndarray:
        obs, _ = self.venv.reset(seed=self._seed)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, ended, truncated, infos = self.venv.step(self._actions)
        done = ended | truncated
        final = infos["final_obs"]
        out = [{"terminal_observation": final[i]} if done[i] else {} for i in range(self.num_envs)]
        return obs, rewards.astype(np.float32), done, out

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()

    def env_method(self, name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if name != "action_masks":
            raise AttributeError(f"the batched tables have no method {name!r}")
        return list(self.venv.action_masks())

    def has_attr(self, name: str) -> bool:
        return name == "action_masks"

    def get_attr(self, name: str, indices: Any = None) -> list[Any]:
        if name == "render_mode":
            return [None] * self.num_envs
        raise AttributeError(f"the batched tables have no attribute {name!r}")

    def set_attr(self, name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the batched tables have no attribute {name!r} to set")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def close(self) -> None:
        self.venv.close()


def training_env(args: argparse.Namespace) -> Any:
    """The tables the agent learns on: ``--batched N`` compiled ones, else Python ones."""
    if args.batched:
        return Batched(args.batched, args.train_against, args.players, args.seed)
    venv = DummyVecEnv([lambda: make_env(args.train_against, args.players)] * args.envs)
    venv.seed(args.seed)
    return venv


def evaluate(
    model: MaskablePPO | None, opponents: str, games: int, players: int, seed: int, batch: int
) -> float:
    """Total return of the agent (or of uniformly random masked moves if model is None)."""
    batch = min(batch, games)
    quota = [games // batch + (i < games % batch) for i in range(batch)]
    venv = DummyVecEnv([lambda: make_env(opponents, players) for _ in range(batch)])
    venv.seed(seed)
    obs = venv.reset()
    rng = np.random.default_rng(seed)
    done_games = [0] * batch
    total = 0.0
    while sum(done_games) < games:
        masks = np.stack(venv.env_method("action_masks"))
        if model is None:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        else:
            actions, _ = model.predict(np.asarray(obs), action_masks=masks, deterministic=True)
        obs, rewards, dones, _ = venv.step(actions)
        for i in np.flatnonzero(dones):
            if done_games[i] < quota[i]:
                done_games[i] += 1
                total += float(rewards[i])
    venv.close()
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=100_000, help="training steps")
    parser.add_argument("--games", type=int, default=10_000, help="evaluation games per bot")
    parser.add_argument("--players", type=int, default=2, help="seats at the table")
    parser.add_argument(
        "--train-against", default="random", choices=("random", "sensible"), help="opponents"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="parallel training tables")
    parser.add_argument(
        "--batched", type=int, default=0, metavar="N",
        help="train on N tables of the compiled batch (rl.vector_env) instead",
    )  # fmt: skip
    parser.add_argument("--batch", type=int, default=64, help="parallel evaluation tables")
    parser.add_argument("--save", help="save the trained model here (a .zip)")
    parser.add_argument(
        "--baseline", action="store_true", help="also measure a random masked policy"
    )
    args = parser.parse_args(argv)
    if MISSING:
        raise SystemExit(f"train_shake.py needs {MISSING}: pip install -e '.[rl-train]'")

    import torch

    torch.set_num_threads(1)  # small networks: threads cost more than they give
    venv = training_env(args)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256 if not args.batched else max(1, 2048 // args.batched),
        batch_size=256,
        gamma=1.0,  # one reward, at the end of the game: no reason to discount it
        learning_rate=3e-4,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    trained = time.perf_counter() - start
    print(f"trained {args.timesteps:,} steps against {args.train_against} in {trained:.0f} s")
    if args.games == 0:
        return
    if args.save:
        model.save(args.save)

    policies: list[tuple[str, Any]] = [("MaskablePPO", model)]
    if args.baseline:
        policies.append(("random masked moves", None))
    for name, policy in policies:
        for bot in ("random", "sensible"):
            start = time.perf_counter()
            wins = evaluate(policy, bot, args.games, args.players, args.seed + 1, args.batch)
            lo, hi = wilson(wins / args.games, args.games)
            took = time.perf_counter() - start
            print(
                f"{name} vs {bot:8} over {args.games:,} games: win rate {wins / args.games:.1%}"
                f" (95 % CI {lo:.1%} to {hi:.1%}) [{took:.0f} s]"
            )


if __name__ == "__main__":
    main()
