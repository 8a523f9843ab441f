"""Learning environments over the engine protocol: PettingZoo AEC and Parallel, Gymnasium.

Install with ``pip install -e '.[rl]'``. ``env("shake", players=3)`` gives an AEC environment for
any game; ``parallel_env`` a Parallel one (simultaneous calls in the real-time games);
``single_agent_env`` seats bots in the other chairs for Gymnasium; ``vector_env`` steps thousands
of tables at once in compiled code.
"""

from __future__ import annotations

from typing import Any

try:
    import pettingzoo  # noqa: F401
except ImportError as error:  # the extra is optional: say how to get it
    raise ImportError(
        f"gamenight.rl needs the rl extra ({error.name or error} is missing): "
        "pip install 'gamenight[rl]'"
    ) from error

from .aec import GamenightEnv
from .parallel import GamenightParallelEnv, RealtimeParallelEnv
from .single import SingleAgentEnv


def env(game_id: str, **kwargs: Any) -> GamenightEnv:
    """A PettingZoo AEC environment of ``game_id`` (options as keyword arguments)."""
    return GamenightEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> GamenightParallelEnv:
    """A Parallel environment: every agent acts on the table all of them see; moves race."""
    return GamenightParallelEnv(game_id, **kwargs)


def single_agent_env(game_id: str, **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium environment: one learning seat (``seat=0``), bots (``opponents``) elsewhere."""
    return SingleAgentEnv(game_id, **kwargs)


def vector_env(game_id: str, **kwargs: Any) -> Any:
    """A batch of ``num_envs`` tables stepped in compiled code (a Gymnasium ``VectorEnv``);
    needs the kernels extra (Numba)."""
    try:
        from .vector import VECTOR_ENVS
    except ImportError as error:
        raise ImportError(
            f"rl.vector_env needs the kernels extra ({error.name or error} is missing): "
            "pip install 'gamenight[rl,kernels]'"
        ) from error
    if game_id not in VECTOR_ENVS:
        raise ValueError(
            f"no batched environment for {game_id!r}: there is one for {sorted(VECTOR_ENVS)}"
        )
    return VECTOR_ENVS[game_id](**kwargs)


__all__ = [
    "GamenightEnv",
    "GamenightParallelEnv",
    "RealtimeParallelEnv",
    "SingleAgentEnv",
    "env",
    "parallel_env",
    "single_agent_env",
    "vector_env",
]
