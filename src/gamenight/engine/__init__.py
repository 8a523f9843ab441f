"""The protocol every game speaks: games, states, chance, views, records, ledger, errors.

The errors load at once (they are tiny and every front end catches them); the rest loads on
first use (PEP 562), so a command that only prints help never imports the validation library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    BadOption,
    BadRecord,
    GamenightError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    UnknownGame,
)

if TYPE_CHECKING:
    from .game import Game, Options, game_class, list_games, new_game, register_game
    from .history import History
    from .ledger import InsufficientFunds, Ledger
    from .record import replay
    from .state import Action, State

# public name -> the engine module that defines it
_LAZY = {
    "Game": "game", "Options": "game", "game_class": "game", "list_games": "game",
    "new_game": "game", "register_game": "game", "History": "history",
    "InsufficientFunds": "ledger", "Ledger": "ledger", "replay": "record",
    "Action": "state", "State": "state",
}  # fmt: skip

__all__ = [
    "Action",
    "BadOption",
    "BadRecord",
    "Game",
    "GamenightError",
    "History",
    "IllegalAction",
    "InsufficientFunds",
    "Ledger",
    "MalformedAction",
    "NotYourTurn",
    "Options",
    "State",
    "UnknownGame",
    "game_class",
    "list_games",
    "new_game",
    "register_game",
    "replay",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gamenight.engine' has no attribute {name!r}")
