"""The storage port: tables and their moves in SQL (SQLite by default, PostgreSQL by URL).

The moves table is the truth: each accepted move (and the chance moves it caused) is appended
and committed in one transaction before anyone hears of it, so a restart rebuilds every table
by replaying its moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from . import wire

log = logging.getLogger("gamenight.server")
metadata = MetaData()
Statements = list[tuple[str, list[tuple[Any, ...]]]]
PG_WRITERS = 2  # group commits in flight at once on PostgreSQL
CHECKPOINT_EVERY = 200  # group commits between two WAL checkpoints (off the writer's thread)
SERVING_LOCK = 7275192  # PostgreSQL advisory lock of serving processes (see lock_serving)


@dataclass
class _Write:
    """One caller's moves waiting for the next group commit."""

    table_id: str
    first: int
    moves: list[tuple[int | None, dict[str, Any]]]
    fields: dict[str, Any]
    done: asyncio.Future[None]


_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


def _resolve(done: asyncio.Future[Any], error: BaseException | None, result: Any = None) -> None:
    """Give a waiting caller its result or error (unless it was cancelled meanwhile)."""
    if done.done():
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("turn_seconds", Float, nullable=True),
    Column("bot_pace", String(16), nullable=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=True),
    Column("action", JSON, nullable=False),
)

chat = Table(  # a table's chat: kept beside the moves, never part of the game's record
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", String(8), nullable=False),  # "0", "1", ... or "dealer"
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_table_id", "table_id", "id"),
)

MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_DEFAULT = "sqlite+aiosqlite:///gamenight.db"


def normalise_url(url: str | None) -> str:
    """Accept plain ``sqlite:///`` and ``postgresql://`` URLs and pick the async drivers."""
    if not url:
        return SQLITE_DEFAULT
    if url.startswith("postgresql+psycopg://") and importlib.util.find_spec("psycopg") is None:
        url = "postgresql://" + url.split("://", 1)[1]  # psycopg 3 not installed: asyncpg
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def _marks(paramstyle: str, n: int) -> list[str]:
    """``n`` placeholders in the driver's own style (sqlite3: ?, asyncpg: $1 ...)."""
    if paramstyle == "qmark":
        return ["?"] * n
    if paramstyle == "numeric_dollar":
        return [f"${i}" for i in range(1, n + 1)]
    if paramstyle == "format":
        return ["%s"] * n
    raise ValueError(f"no raw SQL for the {paramstyle} parameter style")


@functools.cache
def _insert_moves(paramstyle: str) -> str:
    marks = ", ".join(_marks(paramstyle, 4))
    return f"INSERT INTO moves (table_id, idx, seat, action) VALUES ({marks})"


@functools.lru_cache(maxsize=256)  # a handful of field sets in practice: built once each
def _update_tables(paramstyle: str, keys: tuple[str, ...]) -> str:
    marks = _marks(paramstyle, len(keys) + 1)
    sets = ", ".join(f"{tables.c[k].name} = {m}" for k, m in zip(keys, marks, strict=False))
    return f"UPDATE tables SET {sets} WHERE id = {marks[-1]}"


_PG_TYPES: dict[tuple[str, str], str] = {}


def _pg_type(column: Column[Any]) -> str:
    """A column's PostgreSQL type name, compiled once: a dialect built per batch was cyclic
    garbage (each young collection freed a hundred of them, ~1 ms a pause at human pace)."""
    key = (column.table.name, column.name)
    name = _PG_TYPES.get(key)
    if name is None:
        name = _PG_TYPES[key] = str(column.type.compile(dialect=postgresql.dialect()))
    return name


def _pg_batch(
    updates: dict[tuple[str, ...], list[tuple[Any, ...]]],
    rows: list[tuple[str, int, int | None, str]],
) -> tuple[str, list[list[Any]]]:
    """Moves and table fields as one PostgreSQL statement over arrays (``unnest``): a
    data-modifying WITH per part, so the whole batch commits or fails as one. The statement's
    text depends only on which parts and fields the batch has: built once per shape."""
    params: list[list[Any]] = []
    for values in ([rows] if rows else []) + list(updates.values()):
        params += [list(column) for column in zip(*values, strict=True)]
    return _pg_batch_sql(bool(rows), tuple(updates)), params


