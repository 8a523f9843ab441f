"""The ASGI app of one server process: its storage, fan-out, lease and table service built,
started and stopped with it, and the routes, the socket and the error answers attached.

Where a request goes from here: ``middleware.py`` (limits), ``routes.py`` (HTTP),
``socket.py`` (the WebSocket), ``errors.py`` (refusals); all of them call ``tables.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import cast

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware

from . import gcpolicy
from .connection import Connection
from .errors import add_error_answers
from .fanout import FanOut, LocalFanOut
from .lease import Lease, LocalLease
from .limits import ClientRates
from .metrics import ServerMetrics
from .middleware import CapBody, RawSend, SecurityHeaders, add_request_limits
from .routes import add_routes
from .settings import Settings
from .socket import add_socket
from .storage import Storage
from .tables import TableService

log = logging.getLogger("gamenight.server")


def build_fanout(settings: Settings) -> FanOut:
    """In-process fan-out, or Redis pub/sub across processes with ``--redis-url``."""
    if settings.redis_url:
        try:
            from .redis_fanout import RedisFanOut  # type: ignore[import-not-found,unused-ignore]
        except ImportError as e:
            raise SystemExit(f"--redis-url needs the Redis fan-out (gamenight[redis]): {e}") from e
        fanout: FanOut = RedisFanOut(settings.redis_url)
        return fanout
    return LocalFanOut()


def build_lease(fanout: FanOut) -> Lease:
    """One writer per table: a Redis lease beside the Redis fan-out, else the table's lock."""
    if getattr(fanout, "shared", False):
        from .lease_redis import RedisLease

        # Its hold() yields the held lease (with its fencing token); the port ignores it.
        shared = RedisLease(fanout.redis, owner=fanout.origin)  # type: ignore[attr-defined]
        return cast(Lease, shared)
    return LocalLease()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole server: storage, fan-out and tables are built when the app starts."""
    settings = settings or Settings()
    storage = Storage(settings.database_url)
    fanout = build_fanout(settings)
    service = TableService(
        storage,
        fanout,
        lease=build_lease(fanout),
        idle_seconds=settings.idle_minutes * 60,
        bot_seconds=settings.bot_seconds,
    )
    connections: set[Connection] = set()
    metrics = ServerMetrics(
        lambda: len(service.tables),
        lambda: len(connections),
        lambda: sum(len(t.thoughts) for t in service.tables.values()),
    )
    service.on_move = lambda table, done, seconds: metrics.moved(
        table.game_id, seconds, chance=done.move - done.first - 1
    )
    if hasattr(fanout, "on_count"):  # the Redis fan-out and its lease
        fanout.on_count = lambda direction: metrics.notices.labels(direction).inc()
    if hasattr(service.lease, "on_wait"):
        service.lease.on_wait = metrics.lease_wait.observe

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await storage.migrate()
        if not await storage.lock_serving(shared=bool(settings.redis_url)):  # preflight said
            log.warning("another gamenight serve uses this database without sharing it")
        await service.fanout.start()
        restored = await service.restore()
        log.info("restored %d tables from %s", restored, storage.dialect)
        reclaim = asyncio.create_task(gcpolicy.reclaim_loop()) if gcpolicy.installed() else None
        yield
        if reclaim is not None:
            reclaim.cancel()
        await service.shutdown()
        for conn in list(connections):
            with contextlib.suppress(Exception):  # already gone
                await conn.ws.close(code=1001, reason="server shutting down")
        await service.fanout.close()
        close_lease = getattr(service.lease, "close", None)
        if close_lease is not None:
            close_lease()
        await storage.close()
        log.info("stopped cleanly: %d moves were in flight, all settled", service.in_flight)

    app = FastAPI(
        title="gamenight",
        summary="Five dice and card games online: tables, seats, bots and a WebSocket per seat.",
        lifespan=lifespan,
        docs_url="/docs" if settings.api_docs else None,
        redoc_url=None,
    )
    app.add_middleware(RawSend)
    app.add_middleware(CapBody)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.hosts())
    app.add_middleware(SecurityHeaders)
    app.state.service = service
    app.state.settings = settings
    app.state.metrics = metrics

    add_error_answers(app, metrics)
    http_rates = ClientRates(settings.http_rate_per_second, settings.http_rate_burst)
    add_request_limits(app, http_rates, metrics)
    add_routes(app, service, settings, metrics, connections)
    add_socket(app, service, settings, metrics, connections, http_rates)
    return app


__all__ = ["Settings", "build_fanout", "build_lease", "create_app"]
