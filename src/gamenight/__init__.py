"""gamenight: play, simulate and analyse classic dice and card games.

The public names load on first use (PEP 562), so ``gamenight --help`` starts without the
engine's validation library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import (
        Action,
        BadOption,
        BadRecord,
        Game,
        GamenightError,
        IllegalAction,
        MalformedAction,
        NotYourTurn,
        State,
        UnknownGame,
        list_games,
        new_game,
        register_game,
        replay,
    )

__all__ = [
    "Action",
    "BadOption",
    "BadRecord",
    "Game",
    "GamenightError",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "State",
    "UnknownGame",
    "list_games",
    "new_game",
    "register_game",
    "replay",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module(".engine", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gamenight' has no attribute {name!r}")
