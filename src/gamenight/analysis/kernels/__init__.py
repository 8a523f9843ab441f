"""Compiled kernels, one module per game: fast copies of the engine's rules, checked against it.

Each module offers ``batch(seeds, sizes, options) -> (winners, figures)`` for a batch of chunks
(one independent stream each) and ``play_tape(tape, options)`` for one game on given dice.
A winner is a seat, -1 for no single winner, or -2 (``stats.TRUNCATED``) for a game a safety
cap stopped, which the tally counts apart.
Numba is an optional extra (``pip install -e '.[kernels]'``); without it ``available()`` is empty.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES = {
    "snake-eyes": f"{__name__}.snake_eyes",
    "shake": f"{__name__}.shake",
    "snake-eyes-casino": f"{__name__}.casino",
    "snap": f"{__name__}.snap",
    "slap-the-elephant": f"{__name__}.slap",
    # the search bot plays Gambler from any state on the same compiled rules, one floor down
    "gambler": "gamenight.bots.playouts.gambler_game",
}


def has_numba() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def available() -> list[str]:
    """Games with a compiled kernel on this install."""
    return sorted(MODULES) if has_numba() else []


def kernel(game_id: str) -> ModuleType:
    """The kernel module of ``game_id`` (KeyError when it has none)."""
    return importlib.import_module(MODULES[game_id])
