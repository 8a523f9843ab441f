"""The floor under `gamenight serve`'s CPU per move: the same stack relaying frames, no game.

`python benchmarks/server_load.py --floor` starts this beside the real server and drives it with
the same seats, tables and pace. It speaks just enough of the protocol for that driver (create,
join and start a table over HTTP; hello, action and state frames over a WebSocket) and does per
move only what no server on this stack can skip:

- receive the action frame through uvicorn and FastAPI, and decode its JSON (orjson);
- with ``--database``, commit one row per move on SQLite (WAL, synchronous=FULL, fsync) through
  gamenight's own storage writer (`SqliteWriter`), before anything is sent;
- send each of the table's four connections a state frame as long as a real Gambler frame
  (a real view, legal actions and events of a game in progress, spliced, not re-encoded).

No engine, no validation, no views, no seats, no metrics. What `gamenight serve` spends above this
floor is the game's own work; the floor itself is FastAPI, uvicorn, the kernel's sockets and the
disk, which a server written on this stack cannot go below.

    python benchmarks/server_floor.py --port PORT [--database PATH]
"""

from __future__ import annotations

import argparse
import random
import secrets
import sqlite3
import sys
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

import gamenight
from gamenight.server.serve import SWITCH_SECONDS
from gamenight.server.sqlite_writer import SqliteWriter

SEATS = 4


def sample_parts(moves: int = 40, seed: int = 1) -> tuple[str, str, str]:
    """A four-player Gambler game ``moves`` random moves in: its view, legal actions, events."""
    rng = random.Random(seed)
    st = gamenight.replay(
        {"game": "gambler", "options": {"players": SEATS}, "moves": [], "seed": 1}
    )
    for _ in range(moves):
        while st.is_chance() and not st.is_terminal():
            st.sample_chance()
        if st.is_terminal():
            break
        seat = st.actors()[0]
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    actor = st.actors()[0]
    events = st.events(max(0, st.event_count - 3))
    return (
        orjson.dumps(st.view(None)).decode(),
        orjson.dumps(st.legal_actions(actor)).decode(),
        orjson.dumps(events).decode(),
    )


class FloorTable:
    """A table of the floor: its connections by seat and a move counter."""

    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.tokens: dict[str, int] = {}
        self.conns: dict[int, WebSocket] = {}
        self.move = 0


def create_app(database: str | None) -> FastAPI:
    app = FastAPI()
    tables: dict[str, FloorTable] = {}
    view, legal, events = sample_parts()
    writer = SqliteWriter(database) if database else None
    insert = "INSERT INTO moves (table_id, idx, action) VALUES (?, ?, ?)"
    if database:  # the writer's own connection sets WAL and synchronous=FULL
        with sqlite3.connect(database) as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS moves (table_id TEXT, idx INTEGER, action TEXT,"
                " PRIMARY KEY (table_id, idx))"
            )

    def frame(table: FloorTable, seat: int) -> str:
        return (
            f'{{"type":"state","table_id":"{table.id}","move":{table.move},"status":"playing",'
            f'"seat":{seat},"view":{view},"actors":[{table.move % SEATS}],"dealer_due":false,'
            f'"legal_actions":{legal},"events":{events},"event_count":{table.move},'
            f'"deadline":null,"race":null}}'
        )

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/tables")
    async def create(body: dict[str, Any]) -> dict[str, str]:
        table = FloorTable(secrets.token_hex(8))
        tables[table.id] = table
        return {"table_id": table.id, "host_token": secrets.token_hex(16)}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: dict[str, Any]) -> dict[str, str]:
        token = secrets.token_hex(16)
        tables[table_id].tokens[token] = int(body["seat"])
        return {"token": token}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str) -> dict[str, str]:
        return {"status": "playing"}

    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        table = tables[table_id]
        seat = table.tokens[orjson.loads(await ws.receive_text())["token"]]
        table.conns[seat] = ws
        await ws.send_text(frame(table, seat))
        try:
            while True:
                action = orjson.loads(await ws.receive_text())
                if action.get("move") != table.move:
                    continue
                if writer is not None:
                    row = (table.id, table.move, orjson.dumps(action["action"]).decode())
                    await writer.commit([(insert, [row])])
                table.move += 1
                for other, conn in list(table.conns.items()):
                    await conn.send_text(frame(table, other))
        except WebSocketDisconnect:
            table.conns.pop(seat, None)

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", help="an SQLite file: commit each move before sending")
    args = parser.parse_args()
    sys.setswitchinterval(SWITCH_SECONDS)  # as `gamenight serve` sets it for its storage thread
    uvicorn.run(
        create_app(args.database),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,  # as `gamenight serve`
    )


if __name__ == "__main__":
    main()
