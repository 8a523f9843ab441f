"""The rulebooks. Importing a module registers its game(s); one line per game module."""

from . import (
    snake_eyes,  # noqa: F401
    snake_eyes_casino,  # noqa: F401
)
