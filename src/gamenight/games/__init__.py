"""The rulebooks. Importing a module registers its game(s); one line per game module."""

from . import (
    gambler,  # noqa: F401
    snake_eyes,  # noqa: F401
)
