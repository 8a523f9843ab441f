"""A WebSocket that connects while the database is away: a clear refusal, not a dropped socket.

With PostgreSQL stopped, a page (re)connecting to its table had its socket cut with no close
frame (1006) and the log got uvicorn's 'Exception in ASGI application' with a traceback through
asyncpg, once per reconnect of every page; HTTP calls at the same moment got a JSON 503.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.server.app import Settings, create_app


def test_a_socket_opened_while_the_database_is_down_is_refused_with_server_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/ws.db", allowed_hosts=["*"]))
    with TestClient(app) as http:
        r = http.post("/api/tables", json={"game": "shake", "seats": [{"kind": "human"}] * 2})
        assert r.status_code == 201
        table_id = r.json()["table_id"]
        token = http.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
        storage = app.state.service.storage

        async def down(*args: Any, **kw: Any) -> Any:
            raise ConnectionRefusedError("[Errno 111] Connection refused")

        for name in ("load_table", "load_moves", "load_chat"):
            setattr(storage, name, down)
        caplog.clear()
        with http.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            frames = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    frames.append(ws.receive_json())
        assert frames[-1]["type"] == "error" and frames[-1]["code"] == "server_error"
        assert "try again" in frames[-1]["message"] and "refused" not in frames[-1]["message"]
        assert closed.value.code == 1013  # try again later: the page reconnects by itself
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == []  # an outage is a warning line, not a traceback per reconnect
        assert any("database or Redis" in r.getMessage() for r in caplog.records)
