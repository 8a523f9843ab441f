"""Simulation at scale: chunks of games on a kernel or the reference engine, tallied as they go.

A run of N games is cut into fixed chunks of ``CHUNK`` games; chunk i always draws from the same
stream (``rng.chunk_seeds``), so the figures depend on the seed and N only, not on the threads,
the batch sizes or the Ray workers that played the chunks. Only tallies are kept (constant
memory), and a Ctrl-C between batches returns what has been tallied so far.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamenight.engine import new_game
from gamenight.engine.game import is_realtime

from .ray_backend import ClusterLost
from .stats import Tally

CHUNK = 4096  # games per chunk: one stream each
MAX_BATCH = 256  # chunks in one local batch: its result arrays stay a few tens of MiB
Progress = Callable[[int], None]  # called with games finished so far


@dataclass
class Run:
    """A run's tally and how it went."""

    tally: Tally
    engine: str
    backend: str
    seconds: float
    interrupted: bool = False
    stopped: str | None = None  # why a run stopped short other than a Ctrl-C (a lost cluster)

    strategy: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the game's, and a strategy's
    seed: int = 0
    warm_up: float = 0.0  # seconds the kernel took to load or compile, before ``seconds``

    @property
    def rate(self) -> float:
        return self.tally.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self, timing: bool = False) -> dict[str, Any]:
        """The figures (repeatable for a seed); ``timing`` adds the wall-clock ones."""
        out = self.tally.to_json()
        out["engine"] = self.engine
        out["interrupted"] = self.interrupted
        if self.stopped:
            out["stopped"] = self.stopped
        if self.strategy:
            out["strategy"] = self.strategy
        # what it takes to run it again: the same seed and options give the same figures
        out["seed"] = self.seed
        out["options"] = {k: v for k, v in self.options.items() if k != "strategy"}
        if timing:
            out["backend"] = self.backend
            out["seconds"] = round(self.seconds, 3)
            out["games_per_second"] = self.rate
            out["warm_up_seconds"] = round(self.warm_up, 3)  # compiling, not in the rate
        return out


def chunk_sizes(games: int, first: int, count: int) -> list[int]:
    return [min(CHUNK, games - c * CHUNK) for c in range(first, first + count)]


def kernel_batch(game_id: str, options: dict[str, Any], seed: int, games: int,
                 first: int, count: int) -> Tally:  # fmt: skip
    """Chunks ``first .. first + count - 1`` of a run, played by the game's kernel."""
    import numpy as np

    from gamenight.bots.playouts.rng import chunk_seeds

    from .kernels import kernel

    k = kernel(game_id)
    sizes = np.array(chunk_sizes(games, first, count), dtype=np.int64)
    winners, figures = k.batch(chunk_seeds(seed, first, count), sizes, options)
    tally = Tally(game_id, int(options["players"]))
    tally.add_batch(winners, figures)
    return tally


def warm_up(game_id: str, options: dict[str, Any]) -> None:
    """Play one game and throw it away, so that compiling the kernel (a minute or two on its
    first run after an install) is not counted as playing time in games/s."""
    import numpy as np

    from gamenight.bots.playouts.rng import chunk_seeds

    from .kernels import kernel

    kernel(game_id).batch(chunk_seeds(0, 0, 1), np.ones(1, dtype=np.int64), options)


