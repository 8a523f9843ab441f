import os

from hypothesis import HealthCheck, settings

# No deadline and no too_slow check: a busy machine is slow, not wrong. Under CI=true the examples
# are derandomized (a fixed seed per test), so a landing's CI plays exactly the examples that
# passed at the desk; elsewhere each run explores new ones.
settings.register_profile(
    "explore", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", settings.get_profile("explore"), derandomize=True)
settings.register_profile("dev", settings.get_profile("explore"), max_examples=10)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "explore")
)


# --- real services for the server tests (see tests/services.py) ----------------------------
from collections.abc import AsyncIterator, Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

from services import Postgres, ServerProcess, postgres_server, redis_server  # noqa: E402


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server (CI's, or a throw-away cluster); tests get fresh databases on it."""
    with postgres_server() as pg:
        if isinstance(pg, str):
            pytest.skip(pg)
        yield pg


@pytest.fixture
def pg_database(postgres: Postgres) -> str:
    """A fresh, empty PostgreSQL database URL for one test."""
    return postgres.database()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis URL (CI's, or a throw-away redis-server on a free port)."""
    with redis_server() as url:
        if url.startswith("skip:"):
            pytest.skip(url[5:].strip())
        yield url


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Any]:
    """A redis-py asyncio client on the test Redis, closed after the test."""
    from redis.asyncio import Redis

    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Start ``gamenight serve`` processes in a temporary directory; all stopped afterwards."""
    started: list[ServerProcess] = []

    def start(database_url: str | None = None, *extra: str) -> ServerProcess:
        server = ServerProcess(tmp_path, database_url, *extra).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite-backed server shared by a test module."""
    proc = ServerProcess(tmp_path_factory.mktemp("server")).start()
    yield proc
    proc.stop()
