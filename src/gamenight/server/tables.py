"""The table service: one engine State per table, its move counter, seat tokens, bots and timers.

Every write goes through ``play``: under the table's lock (and the writer lease) it checks the
move counter, lets the engine validate and apply, draws the chance moves that follow, commits
them all, and only then tells the fan-out. Routes never touch a State.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import gamenight
from gamenight.bots import make_bot
from gamenight.engine import (
    BadOption,
    GamenightError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    State,
    UnknownGame,
)
from gamenight.engine.game import game_class, is_realtime
from gamenight.realtime.table import correct_call

from . import throws, wire
from .fanout import FanOut, LocalFanOut, Notice
from .lease import Lease, LocalLease
from .protocol import CreateTable, SeatSpec, ServerError, clean_name
from .storage import Storage
from .table import (
    DEALER,
    Accepted,
    FrameParts,
    Seat,
    SeatKey,
    Table,
    engine_seat,
    new_token,
    token_hash,
)
from .views import public_record, seat_view

log = logging.getLogger("gamenight.server")

TIMEOUT_PREFERENCE = ("stop", "take", "done", "decline", "end_turn", "give_up", "flip", "roll")
EVENTS_ON_JOIN = 50
STANDBY_SECONDS = 3.0  # how much later another process's bots and timers step in
LOBBY_SIZE = 200  # waiting tables listed, newest first


def first_event(count: int, since: int | None) -> int:
    """Where a frame's events start: after ``since``, or the last few for a new connection."""
    return max(0, count - EVENTS_ON_JOIN) if since is None else min(since, count)


def lobby_summary(row: dict[str, Any]) -> dict[str, Any]:
    """``Table.summary`` of a stored waiting table no connection of ours is at."""
    seats, dealer = TableService._seats_from(row)
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
        "seats": [
            {
                "seat": key,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "strategy": s.strategy,
                "taken": s.kind == "bot" or s.token_hash is not None,
                "connected": False,
            }
            for key, s in keyed
        ],
        "turn_seconds": row["turn_seconds"],
        "bot_pace": row["bot_pace"],
        "rematch_of": row.get("rematch_of"),
        "rematch": row.get("rematch"),
        "spectators": 0,
    }


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


def default_action(state: State, seat: int) -> dict[str, Any] | None:
    """What a seat that ran out of time plays: the game's own default, else a cautious one."""
    own = getattr(state, "default_action", None)
    if callable(own):
        action: dict[str, Any] | None = own(seat)
        return action
    legal = state.legal_actions(seat)
    for kind in TIMEOUT_PREFERENCE:
        for a in legal:
            if a.get("type") == kind:
                return a
    return legal[0] if legal else None


def _call_types(state: State) -> tuple[str, ...]:
    return tuple(getattr(state, "CALLS", ()))


