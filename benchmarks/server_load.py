"""Load on `gamenight serve`: N WebSocket seats on N/4 tables, over loopback, every move durable.

Starts the server itself (SQLite, then PostgreSQL, then two processes sharing tables through
Redis), seats N clients on N/4 four-seat tables and plays for a fixed time in two modes:

- human: each table moves as if each of its seats moved once every 2-5 s (the acting seat thinks
  for 2-5 s divided by the seats at the table), so N seats make about N/3.5 moves a second;
- flat: each table keeps exactly one move in flight (the acting seat answers every new state at
  once), which measures how many durable moves a second the server sustains;
- idle: every seat connected and nobody moving, which measures what the server spends on held
  connections and tables alone (pings, timers, leases), a cost the human-pace figure divides
  among its moves.

For each run it prints move-to-broadcast latency (from sending an action to each seat of the
table receiving the new state, p50/p99), durable moves/s (player moves whose state came back,
which the server sends only after the commit), connections held, server CPU per move and
memory per idle table (from /proc of the server processes, via psutil), and the driver's own CPU
(one asyncio process on uvloop with the picows client, whose frames arrive as callbacks: no task
or queue per frame; it shares the machine's cores with the server).
Targets and the boardgame.io 0.50.2 peer figures are printed beside the figures.

With ``--floor`` it first runs server_floor.py (the same stack relaying frames, without and with
a commit a move, no game) at the same pace, and prints each backend's CPU per move against it.

    python benchmarks/server_load.py [--seats 1000] [--seconds 20] [--mode human|flat|idle|both]
        [--backend sqlite|postgres|redis|all|floor|floor-sqlite] [--floor] [--game gambler]

Bounded: at most 8,000 seats and 300 s a run; loopback only; it stops the servers it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil
import uvloop
from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from services import free_port, postgres_server, redis_server  # noqa: E402

HOST = "127.0.0.1"
SEATS_PER_TABLE = 4
MAX_SEATS = 8000
MAX_SECONDS = 300.0

TARGETS = {
    "human_p99_ms": 10.0,
    "flat_sqlite": 2000.0,
    "flat_postgres": 1500.0,
    "cpu_ms_per_move": 0.5,
    "idle_table_kb": 50.0,
    "seats_held": 4000,
}
PEER = (
    "peer boardgame.io 0.50.2 (1,000 seats, 2-player dice game): human p99 4.9 ms; flat out "
    "5,400 moves/s in memory, 1,340 moves/s on file; 0.19 ms CPU/move in memory, 1.0 ms on file"
)


# ------------------------------------------------------------------ servers


@dataclass
class Server:
    """One `gamenight serve` process we started."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def ps(self) -> psutil.Process:
        return psutil.Process(self.proc.pid)


FLOOR = Path(__file__).with_name("server_floor.py")


def start_server(
    workdir: Path, database_url: str | None, redis_url: str | None, floor: bool = False
) -> Server:
    """Start `gamenight serve` (or the floor, server_floor.py) on a free loopback port and wait
    for /healthz."""
    port = free_port()
    if floor:
        cmd = [sys.executable, str(FLOOR), "--port", str(port)]
        if database_url:
            cmd += ["--database", database_url.removeprefix("sqlite:///")]
    else:
        cmd = [
            sys.executable,
            "-c",
            "from gamenight.cli import app; app()",
            "serve",
            "--host",
            HOST,
            "--port",
            str(port),
            "--http-rate-limit",
            "0",  # the driver is one client that sets up every table over HTTP
            "--ws-per-client",
            "0",  # and holds every seat's WebSocket
            "--tables-per-client",
            "0",  # on every table
        ]
        if database_url:
            cmd += ["--database-url", database_url]
        if redis_url:
            cmd += ["--redis-url", redis_url]
    log = workdir / f"server-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, stdout=out, stderr=subprocess.STDOUT)
    server = Server(proc, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.base}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    stop_server(server)
    raise TimeoutError(f"server on port {port} never became healthy")


def stop_server(server: Server) -> None:
    """SIGTERM (graceful), then SIGKILL if it lingers."""
    if server.proc.poll() is None:
        server.proc.terminate()
        try:
            server.proc.wait(20)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(5)


