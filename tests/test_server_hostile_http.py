"""Whatever body a stranger POSTs to the HTTP API, the answer is a typed error in the one shape
the docs promise (``{"code", "message"}``, 4xx), the table is unchanged and the log holds no
traceback: NaN and Infinity, numbers of thousands of digits, deep nesting, non-objects."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services import WAIT, ServerProcess, wait_until

pytestmark = pytest.mark.server

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and Infinity included: Python's json writes them as bare words
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
NASTY = st.sampled_from(
    [
        "[" * 3000 + "]" * 3000,
        '{"game": "shake", "options": {"rounds": ' + "9" * 5000 + "}}",
        '{"name": ' + "9" * 5000 + "}",
        '{"move": ' + "1" * 4400 + ', "action": {}}',
        "{not json",
        "",
        "\xff\xfe",
        '{"name": "\\ud800"}',
        '{"game": "shake", "seats": [{"kind": "human"}], "turn_seconds": NaN}',
    ]
)
BODIES = (
    NASTY
    | JSON.map(json.dumps)
    | st.fixed_dictionaries(
        {},
        optional={
            "game": JSON | st.just("shake"),
            "seats": JSON | st.just(HUMANS2),
            "options": JSON,
            "name": JSON,
            "seat": JSON,
            "move": JSON,
            "action": JSON,
            "turn_seconds": JSON,
        },
    ).map(json.dumps)
)
PATHS = st.sampled_from(["/api/tables", "join", "actions", "leave", "start", "rematch"])


def error_shaped(r: httpx.Response) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        body = r.json()
        assert set(body) >= {"code", "message"} and "detail" not in body, r.text[:300]
        assert isinstance(body["message"], str) and 0 < len(body["message"]) < 1000


@pytest.fixture(scope="module")
def playing(server: ServerProcess) -> tuple[str, str]:
    made = server.table("shake", HUMANS2)
    tid = made["table_id"]
    token = server.join(tid, "Ann", 0)
    server.join(tid, "Bob", 1)
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    return tid, token


@settings(
    max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
@given(body=BODIES, where=PATHS)
def test_any_body_gets_a_typed_error_and_changes_nothing(
    server: ServerProcess, playing: tuple[str, str], body: str, where: str
) -> None:
    tid, token = playing
    before = server.get(f"/api/tables/{tid}/view", token).json()
    path = where if where.startswith("/") else f"/api/tables/{tid}/{where}"
    if where in ("leave", "rematch"):  # do not give the seat up: another table's token
        token = "not-a-token"
    raw = body.encode("utf-8", "surrogatepass")
    r = server.request(
        lambda: httpx.post(
            server.url + path,
            content=raw,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            timeout=WAIT,
        )
    )
    error_shaped(r)
    if where != "/api/tables":
        after = server.get(f"/api/tables/{tid}/view", playing[1]).json()
        assert after["move"] == before["move"] or r.status_code == 200
    assert "Traceback" not in Path(server.log).read_text()


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        ("[" * 3000 + "]" * 3000, 400, "bad_frame"),
        ('{"game": "shake", "options": {"rounds": ' + "9" * 5000 + "}}", 400, "bad_frame"),
        ("{not json", 400, "bad_frame"),
    ],
)
def test_unreadable_bodies_are_400_in_the_error_shape(
    server: ServerProcess, raw: str, status: int, code: str
) -> None:
    r = server.request(
        lambda: httpx.post(
            server.url + "/api/tables",
            content=raw,
            headers={"Content-Type": "application/json"},
            timeout=WAIT,
        )
    )
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert "JSON" in r.json()["message"]


def test_unknown_paths_and_methods_answer_in_the_error_shape(server: ServerProcess) -> None:
    r = server.request(lambda: httpx.post(server.url + "/api/nope", timeout=WAIT))
    assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
    r = server.request(lambda: httpx.delete(server.url + "/api/tables", timeout=WAIT))
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed", r.text
    r = server.request(lambda: httpx.post(server.url + "/api/tables", content=b"[]", timeout=WAIT))
    assert r.json()["message"].startswith("the body: "), r.text


def test_one_address_has_a_bounded_number_of_unfinished_tables(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Within the HTTP rate limit one client made 60 tables a second, each held in memory for
    hours and all of them crowding the lobby; past the cap it is told so, and a table that
    finishes frees its place."""
    server = start_server(None, "--tables-per-client", "2")
    bots = [{"kind": "bot"}, {"kind": "bot"}]
    quick = server.table("shake", bots, bot_pace="instant", options={"rounds": 1}, listed=True)
    server.table("shake", HUMANS2, listed=True)
    r = server.post("/api/tables", {"game": "shake", "seats": HUMANS2})
    assert r.status_code == 429 and r.json()["code"] == "too_many_tables", r.text
    assert "at most 2 unfinished tables" in r.json()["message"]
    assert len(server.get("/api/tables").json()) == 2
    tid = quick["table_id"]
    assert server.post(f"/api/tables/{tid}/start", None, quick["host_token"]).status_code == 200
    wait_until(
        lambda: server.get(f"/api/tables/{tid}").json()["status"] == "finished",
        poll=0.1,
        what="the bots' quick game to finish",
    )
    assert server.post("/api/tables", {"game": "shake", "seats": HUMANS2}).status_code == 201


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_turn_timer_of_nan_or_infinity_is_called_what_it_is(
    server: ServerProcess, word: str
) -> None:
    """Python's JSON reads NaN and Infinity; NaN was refused as 'less than or equal to 3600'."""
    raw = '{"game": "shake", "seats": [{"kind": "human"}, {"kind": "human"}], "turn_seconds": %s}'
    r = server.request(
        lambda: httpx.post(
            server.url + "/api/tables",
            content=raw % word,
            headers={"Content-Type": "application/json"},
            timeout=WAIT,
        )
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    assert r.json()["message"] == "turn_seconds: Input should be a finite number", r.text


@pytest.mark.parametrize("word", ["NaN", "Infinity"])
def test_a_timer_set_mid_game_to_nan_or_infinity_is_called_what_it_is(
    server: ServerProcess, word: str
) -> None:
    """The same words through the timer a table may be given later: refused, table unchanged."""
    made = server.table("shake", HUMANS2)
    tid = made["table_id"]
    r = server.request(
        lambda: httpx.post(
            server.url + f"/api/tables/{tid}/timer",
            content=f'{{"turn_seconds": {word}}}',
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {made['host_token']}",
            },
            timeout=WAIT,
        )
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    assert r.json()["message"] == "turn_seconds: Input should be a finite number", r.text
    assert server.get(f"/api/tables/{tid}").json().get("turn_seconds") is None


def test_a_huge_seat_number_is_named_briefly(server: ServerProcess) -> None:
    tid = server.table("shake", HUMANS2)["table_id"]
    raw = '{"name": "Ann", "seat": ' + "9" * 4000 + "}"
    r = server.request(
        lambda: httpx.post(
            server.url + f"/api/tables/{tid}/join",
            content=raw,
            headers={"Content-Type": "application/json"},
            timeout=WAIT,
        )
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text[:200]
    assert "bits" in r.json()["message"] and len(r.json()["message"]) < 200, r.text[:200]


def test_a_chunked_body_is_cut_off_at_the_cap(tmp_path: Path) -> None:
    """A body sent in chunks has no Content-Length for the 16 KiB check: the server read 200 MB
    of one whole (the process grew by 363 MB) before refusing it. It stops at the cap now."""
    from gamenight.server.app import Settings, create_app

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'g.db'}"))
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"y" * (1 << 20), "more_body": pulled < 64}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("203.0.113.9", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    parts = [m.get("body", b"") for m in sent if m["type"] == "http.response.body"]
    body = json.loads(b"".join(parts))
    assert start["status"] == 413 and body["code"] == "frame_too_large", body
    assert pulled == 1, f"{pulled} MiB of the body were read"


def test_a_finished_games_replay_is_built_once_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying a 1,400-move Snap game held the event loop 37 ms: one client asking for it
    27 times a second, within the API's rate, held up every table. A finished game's replay
    never changes, so each seat's is built once and kept (the newest few)."""
    import gamenight
    from gamenight.server import replay

    state = gamenight.new_game("shake", players=2).new_state(seed=4)
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(state.legal_actions(seat)[0], seat)
    built: list[int | None] = []
    real = replay.replay_frames

    def counted(st: Any, seat: int | None) -> list[dict[str, Any]]:
        built.append(seat)
        return real(st, seat)

    monkeypatch.setattr(replay, "replay_frames", counted)

    async def asked() -> None:
        first = await cache.get(state, "t1", 0)
        assert json.loads(first) == {"frames": real(state, 0)}
        assert await cache.get(state, "t1", 0) == first and built == [0]
        await cache.get(state, "t1", None)
        await cache.get(state, "t2", 1)  # past the budget: the oldest (t1, seat 0) goes
        await cache.get(state, "t1", 0)
        assert built == [0, None, 1, 0]

    cache = replay.ReplayCache(budget=len(replay.encoded_replay(state, 0)) * 5 // 2)
    built.clear()  # the size of one, measured
    asyncio.run(asked())
