"""The protocol every game speaks: games, states, chance, views, records, ledger, errors."""

from .errors import (
    BadOption,
    BadRecord,
    GamenightError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    UnknownGame,
)
from .game import Game, Options, game_class, list_games, new_game, register_game
from .history import History
from .ledger import InsufficientFunds, Ledger
from .record import replay
from .state import Action, State

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
