"""What search bots cost the event loop: tables of search bots playing in one table service, their
thinking on the loop (as before) or in worker threads (``thinks = True``), measured in one run.

A probe on the loop asks for a 10 ms sleep over and over; how late it wakes is what every other
request of the process waits behind the bots. Printed per mode: bot moves made, the probe's lag
(median, 99th percentile, worst; the first second left out), and the ratios. Storage is a
throw-away SQLite file.
Run: python benchmarks/search_tables.py [TABLES] [SECONDS_A_MOVE] [RUN_SECONDS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from gamenight.server.protocol import CreateTable, SeatSpec
from gamenight.server.storage import Storage
from gamenight.server.tables import TableService

TICK = 0.01
WARM = 1.0  # seconds left out at the start: first imports and allocations, either way


async def lags(until: float) -> list[float]:
    """How late each TICK sleep of the loop woke, until ``until``."""
    out = []
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(TICK)
        out.append(time.monotonic() - asked - TICK)
    return out


async def run(threads: bool, tables: int, seconds: float, length: float) -> tuple[int, list[float]]:
    """Bot moves made and the loop's lags while ``tables`` Gambler tables of two search bots
    play for ``length`` seconds."""
    storage = Storage(f"sqlite:///{Path(tempfile.mkdtemp(prefix='gn-search-')) / 's.db'}")
    await storage.migrate()
    service = TableService(storage, bot_seconds=seconds)
    made = []
    for _ in range(tables):
        bots = [SeatSpec(kind="bot", bot="search")] * 2
        table, host = await service.create(
            CreateTable(game="gambler", seats=bots, bot_pace="instant")
        )
        for bot in table.bots.values():
            bot.thinks = threads  # the search bot's own flag, set either way for the comparison
        made.append((table, host))
    start = {table.id: table.move for table, _ in made}
    for table, host in made:
        await service.start(table.id, host)
    await asyncio.sleep(WARM)
    lagged = await lags(time.monotonic() + length)
    moves = sum(t.move - start[t.id] for t, _ in made)
    await service.shutdown()
    await storage.close()
    return moves, lagged


def line(name: str, moves: int, lagged: list[float]) -> str:
    q = statistics.quantiles(lagged, n=100, method="inclusive")
    return (
        f"{name:8s} {moves:6d} moves   loop lag median {statistics.median(lagged) * 1e3:7.1f} ms"
        f"   p99 {q[98] * 1e3:7.1f} ms   worst {max(lagged) * 1e3:7.1f} ms"
    )


async def main(tables: int, seconds: float, length: float) -> None:
    print(f"{tables} Gambler tables of 2 search bots, {seconds:g} s a move, {length:g} s each run")
    inline = await run(False, tables, seconds, length)
    threads = await run(True, tables, seconds, length)
    print(line("on loop", *inline))
    print(line("threads", *threads))
    for name, pick in (("median", statistics.median), ("worst", max)):
        print(f"{name} lag, on the loop / in threads: {pick(inline[1]) / pick(threads[1]):.1f}x")


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(
        main(
            int(args[0]) if args else 8,
            float(args[1]) if len(args) > 1 else 0.2,
            float(args[2]) if len(args) > 2 else 10.0,
        )
    )
