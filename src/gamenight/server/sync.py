"""Keeping every process's copy of a table in step: the notices a change sends through the
fan-out, other processes' notices absorbed, and moves caught up from storage.

In one process the fan-out only reaches our own connections and nothing here reads storage.
With Redis (``shared``), each process follows the tables it holds, applies the moves a notice
carries (or reads the gap from storage), and keeps a standby for bots and timers that were due
in a process that may have died.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from . import chat
from .clock import Timers, make_bots
from .fanout import FanOut, Notice
from .lease import Lease
from .rebuild import last_call, resume_dice, seats_from
from .storage import Storage
from .table import Table

log = logging.getLogger("gamenight.server")

STANDBY_SECONDS = 3.0  # how much later another process's bots and timers step in


def merge_race(theirs: Any, ours: dict[str, Any] | None) -> dict[str, Any] | None:
    """Another process's race record, with the arrivals we saw at the same flip and it did not.

    Calls that were applied (good or false) come first, in the order stored, then the calls too
    late to count: every process shows the same order, whichever notice reached it first."""
    if not isinstance(theirs, dict):
        return ours
    if ours is None or ours.get("move") != theirs.get("move"):
        return theirs
    arrivals = list(theirs.get("arrivals", []))
    arrivals += [a for a in ours["arrivals"] if a not in arrivals]
    arrivals.sort(key=lambda a: a.get("result") == "too late")  # stable: the rest keep order
    return {**theirs, "arrivals": arrivals}


def carried_moves(table: Table, notice: Notice) -> list[tuple[int | None, Any]] | None:
    """The committed moves a ``moves`` notice carries, when they follow exactly on ours (else
    None: the gap is read from storage)."""
    moves, first = notice.get("moves"), notice.get("first")
    if notice.get("kind") != "moves" or first != table.move or not isinstance(moves, list):
        return None
    if notice.get("move") != table.move + len(moves):
        return None
    out: list[tuple[int | None, Any]] = []
    for m in moves:
        if not (isinstance(m, list) and len(m) == 2 and isinstance(m[1], dict)):
            return None
        seat = m[0]
        if not (seat is None or type(seat) is int):
            return None
        out.append((seat, m[1]))
    return out


class Sync:
    """Notices out and in for the tables of this process (``tables``, the lobby's)."""

    def __init__(
        self,
        storage: Storage,
        fanout: FanOut,
        lease: Lease,
        tables: dict[str, Table],
        timers: Timers,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage, self.fanout, self.lease = storage, fanout, lease
        self.tables, self.timers, self.clock = tables, timers, clock
        self._following: dict[str, Callable[[], None]] = {}
        self._resyncs: set[asyncio.Task[None]] = set()
        if hasattr(self.fanout, "on_gap") and self.fanout.on_gap is None:
            self.fanout.on_gap = self._on_gap  # the Redis fan-out, back after missing notices

    @property
    def shared(self) -> bool:
        """True when other processes may change our tables (the Redis fan-out)."""
        return bool(getattr(self.fanout, "shared", False))

    # --- notices out ------------------------------------------------------------------------
    def notice(self, table: Table, kind: str, **extra: Any) -> Notice:
        """What the fan-out carries after a change (bots and timers are scheduled first, so
        the notice holds the new turn deadline)."""
        if kind in ("moves", "status"):
            self.timers.schedule(table)
        notice: Notice = {"table_id": table.id, "move": table.move, "kind": kind, **extra}
        if kind in ("moves", "status", "race"):  # public: other processes show the same
            notice["race"], notice["deadline"] = table.race, table.deadline
            notice["moved_at"] = table.moved_at
        if kind == "moves" and self.shared:
            # the committed moves themselves: the other processes apply them instead of each
            # reading them back from storage (a database round trip per process per move)
            first = int(extra.get("first", table.move))
            done = table.state.moves[first:]
            notice["moves"] = [[seat, action] for seat, action in done]
        return notice

    async def notify(self, table: Table, kind: str, **extra: Any) -> None:
        """Tell every connection of the table, in every process, that it changed."""
        await self.fanout.publish(table.id, self.notice(table, kind, **extra))

    def announce(self, held: Any, table_id: str, notices: list[Notice]) -> bool:
        """Hand the notices to the shared lease, whose release publishes them in its own round
        trip (one Redis command a move instead of two); False when there is no such lease."""
        announce = getattr(held, "announce", None)
        message = getattr(self.fanout, "message", None)
        if announce is None or message is None:
            return False
        announce.extend(message(table_id, notice) for notice in notices)
        return True

    async def tell(self, table_id: str, notices: list[Notice], announced: bool) -> None:
        """After a move's commit: our own connections hear the notices (other processes already
        have them when the lease ``announced`` them), else the fan-out carries them."""
        deliver = getattr(self.fanout, "deliver", None)
        for notice in notices:
            if announced and deliver is not None:  # Redis has them: only ours to tell
                await deliver(table_id, notice)
            else:
                await self.fanout.publish(table_id, notice)

    # --- following other processes ----------------------------------------------------------
    async def follow(self, table_id: str) -> None:
        """With other processes: hear their notices about a table from now on (subscribed in
        Redis before this returns, so none published after it is missed)."""
        if not self.shared or table_id in self._following:
            return
        self._following[table_id] = self.fanout.subscribe(table_id, self.absorb)
        settled = getattr(self.fanout, "settled", None)
        if settled is not None:
            await settled()

    def unfollow(self, table_id: str) -> None:
        stop = self._following.pop(table_id, None)
        if stop is not None:
            stop()

    async def absorb(self, notice: Notice) -> None:
        """Another process changed one of our tables: catch up once, before its connections
        hear of it (the fan-out calls this first). Our own notices carry no origin."""
        table = self.tables.get(str(notice.get("table_id")))
        if table is None or "origin" not in notice:
            return
        # in use elsewhere (a move, a seat, a connection, a line of chat): not idle here either,
        # or the process that made the table expired it under players playing on another one
        table.last_active = self.clock()
        if notice.get("kind") == "chat":
            await chat.absorb(self, table)
            return
        moves_only = notice.get("kind") in ("moves", "race")
        async with table.lock:
            move = notice.get("move")
            if not (moves_only and isinstance(move, int) and table.move >= move):  # not yet had
                await self.catch_up_locked(
                    table, row=not moves_only, newer=carried_moves(table, notice)
                )
        fence, seen = notice.get("fence"), getattr(self.lease, "seen", None)
        if isinstance(fence, int) and isinstance(move, int) and table.move >= move and seen:
            seen(table.id, fence)
        if table.move == move and isinstance(notice.get("moved_at"), float):
            table.moved_at = notice["moved_at"]
        if notice.get("kind") in ("moves", "status"):
            # Bots and timers run where the last move was made; we keep a later standby copy,
            # cancelled by the next notice, so a table still moves on if that process died.
            self.timers.schedule(table, standby=STANDBY_SECONDS)
        if table.move == move:  # the writer's race record and turn deadline, shown by all
            if "race" in notice:
                table.race = merge_race(notice["race"], table.race)
            if "deadline" in notice:
                table.deadline = notice["deadline"]

    # --- catching up from storage -----------------------------------------------------------
    async def catch_up(self, table: Table, upto: int | None = None, row: bool = False) -> None:
        """Apply moves another process stored after ours, and (``row``) its seats and status
        (a no-op with one process, or when we already have move ``upto``)."""
        if not self.shared or (upto is not None and table.move >= upto):
            return
        async with table.lock:
            await self.catch_up_locked(table, row=row)

    async def catch_up_locked(
        self, table: Table, row: bool = False, newer: list[tuple[int | None, Any]] | None = None
    ) -> None:
        """Under the table's lock: stored moves we lack (``newer``: a notice carried them),
        and (``row``) its seats and status."""
        if not self.shared:
            return
        if newer is None:
            newer = await self.storage.load_moves(table.id, since=table.move)
        start = len(table.state.moves)
        for s, a in newer:
            table.state.apply(a, s)
        if newer:
            resume_dice(table.state, table.seed)
            table.last_call_move = last_call(table.state, start, table.last_call_move)
        # moves alone change the row only when they start or end the game
        if row or (newer and (table.status != "playing" or table.state.is_terminal())):
            fresh = await self.storage.load_table(table.id)
            if fresh:
                table.status = fresh["status"]
                before = table.seats
                table.seats, table.dealer = seats_from(fresh)
                for i, (was, now) in enumerate(zip(before, table.seats, strict=False)):
                    if now.kind == "bot" and was.kind != "bot":  # another process seated it
                        table.bots.pop(i, None)  # (an away seat's stand-in, if any, goes)
                table.host_hash = fresh["host_hash"]
                table.rematch = fresh.get("rematch")
                table.turn_seconds = fresh.get("turn_seconds")
                table.listed = bool(fresh.get("listed"))
                table.notes = fresh.get("notes") or []
                make_bots(table, self.timers.bot_seconds)

    def _on_gap(self) -> None:
        task = asyncio.ensure_future(self.resync())
        self._resyncs.add(task)
        task.add_done_callback(self._resyncs.discard)

    async def resync(self) -> None:
        """After the fan-out was cut off (Redis away): notices sent meanwhile are lost, and a
        finished or quiet table gets no next one, so catch every table up from storage now and
        show each of its connections the result."""
        deliver = getattr(self.fanout, "deliver", None)
        for table in list(self.tables.values()):
            try:
                await self.catch_up(table, row=True)
            except Exception:
                log.exception(
                    "table %s could not catch up after the fan-out came back",
                    table.id,
                    extra={"table": table.id},
                )
                continue
            if table.status == "playing":  # its bots or timers may have been due elsewhere
                self.timers.schedule(table, standby=STANDBY_SECONDS)
            if deliver is not None:
                await deliver(
                    table.id, {"table_id": table.id, "move": table.move, "kind": "status"}
                )
