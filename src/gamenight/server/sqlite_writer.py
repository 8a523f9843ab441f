"""SQLite's group commits on one raw ``sqlite3`` connection and thread of their own, the WAL
checkpointed from another connection and thread so a commit never waits for one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger("gamenight.server")
Statements = list[tuple[str, list[tuple[Any, ...]]]]
CHECKPOINT_EVERY = 200  # group commits between two WAL checkpoints (off the writer's thread)
# A passive checkpoint never finishes while moves keep coming (each adds frames past the ones
# it copied), so the WAL never starts over: 5 GB in 9 minutes of an all-bot table. Past
# WAL_LIMIT bytes the checkpoint is TRUNCATE, which holds the next commit back until the WAL is
# copied and emptied (tens of ms); journal_size_limit trims the file after any reset.
WAL_LIMIT = 16 * 1024 * 1024
TRUNCATE_WAIT_MS = 100  # how long it waits for readers before trying again at the next turn

_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


def resolve(done: asyncio.Future[Any], error: BaseException | None, result: Any = None) -> None:
    """Give a waiting caller its result or error (unless it was cancelled meanwhile)."""
    if done.done():
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
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
            sqlite_pragmas(conn, None)
            conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job, not a commit's
            if role == "checkpointer":  # a TRUNCATE waiting out a reader holds the commits back
                conn.execute(f"PRAGMA busy_timeout={TRUNCATE_WAIT_MS}")
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
                loop.call_soon_threadsafe(resolve, done, error, result)

    async def _in_writer(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the writer thread and await its result."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((fn, loop, done))
        return await done

    def _checkpoint_now(self) -> None:
        try:
            size = os.path.getsize(self.path + "-wal")
        except OSError:  # no WAL yet
            size = 0
        mode = "TRUNCATE" if size > WAL_LIMIT else "PASSIVE"
        self._conn("checkpointer").execute(f"PRAGMA wal_checkpoint({mode})")

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
