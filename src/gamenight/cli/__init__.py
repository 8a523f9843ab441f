"""The ``gamenight`` command: play, simulate, replay and list games (``gamenight.cli:app``).

Each group of commands has its module (``info``, ``play``, ``analyse``, ``serve``) over the
shared ``common``; they are registered here, in the order ``gamenight --help`` lists them.
"""

from __future__ import annotations

from . import analyse, info, play, report, serve
from .common import app

app.command("list")(info.list_games)
app.command()(info.replay)
app.command()(analyse.simulate)
app.command()(play.play)
app.command("simulate-realtime")(analyse.simulate_realtime_cmd)
app.command("snap-table")(play.snap_table)
app.command()(analyse.odds)
app.command()(serve.serve)
app.command()(analyse.tournament)
app.command()(report.report)

__all__ = ["app"]
