"""Batched Shake on the compiled kernel: thousands of tables stepped by one call, Gymnasium style.

``ShakeVectorEnv(num_envs=4096, players=2)`` is a ``gymnasium.vector.VectorEnv``: one learning
seat at every table, the other seats played in compiled code by the sensible bot's policy or at
random. Observations, the action catalogue and the rewards are those of ``single_agent_env``
(rl.encoding), so a policy moves between the two unchanged. Games restart in the same step
(``autoreset_mode`` SAME_STEP): a finished table's reward comes with a new game's first
observation, and its last one is in ``infos["final_obs"]``. The masks are in
``infos["action_mask"]`` and ``action_masks()``; an index a mask refuses changes nothing at that
table and is flagged in ``infos["illegal"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from gamenight.analysis.kernels import casino_env as casino
from gamenight.analysis.kernels import shake_env as kernel
from gamenight.analysis.kernels.rng import chunk_seeds
from gamenight.analysis.kernels.shake import hits_table, policy_tables
from gamenight.bots.casino_bot import STRATEGIES
from gamenight.engine import new_game
from gamenight.games.casino_wagers import MULTI_ROLL, WAGER_IDS
from gamenight.games.shake import crap_out_chance

from .encoding import encoding

OPPONENTS = {"sensible": kernel.SENSIBLE, "random": kernel.RANDOM}


def _seed(env: Any, seed: int | None, tape: Any) -> np.ndarray:
    """Each table's stream seeded from ``seed``; the tape checked (dice 0-5, a row a table)."""
    root = int(env.np_random.integers(2**63)) if seed is None else seed
    env._rng[:] = chunk_seeds(root, 0, env.num_envs)
    if tape is None:
        return np.zeros((env.num_envs, 0), dtype=np.int8)
    tape = np.asarray(tape, dtype=np.int8)
    if tape.ndim != 2 or tape.shape[0] != env.num_envs or tape.min() < 0 or tape.max() > 5:
        raise ValueError(f"a tape is one row of dice 0-5 per table, not {tape.shape}")
    return tape


