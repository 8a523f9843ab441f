"""Redis fan-out between two processes' worth of subscribers, on a real Redis."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402

from gamenight.server.redis_fanout import RedisFanOut, table_channel  # noqa: E402
from services import WAIT, until  # noqa: E402


class Inbox:
    """Collects notices and lets a test wait for the n-th. A ``gate`` holds every notice
    until it is set: a subscriber as slow as a test needs, by an event, not by a clock."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.notices: list[dict[str, Any]] = []
        self.event = asyncio.Event()
        self.gate = gate

    async def __call__(self, notice: dict[str, Any]) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.notices.append(notice)
        self.event.set()

    async def wait(self, n: int, timeout: float = WAIT) -> None:
        async def until() -> None:
            while len(self.notices) < n:
                self.event.clear()
                await self.event.wait()

        await asyncio.wait_for(until(), timeout)


async def fanout(redis: Redis, origin: str, **kw: Any) -> RedisFanOut:
    f = RedisFanOut(redis, origin, **kw)
    await f.start()
    return f


def table() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


async def test_a_notice_reaches_the_other_process_once_and_its_own_locally(redis: Redis) -> None:
    t = table()
    a, b = await fanout(redis, "a"), await fanout(redis, "b")
    in_a, in_b = Inbox(), Inbox()
    a.subscribe(t, in_a)
    b.subscribe(t, in_b)
    await a.settled()
    await b.settled()
    await a.publish(t, {"table_id": t, "move": 1, "kind": "moves"})
    assert in_a.notices == [{"table_id": t, "move": 1, "kind": "moves"}]  # awaited inline
    await in_b.wait(1)
    await b.publish(t, {"table_id": t, "move": 2, "kind": "seats"})
    await in_a.wait(2)
    assert [n["move"] for n in in_a.notices] == [1, 2]
    # B's own notice must not come back to it through Redis. A later notice from A is the
    # marker: Redis sends a channel's messages in order, so any echo would come before it.
    await a.publish(t, {"table_id": t, "move": 3, "kind": "moves"})
    await in_b.wait(3)
    assert in_b.notices == [
        {"table_id": t, "move": 1, "kind": "moves", "origin": "a"},  # from elsewhere
        {"table_id": t, "move": 2, "kind": "seats"},  # its own, as published
        {"table_id": t, "move": 3, "kind": "moves", "origin": "a"},
    ]
    await a.close()
    await b.close()


async def test_only_subscribed_tables_are_delivered_and_unsubscribe_stops_them(
    redis: Redis,
) -> None:
    t, other = table(), table()
    a, b = await fanout(redis, "a"), await fanout(redis, "b")
    inbox = Inbox()
    stop = b.subscribe(t, inbox)
    await b.settled()
    await a.publish(other, {"move": 1})
    await a.publish(t, {"move": 7})
    await inbox.wait(1)
    stop()
    await b.settled()
    assert b.subscribers == {}
    channels = await redis.pubsub_channels(table_channel(t))
    assert channels == []
    # the marker: a notice on another table B still follows, published after move 8; Redis
    # delivers one connection's messages in order, so move 8 would have come before it
    marker_t, marker = table(), Inbox()
    b.subscribe(marker_t, marker)
    await b.settled()
    received = b.received
    await a.publish(t, {"move": 8})
    await a.publish(marker_t, {"move": 9})
    await marker.wait(1)
    assert b.received == received + 1, "B was sent a table it unsubscribed"
    assert [n["move"] for n in inbox.notices] == [7]
    await a.close()
    await b.close()


async def test_a_slow_table_does_not_hold_up_another_and_order_is_kept(redis: Redis) -> None:
    slow_t, fast_t = table(), table()
    a, b = await fanout(redis, "a"), await fanout(redis, "b")
    held = asyncio.Event()
    slow, fast = Inbox(gate=held), Inbox()  # the slow table's subscriber waits for the gate
    b.subscribe(slow_t, slow)
    b.subscribe(fast_t, fast)
    await b.settled()
    for move in range(1, 11):
        await a.publish(slow_t, {"move": move})
    await a.publish(fast_t, {"move": 1})
    await fast.wait(1)  # while the slow table is still stuck on its first notice
    assert len(slow.notices) < 10
    held.set()
    await slow.wait(10)
    assert [n["move"] for n in slow.notices] == list(range(1, 11))
    await a.close()
    await b.close()


async def test_garbage_on_the_channel_does_not_stop_delivery(redis: Redis) -> None:
    t = table()
    b = await fanout(redis, "b")
    inbox = Inbox()

    async def broken(notice: dict[str, Any]) -> None:
        raise RuntimeError("subscriber bug")

    b.subscribe(t, broken)
    b.subscribe(t, inbox)
    await b.settled()
    await redis.publish(table_channel(t), b"\xff not json")
    await redis.publish(table_channel(t), b"[1, 2]")
    await redis.publish(table_channel(t), '{"move": 2}')
    await redis.publish(table_channel(t), f'{{"move": 3, "table_id": "{t}", "origin": "x"}}')
    await inbox.wait(1)
    assert inbox.notices == [{"move": 3, "table_id": t, "origin": "x"}]
    await b.close()


async def kill_subscribers(redis: Redis, name: str) -> int:
    """Cut the pub/sub connections of the clients named ``name`` only: CI's Redis is shared by
    every xdist worker, and killing every subscriber cut other tests' server processes off."""
    killed = 0
    for client in await redis.client_list(_type="pubsub"):
        if client.get("name") == name:
            killed += await redis.client_kill_filter(_id=client["id"])
    return killed


