"""Real services for the server tests: gamenight server processes, PostgreSQL and Redis.

PostgreSQL and Redis come from GAMENIGHT_TEST_POSTGRES_URL / GAMENIGHT_TEST_REDIS_URL when CI
started them, otherwise from a throw-away cluster / redis-server started here on a free port.
Everything binds 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def polite(request: Callable[[], httpx.Response], tries: int = 5) -> httpx.Response:
    """A request that waits as a 429's Retry-After says, as a well-behaved client does."""
    for _ in range(tries - 1):
        r = request()
        if r.status_code != 429:
            return r
        time.sleep(float(r.headers.get("Retry-After", "1")))
    return request()


class ServerProcess:
    """``gamenight serve`` as a real process in its own working directory."""

    def __init__(self, workdir: Path, database_url: str | None = None, *extra: str) -> None:
        self.workdir = workdir
        self.database_url = database_url
        self.extra = list(extra)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        args = [sys.executable, "-m", "gamenight.cli", "serve", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), *self.extra]
        if self.database_url:
            args += ["--database-url", self.database_url]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(args, cwd=self.workdir, stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(10)

    # --- HTTP helpers ---------------------------------------------------------------------
    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return polite(lambda: httpx.post(self.url + path, json=body, headers=headers, timeout=10))

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return polite(lambda: httpx.get(self.url + path, headers=headers, timeout=10))

    def table(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        r = self.post("/api/tables", {"game": game, "seats": seats, **extra})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, table_id: str, name: str, seat: Any = None) -> str:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.post(f"/api/tables/{table_id}/join", body)
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


# a test client plays no faster than this, under the server's 20 frames a second (bursts of 40)
PACE, PACE_BURST = 18.0, 30.0


class Client:
    """One real WebSocket connection that records every frame it receives."""

    def __init__(self, ws: Any) -> None:
        self.tokens, self.at = PACE_BURST, time.monotonic()
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.unread: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())
        self.latest: dict[str, Any] | None = None
        self.closed: Any = None

    @classmethod
    async def open(
        cls,
        server: ServerProcess,
        table_id: str,
        token: str | None,
        role: str = "player",
        origin: str | None = None,
    ) -> Client:
        headers = {"Origin": origin} if origin else None
        ws = await websockets.connect(
            f"{server.ws_url}/ws/{table_id}", additional_headers=headers, max_size=2**22
        )
        client = cls(ws)
        await client.send({"type": "hello", "token": token, "role": role})
        await client.expect("welcome")
        await client.expect("state")
        return client

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                if frame.get("type") == "state":
                    self.latest = frame
                await self.unread.put(frame)
        except websockets.ConnectionClosed as e:
            self.closed = e
        finally:
            await self.unread.put({"type": "_closed"})

    async def send(self, frame: Any) -> None:
        await self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next unread frame of type ``kind`` (earlier ones of other types are skipped)."""
        while True:
            frame = await asyncio.wait_for(self.unread.get(), timeout)
            if frame["type"] == kind:
                return frame
            if frame["type"] == "_closed":
                raise ConnectionError(f"closed while waiting for {kind}: {self.closed}")

    async def reply(self, frame: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Send a frame and return the server's reply to it (the next frame carrying "ref")."""
        await self.send(frame)
        while True:
            got = await asyncio.wait_for(self.unread.get(), timeout)
            if "ref" in got or got["type"] == "_closed":
                return got

    async def act(self, action: dict[str, Any], move: int | None = None) -> dict[str, Any]:
        """Play an action and return the reply, paced as a quick player would be: a test that
        plays a game as fast as the server answers would otherwise be told to slow down."""
        assert self.latest is not None
        now = time.monotonic()
        self.tokens = min(PACE_BURST, self.tokens + (now - self.at) * PACE)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / PACE)
            self.tokens, self.at = 1.0, time.monotonic()
        self.tokens -= 1
        m = self.latest["move"] if move is None else move
        return await self.reply(
            {"type": "action", "move": m, "action": action, "ref": uuid.uuid4().hex}
        )

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self.reader, 5)


# --- PostgreSQL and Redis -------------------------------------------------------------------
class Postgres:
    """A server URL; ``database()`` makes a fresh empty database on it."""

    def __init__(self, url: str) -> None:
        scheme, sep, rest = url.partition("://")
        self.url = "postgresql://" + rest if scheme.startswith("postgres") else url

    def database(self) -> str:
        import asyncpg  # type: ignore[import-untyped]

        name = "gn_" + uuid.uuid4().hex[:12]
        base = self.url

        async def create() -> None:
            conn = await asyncpg.connect(base)
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        asyncio.run(create())
        head, _, _ = base.rpartition("/")
        return f"{head}/{name}"


@contextmanager
def postgres_server() -> Iterator[Postgres | str]:
    """A PostgreSQL URL, or a string saying why there is none."""
    url = os.environ.get("GAMENIGHT_TEST_POSTGRES_URL")
    if url:
        yield Postgres(url)
        return
    if not (PG_BIN / "initdb").exists():
        yield f"PostgreSQL binaries are missing ({PG_BIN}); apt-get install postgresql"
        return
    root = Path(tempfile.mkdtemp(prefix="gn-pg-"))
    data = root / "data"
    port = free_port()
    run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if run_as:
        shutil.chown(root, "postgres", "postgres")
    try:
        subprocess.run(
            [*run_as, str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
            check=True,
            capture_output=True,
        )
        opts = f"-p {port} -k {root} -h 127.0.0.1"
        subprocess.run(
            [
                *run_as,
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-w",
                "-l",
                str(root / "log"),
                "start",
            ],
            check=True,
            capture_output=True,
        )
        yield Postgres(f"postgresql://postgres@127.0.0.1:{port}/postgres")
    finally:
        subprocess.run(
            [*run_as, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def redis_server() -> Iterator[str]:
    """A Redis URL, or a string starting with 'skip:' saying why there is none."""
    url = os.environ.get("GAMENIGHT_TEST_REDIS_URL")
    if url:
        yield url
        return
    exe = shutil.which("redis-server")
    if exe is None:
        yield "skip: redis-server is missing; apt-get install redis-server"
        return
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