def _checked(env: Any, actions: Any) -> np.ndarray:
    """The batch's actions as int64, or an error saying what is wrong."""
    if not env._ready:
        raise RuntimeError("call reset() before step()")
    acts = np.asarray(actions)
    if acts.shape != (env.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
        raise ValueError(f"step takes {env.num_envs} whole-number actions, not {acts!r:.80}")
    return acts.astype(np.int64, copy=False)


def _outcome(env: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """What ``step`` returns, copied out of the kernel's arrays."""
    infos = {
        "action_mask": env._masks.copy(),
        "illegal": env._illegal.copy(),
        "final_obs": env._final.copy(),
        "_final_obs": env._ended.copy(),
    }
    truncated = np.zeros(env.num_envs, dtype=np.bool_)
    return env._obs.copy(), env._rewards.copy(), env._ended.copy(), truncated, infos


class ShakeVectorEnv(VectorEnv):
    """``num_envs`` Shake tables; ``seat`` learns, ``opponents`` ("sensible" or "random") play
    the rest; other keywords are the game's options (``players=2``, ``rounds=10`` ...)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, num_envs: int = 1024, seat: int = 0, opponents: str = "sensible", **options: Any
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {sorted(OPPONENTS)}, not {opponents!r}")
        self.game = new_game("shake", **options)  # the engine validates the options
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat!r}")
        opts = self.game.options
        self.encoding = encoding(self.game)
        self.num_envs, self.seat, self.opponents = num_envs, seat, opponents
        first, orders = kernel.order_tables(n)
        shake_die, keep = policy_tables(opts.scoring_faces)  # type: ignore[attr-defined]
        k = opts.scoring_faces  # type: ignore[attr-defined]
        self._rules = (n, opts.rounds, k, opts.final_tie == "roll-off")  # type: ignore[attr-defined]
        self._tables = (OPPONENTS[opponents], float(crap_out_chance(k)), self.encoding.high,
                        shake_die, keep, hits_table(k), first, orders)  # fmt: skip
        self.single_observation_space = spaces.Box(0.0, self.encoding.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(len(self.encoding.actions))
        self.observation_space = spaces.Box(
            0.0, np.tile(self.encoding.high, (num_envs, 1)), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete([len(self.encoding.actions)] * num_envs)
        self._sc = np.zeros((num_envs, kernel.SCALARS), dtype=np.int64)
        self._st = np.zeros((num_envs, kernel.ROWS, n), dtype=np.int64)
        self._rng = np.zeros(num_envs, dtype=np.uint64)
        self._tape = np.zeros((num_envs, 0), dtype=np.int8)
        self._obs = np.zeros((num_envs, self.encoding.size), dtype=np.float32)
        self._final = np.zeros_like(self._obs)
        self._masks = np.zeros((num_envs, len(self.encoding.actions)), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._faces = np.zeros(n, dtype=np.int64)  # the kernel's scratch for roll-offs
        self._ready = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games at every table. ``options={"tape": dice}``: each table reads its dice
        (values 0-5, one row a table) from the tape instead of its stream, in the engine's order."""
        super().reset(seed=seed)
        self._tape = _seed(self, seed, (options or {}).get("tape"))
        self._sc[:, kernel.POS] = 0
        n, rounds, k, roll_off = self._rules
        kind, crap, high, shake_die, keep, hits_of, first, orders = self._tables
        kernel.reset_all(self.seat, n, rounds, k, roll_off, kind, crap, high, shake_die, keep,
                         hits_of, first, orders, self._rng, self._tape, self._sc, self._st,
                         self._obs, self._masks, self._faces)  # fmt: skip
        self._ready = True
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = _checked(self, actions)
        n, rounds, k, roll_off = self._rules
        kind, crap, high, shake_die, keep, hits_of, first, orders = self._tables
        self.opponent_decisions = kernel.step_all(
            acts, self.seat, n, rounds, k, roll_off, kind, crap,
            high, shake_die, keep, hits_of, first, orders, self._rng, self._tape, self._sc,
            self._st, self._obs, self._masks, self._rewards, self._ended, self._illegal,
            self._final, self._faces,
        )  # fmt: skip
        return _outcome(self)

    def action_masks(self) -> np.ndarray:
        """The legal entries at every table now, as bools (MaskablePPO asks for them)."""
        return self._masks.astype(bool)

    def dice_used(self) -> np.ndarray:
        """How many tape dice each table has read (the agreement test checks it)."""
        return self._sc[:, kernel.POS].copy()


class CasinoVectorEnv(VectorEnv):
    """``num_envs`` casino tables; ``seat`` learns, the other seats bet by the casino bot's
    ``opponents`` strategy ("sensible" is its default, every area), the dealer plays by the
    rules. Other keywords are the game's options (``players=3``, ``bankroll``, ``table_min``,
    ``table_max``, ``payouts``, ``winners_stay_up``, ``max_rolls``); a session's reward is the
    seat's net chips, paid when it closes."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, num_envs: int = 1024, seat: int = 0, opponents: str = "sensible", **options: Any
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        plan = STRATEGIES.get("every_area" if opponents == "sensible" else opponents)
        if plan is None:
            known = ", ".join(["sensible", *STRATEGIES])
            raise ValueError(f"opponents must be a casino strategy ({known}), not {opponents!r}")
        if options.get("live", False):
            raise ValueError("the batched casino table draws its dice: live=True is not offered")
        self.game = new_game("snake-eyes-casino", **options)
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat!r}")
        opts = self.game.options
        self.encoding = encoding(self.game)
        self.num_envs, self.seat, self.opponents = num_envs, seat, opponents
        lo, hi = opts.table_min, opts.table_max  # type: ignore[attr-defined]
        self._rules = (seat, lo, hi, opts.bankroll, self.encoding.high)  # type: ignore[attr-defined]
        codes = self.game.codes  # type: ignore[attr-defined]
        self._dealer = (
            np.array([WAGER_IDS.index(w) for w in plan], dtype=np.int64),
            np.array([[row[w] for w in WAGER_IDS] for row in codes], dtype=np.int64),
            np.array([w in MULTI_ROLL for w in WAGER_IDS], dtype=np.bool_),
            opts.winners_stay_up,  # type: ignore[attr-defined]
            opts.max_rolls,  # type: ignore[attr-defined]
        )
        count = len(self.encoding.actions)
        self.single_observation_space = spaces.Box(0.0, self.encoding.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = spaces.Box(
            0.0, np.tile(self.encoding.high, (num_envs, 1)), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete([count] * num_envs)
        self._sc = np.zeros((num_envs, casino.SCALARS), dtype=np.int64)
        self._purse = np.zeros((num_envs, n), dtype=np.int64)
        self._bets = np.zeros((num_envs, n, casino.AREAS), dtype=np.int64)
        self._undecided = np.zeros((num_envs, n), dtype=np.int64)  # areas the dealer rolls out
        self._rng = np.zeros(num_envs, dtype=np.uint64)
        self._tape = np.zeros((num_envs, 0), dtype=np.int8)
        self._obs = np.zeros((num_envs, self.encoding.size), dtype=np.float32)
        self._final = np.zeros_like(self._obs)
        self._masks = np.zeros((num_envs, count), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._ready = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New sessions at every table. ``options={"tape": dice}``: each table reads its dice
        (values 0-5, two a roll, one row a table) from the tape instead of its stream."""
        super().reset(seed=seed)
        self._tape = _seed(self, seed, (options or {}).get("tape"))
        self._sc[:, casino.POS] = 0
        casino.reset_all(*self._rules, *self._dealer, self._rng, self._tape, self._sc,
                         self._purse, self._bets, self._undecided, self._obs,
                         self._masks)  # fmt: skip
        self._ready = True
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = _checked(self, actions)
        self.rolls = casino.step_all(
            acts, *self._rules, *self._dealer, self._rng, self._tape, self._sc, self._purse,
            self._bets, self._undecided, self._obs, self._masks, self._rewards, self._ended,
            self._illegal, self._final,
        )  # fmt: skip
        return _outcome(self)

    def action_masks(self) -> np.ndarray:
        """The legal entries at every table now, as bools (MaskablePPO asks for them)."""
        return self._masks.astype(bool)

    def dice_used(self) -> np.ndarray:
        """How many tape dice each table has read (the agreement test checks it)."""
        return self._sc[:, casino.POS].copy()


VECTOR_ENVS: dict[str, type[VectorEnv]] = {
    "shake": ShakeVectorEnv,
    "snake-eyes-casino": CasinoVectorEnv,
}
