"""Before serving: the database and Redis answer, so a wrong URL is one line naming it.

A database that does not exist, a server that is not running or a Redis URL of the wrong
scheme used to print 'gamenight is serving on ...' and then a traceback through the driver
ending in uvicorn's 'Application startup failed'."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from .app import Settings
from .storage import Storage

CONNECT_SECONDS = 20.0  # a database or Redis that has not answered by then is not coming


class StartupError(Exception):
    """What stops the server from starting, in one line naming the option."""


def shown_database(url: str | None) -> str:
    """The database URL as given, its password hidden."""
    if not url:
        return "gamenight.db"
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def shown_redis(url: str) -> str:
    """The Redis URL as given, its password hidden."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:***" if parts.username else ":***"
    host = parts.hostname or ""
    netloc = f"{user}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def reason(e: BaseException) -> str:
    """The driver's own words, first line only, without SQLAlchemy's wrapping."""
    inner = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    text = str(inner).strip().splitlines()[0] if str(inner).strip() else ""
    return text or type(inner).__name__


async def check_database(url: str | None, redis: bool = False) -> None:
    """Connect and bring the schema up to date (the server does the same again, a no-op);
    refuse a database other processes serve unless all of them share it through Redis."""
    where = f"--database-url {shown_database(url)}"
    try:
        storage = Storage(url)
    except ModuleNotFoundError as e:
        raise StartupError(
            f"{where}: its driver ({e.name}) is not installed; gamenight serves from "
            "sqlite:///path.db or postgresql://user:password@host/database "
            "(pip install 'gamenight[postgres]')"
        ) from None
    except ArgumentError as e:
        raise StartupError(f"{where}: {e}") from None
    alone = True
    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            await storage.migrate()
            alone = await storage.lock_serving(shared=redis)
    except TimeoutError:
        raise StartupError(f"{where}: no answer within {CONNECT_SECONDS:g} s") from None
    except Exception as e:
        raise StartupError(f"{where}: cannot open it: {reason(e)}") from None
    finally:
        await storage.close()
    if not alone:
        raise StartupError(
            f"{where}: another gamenight serve "
            + ("without --redis-url " if redis else "")
            + "is using this database; processes share one database only when every one of "
            "them is started with the same --redis-url (docs/serve.md)"
        )


async def check_redis(url: str) -> None:
    """Connect and PING."""
    where = f"--redis-url {shown_redis(url)}"
    try:
        from redis.asyncio import Redis
    except ImportError:
        needs = "needs the Redis driver (pip install 'gamenight[redis]')"
        raise StartupError(f"{where}: {needs}") from None
    try:
        client = Redis.from_url(url, socket_connect_timeout=CONNECT_SECONDS)
    except ValueError as e:
        raise StartupError(f"{where}: {e}") from None
    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            await client.ping()
    except TimeoutError:
        raise StartupError(f"{where}: no answer within {CONNECT_SECONDS:g} s") from None
    except Exception as e:
        raise StartupError(f"{where}: cannot reach it: {reason(e)}") from None
    finally:
        await client.aclose()


def check(settings: Settings) -> None:
    """Raise StartupError when the database or Redis cannot be used."""

    async def both() -> None:
        await check_database(settings.database_url, redis=bool(settings.redis_url))
        if settings.redis_url:
            await check_redis(settings.redis_url)

    asyncio.run(both())
