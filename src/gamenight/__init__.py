"""gamenight: play, simulate and analyse classic dice and card games.

The front door. The public names load on first use (PEP 562), so ``gamenight --help`` starts
without the engine's validation library; the first use also registers the built-in games
(``gamenight.games``), so the engine below never imports the floor above it.
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
        importlib.import_module(".games", __name__)  # importing registers the built-in games
        value = getattr(importlib.import_module(".engine", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gamenight' has no attribute {name!r}")
