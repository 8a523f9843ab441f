"""One stranger against `gamenight serve` (issue 28), while an honest two-player table plays.

Each attack runs against a fresh SQLite server for ``--seconds``; meanwhile two honest players
play Shake over WebSockets (a move every 0.2 s) and /healthz is polled twice a second. Per
attack it prints the honest moves' p99 (action sent -> reply), the server's RSS before, at most
during and after, the largest WAL seen, and the slowest /healthz, against the targets: p99 <
250 ms, RSS < baseline + 300 MiB, WAL < 64 MiB, /healthz < 1 s.

The attacker comes from other addresses (X-Forwarded-For, which the server trusts from
loopback), so the honest players' own per-address limits are not the ones it uses up.

    python benchmarks/attack.py [--seconds 10] [--only none,chunked,replay,...]

(``none`` is the baseline: the honest table alone, on the machine as loaded as it is.)

Bounded: each attack at most 120 s, a few thousand sockets at most; loopback only; it stops the
servers it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from services import Client, ServerProcess  # noqa: E402

MIB = 1024 * 1024
TARGETS = {"p99_ms": 250.0, "rss_mib": 300.0, "wal_mib": 64.0, "healthz_s": 1.0}
ATTACKER = "198.51.100.7"  # one stranger: every request and socket of an attack comes from it
PROBE = {"X-Forwarded-For": "198.51.100.200"}  # the /healthz poll, a load balancer's


def stranger() -> dict[str, str]:
    """The attacker's address (the server trusts X-Forwarded-For from loopback)."""
    return {"X-Forwarded-For": ATTACKER}


# ------------------------------------------------------------------ the attacks
@dataclass(frozen=True)
class Target:
    """Where the attack goes (the attack runs in a process of its own: the honest players'
    figures must not include the attacker's own CPU in their event loop)."""

    url: str
    ws_url: str
    port: int


