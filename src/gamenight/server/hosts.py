"""Table manners: what a table's host may do (kick, seat a bot, cancel, list in the lobby) and
how an absent player's seat is played by a stand-in bot until he is back.

The host is whoever holds the creator's token. Each change here is made under the table's lock
and lease, stored, then announced, as the lobby's are (``docs/serve.md``, "Hosts and seats").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from gamenight.engine.game import is_realtime

from .clock import Timers, make_bots, stand_in
from .lease import Lease
from .lobby import CLOSED, Lobby, search_refusal
from .notes import say
from .protocol import BOT_KINDS, ServerError
from .storage import Storage
from .sync import Sync
from .table import DEALER, SeatKey, Table

log = logging.getLogger("gamenight.server")


def must_be_host(table: Table, token: str | None, what: str) -> None:
    """Refuse anyone but the host: no token is ``bad_token``, any other token ``forbidden``."""
    if not token:
        raise ServerError("bad_token", f"{what} needs the host's token (Authorization: Bearer)")
    if not table.is_host(token):
        raise ServerError("forbidden", f"only the table's host may {what}")


def must_be_open(table: Table) -> None:
    if table.status in CLOSED:
        raise ServerError("wrong_status", f"the table is {table.status}")


class Hosts:
    """The host's powers over a table, and the stand-ins for away seats."""

    def __init__(
        self, storage: Storage, lease: Lease, sync: Sync, timers: Timers, lobby: Lobby
    ) -> None:
        self.storage, self.lease, self.sync = storage, lease, sync
        self.timers, self.lobby = timers, lobby

    async def _change(self, table: Table, change: Callable[[], str], **row: Any) -> None:
        """Run ``change`` under the table's lock and lease, store the seats (and ``row``),
        then announce it; ``change`` returns the notice's kind."""
        async with table.lock, self.lease.hold(table.id):
            await self.sync.catch_up_locked(table, row=True)
            kind = change()
            await self.storage.update_table(
                table.id, seats=table.seat_rows(), notes=table.notes, **row
            )
        await self.sync.notify(table, kind)

    # --- the host ---------------------------------------------------------------------------
    async def kick(self, table_id: str, token: str | None, seat: SeatKey) -> Table:
        """Free a seat: its token stops working; while the game runs a stand-in bot plays it
        until someone takes it with the join link."""
        table = await self.lobby.find(table_id)
        must_be_host(table, token, "free a seat")

        def kick() -> str:
            must_be_open(table)
            target = table.seat(seat)
            if target.kind == "bot":
                raise ServerError("bad_request", f"seat {seat!r} is a bot's: nobody to free")
            say(table, "freed", seat, target.name)
            target.name, target.token_hash = None, None
            target.away = table.status == "playing" and seat != DEALER
            stand_in(table)
            return "seats"

        await self._change(table, kick)
        self.timers.seat_changed(table, seat)
        return table

    async def seat_bot(
        self, table_id: str, token: str | None, seat: SeatKey, bot: str = "sensible"
    ) -> Table:
        """Give a human seat to a bot of kind ``bot`` for good (its player's token stops
        working)."""
        table = await self.lobby.find(table_id)
        must_be_host(table, token, "seat a bot")
        if bot not in BOT_KINDS:
            raise ServerError(
                "bad_request", f"unknown bot kind {bot!r}: choose {', '.join(BOT_KINDS)}"
            )
        if bot == "search":
            search_refusal(table.game_id, seat)

        def replace() -> str:
            must_be_open(table)
            target = table.seat(seat)
            if seat == DEALER:
                raise ServerError("bad_request", "the dealer is always a person")
            if target.kind == "bot":
                raise ServerError("bad_request", f"seat {seat!r} is a bot's already")
            say(table, "bot", seat, target.name)
            target.kind, target.bot, target.name, target.token_hash = "bot", bot, None, None
            target.away = False
            table.bots.pop(int(seat), None)  # an away seat's stand-in makes way for the bot
            make_bots(table, self.timers.bot_seconds)
            target.level = "normal" if is_realtime(table.game_id) else None
            return "seats"

        await self._change(table, replace)
        self.timers.seat_changed(table, seat)
        return table

    async def cancel(self, table_id: str, token: str | None) -> Table:
        """End a waiting or playing table for good: no more moves, no bots, no timer."""
        table = await self.lobby.find(table_id)
        must_be_host(table, token, "cancel the table")

        def cancel() -> str:
            must_be_open(table)
            table.status = "cancelled"
            self.timers.cancel(table)
            table.deadline = None
            say(table, "cancelled")
            return "status"

        await self._change(table, cancel, status="cancelled")
        await self.sync.notify(table, "seats")  # every page's log says so
        log.info("table %s cancelled by its host", table.id, extra={"table": table.id})
        return table

    async def set_listed(self, table_id: str, token: str | None, listed: bool) -> Table:
        """Show the table in the lobby (anyone may sit; only the host starts it) or hide it."""
        table = await self.lobby.find(table_id)
        must_be_host(table, token, "list the table")

        def listing() -> str:
            must_be_open(table)
            table.listed = listed
            return "seats"

        await self._change(table, listing, listed=listed)
        return table

    # --- away and back ----------------------------------------------------------------------
    async def away(self, table: Table, seat: SeatKey) -> None:
        """The seat's turn timer ran out: a stand-in bot plays it until its player is back."""
        if table.status != "playing" or seat == DEALER:
            return
        if table.seat(seat).kind != "human" or table.seat(seat).away:
            return

        def gone() -> str:
            if not table.seat(seat).away:
                say(table, "away", seat, table.seat(seat).name)
            table.seat(seat).away = True
            stand_in(table)
            return "seats"

        await self._change(table, gone)
        self.timers.seat_changed(table, seat)

    async def back(self, table: Table, seat: SeatKey) -> None:
        """The away seat's player is here again (he acted, connected or said so)."""
        if seat == DEALER or not table.seat(seat).away:
            return

        def here() -> str:
            if table.seat(seat).away:
                say(table, "back", seat, table.seat(seat).name)
            table.seat(seat).away = False
            stand_in(table)
            return "seats"

        await self._change(table, here)
        self.timers.seat_changed(table, seat)
