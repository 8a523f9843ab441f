"""Redis fan-out between two processes' worth of subscribers, on a real Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402
from services import redis_url  # noqa: E402,F401

from gamenight.server.fanout_redis import RedisFanout, table_channel  # noqa: E402


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:  # noqa: F811
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


class Inbox:
    """Collects messages and lets a test wait for the n-th."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.event = asyncio.Event()

    def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.event.set()

    async def wait(self, n: int, timeout: float = 5) -> None:
        async def until() -> None:
            while len(self.messages) < n:
                self.event.clear()
                await self.event.wait()

        await asyncio.wait_for(until(), timeout)


async def fanout(redis: Redis, origin: str, **kw: Any) -> RedisFanout:
    f = RedisFanout(redis, origin, **kw)
    await f.start()
    return f


async def test_a_move_reaches_the_other_process_not_its_own(redis: Redis) -> None:
    t = f"t-{uuid.uuid4().hex[:12]}"
    a, b = await fanout(redis, "a"), await fanout(redis, "b")
    in_a, in_b = Inbox(), Inbox()
    await a.subscribe(t, in_a)
    await b.subscribe(t, in_b)
    await a.publish(t, {"move": 1, "moves": [{"seat": 0, "action": {"type": "roll"}}]})
    await b.publish(t, {"move": 2})
    await in_b.wait(1)
    await in_a.wait(1)
    assert in_b.messages == [{"move": 1, "moves": [{"seat": 0, "action": {"type": "roll"}}],
                              "table": t, "origin": "a"}]
    assert [m["move"] for m in in_a.messages] == [2]
    await a.stop()
    await b.stop()


async def test_only_subscribed_tables_are_delivered_and_unsubscribe_stops_them(
    redis: Redis,
) -> None:
    t, other = f"t-{uuid.uuid4().hex[:12]}", f"t-{uuid.uuid4().hex[:12]}"
    a, b = await fanout(redis, "a"), await fanout(redis, "b")
    inbox = Inbox()
    await b.subscribe(t, inbox)
    await a.publish(other, {"move": 1})
    await a.publish(t, {"move": 7})
    await inbox.wait(1)
    await b.unsubscribe(t, inbox)
    assert b.tables() == []
    await a.publish(t, {"move": 8})
    await asyncio.sleep(0.2)
    assert [m["move"] for m in inbox.messages] == [7]
    await a.stop()
    await b.stop()


async def test_garbage_on_the_channel_does_not_stop_delivery(redis: Redis) -> None:
    t = f"t-{uuid.uuid4().hex[:12]}"
    b = await fanout(redis, "b")
    inbox = Inbox()

    def broken(message: dict[str, Any]) -> None:
        raise RuntimeError("handler bug")

    await b.subscribe(t, broken)
    await b.subscribe(t, inbox)
    await redis.publish(table_channel(t), b"\xff not json")
    await redis.publish(table_channel(t), b"[1, 2]")
    await redis.publish(table_channel(t), '{"move": 3, "table": "%s", "origin": "x"}' % t)
    await inbox.wait(1)
    assert [m["move"] for m in inbox.messages] == [3]
    await b.stop()


async def test_a_dropped_subscriber_resubscribes_and_reports_the_gap(redis: Redis) -> None:
    t = f"t-{uuid.uuid4().hex[:12]}"
    gaps: list[int] = []
    a = await fanout(redis, "a")
    b = await fanout(redis, "b", on_gap=lambda: gaps.append(1))
    inbox = Inbox()
    await b.subscribe(t, inbox)
    await redis.client_kill_filter(_type="pubsub", skipme=True)
    deadline = asyncio.get_running_loop().time() + 5
    while not gaps and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    assert gaps, "the fan-out never noticed its subscriber connection died"
    await a.publish(t, {"move": 4})
    await inbox.wait(1)
    assert inbox.messages[-1]["move"] == 4
    await a.stop()
    await b.stop()
