"""The fan-out port across server processes, over Redis pub/sub.

A notice published by the process that committed a move reaches every process that holds
connections to that table: each process keeps one subscriber connection, listens to a table's
channel while it has local subscribers for it, and hands each notice to them in arrival order
(one small queue per table, so a slow table never holds up the others). Local subscribers hear
local notices directly, awaited in ``publish`` as the in-process fan-out does. Notices carry no
view; a moves notice carries the committed moves, which a receiver applies when they follow on
its copy and otherwise reads from storage, so a notice lost while Redis was unreachable costs
nothing once the next one arrives, and ``on_gap`` lets the owner resynchronise everything after
a reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from . import wire
from .lease_redis import KEY_PREFIX

log = logging.getLogger(__name__)

Notice = dict[str, Any]  # the same shapes as the ``FanOut`` port in fanout.py
Callback = Callable[[Notice], Awaitable[None]]
RESUBSCRIBE_FIRST, RESUBSCRIBE_MAX = 0.2, 2.0  # seconds between attempts while Redis is down


def table_channel(table_id: str) -> str:
    """The pub/sub channel carrying a table's notices."""
    return f"{KEY_PREFIX}:table:{table_id}"


class RedisFanOut:
    """Publish notices to Redis and deliver every process's notices to local subscribers.

    Notices from other processes arrive with their ``origin``; our own reach local subscribers
    as they were published, without one.
    """

    shared = True  # other processes change the same tables: the service catches up from storage

    def __init__(
        self,
        redis: Redis | str,
        origin: str | None = None,
        on_gap: Callable[[], None] | None = None,
    ) -> None:
        # Hundreds of tables may publish or take leases at once: wait for a pooled connection
        # rather than fail with "Too many connections".
        if isinstance(redis, str):
            pool = BlockingConnectionPool.from_url(redis, max_connections=64, timeout=10)
            redis = Redis(connection_pool=pool)
            self._owns_client = True
        else:
            self._owns_client = False
        self.redis = redis
        self.origin = origin or uuid.uuid4().hex[:12]
        self.on_gap = on_gap
        self.subscribers: dict[str, list[Callback]] = {}
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, deque[Notice]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._commands: set[asyncio.Task[None]] = set()
        self.received = 0
        self.published = 0
        self.on_count: Callable[[str], None] | None = None  # "sent" or "received" (metrics)

    @property
    def control_channel(self) -> str:
        """This process's own channel: keeps the subscriber connection subscribed at all times."""
        return f"{KEY_PREFIX}:node:{self.origin}"

    async def start(self) -> None:
        """Open the subscriber connection and start delivering."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(
            self.control_channel, *(table_channel(t) for t in self.subscribers)
        )
        self._reader = asyncio.create_task(self._read(), name="redis-fanout-reader")

    async def close(self) -> None:
        """Stop delivering and close the connections."""
        tasks = [t for t in (self._reader, *self._workers.values(), *self._commands) if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._reader = None
        self._workers.clear()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            self._pubsub = None
        if self._owns_client:
            await self.redis.aclose()

    async def publish(self, table_id: str, notice: Notice) -> None:
        """Tell local subscribers now and every other process through Redis.

        A notice Redis could not take is only logged: the move is already stored, and the other
        processes catch up at the table's next notice (or a client's ``sync``)."""
        channel, text = self.message(table_id, notice)
        for attempt in (1, 2):
            try:
                await self.redis.publish(channel, text)
                self.published += 1
                break
            except RedisError as e:
                # a pooled connection that died with a Redis restart fails once; the pool
                # drops it, so once more on a fresh one (a notice twice is harmless)
                if attempt == 1 and isinstance(e, (RedisConnectionError, RedisTimeoutError)):
                    continue
                log.warning(
                    "could not publish a notice of table %s: %s",
                    table_id,
                    e,
                    extra={"table": table_id},
                )
                break
        await self.deliver(table_id, notice)

    def message(self, table_id: str, notice: Notice) -> tuple[str, str]:
        """The channel and text ``publish`` sends: a writer's lease release can carry them
        (``HeldLease.announce``), one Redis round trip for both."""
        text = wire.dumps({**notice, "table_id": table_id, "origin": self.origin})
        if self.on_count is not None:
            self.on_count("sent")
        return table_channel(table_id), text

    async def deliver(self, table_id: str, notice: Notice) -> None:
        """Tell local subscribers only (the notice reached Redis another way)."""
        for callback in list(self.subscribers.get(table_id, ())):
            await callback(notice)

    def subscribe(self, table_id: str, callback: Callback) -> Callable[[], None]:
        """Deliver this table's notices to ``callback``; returns the function that stops it."""
        subs = self.subscribers.setdefault(table_id, [])
        subs.append(callback)
        if len(subs) == 1:
            self._command(self._channel_op(table_id, subscribe=True))

        def unsubscribe() -> None:
            if callback in subs:
                subs.remove(callback)
            if not subs and self.subscribers.get(table_id) is subs:
                del self.subscribers[table_id]
                self._command(self._channel_op(table_id, subscribe=False))

        return unsubscribe

    async def settled(self) -> None:
        """Wait until pending (un)subscribe commands reached Redis (tests, start-up)."""
        while self._commands:
            await asyncio.gather(*self._commands, return_exceptions=True)

    def _command(self, coro: asyncio.Future[None] | object) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)  # type: ignore[arg-type]
        self._commands.add(task)
        task.add_done_callback(self._commands.discard)

    async def _channel_op(self, table_id: str, subscribe: bool) -> None:
        if self._pubsub is None:
            return  # start() subscribes to every table already asked for
        try:
            if subscribe:
                await self._pubsub.subscribe(table_channel(table_id))
            elif table_id not in self.subscribers:
                await self._pubsub.unsubscribe(table_channel(table_id))
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            log.warning(
                "redis fan-out could not (un)subscribe table %s: %s",
                table_id,
                e,
                extra={"table": table_id},
            )

    async def _read(self) -> None:
        while True:
            pubsub = self._pubsub
            assert pubsub is not None
            try:
                msg = await pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except (RedisConnectionError, RedisTimeoutError, OSError) as e:
                log.warning("redis fan-out lost its connection (%s); resubscribing", e)
                await self._resubscribe()
                continue
            if msg is not None and msg.get("type") == "message":
                self._receive(msg["data"])

    async def _resubscribe(self) -> None:
        """After a drop: subscribe again, retrying until Redis answers (reading from a pubsub
        whose subscribe failed raised RuntimeError and ended the reader: this process heard no
        other again), then let the owner resynchronise what it missed."""
        wait = RESUBSCRIBE_FIRST
        while True:
            await asyncio.sleep(wait)
            with contextlib.suppress(Exception):
                if self._pubsub is not None:
                    await self._pubsub.aclose()
            self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await self._pubsub.subscribe(
                    self.control_channel, *(table_channel(t) for t in self.subscribers)
                )
                break
            except (RedisConnectionError, RedisTimeoutError, OSError):
                wait = min(RESUBSCRIBE_MAX, 2 * wait)
        log.info("redis fan-out subscribed again")
        if self.on_gap is not None:
            self.on_gap()

    def _receive(self, data: bytes | str) -> None:
        try:
            notice = wire.loads(data)
        except ValueError:
            log.error("redis fan-out dropped a notice that is not JSON: %.80r", data)
            return
        if not isinstance(notice, dict) or not isinstance(notice.get("table_id"), str):
            log.error("redis fan-out dropped a notice without a table: %.80r", data)
            return
        if notice.get("origin") == self.origin:
            return  # already delivered locally when it was published
        self.received += 1
        if self.on_count is not None:
            self.on_count("received")
        self._enqueue(notice["table_id"], notice)

    def _enqueue(self, table_id: str, notice: Notice) -> None:
        if table_id not in self.subscribers:
            return
        self._pending.setdefault(table_id, deque()).append(notice)
        if table_id not in self._workers:
            self._workers[table_id] = asyncio.create_task(self._drain(table_id))

    async def _drain(self, table_id: str) -> None:
        """Hand one table's notices to its subscribers, in order, one at a time."""
        queue = self._pending[table_id]
        try:
            while queue:
                notice = queue.popleft()
                for callback in list(self.subscribers.get(table_id, ())):
                    try:
                        await callback(notice)
                    except Exception:
                        log.exception(
                            "fan-out subscriber failed on table %s",
                            table_id,
                            extra={"table": table_id},
                        )
        finally:
            del self._workers[table_id]
            if not queue:
                self._pending.pop(table_id, None)