@contextlib.contextmanager
def backend(name: str, workdir: Path, keep_logs: Path | None = None) -> Iterator[list[Server]]:
    """The server processes of one backend: sqlite (one), postgres (one), redis (two on PG);
    floor and floor-sqlite: server_floor.py, without storage and committing to SQLite."""
    servers: list[Server] = []
    floor = name in FLOOR_KIND
    with contextlib.ExitStack() as stack:
        if name in ("sqlite", "floor-sqlite"):
            urls = [f"sqlite:///{workdir / 'bench.db'}"]
            redis_url = None
        elif name == "floor":
            urls, redis_url = [""], None
        else:
            pg = stack.enter_context(postgres_server())
            if isinstance(pg, str):
                raise SystemExit(pg)
            # database() runs its own event loop: give it a thread of its own.
            database = ThreadPoolExecutor(1).submit(pg.database).result()
            redis_url = stack.enter_context(redis_server()) if name == "redis" else None
            if redis_url and redis_url.startswith("skip:"):
                raise SystemExit(redis_url[5:])
            urls = [database] * (2 if redis_url else 1)
        try:
            for url in urls:
                servers.append(start_server(workdir, url, redis_url, floor))
            yield servers
        except BaseException:
            for s in servers:  # say why before the logs go with the temporary directory
                print(
                    f"--- {s.log.name} (last lines)\n{s.log.read_text()[-3000:]}", file=sys.stderr
                )
            raise
        finally:
            for s in servers:
                stop_server(s)
                if keep_logs is not None:
                    shutil.copy(s.log, keep_logs / f"{name}-{s.log.name}")


# ------------------------------------------------------------------ tables and seats


@dataclass
class Seat:
    table: Table
    index: int
    token: str
    server: Server
    conn: WSTransport | None = None
    open: bool = False  # the connection is up (picows says when it drops)
    seen_move: int = -1
    timed: int = 0  # the last send of its table this seat has timed


@dataclass
class Table:
    id: str
    host_token: str
    seats: list[Seat] = field(default_factory=list)
    busy: int | None = None  # the move an action is being chosen or sent against
    newest: int = -1  # the newest move any seat of the table has been sent
    sent_move: int = -1  # the last action sent: against which move, when, its number
    sent_at: float = 0.0
    sends: int = 0
    finished: bool = False
    games: int = 1


class Run:
    """Counters of one run, kept lean: the driver shares the CPU with the server."""

    def __init__(self, mode: str, seconds: float) -> None:
        self.mode = mode
        self.seconds = seconds
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.stop = asyncio.Event()
        self.rng = random.Random(1)
        self.rematches: set[asyncio.Task[None]] = set()  # tables reconnecting for a new game


SETUP_RETRIES: list[str] = []  # 5xx answers during setup (SQLite "database is locked")


async def post(http: httpx.AsyncClient, url: str, **kw: Any) -> httpx.Response:
    """POST, retrying a server error a few times; setup is not what is measured."""
    for attempt in range(5):
        r = await http.post(url, **kw)
        if r.status_code < 500:
            break
        SETUP_RETRIES.append(f"{r.status_code} {url.rsplit('/', 1)[-1]}")
        await asyncio.sleep(0.2 * (attempt + 1))
    r.raise_for_status()
    return r


async def setup_tables(servers: list[Server], n_tables: int, game: str) -> list[Table]:
    """Create, fill and start the tables over HTTP (setup is not measured)."""
    sem = asyncio.Semaphore(8)
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=servers[0].base, limits=limits, timeout=60) as http:

        async def one(i: int) -> Table:
            async with sem:
                seats = [{"kind": "human"}] * SEATS_PER_TABLE
                body = (await post(http, "/api/tables", json={"game": game, "seats": seats})).json()
                table = Table(body["table_id"], body["host_token"])
                for s in range(SEATS_PER_TABLE):
                    j = await post(
                        http, f"/api/tables/{table.id}/join", json={"name": f"p{i}s{s}", "seat": s}
                    )
                    server = servers[(i * SEATS_PER_TABLE + s) % len(servers)]
                    table.seats.append(Seat(table, s, j.json()["token"], server))
                await post(
                    http,
                    f"/api/tables/{table.id}/start",
                    headers={"Authorization": f"Bearer {table.host_token}"},
                )
                return table

        return list(await asyncio.gather(*(one(i) for i in range(n_tables))))


