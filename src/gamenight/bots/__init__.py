"""Players that are programs: a random bot for any game, and sensible bots per game."""

from .base import Bot, RandomBot
from .factory import make_bot

__all__ = ["Bot", "RandomBot", "make_bot"]