@functools.lru_cache(maxsize=256)  # a handful of shapes in practice: built once each
def _pg_batch_sql(with_rows: bool, update_keys: tuple[tuple[str, ...], ...]) -> str:
    """The text of ``_pg_batch``'s statement for one shape, its arrays numbered in order."""
    parts: list[str] = []
    count = 0

    def arrays(columns: list[Column[Any]]) -> str:
        nonlocal count
        marks = []
        for col in columns:
            count += 1
            marks.append(f"${count}::{_pg_type(col)}[]")
        return f"unnest({', '.join(marks)})"

    if with_rows:
        cols = [moves.c.table_id, moves.c.idx, moves.c.seat, moves.c.action]
        into = "INSERT INTO moves (table_id, idx, seat, action) SELECT * FROM "
        parts.append(into + arrays(cols))
    for keys in update_keys:
        cols = [tables.c[k] for k in keys] + [tables.c.id]
        names = ", ".join(c.name for c in cols)
        sets = ", ".join(f"{k} = u.{k}" for k in keys)
        parts.append(
            f"UPDATE tables SET {sets} FROM {arrays(cols)} AS u({names}) WHERE tables.id = u.id"
        )
    ctes = ", ".join(f"w{i} AS ({part})" for i, part in enumerate(parts))
    return f"WITH {ctes} SELECT 1"


_JSON_COLUMNS = frozenset(c.name for c in tables.c if isinstance(c.type, JSON))


