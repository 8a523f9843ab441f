"""The cross-process table lease on a real Redis: one writer at a time, expiry after a crash."""

from __future__ import annotations

import asyncio
import uuid

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402

from gamenight.server.lease_redis import HeldLease, LeaseBusy, LeaseLost, RedisLease  # noqa: E402
from services import WAIT, until  # noqa: E402


def table() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


async def test_a_second_process_waits_for_the_holder_and_gets_a_higher_token(
    redis: Redis,
) -> None:
    # TTLs and the wait far longer than any stall of a busy machine: only the release ends it
    a, b = RedisLease(redis, "a", ttl=WAIT), RedisLease(redis, "b", ttl=WAIT)
    t = table()
    first = await a.acquire(t)
    busy = await b.try_acquire(t)
    assert isinstance(busy, float) and 0 < busy <= WAIT
    tries = 0
    try_acquire = b.try_acquire

    async def counted(table_id: str) -> HeldLease | float:
        nonlocal tries
        tries += 1
        return await try_acquire(table_id)

    b.try_acquire = counted  # type: ignore[method-assign]
    waiter = asyncio.create_task(b.acquire(t, timeout=WAIT))
    await until(lambda: tries >= 3, what="the waiter to ask for the lease again and again")
    assert not waiter.done()  # it asked, and was told to wait
    assert await a.release(first)
    second = await waiter
    assert second.token > first.token
    assert await b.release(second)


async def test_a_dead_holder_loses_the_lease_after_its_ttl(redis: Redis) -> None:
    # a TTL (3 s) well past a busy machine's stall between two awaits: the lease is still
    # held when B first asks; B's own lease (a WAIT-long TTL) cannot expire under the checks
    a, b = RedisLease(redis, "a", ttl=3), RedisLease(redis, "b", ttl=WAIT)
    t = table()
    dead = await a.acquire(t)
    assert dead._renewer is not None
    dead._renewer.cancel()  # the process stops renewing, as after kill -9
    with pytest.raises(LeaseBusy):
        await b.acquire(t, timeout=0.05)
    taken = await b.acquire(t, timeout=WAIT)
    assert taken.token > dead.token
    with pytest.raises(LeaseLost):
        a.check(dead)
    # The old holder cannot give back (delete) what is now someone else's lease.
    assert not await a.release(dead)
    assert isinstance(await a.try_acquire(t), float)
    b.check(taken)
    assert await b.release(taken)


async def test_a_live_holder_keeps_renewing_past_its_ttl(redis: Redis) -> None:
    # renewed every TTL/3: a 4 s TTL leaves 2.7 s for a late renewal on a busy machine
    a, b = RedisLease(redis, "a", ttl=4), RedisLease(redis, "b", ttl=4)
    t = table()
    held = await a.acquire(t)
    loop = asyncio.get_running_loop()
    until_ = loop.time() + 1.5 * a.ttl  # past the TTL, however slowly the checks run
    while loop.time() < until_:
        await asyncio.sleep(0.1)
        assert isinstance(await b.try_acquire(t), float)
    a.check(held)
    assert await a.release(held)
    got = await b.try_acquire(t)
    assert not isinstance(got, float)
    await b.release(got)


async def test_a_taken_over_lease_is_noticed_by_its_renewer(redis: Redis) -> None:
    a = RedisLease(redis, "a", ttl=0.3)
    t = table()
    held = await a.acquire(t)
    # the intruder's lease outlives the wait below, however long the renewal takes to come
    await redis.set(f"gamenight:lease:{t}", "intruder:999", px=int(2 * WAIT * 1000))
    await until(lambda: held.lost, what="the renewer to notice the lease was taken")
    with pytest.raises(LeaseLost):
        a.check(held)
    assert not await a.release(held)
    assert await redis.get(f"gamenight:lease:{t}") == b"intruder:999"


async def test_hold_admits_one_writer_at_a_time_across_processes(redis: Redis) -> None:
    leases = [RedisLease(redis, "a", ttl=2), RedisLease(redis, "b", ttl=2)]
    t = table()
    inside = 0
    done: list[int] = []
    tokens: list[int] = []

    async def writer(i: int) -> None:
        nonlocal inside
        async with leases[i % 2].hold(t) as lease:
            inside += 1
            assert inside == 1
            tokens.append(lease.token)
            await asyncio.sleep(0.002)
            done.append(i)
            inside -= 1

    await asyncio.gather(*(writer(i) for i in range(30)))
    assert sorted(done) == list(range(30))
    assert tokens == sorted(tokens) and len(set(tokens)) == 30
    assert all(not lease._local for lease in leases)
    assert await redis.get(f"gamenight:lease:{t}") is None


