"""Who is at a table, announced without letting churn flood it.

Each connect or close used to send every connection of the table the whole seat summary: 500
watchers opening and closing pushed 255,000 frames and held up players at other tables. A seat
coming or going (its first connection opens, its last closes) is still announced at once; any
other change (a watcher, a seat's second tab) only updates the count, announced at most once a
``every`` seconds per table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

Announce = Callable[[], Awaitable[None]]

log = logging.getLogger("gamenight.server")
EVERY = 1.0


class Presence:
    """Announces connects and closes: seat changes at once, head counts coalesced."""

    def __init__(self, every: float = EVERY) -> None:
        self.every = every
        self.pending: dict[str, asyncio.Task[None]] = {}

    async def changed(self, table_id: str, announce: Announce, seat_changed: bool) -> None:
        """A connection opened or closed; ``seat_changed``: a seat became (dis)connected."""
        if seat_changed:
            later = self.pending.pop(table_id, None)
            if later is not None:  # this announcement carries the count too
                later.cancel()
            await announce()
        elif table_id not in self.pending:
            self.pending[table_id] = asyncio.create_task(self._later(table_id, announce))

    async def _later(self, table_id: str, announce: Announce) -> None:
        try:
            await asyncio.sleep(self.every)
        finally:
            if self.pending.get(table_id) is asyncio.current_task():
                del self.pending[table_id]
        try:
            await announce()
        except Exception:
            log.exception("could not announce who is at table %s", table_id)


__all__ = ["EVERY", "Presence"]
