"""Prometheus metrics and JSON logs of a server process."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from gamenight.server.app import Settings, create_app
from gamenight.server.logs import JsonFormatter
from gamenight.server.metrics import ServerMetrics
from services import until


def samples(metrics: ServerMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(metrics.render().decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_gauges_read_the_service_and_moves_fill_the_histogram() -> None:
    held = {"tables": 3, "connections": 7}
    m = ServerMetrics(lambda: held["tables"], lambda: held["connections"])
    m.moved("shake", 0.0012, chance=2)
    m.moved("shake", 0.0300)
    m.refused.labels("stale_move").inc()
    held["connections"] = 5
    s = samples(m)
    assert s[("gamenight_tables", ())] == 3
    assert s[("gamenight_connections", ())] == 5
    assert s[("gamenight_moves_total", (("game", "shake"),))] == 2
    assert s[("gamenight_chance_moves_total", (("game", "shake"),))] == 2
    assert s[("gamenight_move_seconds_count", ())] == 2
    assert s[("gamenight_move_seconds_bucket", (("le", "0.002"),))] == 1
    assert s[("gamenight_move_seconds_bucket", (("le", "0.05"),))] == 2
    assert s[("gamenight_refused_actions_total", (("code", "stale_move"),))] == 1


def test_two_apps_in_one_process_do_not_share_counters() -> None:
    a, b = ServerMetrics(), ServerMetrics()
    a.moved("snap", 0.001)
    assert samples(b).get(("gamenight_moves_total", (("game", "snap"),))) is None


def test_a_log_line_is_one_json_object_with_the_extra_fields() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger("gamenight.test-json")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    log.info("move accepted", extra={"table": "abc", "seat": 2, "move": 41})
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        log.exception("commit failed", extra={"table": "abc"})
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["msg"] == "move accepted" and first["level"] == "info"
    assert (first["table"], first["seat"], first["move"]) == ("abc", 2, 41)
    assert first["ts"].endswith("Z") and first["logger"] == "gamenight.test-json"
    assert second["level"] == "error" and "ValueError: boom" in second["exc"]


async def test_healthz_says_503_while_the_database_or_redis_is_down(
    tmp_path: Path, redis_url: str
) -> None:
    """A load balancer's check must see what every move would hit: it used to answer ok
    while PostgreSQL or Redis was down and each move failed."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/h.db", redis_url=redis_url))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://localhost") as http,
    ):

        async def healthy() -> httpx.Response | None:
            r = await http.get("/healthz")
            return r if r.status_code == 200 else None

        # up: 200 once the checks answer inside /healthz's own bound (2 s), which a busy
        # machine may miss now and then; down (below) is certain, as the checks fail at once
        r = await until(healthy, what="/healthz to answer 200")
        assert r.json() | {"tables": 0} == {
            "status": "ok",
            "tables": 0,
            "connections": 0,
            "database": "ok",
            "redis": "ok",
        }
        service = app.state.service

        async def down() -> None:
            raise ConnectionRefusedError("down")

        class Unreachable:
            def connect(self) -> None:
                raise ConnectionRefusedError("down")

        redis, storage = service.fanout.redis, service.storage
        ping, reader = redis.ping, storage.reader
        redis.ping = down
        r = await http.get("/healthz")
        assert r.status_code == 503 and r.json()["status"] == "degraded"
        assert r.json()["redis"] != "ok" and r.json()["database"] == "ok"
        redis.ping = ping
        storage.reader = Unreachable()
        r = await http.get("/healthz")
        assert r.status_code == 503 and r.json()["database"] != "ok" and r.json()["redis"] == "ok"
        storage.reader = reader
        assert (await until(healthy, what="/healthz to answer 200 again")).status_code == 200


async def test_an_api_call_the_database_cannot_answer_gets_a_json_503(tmp_path: Path) -> None:
    """Errors are {code, message}: with the database down the lobby answered a bare
    'Internal Server Error' text with 500, which the page showed as it was."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/e.db"))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://localhost") as http,
    ):
        storage = app.state.service.storage

        async def down(*args: object, **kw: object) -> None:
            raise ConnectionRefusedError("the database is down")

        storage.load_tables = down
        r = await http.get("/api/tables")
        assert r.status_code == 503
        assert r.json()["code"] == "server_error" and "refused" not in r.json()["message"]
        assert int(r.headers["Retry-After"]) >= 1

        async def bug(*args: object, **kw: object) -> None:
            raise KeyError("a fault of ours")

        storage.load_tables = bug  # not the database away: 500, and no promise that retrying helps
        r = await http.get("/api/tables")
        assert r.status_code == 500 and "Retry-After" not in r.headers
        assert r.json()["code"] == "server_error" and "fault" not in r.json()["message"]