async def test_a_failing_block_still_gives_the_lease_back(redis: Redis) -> None:
    a = RedisLease(redis, "a", ttl=5)
    t = table()
    with pytest.raises(ZeroDivisionError):
        async with a.hold(t):
            1 / 0  # noqa: B018
    assert await redis.get(f"gamenight:lease:{t}") is None


async def test_a_lease_knows_when_nobody_else_wrote_since_our_last(redis: Redis) -> None:
    a, b = RedisLease(redis, "a", ttl=2), RedisLease(redis, "b", ttl=2)
    t = table()
    async with a.hold(t) as first:
        assert not first.unchanged  # we never held it: we cannot know
    async with a.hold(t) as again:
        assert again.unchanged
    async with b.hold(t) as other:
        assert not other.unchanged
    async with a.hold(t) as after:
        assert not after.unchanged  # b wrote in between: catch up from storage
    dead = await a.acquire(t)
    assert dead._renewer is not None
    dead._renewer.cancel()
    await redis.delete(f"gamenight:lease:{t}")  # as if it expired
    assert not await a.release(dead)
    async with a.hold(t) as later:
        assert not later.unchanged  # our last one ended badly


async def test_a_lease_after_one_whose_moves_we_hold_needs_no_catching_up(redis: Redis) -> None:
    a, b = RedisLease(redis, "a", ttl=2), RedisLease(redis, "b", ttl=2)
    t = table()
    async with b.hold(t) as theirs:
        pass
    a.seen(t, theirs.token)  # b's notice came and we caught up to its moves
    async with a.hold(t) as ours:
        assert ours.unchanged
    async with b.hold(t) as theirs:
        pass
    async with b.hold(t):  # a second lease of b's that we heard nothing of
        pass
    a.seen(t, theirs.token)
    async with a.hold(t) as after:
        assert not after.unchanged
    a.seen(t, theirs.token - 1)  # a late notice never moves what we know backwards
    assert a._last[t] == after.token


async def test_an_unreachable_redis_refuses_the_write_with_a_typed_error() -> None:
    from gamenight.server.protocol import ServerError
    from services import free_port

    client = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5)
    lease = RedisLease(client, "a", ttl=1)
    ran = False
    with pytest.raises(ServerError) as refused:
        async with lease.hold(table()):
            ran = True
    assert not ran
    assert refused.value.code == "server_error" and "try again" in refused.value.message
    # players read it: no address, errno or name of the machinery behind the table
    assert not any(w in refused.value.message for w in ("Redis", "Errno", "127.0.0.1"))
    assert lease._local == {}
    await client.aclose()


async def test_a_lease_held_too_long_elsewhere_is_a_typed_busy_error(redis: Redis) -> None:
    from gamenight.server.protocol import ServerError

    a, b = RedisLease(redis, "a", ttl=5), RedisLease(redis, "b", ttl=5, wait=0.2)
    t = table()
    held = await a.acquire(t)
    with pytest.raises(LeaseBusy) as busy:
        async with b.hold(t):
            pass
    assert isinstance(busy.value, ServerError) and "busy" in busy.value.message
    await a.release(held)


async def test_a_release_publishes_what_the_holder_announced_even_when_lost(redis: Redis) -> None:
    a = RedisLease(redis, "a", ttl=2)
    t = table()
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(f"chan-{t}")
    async with a.hold(t) as held:
        held.announce += [(f"chan-{t}", "one"), (f"chan-{t}", "two")]
    lost = await a.acquire(t)
    lost.announce.append((f"chan-{t}", "three"))
    await redis.delete(f"gamenight:lease:{t}")  # expired: not ours to delete, still announced
    assert not await a.release(lost)
    got = []
    deadline = asyncio.get_running_loop().time() + WAIT
    while len(got) < 3 and asyncio.get_running_loop().time() < deadline:
        msg = await pubsub.get_message(timeout=0.5)  # None also for the subscribe reply
        if msg is not None:
            got.append(msg["data"])
    assert got == [b"one", b"two", b"three"]
    await pubsub.aclose()
