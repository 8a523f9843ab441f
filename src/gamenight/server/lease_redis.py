"""One writer per table across server processes: a Redis lease with renewal and a fencing token.

A process that is about to change a table takes the table's lease (``SET NX PX`` inside a
script that also hands out a fencing token, a number that grows with every new holder), keeps
it renewed while it works and gives it back when the move is committed. A process that dies
holding a lease (``kill -9``) stops renewing it, and the lease expires after ``ttl`` seconds.

The lease serialises writers; the storage's unique (table, move index) key is the last line: a
writer that lost its lease while stalled cannot commit a move index another writer already has.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..engine.errors import GamenightError
from .protocol import ServerError
from .resp import RespConnection

log = logging.getLogger(__name__)

KEY_PREFIX = "gamenight"

# KEYS: lease, fence counter.  ARGV: owner, ttl ms.
# -> the fencing token when taken, or minus the holder's remaining milliseconds.
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return -math.max(redis.call('PTTL', KEYS[1]), 1)
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token
"""

# KEYS: lease.  ARGV: owner:token, ttl ms.  -> 1 renewed, 0 not ours any more.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: lease.  ARGV: owner:token, then channel, message, ...  -> 1 released, 0 it was no
# longer ours. The messages (the notices of the work done under the lease, already committed)
# are published either way.
_RELEASE = """
local released = 0
if redis.call('GET', KEYS[1]) == ARGV[1] then
  released = redis.call('DEL', KEYS[1])
end
for i = 2, #ARGV - 1, 2 do
  redis.call('PUBLISH', ARGV[i], ARGV[i + 1])
end
return released
"""


class LeaseBusy(ServerError):
    """Another process held the table's lease for longer than we were willing to wait."""

    def __init__(self, table_id: str, waited: float) -> None:
        super().__init__(
            "server_error",
            f"table {table_id} is busy in another server process (waited {waited:.1f} s); "
            "nothing changed, try again",
        )
        self.table_id = table_id


class LeaseLost(GamenightError):
    """Our lease expired or was taken before we were done: the work must not be committed."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"lost the write lease on table {table_id}")
        self.table_id = table_id


def lease_key(table_id: str) -> str:
    """Redis key of a table's lease."""
    return f"{KEY_PREFIX}:lease:{table_id}"


def fence_key(table_id: str) -> str:
    """Redis key of a table's fencing-token counter."""
    return f"{KEY_PREFIX}:fence:{table_id}"


@dataclass
class HeldLease:
    """A lease we hold: the fencing token orders every writer the table ever had."""

    table_id: str
    owner: str
    token: int
    expires_at: float
    lost: bool = False
    unchanged: bool = False
    """True when the table's previous lease (token - 1) was our own, given back in good order,
    or one whose moves we already hold (``seen``): our copy of the table needs no catching up."""
    announce: list[tuple[str, str]] = field(default_factory=list)
    """(channel, message) pairs the release publishes in its own round trip: a writer's notices
    cost no PUBLISH of their own."""
    _renewer: asyncio.TimerHandle | asyncio.Task[None] | None = field(default=None, repr=False)
    """What renews the lease next: a timer until a renewal is due, then that renewal's task
    (cancelling it is how a test plays a process that stopped renewing)."""
    _done: bool = field(default=False, repr=False)

    @property
    def value(self) -> str:
        """What the lease key holds while it is ours."""
        return f"{self.owner}:{self.token}"


