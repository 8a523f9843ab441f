"""Gambler (Parker Brothers, 1977): roll around a money track; Sweepstakes, Lottery, Horse Races.

The rules live in ``state.py`` (the protocol) and the layers under it (``table``, ``money``,
``turns``, ``spaces``); the board and cards are data (``data/``), the Shaker odds in ``odds.py``.
"""

from .data import BadGameData, GamblerData, data_options, load_data
from .state import Gambler, GamblerOptions, GamblerState

__all__ = [
    "BadGameData",
    "Gambler",
    "GamblerData",
    "GamblerOptions",
    "GamblerState",
    "data_options",
    "load_data",
]