class TableService:
    """Every table of this process, and the only code that changes them."""

    def __init__(
        self,
        storage: Storage,
        fanout: FanOut | None = None,
        lease: Lease | None = None,
        idle_seconds: float = 6 * 3600,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.fanout: FanOut = fanout or LocalFanOut()
        self.lease: Lease = lease if lease is not None else LocalLease()
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.closing = False
        self.in_flight = 0
        self._idle_task: asyncio.Task[None] | None = None
        self._following: dict[str, Callable[[], None]] = {}
        self.on_move: Callable[[Table, Accepted, float], None] | None = None
        self._resyncs: set[asyncio.Task[None]] = set()
        if hasattr(self.fanout, "on_gap") and self.fanout.on_gap is None:
            self.fanout.on_gap = self._on_gap  # the Redis fan-out, back after missing notices

    # --- life cycle ------------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every waiting or playing table from storage by replay; returns how many."""
        for row in await self.storage.load_tables(active=True):
            try:
                await self._follow(row["id"])
                table = self._from_row(row, await self.storage.load_moves(row["id"]))
            except GamenightError as e:  # a record the engine no longer accepts: keep the rest
                log.error("table %s not restored: %s", row["id"], e, extra={"table": row["id"]})
                continue
            self._keep(table)
            if table.status == "playing":
                self._schedule(table)
        self._idle_task = asyncio.create_task(self._expire_loop())
        return len(self.tables)

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
                self._schedule(table, standby=STANDBY_SECONDS)
            if deliver is not None:
                await deliver(
                    table.id, {"table_id": table.id, "move": table.move, "kind": "status"}
                )

    async def shutdown(self, grace: float = 5.0) -> None:
        """Refuse new moves, let in-flight ones commit, stop bots and timers."""
        self.closing = True
        deadline = time.monotonic() + grace
        while self.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        settled = getattr(self.lease, "settled", None)  # leases still being given back
        if settled is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(settled(), max(0.1, deadline - time.monotonic()))
        for table in self.tables.values():
            self._cancel_tasks(table)
        if self._idle_task:
            self._idle_task.cancel()

    def _from_row(self, row: dict[str, Any], moves: list[tuple[int | None, Any]]) -> Table:
        seats, dealer = self._seats_from(row)
        state = self._replayed(row["game"], row["options"], row["seed"], moves)
        table = Table(
            id=row["id"],
            game_id=row["game"],
            options=row["options"],
            seed=row["seed"],
            seats=seats,
            dealer=dealer,
            host_hash=row["host_hash"],
            status=row["status"],
            turn_seconds=row["turn_seconds"],
            bot_pace=row["bot_pace"],
            state=state,
            rematch_of=row.get("rematch_of"),
            rematch=row.get("rematch"),
        )
        table.last_active = table.moved_at = row.get("updated_at") or time.time()
        table.last_call_move = self._last_call(state)
        table.right_before = None  # recomputed from the moves when needed
        self._make_bots(table)
        return table

    def _replayed(self, game: str, options: Any, seed: int, moves: Any) -> Any:
        """A game rebuilt from its record's (seat, action) moves, its dice resumed after them."""
        moves = [{"seat": s, "action": a} for s, a in moves]
        record = {"game": game, "options": options, "seed": seed, "moves": moves}
        # the stored rows do not say whether a cap (Snap's max_flips) ended the game: its moves do
        state = gamenight.replay(record, check_truncated=False)
        self._resume_dice(state, seed)
        return state

    @staticmethod
    def _seats_from(row: dict[str, Any]) -> tuple[list[Seat], Seat | None]:
        seats_data = list(row["seats"])
        dealer = None
        if seats_data and seats_data[-1].get("seat") == DEALER:
            d = dict(seats_data.pop())
            d.pop("seat")
            dealer = Seat(**d)
        return [Seat(**s) for s in seats_data], dealer

    @staticmethod
    def _resume_dice(state: State, seed: int) -> None:
        """After a replay, draw on from where the stored moves end, not from the seed's start."""
        if type(state.rng) is not random.Random:  # an engine chance stream keyed by draw index
            return  # resumes by itself
        state.rng = random.Random(f"{seed}:{len(state.moves)}")

    @staticmethod
    def _last_call(state: State, start: int = 0, before: int = 0) -> int:
        """The move after the newest call (Snap, Slap) at or past move ``start``; ``before``
        (what it was up to ``start``) when there is none: catching up scans only new moves."""
        calls = _call_types(state)
        if not calls:
            return before
        for i in range(len(state.moves) - 1, start - 1, -1):
            seat, action = state.moves[i]
            if seat is not None and action.get("type") in calls:
                return i + 1
        return before

    def _make_bots(self, table: Table) -> None:
        for i, s in enumerate(table.seats):
            if s.kind != "bot":
                continue
            seed = table.rng.randrange(2**32)
            if table.game_id == "snake-eyes-casino" and s.strategy:
                from gamenight.bots.casino_bot import CasinoBot

                table.bots[i] = CasinoBot(strategy=s.strategy)
            else:
                table.bots[i] = make_bot(table.game_id, s.bot, seed=seed)

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
        await self._follow(table_id)  # before reading: a notice in between is not lost
        row = await self.storage.load_table(table_id)
        if row is None:
            self._unfollow(table_id)
            raise ServerError("table_not_found", f"there is no table {table_id!r}")
        table = self._from_row(row, await self.storage.load_moves(table_id))
        if table_id in self.tables:  # loaded meanwhile by another task
            return self.tables[table_id]
        self._keep(table)
        if self.shared and table.status == "playing":  # a standby for its bots and timers
            self._schedule(table, standby=STANDBY_SECONDS)
        return table

    @property
    def shared(self) -> bool:
        """True when other processes may change our tables (the Redis fan-out)."""
        return bool(getattr(self.fanout, "shared", False))

    def _keep(self, table: Table) -> None:
        """Hold a table (followed already when other processes share it)."""
        self.tables[table.id] = table

    async def _follow(self, table_id: str) -> None:
        """With other processes: hear their notices about a table from now on (subscribed in
        Redis before this returns, so none published after it is missed)."""
        if not self.shared or table_id in self._following:
            return
        self._following[table_id] = self.fanout.subscribe(table_id, self.absorb)
        settled = getattr(self.fanout, "settled", None)
        if settled is not None:
            await settled()

    def _unfollow(self, table_id: str) -> None:
        stop = self._following.pop(table_id, None)
        if stop is not None:
            stop()

    def _forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self._unfollow(table.id)
        forget = getattr(self.lease, "forget", None)  # the Redis lease's memory of the table
        if forget is not None:
            forget(table.id)

    async def open_tables(self, limit: int = LOBBY_SIZE) -> list[dict[str, Any]]:
        """The lobby: the newest waiting tables of every process, read from storage (ours are
        summarised from memory, which also knows who is connected)."""
        out = []
        stale = self.clock() - self.idle_seconds
        for row in await self.storage.load_tables(status="waiting", limit=limit):
            live = self.tables.get(row["id"])
            if live is None:
                # untouched for the idle time and held by no process that would expire it (its
                # process was stopped for good): listed with a Join button for ever otherwise
                if (row.get("updated_at") or 0) >= stale:
                    out.append(lobby_summary(row))
            elif live.status == "waiting":
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
        except BadOption as e:
            raise ServerError("bad_option", str(e)) from None
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
        )
        if rematch_of is not None:  # same holders, same tokens, same names
            table.host_hash = rematch_of.host_hash
            for new, old in zip(table.all_seats(), rematch_of.all_seats(), strict=True):
                new[1].name, new[1].token_hash = old[1].name, old[1].token_hash
        table.last_active = self.clock()
        self._make_bots(table)
        await self.storage.create_table(self._row(table))
        await self._follow(table.id)
        self._keep(table)
        return table, host

    @staticmethod
    def _row(table: Table) -> dict[str, Any]:
        return {
            "id": table.id,
            "game": table.game_id,
            "options": table.options,
            "seed": table.seed,
            "seats": table.seat_rows(),
            "host_hash": table.host_hash,
            "status": table.status,
            "turn_seconds": table.turn_seconds,
            "bot_pace": table.bot_pace,
            "rematch_of": table.rematch_of,
            "rematch": table.rematch,
        }

    async def join(
        self, table_id: str, name: str, seat: SeatKey | None = None
    ) -> tuple[SeatKey, str]:
        """Seat a human by display name; returns the seat and its new token."""
        name = clean_name(name)
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self._catch_up(table, row=True)
            if table.status in ("finished", "expired"):
                raise ServerError("game_over", "this table is closed; ask for a rematch")
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
            target.name, target.token_hash = name, token_hash(token)
            await self.storage.update_table(table.id, seats=table.seat_rows())
        await self._notify(table, "seats")
        return seat, token

    async def leave(self, table_id: str, token: str | None) -> Table:
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self._catch_up(table, row=True)
            key = table.seat_of(token)
            s = table.seat(key)
            s.name, s.token_hash = None, None
            await self.storage.update_table(table.id, seats=table.seat_rows())
        await self._notify(table, "seats")
        return table

    async def start(self, table_id: str, token: str | None) -> Table:
        table = await self.find(table_id)
        async with table.lock, self.lease.hold(table.id):
            await self._catch_up(table, row=True)
            if table.status != "waiting":
                raise ServerError("wrong_status", f"the table is {table.status}, not waiting")
            full = all(s.kind == "bot" or s.token_hash for _, s in table.all_seats())
            if not table.is_host(token):
                table.seat_of(token)  # raises bad_token
                if not full:
                    raise ServerError(
                        "forbidden", "only the host starts before every seat is taken"
                    )
            if table.dealer and not table.dealer.token_hash:
                raise ServerError("wrong_status", "a live casino table needs its dealer seated")
            first = table.move
            drawn = self._draw_chance(table)
            table.status = "finished" if table.state.is_terminal() else "playing"
            await self._commit(table, first, drawn)
        await self._notify(table, "status")
        return table

    async def set_timer(self, table_id: str, token: str | None, seconds: float | None) -> Table:
        """The host or a seated player sets the turn timer after the start: a friend who left
        on his turn at a table without one would otherwise hold every other seat up for good."""
        table = await self.find(table_id)
        if not table.is_host(token):
            table.seat_of(token)  # raises bad_token
        async with table.lock, self.lease.hold(table.id):
            await self._catch_up(table, row=True)
            if table.status not in ("waiting", "playing"):
                raise ServerError("wrong_status", f"the table is {table.status}")
            table.turn_seconds = seconds
            await self.storage.update_table(table.id, turn_seconds=seconds)
        await self._notify(table, "status")  # arms the timer of the seat to act
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
        await self._notify(old, "seats")
        return new

    # --- playing ----------------------------------------------------------------------------
    async def act(self, table_id: str, token: str | None, move: int, action: Any) -> Accepted:
        """A human's action, over HTTP or WebSocket."""
        table = await self.find(table_id)
        seat = await self.seat_for(table, token)
        return await self.play(table, seat, move, action)

    async def act_as(
        self, table: Table, seat: SeatKey, token: str, digest: str, move: int, action: Any
    ) -> Accepted:
        """A connection's action: the seat it was greeted with, checked against its token's hash
        (worked out once per connection); anything unusual takes ``act``'s full path."""
        if self.tables.get(table.id) is not table or not table.holds(seat, digest):
            return await self.act(table.id, token, move, action)
        return await self.play(table, seat, move, action)

    async def seat_for(self, table: Table, token: str | None) -> SeatKey:
        """``table.seat_of``, re-reading the seats once if another process may have just
        seated this token."""
        try:
            return table.seat_of(token)
        except ServerError as e:
            if e.code != "bad_token" or not self.shared or not token:
                raise
        async with table.lock:
            await self._catch_up(table, row=True)
        return table.seat_of(token)

    async def play(
        self, table: Table, seat: SeatKey, move: int, action: Any, timer: bool = False
    ) -> Accepted:
        if self.closing:
            raise ServerError("server_error", "the server is shutting down; reconnect shortly")
        self.in_flight += 1
        started = time.perf_counter()
        try:
            async with table.lock, self.lease.hold(table.id) as held:
                if not getattr(held, "unchanged", False):  # no other writer since our last
                    await self._catch_up(table)
                accepted = await self._apply(table, seat, move, action)
                fence = getattr(held, "token", None)  # the Redis lease's fencing token
                running = table.tasks.get("timer")
                if running is not None and running[0] == seat:  # acted: a fresh timer next
                    running[1].cancel()
                    del table.tasks["timer"]
                notices = []
                if timer:  # announced first, with the move the default action was played at
                    notices.append(
                        self._notice(table, "timer", seat=seat, action=action, move=accepted.first)
                    )
                # with the lease's token, a process that catches up to these moves knows that
                # the next lease, if it gets it, follows a writer whose moves it holds
                # (RedisLease.seen)
                fenced = {} if fence is None else {"fence": fence}
                notices.append(self._notice(table, "moves", first=accepted.first, **fenced))
                announced = self._announce(held, table.id, notices)
        except ServerError as e:
            if e.code == "too_late":  # the race record grew: every screen shows it
                await self._notify(table, "race")
            raise
        finally:
            self.in_flight -= 1
        deliver = getattr(self.fanout, "deliver", None)
        for notice in notices:
            if announced and deliver is not None:  # Redis has them: only ours to tell
                await deliver(table.id, notice)
            else:
                await self.fanout.publish(table.id, notice)
        if self.on_move is not None:
            self.on_move(table, accepted, time.perf_counter() - started)
        return accepted

    async def _apply(self, table: Table, seat: SeatKey, move: int, action: Any) -> Accepted:
        if table.status == "waiting":
            raise ServerError("not_started", "the table has not started yet")
        st = table.state
        n = len(st.moves)
        kind = action.get("type") if isinstance(action, dict) else None
        is_call = table.realtime and seat != DEALER and kind in _call_types(st)
        late = is_call and type(move) is int and move < table.last_call_move
        if table.status != "playing" and not (late and table.status == "finished"):
            raise ServerError("game_over", "the game is over")
        if type(move) is not int or move > n or (move != n and not is_call):
            raise ServerError(
                "stale_move", f"that action was chosen at move {move}; the table is at move {n}"
            )
        # a second voice for the call that ended the game is too late, as for any other call
        if late and self._second_voice(table, seat, action):
            self._note_race(table, move, seat, str(kind), "too late")
            raise ServerError(
                "too_late",
                f"another call changed the table after move {move}: yours came too late",
            )
        if seat == DEALER and not st.is_chance():
            raise ServerError("not_your_turn", "the dealer enters a result only when one is due")
        if action == throws.THROW:  # the dice holder's own throw (server/throws.py)
            new_moves = throws.throw(table, seat) + self._draw_chance(table)
            if st.is_terminal():
                table.status = "finished"
            await self._commit(table, n, new_moves)
            return Accepted(table.id, seat, n, table.move)
        calls_before = getattr(st, "false_calls", 0)
        right = correct_call(st) if is_call else None
        try:
            st.apply(action, engine_seat(seat))
        except MalformedAction as e:
            raise ServerError("malformed_action", str(e)) from None
        except NotYourTurn as e:
            raise ServerError("not_your_turn", str(e)) from None
        except IllegalAction as e:
            raise ServerError("illegal_action", str(e)) from None
        except Exception as e:  # an engine bug on odd input: the stored record is the truth
            log.exception(
                "engine failed on %r at table %s", action, table.id, extra={"table": table.id}
            )
            await self._reload(table)
            raise ServerError(
                "malformed_action", f"the engine could not read that action: {e}"
            ) from None
        new: list[tuple[int | None, Any]] = [(engine_seat(seat), action)]
        if is_call:
            false = getattr(st, "false_calls", 0) > calls_before
            table.last_call_move = n + 1
            table.right_before = (n, right)
            self._note_race(table, move, seat, str(kind), "false" if false else "good")
        new += self._draw_chance(table)
        if st.is_terminal():
            table.status = "finished"
        await self._commit(table, n, new)
        return Accepted(table.id, seat, n, table.move)

    def _draw_chance(self, table: Table) -> list[tuple[int | None, Any]]:
        st = table.state
        drawn: list[tuple[int | None, Any]] = []
        if table.live_dealer:
            return drawn
        while st.is_chance() and not st.is_terminal():
            if throws.holder(table) is not None:  # a human throws their own dice
                break
            drawn.append((None, st.sample_chance()))
        return drawn

    async def _commit(self, table: Table, first: int, new: list[tuple[int | None, Any]]) -> None:
        """Store the moves; if that fails, forget them (rebuild from storage) and refuse."""
        try:
            now = self.clock()
            await self.storage.append_moves(
                table.id, first, new, status=table.status, updated_at=now
            )
        except Exception:
            log.exception("could not store moves of table %s", table.id, extra={"table": table.id})
            try:
                await self._reload(table)
            except Exception:  # storage is down: undo from memory, or the next move leaves a hole
                log.warning(
                    "table %s rewound in memory: storage is unreachable",
                    table.id,
                    extra={"table": table.id},
                )
                self._rewind(table, first)
            raise ServerError(
                "server_error", "the move could not be stored; nothing changed"
            ) from None
        table.last_active = table.moved_at = now

    def _rewind(self, table: Table, first: int) -> None:
        """Forget the moves from ``first`` on without storage: replay those before (the stored
        ones, as the lease guarantees), as a restart would."""
        moves = table.state.moves[:first]
        state = self._replayed(table.game_id, table.options, table.seed, moves)
        table.state, table.status = state, "playing"
        table.last_call_move = self._last_call(state)
        table.right_before = None  # recomputed from the moves when needed

    async def _reload(self, table: Table) -> None:
        row = await self.storage.load_table(table.id)
        if row is None:
            return
        fresh = self._from_row(row, await self.storage.load_moves(table.id))
        table.state, table.status = fresh.state, fresh.status
        table.last_call_move = fresh.last_call_move
        table.right_before = None  # recomputed from the moves when needed

    async def catch_up(self, table: Table, upto: int | None = None, row: bool = False) -> None:
        """Apply moves another process stored after ours, and (``row``) its seats and status
        (a no-op with one process, or when we already have move ``upto``)."""
        if not self.shared or (upto is not None and table.move >= upto):
            return
        async with table.lock:
            await self._catch_up(table, row=row)

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
            from .chat import absorb

            await absorb(self, table)
            return
        moves_only = notice.get("kind") in ("moves", "race")
        async with table.lock:
            move = notice.get("move")
            if not (moves_only and isinstance(move, int) and table.move >= move):  # not yet had
                await self._catch_up(table, row=not moves_only, newer=carried_moves(table, notice))
        fence, seen = notice.get("fence"), getattr(self.lease, "seen", None)
        if isinstance(fence, int) and isinstance(move, int) and table.move >= move and seen:
            seen(table.id, fence)
        if table.move == move and isinstance(notice.get("moved_at"), float):
            table.moved_at = notice["moved_at"]
        if notice.get("kind") in ("moves", "status"):
            # Bots and timers run where the last move was made; we keep a later standby copy,
            # cancelled by the next notice, so a table still moves on if that process died.
            self._schedule(table, standby=STANDBY_SECONDS)
        if table.move == move:  # the writer's race record and turn deadline, shown by all
            if "race" in notice:
                table.race = merge_race(notice["race"], table.race)
            if "deadline" in notice:
                table.deadline = notice["deadline"]

    async def _catch_up(
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
            self._resume_dice(table.state, table.seed)
            table.last_call_move = self._last_call(table.state, start, table.last_call_move)
        # moves alone change the row only when they start or end the game
        if row or (newer and (table.status != "playing" or table.state.is_terminal())):
            fresh = await self.storage.load_table(table.id)
            if fresh:
                table.status = fresh["status"]
                table.seats, table.dealer = self._seats_from(fresh)
                table.host_hash = fresh["host_hash"]
                table.rematch = fresh.get("rematch")
                table.turn_seconds = fresh.get("turn_seconds")

    def _second_voice(self, table: Table, seat: SeatKey, action: Any) -> bool:
        """A call chosen before the last call was applied is dropped as too late when it is not
        right now but asked for what that call took (or is no longer open), as at the realtime
        table; a call at nothing is judged like any other, since the rulebook punishes every
        call made with no pair showing, and a call still right now wins."""
        es = engine_seat(seat)
        if es is None or action not in table.state.legal_actions(es):
            return True
        if action == correct_call(table.state):
            return False
        return bool(action == self._right_before_call(table))

    def _right_before_call(self, table: Table) -> Any:
        """The call that was right just before the last call (replayed once after a restart or
        another process's call, then kept)."""
        k = table.last_call_move - 1
        if table.right_before is None or table.right_before[0] != k:
            before = self._replayed(table.game_id, table.options, table.seed, table.state.moves[:k])
            table.right_before = (k, correct_call(before))
        return table.right_before[1]

    def _note_race(self, table: Table, move: int, seat: SeatKey, kind: str, result: str) -> None:
        if table.race is None or table.race["move"] != move:
            table.race = {"move": move, "arrivals": []}
        table.race["arrivals"].append({"seat": seat, "type": kind, "result": result})

    # --- what each connection sees ----------------------------------------------------------
    @staticmethod
    async def settled(table: Table) -> None:
        """Wait out a write in flight (applied in memory, its commit awaited under the table's
        lock), so a frame built right after, with no await between, shows only stored moves."""
        if table.lock.locked():
            async with table.lock:
                pass

    def frame_text(self, table: Table, seat: SeatKey | None, since: int | None) -> tuple[str, int]:
        """``frame`` as JSON text and its event count: what every seat's frame of the table
        shares is encoded once per change of the table, only the seat's own part per frame."""
        return self._spliced(table, self._parts(table), seat, since)

    def _parts(self, table: Table) -> FrameParts:
        """What every seat's frame of the table has in common now, encoded once per change."""
        race = table.race
        stamp = (
            id(table.state),
            table.move,
            table.status,
            table.deadline,
            None if race is None else (race["move"], len(race["arrivals"])),
        )
        parts = table.frame_parts
        if parts is None or parts.stamp != stamp:
            st = table.state
            playing = table.status == "playing"
            head = (
                f'{{"type":"state","table_id":{wire.dumps(table.id)},"move":{table.move},'
                f'"status":{wire.dumps(table.status)},"seat":'
            )
            actors = wire.dumps(self._actors(table))
            due = "true" if playing and table.live_dealer and st.is_chance() else "false"
            tail = (
                f',"event_count":{st.event_count},"deadline":{wire.dumps(table.deadline)},'
                f'"race":{wire.dumps(race)}}}'
            )
            parts = table.frame_parts = FrameParts(stamp, head, actors, due, tail)
        return parts

    def _spliced(
        self, table: Table, parts: FrameParts, seat: SeatKey | None, since: int | None
    ) -> tuple[str, int]:
        """One seat's ``frame`` as JSON text: its own seat and legal actions between the parts
        all seats share (the view, when the game shows every seat the same, and the events)."""
        st = table.state
        es = engine_seat(seat)
        view_key = es if type(st).VIEW_BY_SEAT else None
        view = parts.views.get(view_key)
        if view is None:
            # encoded and let go at once: a kept view (a Gambler view is ~70 dicts and lists)
            # outlived young collections and was walked by each generation until the next move
            view = parts.views[view_key] = wire.dumps(seat_view(st, view_key))
        count = st.event_count
        start = first_event(count, since)
        events = parts.events.get(start)
        if events is None:
            events = parts.events[start] = wire.dumps(st.events(start))
        legal = wire.dumps(self._legal(table, seat))
        text = (
            f'{parts.head}{wire.dumps(seat)},"view":{view},"actors":{parts.actors},'
            f'"dealer_due":{parts.dealer_due},"legal_actions":{legal},"events":{events}'
            f"{parts.tail}"
        )
        return text, count

    @staticmethod
    def view(table: Table, seat: int | None) -> dict[str, Any]:
        """``seat``'s view: the public one when the game shows every seat the same picture."""
        st = table.state
        return seat_view(st, seat if type(st).VIEW_BY_SEAT else None)

    @staticmethod
    def _legal(table: Table, seat: SeatKey | None) -> list[Any]:
        """What ``seat`` may play now (nothing for a spectator, or a table not playing)."""
        if table.status != "playing" or seat is None:
            return []
        # the dealer enters any result (dice, amend, settle, void): no list to offer
        legal = [] if seat == DEALER else table.state.legal_actions(int(seat))
        return legal + throws.offer(table, seat)

    @staticmethod
    def _actors(table: Table) -> list[int]:
        if table.status != "playing":
            return []
        thrower = throws.holder(table)
        return table.state.actors() if thrower is None else [thrower]

    def frame(self, table: Table, seat: SeatKey | None, since: int | None = None) -> dict[str, Any]:
        """The ``state`` frame for one seat (None: spectator): only what it may see."""
        st = table.state
        es = engine_seat(seat)
        count = st.event_count
        start = first_event(count, since)
        playing = table.status == "playing"
        return {
            "type": "state",
            "table_id": table.id,
            "move": table.move,
            "status": table.status,
            "seat": seat,
            "view": self.view(table, es),
            "actors": self._actors(table),
            "dealer_due": bool(playing and table.live_dealer and st.is_chance()),
            "legal_actions": self._legal(table, seat),
            "events": st.events(start),
            "event_count": count,
            "deadline": table.deadline,
            "race": table.race,
        }

    def finished_frame(self, table: Table, seat: SeatKey | None) -> dict[str, Any]:
        st = table.state
        es = engine_seat(seat)
        return {
            "type": "finished",
            "move": table.move,
            "winner": st.winner(),
            "returns": st.returns(),
            "record": public_record(st, es),
        }

    def record_for(self, table: Table, token: str | None) -> dict[str, Any]:
        if table.status != "finished":
            raise ServerError("wrong_status", "the record is shown once the game is over")
        seat = table.seat_of(token) if token else None
        es = engine_seat(seat)
        return public_record(table.state, es)

    # --- bots, timers, expiry ---------------------------------------------------------------
    async def _notify(self, table: Table, kind: str, **extra: Any) -> None:
        await self.fanout.publish(table.id, self._notice(table, kind, **extra))

    def _announce(self, held: Any, table_id: str, notices: list[Notice]) -> bool:
        """Hand the notices to the shared lease, whose release publishes them in its own round
        trip (one Redis command a move instead of two); False when there is no such lease."""
        announce = getattr(held, "announce", None)
        message = getattr(self.fanout, "message", None)
        if announce is None or message is None:
            return False
        announce.extend(message(table_id, notice) for notice in notices)
        return True

    def _notice(self, table: Table, kind: str, **extra: Any) -> Notice:
        """What the fan-out carries after a change (bots and timers are scheduled first, so
        the notice holds the new turn deadline)."""
        if kind in ("moves", "status"):
            self._schedule(table)
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

    def _cancel_tasks(self, table: Table) -> None:
        for _, task in table.tasks.values():
            task.cancel()
        table.tasks.clear()

    def _schedule(self, table: Table, standby: float = 0.0) -> None:
        """After a change: bots decide what to do, and the seat to act gets its timer
        (``standby`` seconds later in a process that did not make the last move)."""
        if self.closing:
            return
        st = table.state
        if table.status != "playing" or st.is_terminal():
            self._cancel_tasks(table)
            table.deadline = None
            return
        n = table.move
        for key, (at, task) in list(table.tasks.items()):
            if at != n and key != "timer":
                task.cancel()
                del table.tasks[key]
        actors = st.actors()
        # turn-based games: bots act in the order the rules list the actors (as the simulator
        # does), so a casino shooter waits for the other seats; Snap and Slap race for real
        ready = actors if table.realtime else actors[:1]
        for seat in ready:
            bot = table.bots.get(seat)
            if bot is None or seat in table.tasks:
                continue
            planned = self._bot_plan(table, seat, bot)
            if planned is not None:
                action, delay, at = planned
                table.tasks[seat] = (
                    n,
                    asyncio.create_task(self._bot_move(table, seat, at, action, delay + standby)),
                )
        # the timer runs for the first seat to act until that seat acts (its key holds the seat);
        # in Snake Eyes that is the human holding the dice, whose throw the table waits for
        waiting = self._actors(table)
        due = (
            waiting[0] if table.turn_seconds and waiting and waiting[0] not in table.bots else None
        )
        current = table.tasks.get("timer")
        if current is not None and current[0] != due:
            current[1].cancel()
            del table.tasks["timer"]
            current = None
        if due is None:
            table.deadline = None
        elif current is None and table.turn_seconds:
            # from the stored move, so every process that loads the table shows the same one
            now = self.clock()
            table.deadline = table.moved_at + table.turn_seconds
            if table.deadline <= now:  # the table was idle or down: a whole turn from now
                table.deadline = now + table.turn_seconds
            timer = self._timeout(table, due, table.deadline - now + standby)
            table.tasks["timer"] = (due, asyncio.create_task(timer))

    def _bot_plan(
        self, table: Table, seat: int, bot: Any
    ) -> tuple[dict[str, Any], float, int] | None:
        st = table.state
        human = table.bot_pace == "human"
        if table.realtime:
            from gamenight.realtime.reaction import level as level_named
            from gamenight.realtime.reaction import reaction_ms

            lv = level_named(table.seats[seat].level or "normal")
            call = correct_call(st)
            if call is not None and call in st.legal_actions(seat):
                delay = reaction_ms(lv, table.rng) / 1000 if human else 0.0
                return call, delay, table.move
            if seat == getattr(st, "turn", None):
                return {"type": "flip"}, (0.9 if human else 0.0), table.move
            return None
        if not st.legal_actions(seat):
            return None
        action = bot.act(st, seat)
        delay = table.rng.uniform(0.6, 1.5) if human else 0.0
        return action, delay, table.move

    async def _bot_move(
        self, table: Table, seat: int, at: int, action: dict[str, Any], delay: float
    ) -> None:
        try:
            await asyncio.sleep(delay)
            table.tasks.pop(seat, None)
            await self.play(table, seat, at, action)
        except ServerError as e:
            if e.code not in ("stale_move", "too_late", "game_over"):
                log.warning(
                    "bot at table %s seat %s: %s", table.id, seat, e, extra={"table": table.id}
                )
            self._schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "bot at table %s seat %s failed", table.id, seat, extra={"table": table.id}
            )

    async def _timeout(self, table: Table, seat: int, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            table.tasks.pop("timer", None)
            actors = self._actors(table)
            if table.status != "playing" or not actors or actors[0] != seat:
                return
            # the dice holder's one move is the throw the table waits for (server/throws.py)
            action = (
                throws.THROW if seat == throws.holder(table) else default_action(table.state, seat)
            )
            if action is None:
                return
            await self.play(table, seat, table.move, action, timer=True)
        except ServerError:
            self._schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer at table %s failed", table.id, extra={"table": table.id})

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
            self._cancel_tasks(table)
            self._forget(table)
            gone.append(table.id)
        return gone

    def connect(self, table: Table, seat: SeatKey | None, delta: int) -> None:
        table.last_active = self.clock()
        if seat is None:
            table.spectators += delta
        else:
            table.connected[seat] = table.connected.get(seat, 0) + delta