@dataclass
class _LocalQueue:
    """Tasks of one process waiting for the same table, so only one of them polls Redis."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class RedisLease:
    """The ``Lease`` port across processes: takes, renews and gives back table leases."""

    def __init__(self, redis: Redis, owner: str, ttl: float = 5.0, wait: float = 10.0) -> None:
        self.redis = redis
        self.owner = owner
        self.ttl = ttl
        self.wait = wait
        # the lease's own pipelined connection (resp.py); redis-py's scripts for TLS and the like
        self._conn = RespConnection(redis) if RespConnection.supports(redis) else None
        self._scripts = {text: redis.register_script(text) for text in (_ACQUIRE, _RENEW, _RELEASE)}
        self._local: dict[str, _LocalQueue] = {}
        self._last: dict[str, int] = {}  # per table, the token of our last lease given back
        self._releasing: set[asyncio.Future[Any]] = set()
        self.on_wait: Callable[[float], None] | None = None  # seconds a write waited (metrics)

    def _run(self, script: str, keys: list[str], args: list[Any]) -> Awaitable[Any]:
        """Run one of the lease's scripts (sent at once on the lease's own connection)."""
        if self._conn is not None:
            return self._conn.eval(script, keys, args)
        return self._scripts[script](keys=keys, args=args)

    def _ttl_ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    async def try_acquire(self, table_id: str) -> HeldLease | float:
        """Take the lease now, or return how many seconds its current holder has left."""
        sent = time.monotonic()  # Redis's TTL starts after this: our clock runs out first
        got = int(
            await self._run(
                _ACQUIRE, [lease_key(table_id), fence_key(table_id)], [self.owner, self._ttl_ms()]
            )
        )
        if got < 0:
            return -got / 1000
        lease = HeldLease(table_id, self.owner, got, sent + self.ttl)
        lease.unchanged = self._last.get(table_id) == got - 1
        return lease

    async def acquire(self, table_id: str, timeout: float | None = None) -> HeldLease:
        """Wait (short jittered polls) until the lease is ours, then keep it renewed."""
        timeout = self.wait if timeout is None else timeout
        start = time.monotonic()
        delay = 0.001
        while True:
            got = await self.try_acquire(table_id)
            if isinstance(got, HeldLease):
                self._renew_later(got)
                return got
            waited = time.monotonic() - start
            if waited >= timeout:
                raise LeaseBusy(table_id, waited)
            # A live holder gives it back within milliseconds; a dead one after its TTL.
            pause = min(delay, got, timeout - waited)
            await asyncio.sleep(pause * random.uniform(0.5, 1.0))
            delay = min(delay * 2, 0.05)

    def _renew_later(self, lease: HeldLease) -> None:
        """Renew at a third of the TTL: a timer, not a task per lease, as most leases are given
        back within milliseconds (a task, a wait_for and an event per move cost more CPU than
        the lease's own round trips)."""
        loop = asyncio.get_running_loop()
        lease._renewer = loop.call_later(self.ttl / 3, self._renew_now, lease)

    def _renew_now(self, lease: HeldLease) -> None:
        if not lease._done:
            lease._renewer = asyncio.create_task(self._renew_once(lease))

    async def _renew_once(self, lease: HeldLease) -> None:
        """One renewal; mark the lease lost when Redis says it is not ours. Never cancelled
        mid-command by ``release`` (awaited instead): a redis-py reply cut off by a cancel can
        leave the next command on that connection waiting for ever."""
        try:
            sent = time.monotonic()
            ok = await self._run(_RENEW, [lease_key(lease.table_id)], [lease.value, self._ttl_ms()])
            if not int(ok):
                lease.lost = True
                log.warning(
                    "lease on table %s was taken over",
                    lease.table_id,
                    extra={"table": lease.table_id},
                )
                return
            lease.expires_at = sent + self.ttl
            if not lease._done:
                self._renew_later(lease)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # Redis unreachable: we can no longer prove it is ours.
            lease.lost = True
            log.warning(
                "lease on table %s could not be renewed: %s",
                lease.table_id,
                e,
                extra={"table": lease.table_id},
            )

    def forget(self, table_id: str) -> None:
        """The process dropped the table: keep nothing of it (the next write catches up)."""
        self._last.pop(table_id, None)

    def seen(self, table_id: str, token: int) -> None:
        """We hold everything the writer with lease ``token`` committed (its notice said so and
        we caught up to it): if that lease is the one before our next, nothing needs reading."""
        if token > self._last.get(table_id, -1):
            self._last[table_id] = token

    def check(self, lease: HeldLease) -> None:
        """Raise LeaseLost unless the lease is still ours by our own clock (call before commit)."""
        if lease.lost or time.monotonic() >= lease.expires_at:
            raise LeaseLost(lease.table_id)

    async def release(self, lease: HeldLease) -> bool:
        """Give the lease back; False if it had already expired or been taken over."""
        return self._released(lease, await self._start_release(lease))

    def _start_release(self, lease: HeldLease) -> Awaitable[Any]:
        """Send the release now (after a renewal in flight, which is awaited, never cut off: a
        redis-py reply cut off by a cancel can leave its connection waiting for ever)."""
        lease._done = True
        renewer = lease._renewer
        keys = [lease_key(lease.table_id)]
        args = [lease.value, *(part for pair in lease.announce for part in pair)]
        if isinstance(renewer, asyncio.Task) and not renewer.done():

            async def after_renewal() -> Any:
                with contextlib.suppress(asyncio.CancelledError):
                    await renewer
                return await self._run(_RELEASE, keys, args)

            return asyncio.ensure_future(after_renewal())
        if renewer is not None and not isinstance(renewer, asyncio.Task):
            renewer.cancel()  # a timer (uvloop's own class, not asyncio.TimerHandle)
        return self._run(_RELEASE, keys, args)

    def _released(self, lease: HeldLease, reply: Any) -> bool:
        ok = bool(int(reply))
        lease.lost = lease.lost or not ok
        if ok and not lease.lost:
            self._last[lease.table_id] = lease.token
        else:
            self._last.pop(lease.table_id, None)
        return ok

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[HeldLease]:
        """Hold a table's lease for one write; tasks of this process queue locally first.

        A write that announces notices (a committed move) gives the lease back after the caller
        goes on (``_release_later``): the mover's reply and local connections do not wait for
        that round trip, while this process's next write of the table still does (it queues on
        the local lock, which the release holds until Redis has answered)."""
        entry = self._local.get(table_id)
        if entry is None:
            entry = self._local[table_id] = _LocalQueue()
        entry.users += 1
        start = time.monotonic()
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(table_id, entry)
            raise
        later = False
        try:
            try:
                lease = await self.acquire(table_id)
            except RedisError as e:  # the detail is for the log, not for players
                log.warning(
                    "table %s: the lease store (Redis) failed: %s",
                    table_id,
                    e,
                    extra={"table": table_id},
                )
                raise ServerError(
                    "server_error",
                    "the server could not coordinate this table with its other processes; "
                    "nothing changed, try again in a moment",
                ) from None
            if self.on_wait is not None:
                self.on_wait(time.monotonic() - start)
            try:
                yield lease
            finally:
                if lease.announce:
                    self._release_later(lease, entry)
                    later = True
                else:
                    await self._give_back(lease)
        finally:
            if not later:
                entry.lock.release()
                self._leave(table_id, entry)

    async def _give_back(self, lease: HeldLease) -> None:
        try:
            await self.release(lease)
        except RedisError as e:  # the work is done; the lease simply expires
            log.warning(
                "could not give back the lease on %s: %s",
                lease.table_id,
                e,
                extra={"table": lease.table_id},
            )

    def _release_later(self, lease: HeldLease, entry: _LocalQueue) -> None:
        """Give the lease back (publishing its notices) without waiting here: the release is
        sent at once and its reply, in a callback, frees the table's local lock; ``settled``
        waits for every such release."""
        sent = asyncio.ensure_future(self._start_release(lease))

        def done(reply: asyncio.Future[Any]) -> None:
            self._releasing.discard(reply)
            try:
                self._released(lease, reply.result())
            except (RedisError, asyncio.CancelledError) as e:  # the lease simply expires
                log.warning(
                    "could not give back the lease on %s: %r",
                    lease.table_id,
                    e,
                    extra={"table": lease.table_id},
                )
            finally:
                entry.lock.release()
                self._leave(lease.table_id, entry)

        self._releasing.add(sent)
        sent.add_done_callback(done)

    async def settled(self) -> None:
        """Wait until every lease given back in the background is back (graceful shutdown)."""
        while self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)

    def close(self) -> None:
        """Close the lease's own connection (after ``settled``)."""
        if self._conn is not None:
            self._conn.close()

    def _leave(self, table_id: str, entry: _LocalQueue) -> None:
        entry.users -= 1
        if entry.users == 0 and self._local.get(table_id) is entry:
            del self._local[table_id]