async def rematch(table: Table, run: Run) -> None:
    """A finished table plays again with the same seats (and tokens) on a new table id."""
    server = table.seats[0].server
    auth = {"Authorization": f"Bearer {table.seats[0].token}"}
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        r = await http.post(f"/api/tables/{table.id}/rematch", headers=auth)
        r.raise_for_status()
        new_id = r.json()["table_id"]
        st = await http.post(f"/api/tables/{new_id}/start", headers=auth)
        if st.status_code != 409:  # a rematch may start by itself
            st.raise_for_status()
    for seat in table.seats:
        close(seat)
    table.id, table.busy, table.finished, table.sent_move = new_id, None, False, -1
    table.newest = -1
    table.games += 1
    for seat in table.seats:
        seat.timed = table.sends
    await asyncio.gather(*(connect(seat, run) for seat in table.seats))


class SeatListener(WSListener):
    """One seat's connection: each frame is handled in picows's callback, as it arrives."""

    def __init__(self, seat: Seat, run: Run) -> None:
        self.seat, self.run = seat, run

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.seat.open = True

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type == WSMsgType.TEXT:
            on_frame(self.seat, orjson.loads(frame.get_payload_as_bytes()), self.run)
        elif frame.msg_type == WSMsgType.CLOSE:
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.seat.open = False


async def connect(seat: Seat, run: Run) -> None:
    """Open the seat's WebSocket and say hello with its token; its frames play from then on."""
    seat.conn, _ = await ws_connect(
        lambda: SeatListener(seat, run),
        f"{seat.server.ws}/ws/{seat.table.id}",
        websocket_handshake_timeout=60,
        max_frame_size=2**20,
    )
    seat.seen_move = -1
    seat.conn.send(WSMsgType.TEXT, orjson.dumps({"type": "hello", "token": seat.token}))


def close(seat: Seat) -> None:
    """Say goodbye and drop the seat's connection."""
    if seat.conn is not None and seat.open:
        seat.conn.send_close(WSCloseCode.OK)
        seat.conn.disconnect()
    seat.open = False


def send_action(seat: Seat, move: int, run: Run, legal: list[Any]) -> None:
    """Send one legal action against ``move``."""
    table = seat.table
    action = run.rng.choice(legal)
    table.sent_move, table.sent_at = move, time.perf_counter()
    table.sends += 1
    if seat.conn is not None and seat.open:
        seat.conn.send(
            WSMsgType.TEXT, orjson.dumps({"type": "action", "move": move, "action": action})
        )


async def think(seat: Seat, frame: dict[str, Any], run: Run) -> None:
    """At human pace the seat thinks 2-5 s (shared by the table's seats) before it acts."""
    move = frame["move"]
    await asyncio.sleep(run.rng.uniform(2.0, 5.0) / SEATS_PER_TABLE)
    if run.stop.is_set() or seat.seen_move != move:
        seat.table.busy = None
        return
    send_action(seat, move, run, frame["legal_actions"])


def on_frame(seat: Seat, frame: dict[str, Any], run: Run) -> None:
    """One frame for a seat: time each broadcast, act when it is this seat's turn."""
    table = seat.table
    kind = frame.get("type")
    if kind == "state":
        move = frame["move"]
        seat.seen_move = move
        table.newest = max(table.newest, move)
        if move > table.sent_move and seat.timed < table.sends:
            # The state our last action made: one seat's view of its broadcast.
            seat.timed = table.sends
            if run.measuring:
                run.latencies.append(time.perf_counter() - table.sent_at)
        if table.busy is not None and move > table.busy:
            table.busy = None  # the move in flight is committed
            if run.measuring:
                run.moves += 1
        if (
            run.mode != "idle"
            and not run.stop.is_set()
            and table.busy is None
            and move == table.newest  # another seat may already hold a newer state
            and frame.get("status") == "playing"
            and frame.get("actors")
            and frame["actors"][0] == seat.index  # the seat the game waits for
            and frame.get("legal_actions")
        ):
            table.busy = move  # now, so no other seat acts on the same move
            if run.mode == "human":
                asyncio.create_task(think(seat, frame, run))
            else:
                send_action(seat, move, run, frame["legal_actions"])
    elif kind == "finished":
        table.busy = None
        if seat.index == 0 and not table.finished and not run.stop.is_set():
            table.finished = True
            task = asyncio.create_task(rematch(table, run))
            run.rematches.add(task)
            task.add_done_callback(run.rematches.discard)
    elif kind == "error":
        code = frame.get("code", "?")
        run.errors[code] = run.errors.get(code, 0) + 1
        table.busy = None
        if seat.conn is not None and seat.open:
            seat.conn.send(WSMsgType.TEXT, b'{"type":"sync"}')


