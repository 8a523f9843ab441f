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
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

PG_BIN = Path("/usr/lib/postgresql/15/bin")


# How long a test waits for something that should happen "within moments". It is a bound on a
# hang, not a measure of speed: CI machines can be many times slower than a desk.
WAIT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(
    predicate: Callable[[], Any],
    timeout: float = WAIT,
    what: str = "the condition",
    poll: float = 0.05,
) -> Any:
    """Poll ``predicate`` until it returns something truthy (returned); fail naming ``what``
    after ``timeout`` seconds. For a condition, not a fixed pause: a slow machine just polls
    longer, a fast one goes on at once."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}; it never came")
        time.sleep(poll)


async def until(
    predicate: Callable[[], Any],
    timeout: float = WAIT,
    what: str = "the condition",
    poll: float = 0.02,
) -> Any:
    """``wait_until`` for async tests: the event loop runs while we poll."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if isinstance(got, Awaitable):
            got = await got
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}; it never came")
        await asyncio.sleep(poll)


class Pace:
    """A client-side token bucket kept under a server's per-address one (``--http-rate-limit``,
    bursts of five times it; a WebSocket connect counts as a request too). Every test client
    of one server shares it, as they share 127.0.0.1: together they stay within the limit by
    design, however the requests of a test are spread over time."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, max(burst, 1.0)
        self.tokens, self.at = self.burst, time.monotonic()
        self.lock = threading.Lock()

    def delay(self) -> float:
        """Take a token; the seconds to wait before using it (0 when one is at hand)."""
        if self.rate <= 0:
            return 0.0
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            self.tokens -= 1  # may go below 0: the wait covers the debt
            return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    def take(self) -> None:
        time.sleep(self.delay())

    async def atake(self) -> None:
        await asyncio.sleep(self.delay())


def polite(request: Callable[[], httpx.Response], timeout: float = WAIT) -> httpx.Response:
    """A request that waits as a 429's Retry-After says, as a well-behaved client does, for as
    long as ``timeout`` (a count of tries ran out on a slow machine)."""
    deadline = time.monotonic() + timeout
    while True:
        r = request()
        if r.status_code != 429 or r.json().get("code") != "rate_limited":
            return r
        wait = float(r.headers.get("Retry-After", "1"))
        if time.monotonic() + wait > deadline:
            return r
        time.sleep(wait)


class ServerProcess:
    """``gamenight serve`` as a real process in its own working directory."""

    def __init__(self, workdir: Path, database_url: str | None = None, *extra: str) -> None:
        self.workdir = workdir
        self.database_url = database_url
        self.extra = list(extra)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"
        rate = 50.0  # the server's default --http-rate-limit
        if "--http-rate-limit" in self.extra:
            rate = float(self.extra[self.extra.index("--http-rate-limit") + 1])
        self.pace = Pace(0.8 * rate, 0.8 * 5 * rate)  # a fifth under the server's bucket
        frames = 20.0  # the server's default --rate-limit (frames a second, bursts of twice it)
        if "--rate-limit" in self.extra:
            frames = float(self.extra[self.extra.index("--rate-limit") + 1])
        self.frame_rate = frames

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> ServerProcess:
        """Start the process and wait until it answers /healthz (readiness, not a pause). A
        port another process took between free_port() and the server's bind is retried on a
        new port: under xdist several workers pick free ports at once."""
        for _ in range(3):
            if self._start(timeout):
                return self
            self.port = free_port()
            self.log = self.workdir / f"server-{self.port}.log"
        raise RuntimeError("the server found no free port in 3 tries")

    def _start(self, timeout: float) -> bool:
        args = [sys.executable, "-m", "gamenight.cli", "serve", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), *self.extra]
        if self.database_url:
            args += ["--database-url", self.database_url]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, cwd=self.workdir, stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                text = self.log.read_text()
                if "address already in use" in text.lower() or "port is busy" in text.lower():
                    return False
                raise RuntimeError(f"server exited: {text[-3000:]}")
            try:
                # generous: /healthz itself waits up to 2 s for the database and Redis
                ok = httpx.get(self.url + "/healthz", timeout=10).status_code == 200
            except httpx.HTTPError:
                ok = False
            if ok and self.proc.poll() is None:  # ours answered, not another's on the port
                return True
            time.sleep(0.1)
        self.proc.kill()
        raise RuntimeError(
            f"server did not answer /healthz in {timeout:g} s: {self.log.read_text()[-3000:]}"
        )

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(60)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(60)

    # --- HTTP helpers ---------------------------------------------------------------------
    def request(self, send: Callable[[], httpx.Response]) -> httpx.Response:
        """One API request, paced under the server's per-address limit (and polite should a
        test's own flood have emptied the server's bucket)."""

        def paced() -> httpx.Response:
            self.pace.take()
            return send()

        return polite(paced)

    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.request(
            lambda: httpx.post(self.url + path, json=body, headers=headers, timeout=WAIT)
        )

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.request(lambda: httpx.get(self.url + path, headers=headers, timeout=WAIT))

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


class Client:
    """One real WebSocket connection that records every frame it receives. Its requests
    (``reply``, ``act``) keep under the server's frame rate (``frame_rate`` a second, bursts of
    twice it) by design; ``send`` is unpaced, for the tests that flood on purpose."""

    def __init__(self, ws: Any, frame_rate: float = 20.0) -> None:
        # a tenth under the rate, a quarter under the burst: a quick player, never told off
        self.pace = Pace(0.9 * frame_rate, 0.75 * 2 * frame_rate)
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
        await server.pace.atake()  # a connect counts against the address's request rate
        ws = await websockets.connect(
            f"{server.ws_url}/ws/{table_id}", additional_headers=headers, max_size=2**22
        )
        client = cls(ws, server.frame_rate)
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

    async def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        """The next unread frame of type ``kind`` (earlier ones of other types are skipped)."""
        while True:
            try:
                frame = await asyncio.wait_for(self.unread.get(), timeout)
            except TimeoutError:
                raise AssertionError(f"no {kind!r} frame came in {timeout:g} s") from None
            if frame["type"] == kind:
                return frame
            if frame["type"] == "_closed":
                raise ConnectionError(f"closed while waiting for {kind}: {self.closed}")

    async def reply(self, frame: Any, timeout: float = WAIT) -> dict[str, Any]:
        """Send a frame and return the server's reply to it (the next frame carrying "ref")."""
        await self.pace.atake()
        await self.send(frame)
        while True:
            try:
                got = await asyncio.wait_for(self.unread.get(), timeout)
            except TimeoutError:
                raise AssertionError(f"no reply to {frame!r:.200} in {timeout:g} s") from None
            if "ref" in got or got["type"] == "_closed":
                return got

    async def until_move(self, move: int, timeout: float = WAIT) -> dict[str, Any]:
        """Wait until this client has been sent the state at ``move`` or later."""
        deadline = time.monotonic() + timeout
        while self.latest is None or self.latest["move"] < move:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never sent move {move} in {timeout:g} s")
            await self.expect("state", left)
        return self.latest

    async def act(self, action: dict[str, Any], move: int | None = None) -> dict[str, Any]:
        """Play an action and return the reply (paced, as every reply is, as a quick player
        would be: a test that plays as fast as the server answers would be told to slow down)."""
        assert self.latest is not None
        m = self.latest["move"] if move is None else move
        return await self.reply(
            {"type": "action", "move": m, "action": action, "ref": uuid.uuid4().hex}
        )

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self.reader, WAIT)


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
                "-t",
                "180",  # readiness: pg_ctl -w waits for the server to accept connections
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

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"redis-server on port {port} exited ({proc.returncode})")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(answers, timeout=2 * WAIT, what=f"redis-server to listen on {port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
