"""Throw-away PostgreSQL clusters and Redis servers for tests and benchmarks: real, never mocked.

`.ci/run` may start them once and export GAMENIGHT_TEST_DATABASE_URL / GAMENIGHT_TEST_REDIS_URL;
without those, each test session starts its own on a free loopback port and stops it after.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening")
        with socket.socket() as s, contextlib.suppress(OSError):
            s.settimeout(0.2)
            s.connect(("127.0.0.1", port))
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def pg_bin(name: str) -> str | None:
    """Path of a PostgreSQL server binary (initdb, pg_ctl), or None when none is installed."""
    for d in PG_BIN_DIRS:
        if (d / name).exists():
            return str(d / name)
    return shutil.which(name)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Run redis-server on a free port without persistence; yield its URL."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="gamenight-redis-")
    proc = subprocess.Popen(
        [
            exe,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
            "--loglevel",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        _wait_port(port, 10, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


def _as_postgres(cmd: list[str]) -> list[str]:
    """initdb and pg_ctl refuse root: run them as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """initdb + pg_ctl a cluster in a temporary directory on a free port; yield a SQLAlchemy URL."""
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise FileNotFoundError(
            "PostgreSQL server binaries are not installed (apt-get install postgresql)"
        )
    port = free_port()
    top = tempfile.mkdtemp(prefix="gamenight-pg-")
    data = os.path.join(top, "data")
    if os.geteuid() == 0:
        shutil.chown(top, "postgres")
    subprocess.run(
        _as_postgres(
            [initdb, "-D", data, "-U", "gamenight", "--auth=trust", "-E", "UTF8", "--no-sync"]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    opts = (
        f"-p {port} -k {top} -h 127.0.0.1 -c fsync=on -c max_connections=200 -c shared_buffers=64MB"
    )
    subprocess.run(
        _as_postgres(
            [pg_ctl, "-D", data, "-o", opts, "-l", os.path.join(top, "log"), "-w", "start"]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        _wait_port(port, 20)
        yield f"postgresql+asyncpg://gamenight@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"]),
            stdout=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A live Redis: CI's, or one started for this session."""
    if url := os.environ.get("GAMENIGHT_TEST_REDIS_URL"):
        yield url
        return
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed and GAMENIGHT_TEST_REDIS_URL is unset")
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A live PostgreSQL: CI's, or a throw-away cluster started for this session."""
    if url := os.environ.get("GAMENIGHT_TEST_DATABASE_URL"):
        yield url
        return
    if pg_bin("initdb") is None:
        pytest.skip(
            "PostgreSQL binaries are not installed and GAMENIGHT_TEST_DATABASE_URL is unset"
        )
    with postgres_cluster() as url:
        yield url
