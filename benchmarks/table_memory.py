"""Memory one idle table holds in the table service, per game (tracemalloc, in this process).

Each table has two seated humans and is started (cards dealt, first throws drawn), then left
idle: the figure is what a server pays per open table between moves (the 2026 target is under
50 KB). Storage is a throw-away SQLite file.
Run: python benchmarks/table_memory.py [TABLES]
"""

from __future__ import annotations

import asyncio
import gc
import sys
import tempfile
import tracemalloc
from pathlib import Path

from gamenight.server.protocol import CreateTable, SeatSpec
from gamenight.server.storage import Storage
from gamenight.server.tables import TableService

GAMES = ("shake", "snake-eyes", "snap", "slap-the-elephant", "snake-eyes-casino", "gambler")


async def main(n: int) -> None:
    storage = Storage(f"sqlite:///{Path(tempfile.mkdtemp(prefix='gn-mem-')) / 'm.db'}")
    await storage.migrate()
    service = TableService(storage)
    for game in GAMES:
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for _ in range(n):
            spec = CreateTable(game=game, seats=[SeatSpec(kind="human")] * 2)
            table, host = await service.create(spec)
            for name in ("Ann", "Bob"):
                await service.join(table.id, name)
            await service.start(table.id, host)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        size = sum(s.size_diff for s in after.compare_to(before, "filename"))
        print(f"{game:18s} {size / n / 1024:6.1f} KiB per idle table ({n} tables)")
    await service.shutdown()
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
