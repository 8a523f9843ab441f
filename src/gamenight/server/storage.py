"""The storage port: tables and their moves in SQL (SQLite by default, PostgreSQL by URL).

The moves table is the truth: each accepted move (and the chance moves it caused) is appended
and committed in one transaction before anyone hears of it, so a restart rebuilds every table
by replaying its moves.
"""

from __future__ import annotations

import importlib.util
import time
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
    Integer,
    MetaData,
    String,
    Table,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

metadata = MetaData()

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


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


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
        self.engine: AsyncEngine = create_async_engine(self.url, pool_pre_ping=False)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        await self.engine.dispose()

    async def create_table(self, row: dict[str, Any]) -> None:
        row = {**row, "created_at": row.get("created_at", time.time())}
        row.setdefault("updated_at", row["created_at"])
        async with self.engine.begin() as conn:
            await conn.execute(insert(tables).values(**row))

    async def append_moves(
        self,
        table_id: str,
        first_index: int,
        new_moves: list[tuple[int | None, dict[str, Any]]],
        **fields: Any,
    ) -> None:
        """Append moves ``first_index, first_index+1, ...`` (and update table fields) atomically.

        The primary key (table_id, idx) refuses a second writer of the same index."""
        async with self.engine.begin() as conn:
            if new_moves:
                await conn.execute(
                    insert(moves),
                    [
                        {"table_id": table_id, "idx": first_index + i, "seat": s, "action": a}
                        for i, (s, a) in enumerate(new_moves)
                    ],
                )
            fields["updated_at"] = time.time()
            await conn.execute(update(tables).where(tables.c.id == table_id).values(**fields))

    async def update_table(self, table_id: str, **fields: Any) -> None:
        fields["updated_at"] = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(**fields))

    async def load_table(self, table_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return dict(row._mapping) if row else None

    async def load_tables(self, active: bool = True) -> list[dict[str, Any]]:
        """Tables to bring back at start-up: waiting or playing (``active``), or all."""
        query = select(tables)
        if active:
            query = query.where(tables.c.status.in_(("waiting", "playing")))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(tables.c.created_at))).all()
        return [dict(r._mapping) for r in rows]

    async def load_moves(
        self, table_id: str, since: int = 0
    ) -> list[tuple[int | None, dict[str, Any]]]:
        query = (
            select(moves.c.seat, moves.c.action)
            .where(moves.c.table_id == table_id, moves.c.idx >= since)
            .order_by(moves.c.idx)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(r.seat, r.action) for r in rows]

    async def count_moves(self, table_id: str) -> int:
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(moves.c.idx)
                .where(moves.c.table_id == table_id)
                .order_by(moves.c.idx.desc())
                .limit(1)
            )
        return 0 if n is None else int(n) + 1
