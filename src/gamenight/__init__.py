"""gamenight: play, simulate and analyse classic dice and card games."""

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
