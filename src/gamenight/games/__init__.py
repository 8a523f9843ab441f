"""The rulebooks. Importing a module registers its game(s); one line per game module."""

from . import gambler  # noqa: F401
from . import shake  # noqa: F401
from . import snake_eyes  # noqa: F401
from . import snap  # noqa: F401
