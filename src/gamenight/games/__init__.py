"""The rulebooks. Importing a module registers its game(s); one line per game module."""

from . import (
    gambler,  # noqa: F401
    shake,  # noqa: F401
    snake_eyes,  # noqa: F401
    snake_eyes_casino,  # noqa: F401
    snap,  # noqa: F401
)