async def test_a_dropped_subscriber_resubscribes_and_reports_the_gap(
    redis: Redis, redis_url: str
) -> None:
    t = table()
    gaps: list[int] = []
    name = f"gn-test-{uuid.uuid4().hex[:12]}"
    own = Redis.from_url(redis_url, client_name=name)
    a = await fanout(redis, "a")
    b = await fanout(own, "b", on_gap=lambda: gaps.append(1))
    inbox = Inbox()
    b.subscribe(t, inbox)
    await b.settled()
    assert await kill_subscribers(redis, name) == 1
    await until(lambda: gaps, what="the fan-out to notice its subscriber connection died")
    await a.publish(t, {"move": 4})
    await inbox.wait(1)
    assert inbox.notices[-1]["move"] == 4
    await a.close()
    await b.close()
    await own.aclose()


async def test_a_url_makes_and_closes_its_own_client(redis_url: str) -> None:
    f = RedisFanOut(redis_url)
    await f.start()
    inbox, t = Inbox(), table()  # not a fixed name: the Redis may be shared
    f.subscribe(t, inbox)
    await f.publish(t, {"move": 1})
    assert inbox.notices == [{"move": 1}]
    await f.close()


async def test_hundreds_of_tables_at_once_wait_for_a_connection_instead_of_failing(
    redis_url: str,
) -> None:
    from gamenight.server.lease_redis import RedisLease

    f = RedisFanOut(redis_url)
    await f.start()
    lease = RedisLease(f.redis, f.origin, ttl=5)
    tables = [table() for _ in range(300)]
    inboxes = {t: Inbox() for t in tables}
    for t in tables:
        f.subscribe(t, inboxes[t])
    await f.settled()

    async def write(t: str) -> None:
        async with lease.hold(t):
            await asyncio.sleep(0.01)
            await f.publish(t, {"move": 1})

    await asyncio.gather(*(write(t) for t in tables))  # 300 at once, over a pool of 64
    assert all(inboxes[t].notices == [{"move": 1}] for t in tables)
    assert f.published == 300
    await f.close()


async def test_a_notice_redis_refuses_still_reaches_local_subscribers() -> None:
    from services import free_port

    f = RedisFanOut(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    inbox = Inbox()
    f.subscribe("t", inbox)
    await f.publish("t", {"move": 5})
    assert inbox.notices == [{"move": 5}]
    assert f.published == 0
    await f.close()


class OwnRedis:
    """A redis-server of the test's own, to stop and start again on the same port."""

    def __init__(self, workdir: Any) -> None:
        import shutil

        from services import free_port

        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("redis-server is missing")
        self.port, self.workdir, self.proc = free_port(), workdir, None
        self.args = [exe, "--port", str(self.port), "--bind", "127.0.0.1"]
        self.args += ["--save", "", "--appendonly", "no"]
        self.url = f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        import subprocess

        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, cwd=self.workdir)

        async def listening() -> bool:
            assert self.proc is not None and self.proc.poll() is None, "redis-server exited"
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                return False
            writer.close()
            return True

        await until(listening, timeout=2 * WAIT, what=f"redis-server to listen on {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


async def listening_pair(
    url: str, on_gap: Any = None
) -> tuple[RedisFanOut, RedisFanOut, str, Inbox]:
    """Fan-outs A and B started on ``url``, B subscribed to a new table: (A, B, table, inbox)."""
    a, b = RedisFanOut(url, "a"), RedisFanOut(url, "b", on_gap=on_gap)
    await a.start()
    await b.start()
    t, inbox = table(), Inbox()
    b.subscribe(t, inbox)
    await b.settled()
    return a, b, t, inbox


async def test_the_subscriber_comes_back_after_redis_was_down_a_while(tmp_path: Any) -> None:
    """Redis down longer than one resubscribe attempt: once it is back, notices flow again
    (the reader used to die on the pubsub left without a connection, deaf for good)."""
    server = OwnRedis(tmp_path)
    await server.start()
    a, b, t, inbox = await listening_pair(server.url)
    try:
        server.stop()
        await asyncio.sleep(1.0)  # Redis down a while: the behaviour under test, not a wait
        await server.start()
        moves = iter(range(10**6))

        async def heard() -> bool:
            await a.publish(t, {"move": next(moves)})
            return bool(inbox.notices)

        await until(heard, poll=0.2, what="the subscriber to come back after Redis did")
    finally:
        await a.close()
        await b.close()
        server.stop()


async def test_the_first_notice_after_redis_restarted_is_not_lost(tmp_path: Any) -> None:
    """The publisher's pooled connection died with Redis; its first publish afterwards failed
    on it and the notice was only logged (the last move of a game: no next one repairs it)."""
    server = OwnRedis(tmp_path)
    await server.start()
    gaps: list[int] = []
    a, b, t, inbox = await listening_pair(server.url, on_gap=lambda: gaps.append(1))
    try:
        await a.publish(t, {"move": 1})
        await inbox.wait(1)
        server.stop()
        await server.start()
        await until(lambda: gaps, what="the subscriber to come back")
        await a.publish(t, {"move": 2})
        await inbox.wait(2)
        assert a.published == 2
    finally:
        await a.close()
        await b.close()
        server.stop()
