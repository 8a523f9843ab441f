"""The moves' group commit: appends waiting at the same moment share one transaction (one fsync
for many tables' moves), on SQLite's writer thread or as one set-based PostgreSQL statement.

A failed batch is retried append by append, so each caller gets its own answer; the primary key
``(table_id, idx)`` refuses a second writer of a move index.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Column
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import wire
from .schema import moves, tables
from .sqlite_writer import SqliteWriter, Statements, resolve

PG_WRITERS = 2  # group commits in flight at once on PostgreSQL


@dataclass
class _Write:
    """One caller's moves waiting for the next group commit."""

    table_id: str
    first: int
    moves: list[tuple[int | None, dict[str, Any]]]
    fields: dict[str, Any]
    done: asyncio.Future[None]


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


class GroupCommit:
    """This process's appends of moves, committed in batches (``append``)."""

    def __init__(
        self, engine: AsyncEngine, write_lock: asyncio.Lock, sqlite: SqliteWriter | None
    ) -> None:
        self.engine = engine
        self._pending: list[_Write] = []
        self._writers: set[asyncio.Task[None]] = set()  # held, so none is collected mid-write
        self._held: list[tuple[AsyncConnection, Any]] = []  # PostgreSQL: the group commits'
        self._writing = 0  # write loops running
        # SQLite has one writer at a time anyway; PostgreSQL commits a second batch while the
        # first waits for its flush, so a move that arrives then does not wait a whole commit
        # in the queue first (PG_WRITERS; a table's moves are one at a time under its lock, so
        # two batches in flight never touch the same table row)
        self._max_writers = 1 if engine.dialect.name == "sqlite" else PG_WRITERS
        self._write_lock = write_lock  # the storage's: one writer per process
        self._sqlite = sqlite

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def close(self) -> None:
        """Stop SQLite's writer thread and close the connections PostgreSQL's batches keep."""
        if self._sqlite is not None:
            writer, self._sqlite = self._sqlite, None
            await writer.close()
        while self._held:
            conn, _ = self._held.pop()
            with contextlib.suppress(Exception):  # closing: a broken one is gone either way
                await conn.close()

    async def append(
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
                        resolve(batch[0].done, e)
                        continue
                    for item in batch:  # one by one: only the faulty write fails
                        try:
                            await self._write([item])
                        except Exception as one:
                            resolve(item.done, one)
                        else:
                            resolve(item.done, None)
                    continue
                for item in batch:
                    resolve(item.done, None)
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
        rows = GroupCommit._rows(batch)
        if rows:
            out.append((_insert_moves(paramstyle), rows))
        for keys, params in GroupCommit._latest_fields(batch).items():
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
