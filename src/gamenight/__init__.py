"""gamenight: play, simulate and analyse classic dice and card games.

The front door: importing the package registers the built-in games (``gamenight.games``), so
the engine below never imports the floor above it.
"""

from . import games as _games  # noqa: F401  (importing registers the built-in games)
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
