"""The rulebooks. Importing a module registers its game(s); one line per game module."""

from . import (
    snake_eyes,  # noqa: F401
    snap,  # noqa: F401
)