async def none(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """No attack: the honest table's figures on this machine as it is now."""
    await stop.wait()


async def chunked(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """Bodies sent chunked, 32 MiB each, eight at a time."""

    async def body() -> Any:
        for _ in range(32):
            yield b"x" * MIB

    async def one(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            with contextlib.suppress(httpx.HTTPError):
                await http.post("/api/tables", content=body(), headers=stranger())

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        await asyncio.gather(*(one(http) for _ in range(8)))


async def replay(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """Ten clients asking for the replay of a finished all-bot game over and over."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        bots = [{"kind": "bot"}, {"kind": "bot"}]
        body = {"game": "snap", "seats": bots, "bot_pace": "instant"}
        made = (await http.post("/api/tables", json=body, headers=stranger())).json()
        tid = made["table_id"]
        auth = {"Authorization": f"Bearer {made['host_token']}", **stranger()}
        await http.post(f"/api/tables/{tid}/start", headers=auth)
        while (await http.get(f"/api/tables/{tid}")).json()["status"] != "finished":
            await asyncio.sleep(0.2)

        async def one() -> None:
            while not stop.is_set():
                await http.get(f"/api/tables/{tid}/replay", headers=stranger())

        await asyncio.gather(*(one() for _ in range(10)))


async def all_bots(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """Fifty all-bot casino tables (one address's cap) with a huge bankroll and roll cap."""
    seats = [{"kind": "bot", "strategy": "every_area"}] * 4
    options = {"bankroll": 10**9, "max_rolls": 10**7}
    address = stranger()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for _ in range(50):
            body = {"game": "snake-eyes-casino", "seats": seats, "options": options}
            r = await http.post(
                "/api/tables", json={**body, "bot_pace": "instant"}, headers=address
            )
            if r.status_code != 201:
                break
            made = r.json()
            auth = {"Authorization": f"Bearer {made['host_token']}", **address}
            await http.post(f"/api/tables/{made['table_id']}/start", headers=auth)
    await stop.wait()


async def slow_heads(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """3,000 connections that never finish their request head, reopened as they are closed."""

    async def one() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                with contextlib.suppress(OSError, asyncio.TimeoutError):
                    await asyncio.wait_for(reader.read(), timeout=30)
                writer.close()

    await asyncio.gather(*(one() for _ in range(3000)))


async def lobby(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """Fifty tables with large options, then twenty clients polling the lobby."""
    pays = {"craps2": "30:1", "craps3": "15:1", "craps12": "30:1", "eleven": "15:1"}
    address = stranger()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for _ in range(50):
            body = {"game": "snake-eyes-casino", "seats": [{"kind": "human"}] * 8}
            await http.post(
                "/api/tables", json={**body, "options": {"payouts": pays}}, headers=address
            )

        async def one() -> None:
            while not stop.is_set():
                await http.get("/api/tables", headers=stranger())

        await asyncio.gather(*(one() for _ in range(20)))


async def watchers(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """200 watchers of the honest table connecting and closing."""

    async def one() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError, websockets.WebSocketException):
                async with websockets.connect(
                    f"{server.ws_url}/ws/{table_id}", additional_headers=stranger()
                ) as ws:
                    await ws.send('{"type": "hello", "token": null}')
                    await ws.recv()
                    await ws.recv()

    await asyncio.gather(*(one() for _ in range(200)))


async def chat(server: Target, stop: asyncio.Event, table_id: str) -> None:
    """A seat of its own table with 40 sockets, each sending chat lines flat out."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        address = stranger()
        tid = (
            await http.post("/api/tables", json={"game": "shake", "seats": seats}, headers=address)
        ).json()["table_id"]
        join = await http.post(f"/api/tables/{tid}/join", json={"name": "Spam"}, headers=address)
        token = join.json()["token"]

    async def one() -> None:
        async with websockets.connect(
            f"{server.ws_url}/ws/{tid}", additional_headers=stranger()
        ) as ws:
            await ws.send(f'{{"type": "hello", "token": "{token}"}}')
            while not stop.is_set():
                await ws.send('{"type": "chat", "text": "spam spam spam"}')
                await ws.recv()

    with contextlib.suppress(websockets.WebSocketException):
        await asyncio.gather(*(one() for _ in range(40)))


# ------------------------------------------------------------------ the honest table
class Honest:
    """Two players at a Shake table, a move every 0.2 s; a new table when a game ends."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.table_id = ""
        self.latencies: list[float] = []
        self.errors = 0

    async def seat(self) -> list[Client]:
        made = self.server.table("shake", [{"kind": "human"}, {"kind": "human"}])
        self.table_id = made["table_id"]
        tokens = [self.server.join(self.table_id, n, i) for i, n in enumerate(("Ann", "Bob"))]
        clients = [await Client.open(self.server, self.table_id, t) for t in tokens]
        self.server.post(f"/api/tables/{self.table_id}/start", None, made["host_token"])
        await clients[0].until_move(1)
        return clients

    async def play(self, stop: asyncio.Event) -> None:
        clients = await self.seat()
        while not stop.is_set():
            latest = [c.latest for c in clients]
            movers = [
                c
                for c, f in zip(clients, latest, strict=True)
                if f
                and f["status"] == "playing"
                and f["seat"] in f["actors"]
                and f["legal_actions"]
            ]
            if latest[0] and latest[0]["status"] == "finished":
                for c in clients:
                    await c.close()
                clients = await self.seat()
                continue
            if not movers:
                await clients[0].expect("state", 30)
                continue
            mover = movers[0]
            assert mover.latest is not None
            began = time.monotonic()
            reply = await mover.act(mover.latest["legal_actions"][-1])
            if reply.get("type") == "state":
                self.latencies.append(time.monotonic() - began)
            else:
                self.errors += 1
                await mover.reply({"type": "sync", "ref": "s"})
            await asyncio.sleep(0.2)
        for c in clients:
            await c.close()


# ------------------------------------------------------------------ one run
ATTACKS: dict[str, Callable[..., Awaitable[None]]] = {
    "none": none,
    "chunked": chunked,
    "replay": replay,
    "all-bots": all_bots,
    "slow-heads": slow_heads,
    "lobby": lobby,
    "watchers": watchers,
    "chat": chat,
}


def attack_process(name: str, target: Target, table_id: str, seconds: float) -> None:
    """The attack in its own process, for ``seconds``."""

    async def run() -> None:
        stop = asyncio.Event()
        attack = asyncio.create_task(ATTACKS[name](target, stop, table_id))
        await asyncio.sleep(seconds)
        stop.set()
        attack.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(attack, 30)

    asyncio.run(run())


async def watch(server: ServerProcess, stop: asyncio.Event, seen: dict[str, float]) -> None:
    """RSS, WAL size and /healthz time, twice a second."""
    proc = psutil.Process(server.proc.pid if server.proc else 0)
    wal = server.workdir / "gamenight.db-wal"
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        while not stop.is_set():
            seen["rss"] = max(seen["rss"], proc.memory_info().rss)
            with contextlib.suppress(OSError):
                seen["wal"] = max(seen["wal"], wal.stat().st_size)
            began = time.monotonic()
            try:
                await http.get("/healthz", headers=PROBE)
                seen["healthz"] = max(seen["healthz"], time.monotonic() - began)
            except httpx.HTTPError:
                seen["healthz"] = max(seen["healthz"], time.monotonic() - began)
            await asyncio.sleep(0.5)


async def run_one(name: str, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"attack-{name}-") as tmp:
        server = ServerProcess(Path(tmp)).start()
        try:
            proc = psutil.Process(server.proc.pid if server.proc else 0)
            honest = Honest(server)
            stop = asyncio.Event()
            seen = {"rss": 0.0, "wal": 0.0, "healthz": 0.0}
            playing = asyncio.create_task(honest.play(stop))
            while not honest.table_id:
                await asyncio.sleep(0.1)
            await asyncio.sleep(2)  # settled: the baseline
            before = proc.memory_info().rss
            honest.latencies.clear()
            target = Target(server.url, server.ws_url, server.port)
            spawn = multiprocessing.get_context("spawn")
            attacker = spawn.Process(
                target=attack_process, args=(name, target, honest.table_id, seconds)
            )
            attacker.start()
            watcher = asyncio.create_task(watch(server, stop, seen))
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.to_thread(attacker.join, 60)
            if attacker.is_alive():
                attacker.terminate()
            for task in (watcher, playing):
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(task, 60)
            await asyncio.sleep(2)
            after = proc.memory_info().rss
            lat = sorted(honest.latencies) or [float("nan")]
            return {
                "attack": name,
                "moves": len(honest.latencies),
                "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
                "p50_ms": 1000 * statistics.median(lat),
                "rss_before": before / MIB,
                "rss_during": seen["rss"] / MIB,
                "rss_after": after / MIB,
                "wal_mib": seen["wal"] / MIB,
                "healthz_s": seen["healthz"],
            }
        finally:
            server.stop()


def verdict(r: dict[str, Any]) -> str:
    ok = (
        r["p99_ms"] < TARGETS["p99_ms"]
        and r["rss_during"] - r["rss_before"] < TARGETS["rss_mib"]
        and r["wal_mib"] < TARGETS["wal_mib"]
        and r["healthz_s"] < TARGETS["healthz_s"]
    )
    return "ok" if ok else "MISSED"


async def main_async(args: argparse.Namespace) -> None:
    names = args.only.split(",")
    unknown = set(names) - set(ATTACKS)
    if unknown:
        raise SystemExit(f"--only: unknown attack(s) {sorted(unknown)} (known: {list(ATTACKS)})")
    rss = "RSS MiB before/during/after"
    print(
        f"{'attack':11} {'moves':>5} {'p50 ms':>7} {'p99 ms':>7} {rss:>28}"
        f" {'WAL MiB':>8} {'healthz s':>9}  target"
    )
    for name in names:
        r = await run_one(name, min(args.seconds, 120.0))
        rss = f"{r['rss_before']:.0f}/{r['rss_during']:.0f}/{r['rss_after']:.0f}"
        print(
            f"{name:11} {r['moves']:5d} {r['p50_ms']:7.1f} {r['p99_ms']:7.1f} {rss:>28}"
            f" {r['wal_mib']:8.1f} {r['healthz_s']:9.2f}  {verdict(r)}",
            flush=True,
        )
    print("targets: p99 < 250 ms, RSS < before + 300 MiB, WAL < 64 MiB, /healthz < 1 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--only", default="none,chunked,replay,all-bots,slow-heads,lobby,watchers,chat"
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
