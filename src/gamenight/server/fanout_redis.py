"""Fan-out across server processes over Redis pub/sub: a move accepted by one process reaches
the connections every other process holds for that table.

Each process keeps one subscriber connection, subscribes to a table's channel while it holds at
least one local connection (or cached copy) of that table, and hands each message to the local
handlers in arrival order. Its own messages come back too and are dropped by origin. Pub/sub is
fire-and-forget: a process that loses its Redis connection is told (``on_gap``) so it can reload
the tables it serves from storage instead of trusting what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .lease import KEY_PREFIX

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
"""Called with each message from another process; must not block (schedule real work)."""


def table_channel(table_id: str) -> str:
    """The pub/sub channel carrying a table's changes."""
    return f"{KEY_PREFIX}:table:{table_id}"


class RedisFanout:
    """Publish table changes to Redis and deliver other processes' changes to local handlers."""

    def __init__(self, redis: Redis, origin: str, on_gap: Callable[[], None] | None = None) -> None:
        self.redis = redis
        self.origin = origin
        self.on_gap = on_gap
        self._handlers: dict[str, list[Handler]] = {}
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.received = 0
        self.published = 0

    @property
    def control_channel(self) -> str:
        """This process's own channel: keeps the subscriber connection subscribed at all times."""
        return f"{KEY_PREFIX}:node:{self.origin}"

    async def start(self) -> None:
        """Open the subscriber connection and start delivering."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.control_channel)
        self._reader = asyncio.create_task(self._read(), name="redis-fanout-reader")
        self._ready.set()

    async def stop(self) -> None:
        """Stop delivering and close the subscriber connection."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            self._pubsub = None

    def encode(self, table_id: str, message: dict[str, Any]) -> str:
        """The wire form of a message: JSON stamped with its table and origin."""
        return json.dumps({**message, "table": table_id, "origin": self.origin},
                          separators=(",", ":"))

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Send a change to every other process serving this table."""
        await self.redis.publish(table_channel(table_id), self.encode(table_id, message))
        self.published += 1

    async def subscribe(self, table_id: str, handler: Handler) -> None:
        """Deliver this table's changes from other processes to ``handler``."""
        handlers = self._handlers.setdefault(table_id, [])
        handlers.append(handler)
        if len(handlers) == 1 and self._pubsub is not None:
            await self._pubsub.subscribe(table_channel(table_id))

    async def unsubscribe(self, table_id: str, handler: Handler) -> None:
        """Stop delivering this table to ``handler``; leave the channel when nobody listens."""
        handlers = self._handlers.get(table_id)
        if not handlers or handler not in handlers:
            return
        handlers.remove(handler)
        if not handlers:
            del self._handlers[table_id]
            if self._pubsub is not None:
                await self._pubsub.unsubscribe(table_channel(table_id))

    def tables(self) -> list[str]:
        """Tables this process listens to."""
        return list(self._handlers)

    async def _read(self) -> None:
        assert self._pubsub is not None
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except (RedisConnectionError, RedisTimeoutError, OSError) as e:
                log.warning("redis fan-out lost its connection: %s; resubscribing", e)
                await asyncio.sleep(0.2)
                await self._resubscribe()
                continue
            if msg is None or msg.get("type") != "message":
                continue
            self._deliver(msg["data"])

    async def _resubscribe(self) -> None:
        """After a drop: subscribe again and tell the owner that messages may have been missed."""
        assert self._pubsub is not None
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await self._pubsub.subscribe(self.control_channel,
                                         *(table_channel(t) for t in self._handlers))
        except (RedisConnectionError, RedisTimeoutError, OSError):
            return
        if self.on_gap is not None:
            self.on_gap()

    def _deliver(self, data: bytes | str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            log.error("redis fan-out dropped a message that is not JSON: %.80r", data)
            return
        if not isinstance(message, dict) or message.get("origin") == self.origin:
            return
        self.received += 1
        for handler in list(self._handlers.get(str(message.get("table")), ())):
            try:
                handler(message)
            except Exception:
                log.exception("fan-out handler failed for table %s", message.get("table"))
