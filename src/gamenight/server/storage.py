"""The storage port: tables and their moves in SQL (SQLite by default, PostgreSQL by URL).

The moves table is the truth: each accepted move (and the chance moves it caused) is appended
and committed in one transaction before anyone hears of it, so a restart rebuilds every table
by replaying its moves. The schema is ``schema.py``; the moves' group commit ``group_commit.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from . import wire
from .group_commit import PG_WRITERS, GroupCommit
from .schema import chat, metadata, moves, tables
from .sqlite_writer import SqliteWriter, sqlite_pragmas

SERVING_LOCK = 7275192  # PostgreSQL advisory lock of serving processes (see lock_serving)
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
        self._write_lock = asyncio.Lock()  # one writer per process: no SQLite lock waits
        sqlite: SqliteWriter | None = None
        self._serving: Any = None  # PostgreSQL: the connection holding SERVING_LOCK
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
            path = self.engine.url.database
            if path and path != ":memory:" and not path.startswith("file:"):
                sqlite = SqliteWriter(path)
        self._commits = GroupCommit(self.engine, self._write_lock, sqlite)

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
        await self._commits.close()
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
        returns once they are committed (in a group commit: ``group_commit.py``)."""
        await self._commits.append(table_id, first_index, new_moves, **fields)

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
        self,
        active: bool = True,
        status: str | None = None,
        limit: int | None = None,
        listed: bool = False,
    ) -> list[dict[str, Any]]:
        """Tables to bring back at start-up: waiting or playing (``active``), or all, oldest
        first; or the newest ``limit`` of one ``status`` (the lobby: ``listed`` ones only)."""
        query = select(tables)
        if listed:
            query = query.where(tables.c.listed.is_(True))
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


__all__ = ["Storage", "chat", "metadata", "moves", "normalise_url", "tables"]
