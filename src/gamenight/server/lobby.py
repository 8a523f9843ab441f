"""The lobby, the server's matchmaker: tables made, found, listed, joined, left, started,
rematched and closed when idle; seats and their tokens handed out.

It holds this process's tables (``tables``): brought back from storage at start-up, loaded when
another process made one, let go when they expire. Each change of a seat or a status is stored,
then announced through ``sync``; a table's moves are the referee's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import gamenight
from gamenight.engine import BadOption, GamenightError, UnknownGame
from gamenight.engine.game import game_class, is_realtime

from .clock import Timers, make_bots, stand_in
from .lease import Lease
from .notes import say
from .protocol import MAX_NAME, CreateTable, SeatSpec, ServerError, clean_name
from .rebuild import from_row, row, seats_from
from .referee import Referee, draw_chance
from .storage import Storage
from .sync import STANDBY_SECONDS, Sync
from .table import DEALER, Seat, SeatKey, Table, new_token, token_hash

log = logging.getLogger("gamenight.server")

LOBBY_SIZE = 200  # waiting tables listed, newest first
CLOSED = ("finished", "expired", "cancelled")


def told_apart(name: str, table: Table, seat: SeatKey) -> str:
    """``name``, or "Ann 2" when another seat of the table is already called Ann: two players
    of one name could not tell whose turn the log means."""
    others = {s.name.casefold() for k, s in table.all_seats() if s.name and k != seat}
    if name.casefold() not in others:
        return name
    n = 2
    while True:
        tag = f" {n}"
        candidate = name[: MAX_NAME - len(tag)].rstrip() + tag
        if candidate.casefold() not in others:
            return candidate
        n += 1


def search_refusal(game_id: str, seat: SeatKey, strategy: str | None = None) -> None:
    """Refuse a search bot where it cannot sit: at the race games (their bots have reaction
    levels) or with a casino strategy (a strategy bot bets by its table, it does not search)."""
    if is_realtime(game_id):
        raise ServerError(
            "bad_option",
            f"seat {seat}: Snap and Slap bots have a reaction level (easy, normal, expert), "
            "not search",
        )
    if strategy:
        raise ServerError("bad_option", f"seat {seat}: a casino bot bets by a strategy or searches")


def lobby_summary(row: dict[str, Any]) -> dict[str, Any]:
    """``Table.summary`` of a stored waiting table no connection of ours is at."""
    seats, dealer = seats_from(row)
    keyed: list[tuple[SeatKey, Seat]] = list(enumerate(seats))
    if dealer is not None:
        keyed.append((DEALER, dealer))
    try:
        title = game_class(row["game"]).title
    except UnknownGame:
        title = row["game"]
    return {
        "table_id": row["id"],
        "game": row["game"],
        "title": title,
        "options": row["options"],
        "status": row["status"],
        "move": 0,
        "seats": [s.summary(key, connected=False) for key, s in keyed],
        "turn_seconds": row["turn_seconds"],
        "bot_pace": row["bot_pace"],
        "rematch_of": row.get("rematch_of"),
        "rematch": row.get("rematch"),
        "spectators": 0,
        "listed": bool(row.get("listed")),
        "notes": row.get("notes") or [],
    }


class Lobby:
    """This process's tables, from their making to their closing."""

    def __init__(
        self,
        storage: Storage,
        lease: Lease,
        tables: dict[str, Table],
        sync: Sync,
        timers: Timers,
        referee: Referee,
        idle_seconds: float = 6 * 3600,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage, self.lease, self.tables = storage, lease, tables
        self.sync, self.timers, self.referee = sync, timers, referee
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._idle_task: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every waiting or playing table from storage by replay; returns how many."""
        for stored in await self.storage.load_tables(active=True):
            try:
                await self.sync.follow(stored["id"])
                moves = await self.storage.load_moves(stored["id"])
                table = from_row(stored, moves, self.timers.bot_seconds)
            except GamenightError as e:  # a record the engine no longer accepts: keep the rest
                log.error(
                    "table %s not restored: %s", stored["id"], e, extra={"table": stored["id"]}
                )
                continue
            self._keep(table)
            if table.status == "playing":
                self.timers.schedule(table)
        self._idle_task = asyncio.create_task(self._expire_loop())
        return len(self.tables)

    def close(self) -> None:
        """Stop every table's bots and timers, and the idle expiry."""
        for table in self.tables.values():
            self.timers.cancel(table)
        if self._idle_task:
            self._idle_task.cancel()

    # --- lookups ----------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ServerError("table_not_found", f"there is no open table {table_id!r}")
        return table

    async def find(self, table_id: str) -> Table:
        """A table of this process, or one another process created (loaded from storage)."""
        if table_id in self.tables:
            return self.tables[table_id]
        if len(table_id) > 32:
            raise ServerError("table_not_found", "there is no such table")
        await self.sync.follow(table_id)  # before reading: a notice in between is not lost
        stored = await self.storage.load_table(table_id)
        if stored is None:
            self.sync.unfollow(table_id)
            raise ServerError("table_not_found", f"there is no table {table_id!r}")
        table = from_row(stored, await self.storage.load_moves(table_id), self.timers.bot_seconds)
        if table_id in self.tables:  # loaded meanwhile by another task
            return self.tables[table_id]
        self._keep(table)
        if self.sync.shared and table.status == "playing":  # a standby for its bots and timers
            self.timers.schedule(table, standby=STANDBY_SECONDS)
        return table

    def _keep(self, table: Table) -> None:
        """Hold a table (followed already when other processes share it)."""
        self.tables[table.id] = table

    def _forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.sync.unfollow(table.id)
        forget = getattr(self.lease, "forget", None)  # the Redis lease's memory of the table
        if forget is not None:
            forget(table.id)

    async def seat_for(self, table: Table, token: str | None) -> SeatKey:
        """``table.seat_of``, re-reading the seats once if another process may have just
        seated this token."""
        try:
            return table.seat_of(token)
        except ServerError as e:
            if e.code != "bad_token" or not self.sync.shared or not token:
                raise
        async with table.lock:
            await self.sync.catch_up_locked(table, row=True)
        return table.seat_of(token)

    async def open_tables(self, limit: int = LOBBY_SIZE) -> list[dict[str, Any]]:
        """The lobby: the newest waiting tables of every process, read from storage (ours are
        summarised from memory, which also knows who is connected)."""
        out = []
        stale = self.clock() - self.idle_seconds
        for stored in await self.storage.load_tables(status="waiting", limit=limit, listed=True):
            live = self.tables.get(stored["id"])
            if live is None:
                # untouched for the idle time and held by no process that would expire it (its
                # process was stopped for good): listed with a Join button for ever otherwise
                if (stored.get("updated_at") or 0) >= stale:
                    out.append(lobby_summary(stored))
            elif live.status == "waiting" and live.listed:
                out.append(live.summary())
        return out

    # --- creating and seating ---------------------------------------------------------------
    async def create(self, spec: CreateTable, rematch_of: Table | None = None) -> tuple[Table, str]:
        """A new waiting table; returns it and the host token."""
        seats = [
            Seat(kind=s.kind, bot=s.bot, level=s.level, strategy=s.strategy) for s in spec.seats
        ]
        options = dict(spec.options)
        if "players" in options and options["players"] != len(seats):
            raise ServerError(
                "bad_option",
                f"options.players is {options['players']!r} but {len(seats)} seats were given",
            )
        options["players"] = len(seats)
        try:
            game = gamenight.new_game(spec.game, **options)
        except UnknownGame as e:
            raise ServerError("bad_option", str(e)) from None
        except BadOption as e:  # plainly: "ante: ...", not "snake-eyes: option 'ante': ..."
            where = "" if e.option == "options" else f"{e.option}: "
            raise ServerError("bad_option", f"{where}{e.problem}") from None
        for i, s in enumerate(seats):
            if s.kind != "bot":
                continue
            if s.strategy and spec.game != "snake-eyes-casino":
                raise ServerError("bad_option", f"seat {i}: only casino bots have a strategy")
            if s.strategy:
                from gamenight.bots.casino_bot import STRATEGIES

                if s.strategy not in STRATEGIES:
                    known = ", ".join(STRATEGIES)
                    raise ServerError("bad_option", f"seat {i}: unknown strategy (known: {known})")
            if s.level and not is_realtime(spec.game):
                raise ServerError("bad_option", f"seat {i}: only Snap and Slap bots have a level")
            if s.bot == "search":
                search_refusal(spec.game, i, s.strategy)
            s.level = s.level or ("normal" if is_realtime(spec.game) else None)
        options = game.options_dict()
        dealer = Seat(kind=DEALER) if options.get("live") else None
        seed = secrets.randbits(63)
        host = new_token()
        table = Table(
            id=secrets.token_urlsafe(9),
            game_id=spec.game,
            options=options,
            seed=seed,
            seats=seats,
            dealer=dealer,
            host_hash=token_hash(host),
            status="waiting",
            turn_seconds=spec.turn_seconds,
            bot_pace=spec.bot_pace,
            state=game.new_state(seed=seed),
            rematch_of=rematch_of.id if rematch_of else None,
            listed=spec.listed,
        )
        if rematch_of is not None:  # same holders, same tokens, same names
            table.host_hash = rematch_of.host_hash
            for new, old in zip(table.all_seats(), rematch_of.all_seats(), strict=True):
                new[1].name, new[1].token_hash = old[1].name, old[1].token_hash
        table.last_active = self.clock()
        make_bots(table, self.timers.bot_seconds)
        await self.storage.create_table(row(table))
        await self.sync.follow(table.id)
        self._keep(table)
        return table, host

    async def join(
        self, table_id: str, name: str, seat: SeatKey | None = None
    ) -> tuple[SeatKey, str]:
        """Seat a human by display name; returns the seat and its new token."""
        name = clean_name(name)
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self.sync.catch_up_locked(table, row=True)
            if table.status in CLOSED:
                raise ServerError("game_over", f"this table is {table.status}; nobody joins it")
            if seat is None:
                free = [k for k, s in table.all_seats() if s.kind != "bot" and not s.token_hash]
                if not free:
                    raise ServerError("seat_taken", "every seat at this table is taken")
                seat = free[0]
            target = table.seat(seat)
            if target.kind == "bot":
                raise ServerError("seat_taken", f"seat {seat!r} is a bot's")
            if target.token_hash:
                raise ServerError("seat_taken", f"seat {seat!r} is taken")
            token = new_token()
            target.name, target.token_hash = told_apart(name, table, seat), token_hash(token)
            target.away = False  # a seat a stand-in played while open: the newcomer plays it
            stand_in(table)
            if table.status == "playing":
                say(table, "took", seat, target.name)
            await self.storage.update_table(table.id, seats=table.seat_rows(), notes=table.notes)
        if table.status == "playing":
            self.timers.seat_changed(table, seat)
        await self.sync.notify(table, "seats")
        return seat, token

    async def leave(self, table_id: str, token: str | None) -> Table:
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self.sync.catch_up_locked(table, row=True)
            key = table.seat_of(token)
            s = table.seat(key)
            say(table, "left", key, s.name)
            s.name, s.token_hash = None, None
            s.away = table.status == "playing" and key != DEALER  # a bot plays on for him
            stand_in(table)
            await self.storage.update_table(table.id, seats=table.seat_rows(), notes=table.notes)
        if table.status == "playing":
            self.timers.seat_changed(table, key)
        await self.sync.notify(table, "seats")
        return table

    async def start(self, table_id: str, token: str | None) -> Table:
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self.sync.catch_up_locked(table, row=True)
            if table.status != "waiting":
                raise ServerError("wrong_status", f"the table is {table.status}, not waiting")
            full = all(s.kind == "bot" or s.token_hash for _, s in table.all_seats())
            if not table.is_host(token):
                table.seat_of(token)  # raises bad_token
                if not full:
                    raise ServerError(
                        "forbidden", "only the host starts before every seat is taken"
                    )
                if table.listed and not table.rematch_of:  # strangers may have sat down
                    raise ServerError(
                        "forbidden", "only the host starts a table listed in the lobby"
                    )
            if table.dealer and not table.dealer.token_hash:
                raise ServerError("wrong_status", "a live casino table needs its dealer seated")
            first = table.move
            drawn = draw_chance(table)
            table.status = "finished" if table.state.is_terminal() else "playing"
            await self.referee.commit(table, first, drawn)
        await self.sync.notify(table, "status")
        return table

    async def set_timer(self, table_id: str, token: str | None, seconds: float | None) -> Table:
        """The host or a seated player sets the turn timer after the start: a friend who left
        on his turn at a table without one would otherwise hold every other seat up for good."""
        table = await self.find(table_id)
        if not table.is_host(token):
            table.seat_of(token)  # raises bad_token
        async with table.lock, self.lease.hold(table.id):
            await self.sync.catch_up_locked(table, row=True)
            if table.status not in ("waiting", "playing"):
                raise ServerError("wrong_status", f"the table is {table.status}")
            table.turn_seconds = seconds
            await self.storage.update_table(table.id, turn_seconds=seconds)
        await self.sync.notify(table, "status")  # arms the timer of the seat to act
        return table

    async def rematch(self, table_id: str, token: str | None) -> Table:
        """One rematch per finished table, however many seats ask at once."""
        old = await self.find(table_id)
        if not old.is_host(token):
            old.seat_of(token)
        async with old.lock:
            if old.status != "finished":
                raise ServerError("wrong_status", "a rematch comes after the game is over")
            if old.rematch:
                return await self.find(old.rematch)
            spec = CreateTable(
                game=old.game_id,
                options=dict(old.options),
                seats=[
                    SeatSpec(kind=s.kind, bot=s.bot, level=s.level, strategy=s.strategy)  # type: ignore[arg-type]
                    for s in old.seats
                ],
                turn_seconds=old.turn_seconds,
                bot_pace=old.bot_pace,  # type: ignore[arg-type]
            )
            new, _ = await self.create(spec, rematch_of=old)
            old.rematch = new.id
            await self.storage.update_table(old.id, rematch=new.id)
        await self.sync.notify(old, "seats")
        return new

    # --- who is at a table, and closing idle ones -------------------------------------------
    def connect(self, table: Table, seat: SeatKey | None, delta: int) -> None:
        """A connection to the table opened (+1) or closed (-1), for a seat or a spectator."""
        table.last_active = self.clock()
        if seat is None:
            table.spectators += delta
        else:
            table.connected[seat] = table.connected.get(seat, 0) + delta

    async def _expire_loop(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(0.5, self.idle_seconds / 4)))
            await self.expire_idle()

    async def expire_idle(self) -> list[str]:
        """Close tables with no move and no connection for ``idle_seconds``."""
        now = self.clock()
        gone = []
        for table in list(self.tables.values()):
            in_use = sum(table.connected.values()) + table.spectators
            if in_use or now - table.last_active < self.idle_seconds:
                continue
            if table.status in ("waiting", "playing"):
                table.status = "expired"
                await self.storage.update_table(table.id, status="expired")
            self.timers.cancel(table)
            self._forget(table)
            gone.append(table.id)
        return gone
