"""The table lease against a real Redis: one writer at a time, expiry after a crash, fencing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402
from services import redis_url  # noqa: E402,F401

from gamenight.server.fanout_redis import RedisFanout, table_channel  # noqa: E402
from gamenight.server.lease import LeaseBusy, LeaseLost, LeaseManager  # noqa: E402


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:  # noqa: F811
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


def table() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


async def test_second_process_waits_and_sees_the_committed_move(redis: Redis) -> None:
    a, b = LeaseManager(redis, "a", ttl=2), LeaseManager(redis, "b", ttl=2)
    t = table()
    first = await a.acquire(t)
    assert first.committed_move is None
    busy = await b.try_acquire(t)
    assert isinstance(busy, float) and 0 < busy <= 2
    assert await a.release(first, move=5)
    second = await b.acquire(t, timeout=1)
    assert second.token > first.token
    assert second.committed_move == 5
    await b.release(second)


async def test_a_dead_holder_loses_the_lease_after_its_ttl(redis: Redis) -> None:
    a, b = LeaseManager(redis, "a", ttl=0.3), LeaseManager(redis, "b", ttl=0.3)
    t = table()
    dead = await a.acquire(t)
    assert dead._renewer is not None
    dead._renewer.cancel()  # the process stops renewing, as after kill -9
    with pytest.raises(LeaseBusy):
        await b.acquire(t, timeout=0.05)
    taken = await b.acquire(t, timeout=2)
    assert taken.token > dead.token
    with pytest.raises(LeaseLost):
        a.check(dead)
    # The old holder can neither publish nor release what is no longer its lease.
    with pytest.raises(LeaseLost):
        await a.publish_held(dead, 9, table_channel(t), "{}")
    assert not await a.release(dead, move=9)
    assert await redis.get(f"gamenight:move:{t}") is None
    await b.release(taken)


async def test_a_live_holder_keeps_renewing(redis: Redis) -> None:
    a, b = LeaseManager(redis, "a", ttl=0.3), LeaseManager(redis, "b", ttl=0.3)
    t = table()
    held = await a.acquire(t)
    for _ in range(8):  # 0.8 s, well past the TTL
        await asyncio.sleep(0.1)
        assert isinstance(await b.try_acquire(t), float)
    a.check(held)
    assert await a.release(held)
    assert not isinstance(await b.try_acquire(t), float)


async def test_hold_admits_one_writer_at_a_time_across_processes(redis: Redis) -> None:
    managers = [LeaseManager(redis, "a", ttl=2), LeaseManager(redis, "b", ttl=2)]
    t = table()
    inside = 0
    seen: list[int] = []
    tokens: list[int] = []

    async def writer(i: int) -> None:
        nonlocal inside
        async with managers[i % 2].hold(t) as lease:
            inside += 1
            assert inside == 1
            tokens.append(lease.token)
            await asyncio.sleep(0.002)
            seen.append(i)
            inside -= 1

    await asyncio.gather(*(writer(i) for i in range(30)))
    assert sorted(seen) == list(range(30))
    assert tokens == sorted(tokens) and len(set(tokens)) == 30
    assert all(not m._local for m in managers)


async def test_moves_published_on_release_arrive_in_commit_order(redis: Redis) -> None:
    t = table()
    managers = [LeaseManager(redis, "a", ttl=2), LeaseManager(redis, "b", ttl=2)]
    watcher = RedisFanout(redis, "c")
    await watcher.start()
    got: list[int] = []
    done = asyncio.Event()

    def on_message(message: dict[str, object]) -> None:
        got.append(int(message["move"]))  # type: ignore[call-overload]
        if len(got) == 40:
            done.set()

    await watcher.subscribe(t, on_message)
    move = 0

    async def writer(i: int) -> None:
        nonlocal move
        m = managers[i % 2]
        async with m.hold(t) as lease:
            assert lease.committed_move == (move if move else None)
            move += 1
            await m.release(lease, move, table_channel(t),
                            RedisFanout(redis, m.owner).encode(t, {"move": move}))

    await asyncio.gather(*(writer(i) for i in range(40)))
    await asyncio.wait_for(done.wait(), 5)
    assert got == list(range(1, 41))
    await watcher.stop()
