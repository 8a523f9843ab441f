"""The lease's own Redis connection (server/resp.py) on a real Redis: replies in order, errors
typed, a lost connection fails what waited on it and the next command reconnects."""

from __future__ import annotations

import asyncio
import uuid

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402
from redis.exceptions import ConnectionError as RedisConnectionError  # noqa: E402
from redis.exceptions import ResponseError  # noqa: E402

from gamenight.server.resp import RespConnection  # noqa: E402


async def test_pipelined_commands_get_their_own_replies_in_order(redis_url: str) -> None:
    client = Redis.from_url(redis_url.rsplit("/", 1)[0] + "/3")  # SELECT runs first
    conn = RespConnection(client)
    key = f"resp-{uuid.uuid4().hex[:8]}"
    replies = await asyncio.gather(*(conn.send("INCR", key) for _ in range(50)))
    assert replies == list(range(1, 51))
    assert await client.get(key) == b"50"  # the same database as the client's
    assert await conn.eval("return ARGV[1]", [key], ["x y\r\n"]) == b"x y\r\n"
    assert await conn.send("GET", f"{key}-none") is None
    with pytest.raises(ResponseError):
        await conn.eval("return redis.error_reply('no')", [], [])
    assert await conn.send("PING") == b"PONG"  # an error reply keeps the stream in step
    await client.delete(key)
    conn.close()
    await client.aclose()


async def test_a_dropped_connection_fails_its_commands_and_the_next_reconnects(
    redis_url: str,
) -> None:
    client = Redis.from_url(redis_url)
    conn = RespConnection(client)
    assert await conn.send("PING") == b"PONG"
    waiting = conn.send("BLPOP", f"resp-{uuid.uuid4().hex[:8]}", 5)
    await asyncio.sleep(0.05)
    await client.client_kill_filter(skipme=True, _type="normal")  # every connection but this one
    with pytest.raises(RedisConnectionError):
        await waiting
    assert await conn.send("PING") == b"PONG"
    conn.close()
    await client.aclose()
