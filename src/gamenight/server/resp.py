"""A lean Redis connection for the lease's scripts: one write per command, replies in order.

redis-py spends about 100 us of CPU on each script call (pool checkout, timeouts, parser
layers); the lease makes two a move. Here a command is one ``transport.write`` and its reply
resolves a future straight from the protocol's callback (about 10 us), commands from many
tables share the connection (pipelined), and a command can be sent without awaiting anything,
so a lease is given back in the writer's own step rather than from a task of its own.
Replies are parsed by hiredis.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import hiredis
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

_PENDING = object()  # what the reader returns while a reply is still incomplete
REPLY_SECONDS = 5.0  # a reply later than a lease's whole TTL is no use: the connection is dropped


def encode(args: tuple[str | bytes | int, ...]) -> bytes:
    """One RESP command (an array of bulk strings)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class _Protocol(asyncio.Protocol):
    def __init__(self, owner: RespConnection) -> None:
        self.owner = owner
        # hiredis (Redis's own C parser, the one redis-py uses when installed) reads the replies;
        # an error reply comes back as a ResponseError instance, in its place in the stream
        self.reader = hiredis.Reader(replyError=ResponseError, notEnoughData=_PENDING)

    def data_received(self, data: bytes) -> None:
        reader, waiting = self.reader, self.owner.waiting
        try:
            reader.feed(data)
            while (reply := reader.gets()) is not _PENDING:
                if not waiting:  # a reply to nothing: the stream is out of step, start afresh
                    self.owner.fail(RedisConnectionError("unexpected reply from Redis"))
                    return
                future = waiting.popleft()
                self.owner.sent.popleft()
                if future.done():
                    continue
                if isinstance(reply, ResponseError):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)
        except hiredis.ProtocolError as e:
            self.owner.fail(RedisConnectionError(f"unreadable Redis reply: {e}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner.fail(RedisConnectionError(f"Redis connection lost: {exc or 'closed'}"))


class RespConnection:
    """One pipelined connection to the Redis a redis-py client points at (TCP or Unix socket)."""

    def __init__(self, redis: Redis) -> None:
        kwargs = redis.connection_pool.connection_kwargs
        self.path: str | None = kwargs.get("path")
        self.host: str = kwargs.get("host", "localhost")
        self.port: int = int(kwargs.get("port", 6379))
        self.db: int = int(kwargs.get("db", 0) or 0)
        self.username: str | None = kwargs.get("username")
        self.password: str | None = kwargs.get("password")
        self.connect_timeout: float = kwargs.get("socket_connect_timeout") or 5.0
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.sent: deque[float] = deque()  # when each waiting command was written
        # a Redis that stops answering (frozen, partitioned) must fail its commands, not hold
        # every table's write for ever: one watchdog timer, not one per command
        self.reply_timeout: float = kwargs.get("socket_timeout") or REPLY_SECONDS
        self._watchdog: asyncio.TimerHandle | None = None
        self._transport: asyncio.Transport | None = None
        self._connecting: asyncio.Task[None] | None = None

    @staticmethod
    def supports(redis: Redis) -> bool:
        """Plain TCP or Unix sockets only (TLS and other connection classes keep redis-py)."""
        kind = redis.connection_pool.connection_class.__name__
        return kind in ("Connection", "UnixDomainSocketConnection")

    def fail(self, error: Exception) -> None:
        """The connection is gone: every command waiting on it fails, the next one reconnects."""
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.abort()
        waiting, self.waiting = self.waiting, deque()
        self.sent = deque()
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        for future in waiting:
            if not future.done():
                future.set_exception(error)

    def send(self, *args: str | bytes | int) -> asyncio.Future[Any]:
        """Send one command now when connected (else once connected); the future is its reply."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self._transport is not None and not self._transport.is_closing():
            loop = asyncio.get_running_loop()
            self.waiting.append(future)
            self.sent.append(loop.time())
            self._transport.write(encode(args))
            if self._watchdog is None:
                self._watchdog = loop.call_later(self.reply_timeout, self._watch)
            return future
        return asyncio.ensure_future(self._send_later(args))

    def _watch(self) -> None:
        """Drop the connection when its oldest command has waited too long for its reply."""
        self._watchdog = None
        if not self.sent:
            return
        loop = asyncio.get_running_loop()
        due = self.sent[0] + self.reply_timeout
        if loop.time() >= due:
            self.fail(RedisTimeoutError(f"Redis did not answer within {self.reply_timeout:g} s"))
        else:
            self._watchdog = loop.call_at(due, self._watch)

    async def _send_later(self, args: tuple[str | bytes | int, ...]) -> Any:
        await self._connect()
        return await self.send(*args)

    async def _connect(self) -> None:
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._open())
        try:
            await asyncio.shield(self._connecting)
        finally:
            if self._connecting is not None and self._connecting.done():
                self._connecting = None

    async def _open(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                if self.path:
                    transport, _ = await loop.create_unix_connection(
                        lambda: _Protocol(self), self.path
                    )
                else:
                    transport, _ = await loop.create_connection(
                        lambda: _Protocol(self), self.host, self.port
                    )
        except (OSError, TimeoutError) as e:
            raise RedisConnectionError(f"could not connect to Redis: {e}") from None
        self._transport = transport
        setup: list[tuple[str | int, ...]] = []
        if self.password:
            auth = (self.username, self.password) if self.username else (self.password,)
            setup.append(("AUTH", *auth))
        if self.db:
            setup.append(("SELECT", self.db))
        # written in this step, before any other command can be: all of them run after these
        replies = [self.send(*(part for part in c if part is not None)) for c in setup]
        try:
            for reply in replies:
                await reply
        except ResponseError as e:  # e.g. a wrong password: nothing may run on this connection
            self.fail(RedisConnectionError(f"Redis refused the connection's setup: {e}"))
            raise RedisConnectionError(str(e)) from None

    def eval(self, script: str, keys: list[str], args: list[str | int]) -> asyncio.Future[Any]:
        """EVAL (Redis caches the script by its digest: no NOSCRIPT to recover from)."""
        return self.send("EVAL", script, len(keys), *keys, *args)

    def close(self) -> None:
        self.fail(RedisConnectionError("closed"))
