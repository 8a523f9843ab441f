"""``python -m gamenight.cli``: the ``gamenight`` command, every command registered first."""

from gamenight.cli import app

app()