def _kernel_local(game_id: str, options: dict[str, Any], seed: int, games: int,
                  tally: Tally, progress: Progress | None) -> None:  # fmt: skip
    import numba

    # A batch's chunks are split evenly between the threads (numba's prange hands each thread
    # one run of them), so a batch is a whole number of chunks per thread: 3 chunks on 2
    # threads would leave one thread idle for a third of the batch.
    threads = numba.get_num_threads()
    chunks = -(-games // CHUNK)
    done, per_thread = 0, 1
    while done < chunks:
        count = min(per_thread * threads, chunks - done)
        t0 = time.perf_counter()
        tally.merge(kernel_batch(game_id, options, seed, games, done, count))
        done += count
        if progress:
            progress(tally.games)
        took = time.perf_counter() - t0
        # aim at about a quarter of a second a batch: a lively bar and a prompt Ctrl-C
        per_thread = round(count / threads * 0.25 / max(took, 1e-3))
        per_thread = max(1, min(MAX_BATCH // threads, per_thread))


def _worker_batch(game_id: str, options: dict[str, Any], seed: int, games: int,
                  first: int, count: int) -> Tally:  # fmt: skip
    """``kernel_batch`` as a Ray task: on one thread, as Ray gave the task one CPU (numba would
    otherwise start a thread per core in every worker, and their barriers fight for the cores)."""
    import numba

    numba.set_num_threads(1)
    return kernel_batch(game_id, options, seed, games, first, count)


def _kernel_ray(game_id: str, options: dict[str, Any], seed: int, games: int, tally: Tally,
                progress: Progress | None, address: str | None) -> None:  # fmt: skip
    from .ray_backend import run_chunks

    chunks = -(-games // CHUNK)
    run_chunks(_worker_batch, (game_id, options, seed, games), chunks, tally, progress, address)


def _reference(game_id: str, options: dict[str, Any], seed: int, games: int, tally: Tally,
               progress: Progress | None, strategy: str | None) -> None:  # fmt: skip
    from .simulate import play_out, reference_figures, seated_bots

    game = new_game(game_id, **options)
    master = random.Random(seed)
    for i in range(games):
        game_seed = master.getrandbits(63)
        state = game.new_state(seed=game_seed)
        if is_realtime(game_id):
            from gamenight.realtime import RealtimeTable

            RealtimeTable(state, dict.fromkeys(range(game.players), "normal"), seed=game_seed).run()
        elif strategy is not None:
            from gamenight.bots.casino_bot import CasinoBot

            play_out(state, [CasinoBot(strategy=strategy) for _ in range(game.players)])
        else:
            play_out(state, seated_bots(game_id, game.players, game_seed))
        tally.add_game(state.winner(), reference_figures(state), truncated=state.truncated)
        if progress and (i % 16 == 15 or i == games - 1):
            progress(tally.games)


def is_ctrl_c(e: BaseException) -> bool:
    """Numba reports a Ctrl-C that lands inside a kernel as a SystemError caused by it."""
    seen: BaseException | None = e
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def check(game_id: str, engine: str, backend: str, **options: Any) -> Any:
    """The game ``run`` would play with these options, or the error that says why it cannot."""
    game = new_game(game_id, **options)  # validates the options
    full = game.options_dict()
    if engine not in ("kernel", "reference"):
        raise ValueError(f"--engine {engine!r}: choose kernel or reference")
    if backend not in ("local", "ray"):
        raise ValueError(f"--backend {backend!r}: choose local or ray")
    if backend == "ray":  # first: without the extra, the engine checks would miss the point
        from .kernels import has_numba
        from .ray_backend import INSTALL, has_ray

        if not (has_ray() and has_numba()):
            raise ValueError(f"--backend ray needs Ray and Numba: {INSTALL} (or --backend local)")
    if engine == "kernel":
        from .kernels import MODULES, has_numba

        if game_id not in MODULES:
            raise ValueError(f"{game_id} has no compiled kernel yet: use --engine reference")
        if full.get("live"):
            raise ValueError("a live table waits for a dealer's dice: simulate it without 'live'")
        if not has_numba():
            raise ValueError(
                "kernels need Numba: pip install -e '.[kernels]' (or --engine reference)"
            )
    if backend == "ray" and engine != "kernel":
        raise ValueError("--backend ray runs kernels; the reference engine runs locally")
    return game


def run(
    game_id: str,
    games: int,
    seed: int = 0,
    engine: str = "kernel",
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> Run:
    """Simulate ``games`` games; the same seed and N give the same figures on any backend.

    ``strategy`` (casino only) names how the bots bet; the rest are the game's options."""
    strategy = options.pop("strategy", None)
    game = check(game_id, engine, backend, **options)
    full = game.options_dict()
    tally = Tally(game_id, game.players)
    interrupted, stopped = False, None
    t0 = warm = time.perf_counter()
    try:
        if engine == "kernel":  # with Ray too: this machine's workers then load the compiled
            # kernel from numba's disk cache instead of each compiling it at Ray's low priority
            warm_up(game_id, {**full, "strategy": strategy} if strategy else full)
            t0 = time.perf_counter()
        if engine == "reference":
            _reference(game_id, full, seed, games, tally, progress, strategy)
        elif strategy is not None and backend == "ray":
            _kernel_ray(game_id, {**full, "strategy": strategy}, seed, games, tally, progress,
                        address)  # fmt: skip
        elif strategy is not None:
            _kernel_local(game_id, {**full, "strategy": strategy}, seed, games, tally, progress)
        elif backend == "ray":
            _kernel_ray(game_id, full, seed, games, tally, progress, address)
        else:
            _kernel_local(game_id, full, seed, games, tally, progress)
    except KeyboardInterrupt:
        interrupted = True
    except ClusterLost as e:
        interrupted, stopped = True, str(e)
    except SystemError as e:
        if not is_ctrl_c(e):
            raise
        interrupted = True
    kept = {**full, "strategy": strategy} if strategy else full
    seconds = time.perf_counter() - t0
    return Run(tally, engine, backend, seconds, interrupted, stopped, strategy, kept, seed,
               t0 - warm)  # fmt: skip
