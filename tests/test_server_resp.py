"""The lease's own Redis connection (server/resp.py) on a real Redis: replies in order, errors
typed, a lost connection fails what waited on it and the next command reconnects."""

from __future__ import annotations

import asyncio
import uuid
from collections import deque

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402
from redis.exceptions import ConnectionError as RedisConnectionError  # noqa: E402
from redis.exceptions import ResponseError  # noqa: E402
from redis.exceptions import TimeoutError as RedisTimeoutError  # noqa: E402

from gamenight.server.lease_redis import RedisLease  # noqa: E402
from gamenight.server.protocol import ServerError  # noqa: E402
from gamenight.server.resp import RespConnection  # noqa: E402
from services import WAIT, until  # noqa: E402


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
    conn.reply_timeout = 4 * WAIT  # the BLPOP below is meant to wait; the kill ends it
    assert await conn.send("PING") == b"PONG"
    ours = int(await conn.send("CLIENT", "ID"))
    waiting = conn.send("BLPOP", f"resp-{uuid.uuid4().hex[:8]}", int(2 * WAIT))

    async def blocked() -> bool:  # Redis itself says the BLPOP is waiting on our connection
        return any(
            int(c["id"]) == ours and c.get("cmd") == "blpop" for c in await client.client_list()
        )

    await until(blocked, what="the BLPOP to block on the connection")
    # only our connection: CI's Redis is shared by every xdist worker, and killing every
    # connection but this one cut other tests' servers off mid-move
    assert await client.client_kill_filter(_id=str(ours)) == 1
    with pytest.raises(RedisConnectionError):
        await waiting
    assert await conn.send("PING") == b"PONG"
    conn.close()
    await client.aclose()


async def _silent_redis() -> tuple[asyncio.Server, int]:
    """A Redis that accepts connections and never answers: a frozen or partitioned server."""

    server = await asyncio.get_running_loop().create_server(asyncio.Protocol, "127.0.0.1", 0)
    return server, int(server.sockets[0].getsockname()[1])


async def test_a_redis_that_stops_answering_fails_the_command_instead_of_hanging() -> None:
    # An operator froze Redis (a network partition, a stalled VM): every move waited for the
    # lease's reply for ever, holding its table's lock; no player got an answer for minutes.
    server, port = await _silent_redis()
    client = Redis(host="127.0.0.1", port=port)
    conn = RespConnection(client)
    conn.reply_timeout = 0.2
    with pytest.raises(RedisTimeoutError):
        await asyncio.wait_for(conn.send("PING"), 30)
    assert conn.waiting == deque()  # nothing left waiting on the dropped connection
    conn.close()
    await client.aclose()
    server.close()


async def test_a_frozen_redis_refuses_the_write_with_server_error() -> None:
    server, port = await _silent_redis()
    client = Redis(host="127.0.0.1", port=port)
    lease = RedisLease(client, owner="p1")
    assert lease._conn is not None
    lease._conn.reply_timeout = 0.2
    with pytest.raises(ServerError) as refused:
        async with asyncio.timeout(30):
            async with lease.hold("t1"):
                pass
    assert refused.value.code == "server_error"
    await client.aclose()
    server.close()
