"""Batched Shake and casino tables in compiled code: thousands stepped by one call, Gymnasium style.

``ShakeVectorEnv(num_envs=4096, players=2)`` and ``CasinoVectorEnv`` are
``gymnasium.vector.VectorEnv``s: one learning seat at every table, the other seats played in
compiled code by a fixed policy (Shake's sensible bot or random; a casino bot strategy).
Observations, the action catalogue and the rewards are those of ``single_agent_env``
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
from gamenight.analysis.kernels.shake import hits_table, policy_tables
from gamenight.bots.casino_bot import STRATEGIES
from gamenight.bots.playouts.rng import chunk_seeds
from gamenight.engine import new_game
from gamenight.games.casino_wagers import MULTI_ROLL, WAGER_IDS
from gamenight.games.shake import crap_out_chance

from .encoding import encoding

OPPONENTS = {"sensible": kernel.SENSIBLE, "random": kernel.RANDOM}


class _Tables(VectorEnv):
    """What the batched games share: the checks, the spaces, the kernel's output arrays, the
    seeding and the step's results; a subclass adds its kernel's state and calls."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
    game_id: str
    pos: int  # the kernel's column counting each table's tape dice

    def _open(self, num_envs: int, seat: int, options: dict[str, Any], scalars: int) -> int:
        """The game built (the engine validates the options) and the arrays laid out; the
        number of seats."""
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        self.game = new_game(self.game_id, **options)
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat!r}")
        self.encoding = encoding(self.game)
        self.num_envs, self.seat = num_envs, seat
        high, count = self.encoding.high, len(self.encoding.actions)
        self.single_observation_space = spaces.Box(0.0, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = spaces.Box(0.0, np.tile(high, (num_envs, 1)), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete([count] * num_envs)
        self._sc = np.zeros((num_envs, scalars), dtype=np.int64)
        self._rng = np.zeros(num_envs, dtype=np.uint64)
        self._tape = np.zeros((num_envs, 0), dtype=np.int8)
        self._obs = np.zeros((num_envs, self.encoding.size), dtype=np.float32)
        self._final = np.zeros_like(self._obs)
        self._masks = np.zeros((num_envs, count), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._ready = False
        return n

    def _seed(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Each table's stream seeded from ``seed``; a tape in ``options`` checked (dice 0-5, a
        row a table) and read from its start."""
        super().reset(seed=seed)
        root = int(self.np_random.integers(2**63)) if seed is None else seed
        self._rng[:] = chunk_seeds(root, 0, self.num_envs)
        tape = (options or {}).get("tape")
        self._tape = np.zeros((self.num_envs, 0), dtype=np.int8)
        if tape is not None:
            tape = np.asarray(tape, dtype=np.int8)
            if tape.ndim != 2 or tape.shape[0] != self.num_envs or tape.min() < 0 or tape.max() > 5:
                raise ValueError(f"a tape is one row of dice 0-5 per table, not {tape.shape}")
            self._tape = tape
        self._sc[:, self.pos] = 0
        self._ready = True

    def _checked(self, actions: Any) -> np.ndarray:
        """The batch's actions as int64, or an error saying what is wrong."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"step takes {self.num_envs} whole-number actions, not {acts!r:.80}")
        return acts.astype(np.int64, copy=False)

    def _outcome(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """What ``step`` returns, copied out of the kernel's arrays."""
        infos = {
            "action_mask": self._masks.copy(),
            "illegal": self._illegal.copy(),
            "final_obs": self._final.copy(),
            "_final_obs": self._ended.copy(),
        }
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._obs.copy(), self._rewards.copy(), self._ended.copy(), truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal entries at every table now, as bools (MaskablePPO asks for them)."""
        return self._masks.astype(bool)

    def dice_used(self) -> np.ndarray:
        """How many tape dice each table has read (the agreement tests check it)."""
        return self._sc[:, self.pos].copy()


class ShakeVectorEnv(_Tables):
    """``num_envs`` Shake tables; ``seat`` learns, ``opponents`` ("sensible" or "random") play
    the rest; other keywords are the game's options (``players=2``, ``rounds=10`` ...)."""

    game_id, pos = "shake", kernel.POS

    def __init__(
        self, num_envs: int = 1024, seat: int = 0, opponents: str = "sensible", **options: Any
    ) -> None:
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {sorted(OPPONENTS)}, not {opponents!r}")
        n = self._open(num_envs, seat, options, kernel.SCALARS)
        self.opponents = opponents
        opts = self.game.options
        first, orders = kernel.order_tables(n)
        shake_die, keep = policy_tables(opts.scoring_faces)  # type: ignore[attr-defined]
        k = opts.scoring_faces  # type: ignore[attr-defined]
        self._rules = (n, opts.rounds, k, opts.final_tie == "roll-off")  # type: ignore[attr-defined]
        self._tables = (OPPONENTS[opponents], float(crap_out_chance(k)), self.encoding.high,
                        shake_die, keep, hits_table(k), first, orders)  # fmt: skip
        self._st = np.zeros((num_envs, kernel.ROWS, n), dtype=np.int64)
        self._faces = np.zeros(n, dtype=np.int64)  # the kernel's scratch for roll-offs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games at every table. ``options={"tape": dice}``: each table reads its dice
        (values 0-5, one row a table) from the tape instead of its stream, in the engine's order."""
        self._seed(seed, options)
        n, rounds, k, roll_off = self._rules
        kind, crap, high, shake_die, keep, hits_of, first, orders = self._tables
        kernel.reset_all(self.seat, n, rounds, k, roll_off, kind, crap, high, shake_die, keep,
                         hits_of, first, orders, self._rng, self._tape, self._sc, self._st,
                         self._obs, self._masks, self._faces)  # fmt: skip
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = self._checked(actions)
        n, rounds, k, roll_off = self._rules
        kind, crap, high, shake_die, keep, hits_of, first, orders = self._tables
        self.opponent_decisions = kernel.step_all(
            acts, self.seat, n, rounds, k, roll_off, kind, crap,
            high, shake_die, keep, hits_of, first, orders, self._rng, self._tape, self._sc,
            self._st, self._obs, self._masks, self._rewards, self._ended, self._illegal,
            self._final, self._faces,
        )  # fmt: skip
        return self._outcome()


class CasinoVectorEnv(_Tables):
    """``num_envs`` casino tables; ``seat`` learns, the other seats bet by the casino bot's
    ``opponents`` strategy ("sensible" is its default, every area), the dealer plays by the
    rules. Other keywords are the game's options (``players=3``, ``bankroll``, ``table_min``,
    ``table_max``, ``payouts``, ``winners_stay_up``, ``max_rolls``); a session's reward is the
    seat's net chips, paid when it closes."""

    game_id, pos = "snake-eyes-casino", casino.POS

    def __init__(
        self, num_envs: int = 1024, seat: int = 0, opponents: str = "sensible", **options: Any
    ) -> None:
        plan = STRATEGIES.get("every_area" if opponents == "sensible" else opponents)
        if plan is None:
            known = ", ".join(["sensible", *STRATEGIES])
            raise ValueError(f"opponents must be a casino strategy ({known}), not {opponents!r}")
        if options.get("live", False):
            raise ValueError("the batched casino table draws its dice: live=True is not offered")
        n = self._open(num_envs, seat, options, casino.SCALARS)
        self.opponents = opponents
        opts = self.game.options
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
        self._purse = np.zeros((num_envs, n), dtype=np.int64)
        self._bets = np.zeros((num_envs, n, casino.AREAS), dtype=np.int64)
        self._undecided = np.zeros((num_envs, n), dtype=np.int64)  # areas the dealer rolls out

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New sessions at every table. ``options={"tape": dice}``: each table reads its dice
        (values 0-5, two a roll, one row a table) from the tape instead of its stream."""
        self._seed(seed, options)
        casino.reset_all(*self._rules, *self._dealer, self._rng, self._tape, self._sc,
                         self._purse, self._bets, self._undecided, self._obs,
                         self._masks)  # fmt: skip
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = self._checked(actions)
        self.rolls = casino.step_all(
            acts, *self._rules, *self._dealer, self._rng, self._tape, self._sc, self._purse,
            self._bets, self._undecided, self._obs, self._masks, self._rewards, self._ended,
            self._illegal, self._final,
        )  # fmt: skip
        return self._outcome()


VECTOR_ENVS: dict[str, type[VectorEnv]] = {
    "shake": ShakeVectorEnv,
    "snake-eyes-casino": CasinoVectorEnv,
}
