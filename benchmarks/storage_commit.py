"""Durable moves a second through the server's storage: group commit beside one commit per move.

TABLES tables each append MOVES moves (a player's move and the chance move it caused), every
table waiting for its commit before its next move, as a live table does. The baseline commits
each append in its own transaction (the straightforward way); ``Storage.append_moves`` lets
appends waiting at the same time share one transaction. Both write the same rows with the same
SQLite settings (WAL, synchronous=FULL: every commit is fsynced) in the same run, alternating
rounds; each side's best round counts, so a noisy neighbour slows both or neither.
Run: python benchmarks/storage_commit.py [TABLES] [MOVES] [ROUNDS] [DATABASE_URL]
(a PostgreSQL URL measures PostgreSQL instead; the database must be empty and disposable).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import delete, insert, update

from gamenight.server.schema import moves, tables
from gamenight.server.storage import Storage

TABLES, MOVES, ROUNDS = 200, 20, 3
TAKE = {"type": "take"}
DICE = {"type": "dice", "faces": [3, 4]}


async def baseline_append(storage: Storage, table_id: str, first: int, new: list[Any]) -> None:
    """One transaction per append: what append_moves did before group commit."""
    async with storage._write_lock, storage.engine.begin() as conn:
        await conn.execute(
            insert(moves),
            [
                {"table_id": table_id, "idx": first + i, "seat": s, "action": a}
                for i, (s, a) in enumerate(new)
            ],
        )
        await conn.execute(update(tables).where(tables.c.id == table_id).values(status="playing"))


async def one_round(
    storage: Storage, grouped: bool, n_tables: int, n_moves: int
) -> tuple[float, float]:
    """Appends a second and CPU milliseconds per append for one round."""
    async with storage.engine.begin() as conn:
        await conn.execute(delete(moves))
    ids = [f"bench{i}" for i in range(n_tables)]

    async def table(tid: str) -> None:
        for i in range(n_moves):
            new = [(0, TAKE), (None, DICE)]
            if grouped:
                await storage.append_moves(tid, 2 * i, new, status="playing")
            else:
                await baseline_append(storage, tid, 2 * i, new)

    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(table(t) for t in ids))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    total = n_tables * n_moves
    return total / wall, 1000 * cpu / total


async def main(n_tables: int, n_moves: int, rounds: int, url: str | None) -> None:
    tmp = tempfile.mkdtemp(prefix="gn-bench-")
    storage = Storage(url or f"sqlite:///{Path(tmp) / 'bench.db'}")
    await storage.migrate()
    for i in range(n_tables):
        await storage.create_table(
            {
                "id": f"bench{i}",
                "game": "shake",
                "options": {},
                "seed": 1,
                "seats": [],
                "host_hash": "-",
                "status": "playing",
                "turn_seconds": None,
                "bot_pace": "human",
            }
        )
    best: dict[bool, tuple[float, float]] = {}
    for _ in range(rounds):
        for grouped in (False, True):
            rate, cpu = await one_round(storage, grouped, n_tables, n_moves)
            if grouped not in best or rate > best[grouped][0]:
                best[grouped] = (rate, cpu)
    await storage.close()
    print(f"{storage.dialect}: {n_tables} tables x {n_moves} durable appends, best of {rounds}")
    for grouped, label in ((False, "one commit per move"), (True, "group commit")):
        rate, cpu = best[grouped]
        print(f"  {label:20s} {rate:8.0f} moves/s   {cpu:.3f} ms CPU per move")
    print(f"  group commit / baseline: {best[True][0] / best[False][0]:.1f}x moves/s")


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(
        main(
            int(args[0]) if len(args) > 0 else TABLES,
            int(args[1]) if len(args) > 1 else MOVES,
            int(args[2]) if len(args) > 2 else ROUNDS,
            args[3] if len(args) > 3 else None,
        )
    )
