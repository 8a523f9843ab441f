"""One writer per table across server processes: a Redis lease with renewal and a fencing token.

A process that wants to change a table takes the table's lease (``SET NX PX`` inside a script
that also hands out a fencing token, an ever-growing number per table), keeps it renewed while
it works, and gives it back in the same script that records the table's last committed move
and publishes the change, so every subscriber sees moves in commit order. A process that dies
holding a lease (``kill -9``) stops renewing it and the lease expires after ``ttl`` seconds.

The lease only serialises writers; the storage's unique (table, move number) key is the last
line: a writer that lost its lease while stalled cannot commit a move number another already has.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from redis.asyncio import Redis

from ..engine.errors import GamenightError

KEY_PREFIX = "gamenight"

# KEYS: lease, fence counter, committed move.  ARGV: owner, ttl ms.
# -> {fencing token, committed move or -1} when taken, {0, remaining ms} when someone holds it.
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0, redis.call('PTTL', KEYS[1])}
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
local move = redis.call('GET', KEYS[3])
if not move then move = -1 end
return {token, tonumber(move)}
"""

# KEYS: lease.  ARGV: owner:token, ttl ms.  -> 1 renewed, 0 lost.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: lease, committed move.  ARGV: owner:token, move or '', channel or '', message.
# -> 1 released (and move stored, message published), 0 the lease was no longer ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[2], ARGV[2])
end
if ARGV[3] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
redis.call('DEL', KEYS[1])
return 1
"""

# KEYS: lease, committed move.  ARGV: owner:token, move, channel, message.  Publish while held.
_PUBLISH_HELD = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
"""


class LeaseBusy(GamenightError):
    """Another process held the table's lease for longer than we were willing to wait."""

    def __init__(self, table_id: str, waited: float) -> None:
        super().__init__(f"table {table_id} is busy in another server process (waited {waited:.1f} s)")
        self.table_id = table_id


class LeaseLost(GamenightError):
    """Our lease expired or was taken before we were done: the work must not be published."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"lost the write lease on table {table_id}")
        self.table_id = table_id


def lease_key(table_id: str) -> str:
    """Redis key of a table's lease."""
    return f"{KEY_PREFIX}:lease:{table_id}"


def fence_key(table_id: str) -> str:
    """Redis key of a table's fencing-token counter."""
    return f"{KEY_PREFIX}:fence:{table_id}"


def move_key(table_id: str) -> str:
    """Redis key holding a table's last committed move counter, as writers saw it."""
    return f"{KEY_PREFIX}:move:{table_id}"


@dataclass
class Lease:
    """A held lease: the fencing token orders every writer the table ever had."""

    table_id: str
    owner: str
    token: int
    committed_move: int | None
    """The last committed move counter recorded in Redis when we took it; None if unknown."""
    expires_at: float
    _renewer: asyncio.Task[None] | None = field(default=None, repr=False)
    lost: bool = False

    @property
    def value(self) -> str:
        """What the lease key holds while it is ours."""
        return f"{self.owner}:{self.token}"


class LeaseManager:
    """Takes, renews and gives back table leases for one server process (the ``owner``)."""

    def __init__(self, redis: Redis, owner: str, ttl: float = 5.0) -> None:
        self.redis = redis
        self.owner = owner
        self.ttl = ttl
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._publish_held = redis.register_script(_PUBLISH_HELD)
        self._local: dict[str, _LocalQueue] = {}

    def _ttl_ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    async def try_acquire(self, table_id: str) -> Lease | float:
        """Take the lease now, or return how many seconds its current holder has left."""
        token, second = await self._acquire(
            keys=[lease_key(table_id), fence_key(table_id), move_key(table_id)],
            args=[self.owner, self._ttl_ms()],
        )
        if int(token) == 0:
            return max(0.0, int(second) / 1000)
        move = int(second)
        return Lease(
            table_id=table_id,
            owner=self.owner,
            token=int(token),
            committed_move=None if move < 0 else move,
            expires_at=time.monotonic() + self.ttl,
        )

    async def acquire(self, table_id: str, timeout: float = 10.0) -> Lease:
        """Wait (short, jittered polls) until the lease is ours, then keep it renewed."""
        start = time.monotonic()
        delay = 0.001
        while True:
            got = await self.try_acquire(table_id)
            if isinstance(got, Lease):
                got._renewer = asyncio.create_task(self._keep(got))
                return got
            waited = time.monotonic() - start
            if waited >= timeout:
                raise LeaseBusy(table_id, waited)
            # A live holder gives it back within milliseconds; a dead one after its TTL.
            pause = min(delay, got if got > 0 else delay, timeout - waited)
            await asyncio.sleep(pause * random.uniform(0.5, 1.0))
            delay = min(delay * 2, 0.05)

    async def _keep(self, lease: Lease) -> None:
        """Renew at a third of the TTL; mark the lease lost if Redis says it is not ours."""
        try:
            while True:
                await asyncio.sleep(self.ttl / 3)
                ok = await self._renew(keys=[lease_key(lease.table_id)],
                                       args=[lease.value, self._ttl_ms()])
                if not int(ok):
                    lease.lost = True
                    return
                lease.expires_at = time.monotonic() + self.ttl
        except asyncio.CancelledError:
            raise
        except Exception:
            # Redis unreachable: we cannot prove we still hold it.
            lease.lost = True

    def check(self, lease: Lease) -> None:
        """Raise LeaseLost unless the lease is still ours by our own clock (before committing)."""
        if lease.lost or time.monotonic() >= lease.expires_at:
            raise LeaseLost(lease.table_id)

    async def publish_held(self, lease: Lease, move: int, channel: str, message: str) -> None:
        """Record the committed move and publish it, only while the lease is still ours."""
        ok = await self._publish_held(
            keys=[lease_key(lease.table_id), move_key(lease.table_id)],
            args=[lease.value, move, channel, message],
        )
        if not int(ok):
            lease.lost = True
            raise LeaseLost(lease.table_id)

    async def release(
        self,
        lease: Lease,
        move: int | None = None,
        channel: str | None = None,
        message: str = "",
    ) -> bool:
        """Give the lease back, atomically recording the committed move and publishing first."""
        if lease._renewer is not None:
            lease._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await lease._renewer
        ok = await self._release(
            keys=[lease_key(lease.table_id), move_key(lease.table_id)],
            args=[lease.value, "" if move is None else move, channel or "", message],
        )
        if not int(ok):
            lease.lost = True
        return bool(int(ok))

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str, timeout: float = 10.0) -> AsyncIterator[Lease]:
        """Hold a table's lease for a block; tasks of this process queue locally, not in Redis.

        Release inside the block with ``release(lease, move, channel, message)`` to publish the
        change atomically with the hand-over; otherwise the lease is given back on exit.
        """
        entry = self._local.get(table_id)
        if entry is None:
            entry = self._local[table_id] = _LocalQueue()
        entry.users += 1
        try:
            async with entry.lock:
                lease = await self.acquire(table_id, timeout)
                try:
                    yield lease
                finally:
                    if lease._renewer is not None and not lease._renewer.done():
                        await self.release(lease)
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._local[table_id]


@dataclass
class _LocalQueue:
    """Tasks of one process waiting for the same table, so only one of them polls Redis."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
