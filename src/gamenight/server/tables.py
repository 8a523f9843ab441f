"""The table service: the one object routes and the socket call, which builds this process's
lobby, referee, sync and clock and passes each call to the part that does it.

Where a call goes: tables made, found, seated, started and expired in ``lobby.py``; a move in
``referee.py`` (applied, committed, then announced); notices and catching up in ``sync.py``;
bots and turn timers in ``clock.py``; what each seat is sent in ``frames.py``. Routes never
touch a State.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from . import frames
from .clock import Timers
from .fanout import FanOut, LocalFanOut
from .hosts import Hosts
from .lease import Lease, LocalLease
from .lobby import LOBBY_SIZE, Lobby
from .protocol import CreateTable
from .rebuild import last_call
from .referee import Referee
from .settings import BOT_SECONDS
from .storage import Storage
from .sync import Sync
from .table import Accepted, SeatKey, Table


class TableService:
    """Every table of this process: the front door to the parts that keep and change them."""

    _last_call = staticmethod(last_call)  # (the tests' name for rebuild.last_call)

    def __init__(
        self,
        storage: Storage,
        fanout: FanOut | None = None,
        lease: Lease | None = None,
        idle_seconds: float = 6 * 3600,
        clock: Callable[[], float] = time.time,
        bot_seconds: float = BOT_SECONDS,
    ) -> None:
        self.storage = storage
        self.fanout: FanOut = fanout or LocalFanOut()
        self.lease: Lease = lease if lease is not None else LocalLease()
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.timers = Timers(clock, bot_seconds)
        self.sync = Sync(storage, self.fanout, self.lease, self.tables, self.timers, clock)
        self.referee = Referee(storage, self.lease, self.sync, self.timers, clock)
        self.timers.play = self.referee.play  # bots and timers move as players do
        self.lobby = Lobby(
            storage,
            self.lease,
            self.tables,
            self.sync,
            self.timers,
            self.referee,
            idle_seconds,
            clock,
        )
        self.hosts = Hosts(storage, self.lease, self.sync, self.timers, self.lobby)
        self.timers.away = self.hosts.away  # a seat out of time: a stand-in bot plays it

    # --- settings the app and the tests read or change ---------------------------------------
    @property
    def idle_seconds(self) -> float:
        return self.lobby.idle_seconds

    @idle_seconds.setter
    def idle_seconds(self, seconds: float) -> None:
        self.lobby.idle_seconds = seconds

    @property
    def on_move(self) -> Callable[[Table, Accepted, float], None] | None:
        """Called after each move with the table, what was accepted and the seconds it took."""
        return self.referee.on_move

    @on_move.setter
    def on_move(self, callback: Callable[[Table, Accepted, float], None] | None) -> None:
        self.referee.on_move = callback

    @property
    def in_flight(self) -> int:
        return self.referee.in_flight

    @property
    def shared(self) -> bool:
        """True when other processes may change our tables (the Redis fan-out)."""
        return self.sync.shared

    # --- life cycle (lobby) -----------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every waiting or playing table from storage by replay; returns how many."""
        return await self.lobby.restore()

    async def shutdown(self, grace: float = 5.0) -> None:
        """Refuse new moves, let in-flight ones commit, stop bots and timers."""
        self.referee.closing = self.timers.closing = True
        deadline = time.monotonic() + grace
        while self.referee.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        settled = getattr(self.lease, "settled", None)  # leases still being given back
        if settled is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(settled(), max(0.1, deadline - time.monotonic()))
        self.lobby.close()

    async def expire_idle(self) -> list[str]:
        """Close tables with no move and no connection for ``idle_seconds``."""
        return await self.lobby.expire_idle()

    def connect(self, table: Table, seat: SeatKey | None, delta: int) -> None:
        self.lobby.connect(table, seat, delta)

    # --- tables and seats (lobby) -----------------------------------------------------------
    def get(self, table_id: str) -> Table:
        return self.lobby.get(table_id)

    async def find(self, table_id: str) -> Table:
        """A table of this process, or one another process created (loaded from storage)."""
        return await self.lobby.find(table_id)

    async def open_tables(self, limit: int = LOBBY_SIZE) -> list[dict[str, Any]]:
        """The newest waiting tables of every process."""
        return await self.lobby.open_tables(limit)

    async def create(self, spec: CreateTable, rematch_of: Table | None = None) -> tuple[Table, str]:
        """A new waiting table; returns it and the host token."""
        return await self.lobby.create(spec, rematch_of)

    async def join(
        self, table_id: str, name: str, seat: SeatKey | None = None
    ) -> tuple[SeatKey, str]:
        """Seat a human by display name; returns the seat and its new token."""
        return await self.lobby.join(table_id, name, seat)

    async def leave(self, table_id: str, token: str | None) -> Table:
        return await self.lobby.leave(table_id, token)

    async def start(self, table_id: str, token: str | None) -> Table:
        return await self.lobby.start(table_id, token)

    async def set_timer(self, table_id: str, token: str | None, seconds: float | None) -> Table:
        return await self.lobby.set_timer(table_id, token, seconds)

    async def rematch(self, table_id: str, token: str | None) -> Table:
        return await self.lobby.rematch(table_id, token)

    # --- the host's powers, away seats (hosts) -----------------------------------------------
    async def kick(self, table_id: str, token: str | None, seat: SeatKey) -> Table:
        return await self.hosts.kick(table_id, token, seat)

    async def seat_bot(
        self, table_id: str, token: str | None, seat: SeatKey, bot: str = "sensible"
    ) -> Table:
        return await self.hosts.seat_bot(table_id, token, seat, bot)

    async def cancel(self, table_id: str, token: str | None) -> Table:
        return await self.hosts.cancel(table_id, token)

    async def set_listed(self, table_id: str, token: str | None, listed: bool) -> Table:
        return await self.hosts.set_listed(table_id, token, listed)

    async def back(self, table: Table, seat: SeatKey | None) -> None:
        """The player of an away seat is here again: the stand-in bot leaves his seat."""
        if seat is not None and table.seat(seat).away:
            await self.hosts.back(table, seat)

    async def seat_for(self, table: Table, token: str | None) -> SeatKey:
        """The token's seat, re-read once if another process may have just seated it."""
        return await self.lobby.seat_for(table, token)

    # --- moves (referee) --------------------------------------------------------------------
    async def act(self, table_id: str, token: str | None, move: int, action: Any) -> Accepted:
        """A human's action, over HTTP or WebSocket."""
        table = await self.lobby.find(table_id)
        seat = await self.lobby.seat_for(table, token)
        await self.back(table, seat)
        return await self.referee.play(table, seat, move, action)

    async def act_as(
        self, table: Table, seat: SeatKey, token: str, digest: str, move: int, action: Any
    ) -> Accepted:
        """A connection's action: the seat it was greeted with, checked against its token's hash
        (worked out once per connection); anything unusual takes ``act``'s full path."""
        if self.tables.get(table.id) is not table or not table.holds(seat, digest):
            return await self.act(table.id, token, move, action)
        await self.back(table, seat)
        return await self.referee.play(table, seat, move, action)

    # --- other processes (sync) -------------------------------------------------------------
    async def catch_up(self, table: Table, upto: int | None = None, row: bool = False) -> None:
        """Apply moves another process stored after ours (a no-op in one process)."""
        await self.sync.catch_up(table, upto, row)

    # --- what each connection sees (frames) --------------------------------------------------
    @staticmethod
    async def settled(table: Table) -> None:
        """Wait out a write in flight, so the next frame shows only stored moves."""
        await frames.settled(table)

    @staticmethod
    def frame_text(table: Table, seat: SeatKey | None, since: int | None) -> tuple[str, int]:
        """A seat's ``state`` frame as JSON text, and its event count."""
        return frames.frame_text(table, seat, since)

    @staticmethod
    def frame(table: Table, seat: SeatKey | None, since: int | None = None) -> dict[str, Any]:
        """The ``state`` frame for one seat (None: spectator)."""
        return frames.frame(table, seat, since)

    @staticmethod
    def finished_frame(table: Table, seat: SeatKey | None) -> dict[str, Any]:
        return frames.finished_frame(table, seat)

    @staticmethod
    def record_for(table: Table, token: str | None) -> dict[str, Any]:
        return frames.record_for(table, token)