def _column_value(key: str, value: Any) -> Any:
    """A value as the driver takes it: JSON columns as their text."""
    return wire.dumps(value) if key in _JSON_COLUMNS else value


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class SqliteWriter:
    """The moves' group commits on one raw sqlite3 connection and thread: a batch is one hop to
    that thread (insert, update, commit), not one per statement through aiosqlite, and the WAL
    is checkpointed from another connection and thread, so a commit never waits for one."""

    def __init__(self, path: str) -> None:
        self.path = path
        # One thread of our own fed by a SimpleQueue: an executor's submit (locks, a work item,
        # a concurrent future chained to an asyncio one) cost more than the hop itself.
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._writer = threading.Thread(
            target=self._work, name="gamenight-sqlite-writer", daemon=True
        )
        self._writer.start()
        self._checkpointer = ThreadPoolExecutor(1, thread_name_prefix="gamenight-checkpoint")
        self._conns: dict[str, sqlite3.Connection] = {}  # one per thread, made in that thread
        self._commits = 0
        self._checkpoint: Any = None

    def _conn(self, role: str) -> sqlite3.Connection:
        conn = self._conns.get(role)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            _sqlite_pragmas(conn, None)
            conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job, not a commit's
            self._conns[role] = conn
        return conn

    def _commit(self, statements: Statements) -> None:
        conn = self._conn("writer")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                conn.executemany(sql, params)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # BEGIN itself may have failed (busy): keep its error
                conn.execute("ROLLBACK")
            raise

    def _work(self) -> None:
        """The writer thread: run each job, hand its outcome back to the loop that sent it."""
        while (job := self._jobs.get()) is not None:
            fn, loop, done = job
            try:
                result, error = fn(), None
            except BaseException as e:  # the caller's to raise, in its own task
                result, error = None, e
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_resolve, done, error, result)

    async def _in_writer(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the writer thread and await its result."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((fn, loop, done))
        return await done

    def _checkpoint_now(self) -> None:
        self._conn("checkpointer").execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def commit(self, statements: Statements) -> None:
        """Run the statements in one transaction; returns once it is committed (fsynced)."""
        await self._in_writer(lambda: self._commit(statements))
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and (
            self._checkpoint is None or self._checkpoint.done()
        ):
            self._commits = 0
            self._checkpoint = self._checkpointer.submit(self._checkpoint_now)
            self._checkpoint.add_done_callback(_log_failure)

    def _close_all(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._checkpointer, lambda: None)  # a checkpoint finishes
        await self._in_writer(self._close_all)
        self._jobs.put(None)
        self._writer.join()
        self._checkpointer.shutdown()


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("WAL checkpoint failed: %s", future.exception())


def _drop_closed(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
    """A pooled connection the server closed (PostgreSQL restarted) is replaced at checkout
    instead of failing its next statement: a local flag, no round trip as a pre-ping costs."""
    raw = getattr(dbapi_conn, "driver_connection", None)
    closed = getattr(raw, "is_closed", None)
    if closed is not None and closed():
        raise DisconnectionError("the server closed this connection")


def _upgrade(conn: Connection) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    if conn.dialect.name == "postgresql":  # several processes may start at once
        conn.execute(text("SELECT pg_advisory_xact_lock(7275191)"))
    command.upgrade(cfg, "head")


class Storage:
    """Async SQL storage of tables and moves; every method commits before it returns."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url)
        # orjson for the JSON columns (actions, seats, options): as for frames, ~10x json's speed
        codec: dict[str, Any] = {"json_serializer": wire.dumps, "json_deserializer": wire.loads}
        if self.url.startswith("sqlite"):
            self.engine: AsyncEngine = create_async_engine(self.url, **codec)
            self.reader: AsyncEngine = self.engine
        else:
            # Group commits (PG_WRITERS at once) and the other writes (one at a time under
            # _write_lock) need three connections at most. Pure reads (catching up,
            # loading a table) run without a BEGIN ... ROLLBACK round trip each, on a fixed pool:
            # overflow connections were opened and closed per read under load, and a new
            # asyncpg connection (TLS attempt, authentication, statements prepared anew) cost
            # more than the reads themselves.
            self.engine = create_async_engine(
                self.url, **codec, pool_size=PG_WRITERS + 1, max_overflow=1
            )
            self.reader = create_async_engine(
                self.url, isolation_level="AUTOCOMMIT", **codec, pool_size=20, max_overflow=0
            )
            for engine in (self.engine, self.reader):
                event.listen(engine.sync_engine.pool, "checkout", _drop_closed)
        self._pending: list[_Write] = []
        self._writers: set[asyncio.Task[None]] = set()  # held, so none is collected mid-write
        self._held: list[tuple[AsyncConnection, Any]] = []  # PostgreSQL: the group commits'
        self._writing = 0  # write loops running
        # SQLite has one writer at a time anyway; PostgreSQL commits a second batch while the
        # first waits for its flush, so a move that arrives then does not wait a whole commit
        # in the queue first (PG_WRITERS; a table's moves are one at a time under its lock, so
        # two batches in flight never touch the same table row)
        self._max_writers = 1 if self.engine.dialect.name == "sqlite" else PG_WRITERS
        self._write_lock = asyncio.Lock()  # one writer per process: no SQLite lock waits
        self._sqlite: SqliteWriter | None = None
        self._serving: Any = None  # PostgreSQL: the connection holding SERVING_LOCK
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            path = self.engine.url.database
            if path and path != ":memory:" and not path.startswith("file:"):
                self._sqlite = SqliteWriter(path)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)

    async def lock_serving(self, shared: bool) -> bool:
        """Hold the database's serving lock while this process runs: shared among processes
        that share tables through Redis, exclusive for one without it. Two processes on one
        PostgreSQL database without Redis each kept their own copy of every table: a table
        started through one stayed 'waiting' on the other. False: held the other way."""
        if self.dialect != "postgresql":
            return True
        import asyncpg

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        conn = await asyncpg.connect(dsn)
        kind = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        if not await conn.fetchval(f"SELECT {kind}($1)", SERVING_LOCK):
            await conn.close()
            return False
        self._serving = conn
        return True

    async def close(self) -> None:
        if self._serving is not None:
            serving, self._serving = self._serving, None
            with contextlib.suppress(Exception):  # gone with the database: the lock is too
                await serving.close()
        if self._sqlite is not None:
            writer, self._sqlite = self._sqlite, None
            await writer.close()
        while self._held:
            conn, _ = self._held.pop()
            with contextlib.suppress(Exception):  # closing: a broken one is gone either way
                await conn.close()
        await self.engine.dispose()
        if self.reader is not self.engine:
            await self.reader.dispose()

    async def create_table(self, row: dict[str, Any]) -> None:
        row = {**row, "created_at": row.get("created_at", time.time())}
        row.setdefault("updated_at", row["created_at"])
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(insert(tables).values(**row))

    async def append_moves(
        self,
        table_id: str,
        first_index: int,
        new_moves: list[tuple[int | None, dict[str, Any]]],
        **fields: Any,
    ) -> None:
        """Append moves ``first_index, first_index+1, ...`` (and update table fields) atomically;
        returns once they are committed.

        Writes waiting at the same time share one transaction (group commit: one fsync for
        many tables' moves); if that batch fails, each write is retried alone so each caller
        gets its own answer. The primary key (table_id, idx) refuses a second writer of an index.
        """
        fields.setdefault("updated_at", time.time())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(table_id, first_index, new_moves, fields, done))
        if self._writing < self._max_writers:
            self._writing += 1  # given back by the loop in the step that finds nothing pending
            writer = asyncio.create_task(self._write_loop())
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)
        # Not shielded: a caller cancelled meanwhile cancels only its own future (settling it
        # is then skipped); its moves are in the batch and committed all the same.
        await done

    async def _write_loop(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    await self._write(batch)
                except Exception as e:
                    if len(batch) == 1:
                        _resolve(batch[0].done, e)
                        continue
                    for item in batch:  # one by one: only the faulty write fails
                        try:
                            await self._write([item])
                        except Exception as one:
                            _resolve(item.done, one)
                        else:
                            _resolve(item.done, None)
                    continue
                for item in batch:
                    _resolve(item.done, None)
        finally:
            self._writing -= 1  # in the step that found nothing pending: no write is left out

    async def _write(self, batch: list[_Write]) -> None:
        """One transaction for the batch: on SQLite one hop to the writer thread."""
        if self._sqlite is not None:
            async with self._write_lock:
                await self._sqlite.commit(self._statements(batch, "qmark"))
            return
        if self.dialect == "postgresql" and self.engine.dialect.driver == "asyncpg":
            await self._write_asyncpg(batch)
            return
        # SQLite takes one writer at a time; other databases run their batches side by side
        lock = self._write_lock if self.dialect == "sqlite" else contextlib.nullcontext()
        async with lock, self.engine.begin() as conn:
            await self._execute(conn, batch)

    async def _write_asyncpg(self, batch: list[_Write]) -> None:
        """The batch as one set-based statement on an asyncpg connection the group commits keep:
        one round trip and one implicit transaction, where a row per Bind/Execute cost
        PostgreSQL more than the fsync once batches grew past a hundred moves. A pool checkout
        and check-in per batch cost ~110 us of CPU, about a batch's own cost at human pace."""
        sql, params = _pg_batch(self._latest_fields(batch), self._rows(batch))
        while self._held and self._held[-1][1].is_closed():  # PostgreSQL restarted since
            stale, _ = self._held.pop()
            with contextlib.suppress(Exception):
                await stale.invalidate()
        if self._held:
            conn, raw = self._held.pop()
        else:
            conn = await self.engine.connect()
            raw = (await conn.get_raw_connection()).driver_connection
        try:
            await raw.execute(sql, *params)
        except BaseException:
            # not kept: a statement cut off or refused may leave it in any state
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        self._held.append((conn, raw))

    @staticmethod
    def _statements(batch: list[_Write], paramstyle: str) -> Statements:
        """The batch as raw SQL and rows: SQLAlchemy's per-row parameter processing cost more."""
        out: Statements = []
        rows = Storage._rows(batch)
        if rows:
            out.append((_insert_moves(paramstyle), rows))
        for keys, params in Storage._latest_fields(batch).items():
            out.append((_update_tables(paramstyle, keys), params))
        return out

    @staticmethod
    def _rows(batch: list[_Write]) -> list[tuple[str, int, int | None, str]]:
        return [
            (w.table_id, w.first + i, s, wire.dumps(a))
            for w in batch
            for i, (s, a) in enumerate(w.moves)
        ]

    @staticmethod
    def _latest_fields(batch: list[_Write]) -> dict[tuple[str, ...], list[tuple[Any, ...]]]:
        """Each table's newest fields (the last write holds them), grouped by which fields:
        ``(field names) -> [(values..., table id)]``."""
        latest: dict[str, dict[str, Any]] = {}
        for w in batch:
            latest.setdefault(w.table_id, {}).update(w.fields)
        by_keys: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        for table_id, fields in latest.items():
            keys = tuple(sorted(fields))
            row = (*(_column_value(k, fields[k]) for k in keys), table_id)
            by_keys.setdefault(keys, []).append(row)
        return by_keys

    async def _execute(self, conn: AsyncConnection, batch: list[_Write]) -> None:
        for sql, params in self._statements(batch, conn.dialect.paramstyle):
            await conn.exec_driver_sql(sql, params)

    async def update_table(self, table_id: str, **fields: Any) -> None:
        fields["updated_at"] = time.time()
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(**fields))

    async def ping(self) -> None:
        """One round trip on a reading connection (the health check)."""
        async with self.reader.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def load_table(self, table_id: str) -> dict[str, Any] | None:
        async with self.reader.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return dict(row._mapping) if row else None

    async def load_tables(
        self, active: bool = True, status: str | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Tables to bring back at start-up: waiting or playing (``active``), or all, oldest
        first; or the newest ``limit`` of one ``status`` (the lobby)."""
        query = select(tables)
        if status is not None:
            query = query.where(tables.c.status == status).order_by(tables.c.created_at.desc())
        else:
            if active:
                query = query.where(tables.c.status.in_(("waiting", "playing")))
            query = query.order_by(tables.c.created_at)
        if limit is not None:
            query = query.limit(limit)
        async with self.reader.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [dict(r._mapping) for r in rows]

    async def load_moves(
        self, table_id: str, since: int = 0
    ) -> list[tuple[int | None, dict[str, Any]]]:
        query = (
            select(moves.c.seat, moves.c.action)
            .where(moves.c.table_id == table_id, moves.c.idx >= since)
            .order_by(moves.c.idx)
        )
        async with self.reader.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(r.seat, r.action) for r in rows]

    async def count_moves(self, table_id: str) -> int:
        async with self.reader.connect() as conn:
            n = await conn.scalar(
                select(moves.c.idx)
                .where(moves.c.table_id == table_id)
                .order_by(moves.c.idx.desc())
                .limit(1)
            )
        return 0 if n is None else int(n) + 1

    async def add_chat(self, table_id: str, seat: str, name: str, text: str) -> dict[str, Any]:
        """Store one chat message (committed when this returns); returns it with its id."""
        row = {"table_id": table_id, "seat": seat, "name": name, "text": text, "at": time.time()}
        async with self._write_lock, self.engine.begin() as conn:
            result = await conn.execute(insert(chat).values(**row))
            key = result.inserted_primary_key
            assert key is not None
            row["id"] = int(key[0])
        return row

    async def load_chat(self, table_id: str, last: int = 50) -> list[dict[str, Any]]:
        """A table's newest ``last`` chat messages, oldest first."""
        query = (
            select(chat).where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(last)
        )
        async with self.reader.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [dict(r._mapping) for r in reversed(rows)]