# ------------------------------------------------------------------ one run


def kernel_seconds(procs: list[psutil.Process]) -> float:
    return sum(p.cpu_times().system for p in procs)


def cpu_seconds(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        t = p.cpu_times()
        total += t.user + t.system
    return total


def rss(procs: list[psutil.Process]) -> int:
    return sum(p.memory_info().rss for p in procs)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def profile(server: Server, out: Path, mode: str, seconds: float) -> subprocess.Popen[bytes]:
    """Sample the server with py-spy over the measured window (collapsed stacks, one a line)."""
    exe = shutil.which("py-spy")
    if exe is None:
        raise SystemExit("--profile needs py-spy (pip install py-spy)")
    target = out / f"server-{server.port}-{mode}.txt"
    return subprocess.Popen(
        [
            exe,
            "record",
            "--pid",
            str(server.proc.pid),
            "--duration",
            str(int(seconds)),
            "--format",
            "raw",
            "--rate",
            os.environ.get("PYSPY_RATE", "200"),
            "--output",
            str(target),
            "--nonblocking",
            "--gil",  # only what holds the GIL: waits for the disk or the network are not CPU
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def one_run(
    servers: list[Server],
    seats: int,
    seconds: float,
    mode: str,
    game: str,
    profile_dir: Path | None = None,
) -> dict[str, Any]:
    """Seat everyone, play for `seconds`, and return the figures."""
    procs = [s.ps() for s in servers]
    n_tables = max(1, seats // SEATS_PER_TABLE)
    mem0 = rss(procs)
    tables = await setup_tables(servers, n_tables, game)
    await asyncio.sleep(0.5)
    idle_table_kb = (rss(procs) - mem0) / n_tables / 1024
    run = Run(mode, seconds)
    all_seats = [s for t in tables for s in t.seats]
    sem = asyncio.Semaphore(128)

    async def open_seat(seat: Seat) -> None:
        async with sem:
            await connect(seat, run)

    t0 = time.perf_counter()
    await asyncio.gather(*(open_seat(s) for s in all_seats))
    connect_s = time.perf_counter() - t0
    mem_connected = rss(procs)
    await asyncio.sleep(min(3.0, seconds / 4))  # warm-up: first states, first moves
    cpu0, w0, sys0 = cpu_seconds(procs), time.perf_counter(), kernel_seconds(procs)
    drv0 = resource.getrusage(resource.RUSAGE_SELF)
    profilers = [profile(s, profile_dir, mode, seconds) for s in servers] if profile_dir else []
    run.measuring = True
    await asyncio.sleep(seconds)
    run.measuring = False
    for p in profilers:
        p.wait(30)
    wall = time.perf_counter() - w0
    cpu1, drv1 = cpu_seconds(procs), resource.getrusage(resource.RUSAGE_SELF)
    kernel = kernel_seconds(procs) - sys0
    run.stop.set()
    if run.rematches:  # a table between two games has closed its seats and is reopening them
        await asyncio.wait(set(run.rematches), timeout=60)
    held = sum(1 for s in all_seats if s.open)
    await asyncio.sleep(0.3)
    for s in all_seats:
        close(s)
    driver_cpu = (drv1.ru_utime - drv0.ru_utime) + (drv1.ru_stime - drv0.ru_stime)
    moves = run.moves
    return {
        "mode": mode,
        "seats": len(all_seats),
        "tables": n_tables,
        "held": held,
        "connect_s": connect_s,
        "moves": moves,
        "moves_per_s": moves / wall,
        "p50_ms": pct(run.latencies, 0.50) * 1000,
        "p99_ms": pct(run.latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(run.latencies) * 1000 if run.latencies else float("nan"),
        "cpu_ms_per_move": (cpu1 - cpu0) / moves * 1000 if moves else float("nan"),
        "server_cpu_pct": (cpu1 - cpu0) / wall * 100,
        "kernel_pct": kernel / (cpu1 - cpu0) * 100 if cpu1 > cpu0 else float("nan"),
        "idle_table_kb": idle_table_kb,
        "conn_kb": (mem_connected - mem0) / len(all_seats) / 1024 - idle_table_kb / 4,
        "driver_cpu_pct": driver_cpu / wall * 100,
        "driver_ms_per_move": driver_cpu / moves * 1000 if moves else float("nan"),
        "errors": dict(run.errors),
        "games": sum(t.games for t in tables),
        "load": os.getloadavg()[0],
    }


def fsync_ms(directory: Path, count: int = 300) -> tuple[float, float]:
    """This disk's own fsync latency (p50, p99 in ms), appending 4 KiB a time as a commit does:
    every durable move waits for at least one fsync, so it floors the move's latency."""
    took = []
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for _ in range(count):
            os.write(fd, b"\0" * 4096)
            t0 = time.perf_counter()
            os.fsync(fd)
            took.append(time.perf_counter() - t0)
            time.sleep(0.002)
    finally:
        os.close(fd)
        path.unlink()
    took.sort()
    return pct(took, 0.50) * 1000, pct(took, 0.99) * 1000


def verdict(ok: bool) -> str:
    return "meets" if ok else "MISSES"


FLOOR_KIND = {
    "floor": "FastAPI relaying frames, nothing stored",
    "floor-sqlite": "FastAPI relaying frames, a row committed to SQLite a move",
}


def report_floor(name: str, r: dict[str, Any]) -> None:
    """A floor run's figures: a yardstick, so no targets beside them."""
    print(
        f"\n== {name} (server_floor.py: {FLOOR_KIND[name]}), {r['mode']} pace, {r['seats']} seats"
    )
    print(
        f"  move->broadcast p50   {r['p50_ms']:8.2f} ms   p99 {r['p99_ms']:.2f} ms   "
        f"moves/s {r['moves_per_s']:,.0f}"
    )
    print(
        f"  server CPU per move   {r['cpu_ms_per_move']:8.3f} ms   "
        f"({r['server_cpu_pct']:.0f}% of a core, {r['kernel_pct']:.0f}% of it in the kernel)"
    )


def report(backend_name: str, r: dict[str, Any], floor_ms: float | None = None) -> None:
    """Print one run's figures beside the targets (and the floor's CPU per move, when run)."""
    procs = "2 processes + Redis" if backend_name == "redis" else "1 process"
    print(
        f"\n== {backend_name} ({procs}), {r['mode']} pace: {r['seats']} seats on "
        f"{r['tables']} tables, {r['games']} games"
    )
    print(f"  connections held      {r['held']:>8}   (opened in {r['connect_s']:.1f} s)")
    p99_ok = r["p99_ms"] <= TARGETS["human_p99_ms"]
    print(
        f"  move->broadcast p50   {r['p50_ms']:8.2f} ms   p99 {r['p99_ms']:.2f} ms"
        + (f"   target p99 <= 10 ms: {verdict(p99_ok)}" if r["mode"] == "human" else "")
    )
    line = f"  durable moves/s       {r['moves_per_s']:8.0f}     ({r['moves']} moves)"
    if "fsync_ms" in r:
        p50, p99 = r["fsync_ms"]
        print(f"  this disk's fsync     {p50:8.2f} ms   p99 {p99:.2f} ms   (a move waits for one)")
    if r["mode"] == "flat":
        want = TARGETS["flat_sqlite"] if backend_name == "sqlite" else TARGETS["flat_postgres"]
        line += f"   target >= {want:,.0f}: {verdict(r['moves_per_s'] >= want)}"
    print(line)
    if r["mode"] == "idle":
        print(
            f"  server CPU, no moves  {r['server_cpu_pct']:8.1f}% of a core "
            f"({r['kernel_pct']:.0f}% of it in the kernel): what held seats cost by themselves"
        )
        return
    cpu_ok = r["cpu_ms_per_move"] <= TARGETS["cpu_ms_per_move"]
    print(
        f"  server CPU per move   {r['cpu_ms_per_move']:8.3f} ms   "
        f"({r['server_cpu_pct']:.0f}% of a core, {r['kernel_pct']:.0f}% of it in the kernel)   "
        f"target <= 0.5 ms: {verdict(cpu_ok)}"
    )
    if floor_ms:
        print(
            f"  above the floor       {r['cpu_ms_per_move'] / floor_ms:8.2f}x  "
            f"(the floor's {floor_ms:.3f} ms a move, same pace; see server_floor.py)"
        )
    mem_ok = r["idle_table_kb"] < TARGETS["idle_table_kb"]
    print(
        f"  memory per idle table {r['idle_table_kb']:8.1f} KB   target < 50 KB: "
        f"{verdict(mem_ok)}   (per connection {r['conn_kb']:.1f} KB)"
    )
    if r["cpu_ms_per_move"] == r["cpu_ms_per_move"]:  # not NaN
        print(
            f"  one whole core would carry {1000 / r['cpu_ms_per_move']:,.0f} moves/s at this CPU "
            f"cost (machine load average {r['load']:.1f} on {os.cpu_count()} cores)"
        )
    print(
        f"  driver CPU            {r['driver_cpu_pct']:8.0f}% of a core "
        f"({r['driver_ms_per_move']:.3f} ms per move)"
    )
    if r["mode"] == "human" and r["seats"] >= TARGETS["seats_held"]:
        print(f"  4,000 seats held at human pace: {verdict(r['held'] >= 4000)}")
    if r["errors"]:
        print(f"  error frames          {r['errors']}")
    if SETUP_RETRIES:
        print(f"  setup retried {len(SETUP_RETRIES)} server errors, e.g. {SETUP_RETRIES[:3]}")
        SETUP_RETRIES.clear()


async def main_async(args: argparse.Namespace) -> None:
    backends = ["sqlite", "postgres", "redis"] if args.backend == "all" else [args.backend]
    if args.floor:
        backends = ["floor", "floor-sqlite", *(b for b in backends if not b.startswith("floor"))]
    modes = ["human", "flat"] if args.mode == "both" else [args.mode]
    print(PEER)
    floors: dict[tuple[str, str], float] = {}  # (floor backend, mode) -> CPU ms per move
    for name in backends:
        for mode in modes:
            with (
                tempfile.TemporaryDirectory(prefix="gamenight-bench-") as tmp,
                backend(name, Path(tmp), args.profile) as servers,
            ):
                r = await one_run(servers, args.seats, args.seconds, mode, args.game, args.profile)
                if mode == "human":  # the same disk, just after the run
                    r["fsync_ms"] = fsync_ms(Path(tmp))
                if name in FLOOR_KIND:
                    floors[name, mode] = r["cpu_ms_per_move"]
                    report_floor(name, r)
                    continue
                # every backend commits before it broadcasts: its floor is the committing one
                report(name, r, floors.get(("floor-sqlite", mode)))


def raise_fd_limit(seats: int) -> None:
    """Two sockets per seat live on this machine (ours and the server's, which inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 2 * seats + 1024))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=1000, help="WebSocket seats (4 a table)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per run")
    parser.add_argument("--mode", choices=["human", "flat", "idle", "both"], default="both")
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres", "redis", "all", "floor", "floor-sqlite"],
        default="all",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="first run server_floor.py (the stack relaying frames, with and without a commit)"
        " at the same pace, and print each backend's CPU per move against it",
    )
    parser.add_argument("--game", default="gambler", help="a turn-based game id")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="a directory for py-spy samples and the logs of each server process",
    )
    args = parser.parse_args()
    if not SEATS_PER_TABLE <= args.seats <= MAX_SEATS:
        parser.error(f"--seats must be from {SEATS_PER_TABLE} to {MAX_SEATS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be from 1 to {MAX_SECONDS:.0f}")
    if shutil.which("redis-server") is None and args.backend in ("redis", "all"):
        parser.error("the redis backend needs redis-server (apt-get install redis-server)")
    raise_fd_limit(args.seats)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # the driver shares the machine's cores with the server: the lighter it is, the less it
    # takes from what is measured (uvloop and orjson, as the server uses)
    uvloop.run(main_async(args))


if __name__ == "__main__":
    main()
