"""One stranger against `gamenight serve` (issue 28): each attack gets a typed refusal or a
bound, and nothing it does reaches anyone else's table."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from services import WAIT, Client, ServerProcess, until, wait_until

pytestmark = pytest.mark.server

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


@pytest.mark.parametrize("name", ["game_id", "self"])
def test_an_option_named_like_a_parameter_is_an_unknown_option(
    server: ServerProcess, name: str
) -> None:
    """`game_id` and `self` clashed with the constructors' own parameters: a 500 and a
    traceback in the log instead of the unknown-option answer every other name gets."""
    body: dict[str, Any] = {"game": "shake", "seats": HUMANS2, "options": {name: 1}}
    r = server.post("/api/tables", body)
    assert r.status_code == 422 and r.json()["code"] == "bad_option", r.text
    assert r.json()["message"].startswith(f"{name}: unknown option"), r.text


@pytest.mark.parametrize("path", ["/", "/t/abc", "/t/abc/display", "/api/games", "/healthz"])
def test_every_answer_carries_the_browser_hardening_headers(
    server: ServerProcess, path: str
) -> None:
    """The table page holds a seat token: no other site may frame it, no script but this
    origin's may run in it, and no referrer leaves it."""
    r = server.get(path)
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0], csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_swagger_from_a_cdn_is_off_unless_asked_for(
    server: ServerProcess, start_server: Callable[..., ServerProcess]
) -> None:
    """Swagger UI's script comes from a CDN with no integrity hash, onto the origin where seat
    tokens live: off by default, the schema itself still served."""
    assert server.get("/docs").status_code == 404
    assert server.get("/openapi.json").json()["info"]["title"] == "gamenight"
    docs = start_server(None, "--api-docs").get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_a_foreign_host_name_is_refused_on_a_loopback_server(
    start_server: Callable[..., ServerProcess],
) -> None:
    """DNS rebinding: a page on evil.example resolved to 127.0.0.1 reaches a loopback server
    under its own name; only loopback names (or the --allowed-host list) are answered."""
    server = start_server(None)
    assert server.get("/healthz").status_code == 200

    def under(host: str) -> httpx.Response:
        return server.request(
            lambda: httpx.get(server.url + "/api/games", headers={"Host": host}, timeout=WAIT)
        )

    assert under(f"localhost:{server.port}").status_code == 200
    assert under("evil.example").status_code == 400
    listed = start_server(None, "--allowed-host", "games.example", "--allowed-host", "127.0.0.1")
    r = listed.request(
        lambda: httpx.get(
            listed.url + "/api/games", headers={"Host": "games.example"}, timeout=WAIT
        )
    )
    assert r.status_code == 200
    r = listed.request(
        lambda: httpx.get(listed.url + "/api/games", headers={"Host": "localhost"}, timeout=WAIT)
    )
    assert r.status_code == 400  # not on its list


async def test_half_sent_request_heads_are_closed_and_others_are_still_served(
    server: ServerProcess,
) -> None:
    """20,000 requests that never finished their head were held open for ever, until nothing
    else could connect. A head must be whole within a deadline, and within 16 KiB."""
    held = []
    for _ in range(50):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append((reader, writer))
    assert server.get("/healthz").status_code == 200
    for reader, _ in held:  # closed by the server: the read ends (main held them for ever)
        assert await asyncio.wait_for(reader.read(), 120) == b""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 20000)
    answer = await asyncio.wait_for(reader.read(), 120)
    assert answer.startswith(b"HTTP/1.1 431") and b"frame_too_large" in answer, answer[:200]
    for _, w in [*held, (reader, writer)]:
        w.close()


async def test_the_wal_is_emptied_once_a_long_reader_lets_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While moves keep coming a passive checkpoint never completes, and the WAL never starts
    over (5 GB in 9 minutes of an all-bot table). Past its limit the checkpoint truncates it."""
    from gamenight.server import sqlite_writer

    monkeypatch.setattr(sqlite_writer, "WAL_LIMIT", 256 * 1024)
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_EVERY", 20)
    path = str(tmp_path / "g.db")
    writer = sqlite_writer.SqliteWriter(path)
    await writer.commit([("CREATE TABLE m (x BLOB)", [()])])
    reader = sqlite3.connect(path)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM m").fetchall()  # holds its snapshot: no checkpoint ends
    row = [(b"x" * 4000,)] * 4
    for _ in range(200):
        await writer.commit([("INSERT INTO m VALUES (?)", row)])
    wal = Path(path + "-wal")
    assert wal.stat().st_size > 2 * 1024 * 1024
    reader.execute("COMMIT")
    reader.close()

    async def small() -> bool:
        await writer.commit([("INSERT INTO m VALUES (?)", row[:1])])
        return wal.stat().st_size <= 256 * 1024

    await until(small, what="the WAL to be truncated")
    await writer.close()


def test_bots_alone_keep_no_table_alive(start_server: Callable[..., ServerProcess]) -> None:
    """An all-bot casino table with a huge bankroll and roll cap played for as long as the
    server lived, since every bot move counted as activity: with nobody connected it now
    expires like any idle table, and a restart does not bring it back."""
    server = start_server(None, "--idle-minutes", "0.2")  # 12 s: time enough to start it
    bots = [{"kind": "bot", "strategy": "numbers"}, {"kind": "bot", "strategy": "numbers"}]
    options = {"bankroll": 10**9, "max_rolls": 10**7}
    made = server.table("snake-eyes-casino", bots, bot_pace="instant", options=options)
    tid = made["table_id"]
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    wait_until(
        lambda: server.get(f"/api/tables/{tid}").json()["status"] == "expired",
        poll=0.2,
        what="the unattended all-bot table to expire",
    )
    moves = server.get(f"/api/tables/{tid}").json()["move"]
    assert moves > 0


def test_a_tables_bots_play_a_burst_then_at_a_bounded_rate() -> None:
    """After BOT_BURST moves at once, each further bot move waits for the table's bucket."""
    from gamenight.server.clock import BOT_BURST, BOT_RATE
    from gamenight.server.limits import RateLimit

    now = [0.0]
    bucket = RateLimit(BOT_RATE, BOT_BURST, clock=lambda: now[0])
    assert all(bucket.reserve() == 0 for _ in range(BOT_BURST))
    waits = [bucket.reserve() for _ in range(3)]
    assert waits == pytest.approx([1 / BOT_RATE, 2 / BOT_RATE, 3 / BOT_RATE])
    now[0] += 4 / BOT_RATE  # time passes: the borrowed tokens are paid back first
    assert bucket.reserve() == 0 and bucket.reserve() > 0


def finished_state(game: str = "shake", **options: Any) -> Any:
    import gamenight

    state = gamenight.new_game(game, **options).new_state(seed=4)
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(state.legal_actions(seat)[0], seat)
    return state


async def test_a_replay_is_built_once_off_the_loop_and_refused_past_its_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 97k-move replay was built on the event loop for every request: ten at once held the
    loop 9.2 s. Ten requests now share one build in a worker thread; a game past MAX_MOVES gets
    a typed refusal; a large answer is thinned to MAX_BYTES, its last frame kept."""
    import threading

    from gamenight.server import replay
    from gamenight.server.protocol import ServerError

    state = finished_state(players=2)
    threads: list[int] = []
    real = replay.replay_frames

    def counted(st: Any, seat: int | None) -> list[dict[str, Any]]:
        threads.append(threading.get_ident())
        return real(st, seat)

    monkeypatch.setattr(replay, "replay_frames", counted)
    cache = replay.ReplayCache()
    bodies = await asyncio.gather(*(cache.get(state, "t", 0) for _ in range(10)))
    assert len(set(bodies)) == 1 and len(threads) == 1
    assert threads[0] != threading.get_ident()
    monkeypatch.setattr(replay, "MAX_MOVES", len(state.moves) - 1)
    with pytest.raises(ServerError) as refused:
        await cache.get(state, "other", 0)
    assert refused.value.code == "too_long" and str(len(state.moves)) in refused.value.message
    monkeypatch.setattr(replay, "MAX_BYTES", len(bodies[0]) // 3)
    thin = json.loads(replay.encoded_replay(state, 0))["frames"]
    whole = json.loads(bodies[0])["frames"]
    assert len(thin) < len(whole) and thin[-1] == whole[-1]
    assert len(replay.encoded_replay(state, 0)) <= len(bodies[0]) // 3


def no_watchers_shown(client: Client) -> bool:
    """Whether the last seats summary the client was sent counts no watcher."""
    last = [f for f in client.frames if f["type"] == "seats"]
    return bool(last) and last[-1]["table"]["spectators"] == 0


async def test_watchers_coming_and_going_are_announced_as_a_count_not_per_connection(
    server: ServerProcess,
) -> None:
    """Each watcher's connect and close sent the whole seat summary to every connection of the
    table: 500 churning watchers pushed 255,000 frames. A seat arriving is announced at once;
    watchers' churn becomes at most one summary a second, with the count right at the end."""
    from gamenight.server.presence import EVERY

    made = server.table("shake", HUMANS2)
    tid = made["table_id"]
    ann = await Client.open(server, tid, server.join(tid, "Ann", 0))
    began = time.monotonic()
    for _ in range(20):
        watcher = await Client.open(server, tid, None)
        await watcher.close()
    took = time.monotonic() - began

    await until(lambda: no_watchers_shown(ann), what="the watchers' count to reach the player")
    summaries = sum(f["type"] == "seats" for f in ann.frames)
    assert summaries <= took / EVERY + 2, f"{summaries} summaries for 40 connects and closes"
    bob = await Client.open(server, tid, server.join(tid, "Bob", 1))

    def bob_shown() -> bool:
        last = [f for f in ann.frames if f["type"] == "seats"][-1]
        return bool(last["table"]["seats"][1]["connected"])

    await until(bob_shown, what="a seat's arrival to be announced")
    for c in (ann, bob):
        await c.close()


def test_one_address_cannot_bloat_the_lobby_or_push_others_out(
    start_server: Callable[..., ServerProcess],
) -> None:
    """200 waiting tables with large custom options made the lobby's answer 15 MiB, and a
    flood of new tables pushed everyone else's off the list. One address is listed with at
    most 10 tables, large option values stay at the table, and the answer has a size cap."""
    from gamenight.server.routes import LISTED_PER_ADDRESS, LOBBY_BYTES

    server = start_server(None, "--tables-per-client", "30")

    def create(address: str, **options: Any) -> str:
        body = {"game": "snake-eyes-casino", "seats": HUMANS2, "options": options, "listed": True}
        r = server.request(
            lambda: httpx.post(
                server.url + "/api/tables",
                json=body,
                headers={"X-Forwarded-For": address},
                timeout=WAIT,
            )
        )
        assert r.status_code == 201, r.text
        return str(r.json()["table_id"])

    honest = create("203.0.113.1")
    payouts = {"craps2": "30:1", "craps3": "15:1", "craps12": "30:1", "eleven": "15:1"}
    flood = {create("203.0.113.66", payouts=payouts) for _ in range(30)}
    r = server.get("/api/tables")
    listed = [t["table_id"] for t in r.json()]
    assert honest in listed
    assert len(flood & set(listed)) == LISTED_PER_ADDRESS, len(flood & set(listed))
    assert len(r.content) <= LOBBY_BYTES
    assert all("payouts" not in t["options"] for t in r.json())
    assert server.get(f"/api/tables/{honest}").json()["options"]["payouts"]  # kept at the table


async def test_forty_sockets_of_one_seat_chat_at_the_seats_rate(server: ServerProcess) -> None:
    """One seat with 40 sockets sent 200 lines in 1.4 s when the limit was per socket. The
    bucket is the seat's: 5 at once, then 1 a second, however many sockets it opens."""
    made = server.table("shake", HUMANS2)
    tid = made["table_id"]
    token = server.join(tid, "Ann", 0)
    sockets = [await Client.open(server, tid, token) for _ in range(40)]
    began = time.monotonic()
    said = 0
    for i, client in enumerate(sockets):
        for j in range(5):
            reply = await client.reply({"type": "chat", "text": f"line {i}.{j}", "ref": f"{i}.{j}"})
            if reply["type"] == "chat":
                said += 1
            else:
                assert reply["code"] == "rate_limited", reply
    took = time.monotonic() - began
    assert said <= 5 + took * 1 + 1, f"{said} lines from one seat in {took:.1f} s"
    for client in sockets:
        await client.close()


@pytest.fixture
def pair(start_server: Callable[..., ServerProcess], postgres: Any, redis_url: str) -> Any:
    """Two server processes on one fresh PostgreSQL database and one Redis."""
    database = postgres.database()
    return [start_server(database, "--redis-url", redis_url) for _ in range(2)]


@pytest.mark.postgres
@pytest.mark.redis
async def test_two_processes_on_postgresql_and_redis_hold_the_same_bounds(
    pair: list[ServerProcess],
) -> None:
    """Watchers churning on one process reach a player on the other as a coalesced count (the
    Redis channel carries one summary a second, not one per connect), and forty lobby reads
    at once wait for the fixed pool of PostgreSQL readers instead of failing."""
    from gamenight.server.presence import EVERY

    one, two = pair
    tid = one.table("shake", HUMANS2, listed=True)["table_id"]
    ann = await Client.open(two, tid, one.join(tid, "Ann", 0))
    began = time.monotonic()
    for _ in range(20):
        watcher = await Client.open(one, tid, None)
        await watcher.close()
    took = time.monotonic() - began

    await until(lambda: no_watchers_shown(ann), what="the count to reach the other process")
    summaries = sum(f["type"] == "seats" for f in ann.frames)
    assert summaries <= took / EVERY + 2, f"{summaries} summaries for 40 connects and closes"
    await ann.close()

    async with httpx.AsyncClient(base_url=one.url, timeout=WAIT) as http:
        answers = await asyncio.gather(*(http.get("/api/tables") for _ in range(40)))
    assert {r.status_code for r in answers} == {200}, {r.status_code for r in answers}
    assert all(tid in r.text for r in answers)


async def test_a_table_of_bots_alone_stops_at_its_move_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its memory and its replay stay bounded: past BOT_MOVES no bot is asked to move, and
    with nobody moving the table then expires when idle."""
    from gamenight.server import clock
    from gamenight.server.protocol import CreateTable, SeatSpec
    from gamenight.server.storage import Storage
    from gamenight.server.tables import TableService

    monkeypatch.setattr(clock, "BOT_MOVES", 40)
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    await storage.migrate()
    service = TableService(storage)
    await service.restore()
    bots = [SeatSpec(kind="bot", strategy="numbers")] * 2
    options = {"bankroll": 10**9, "max_rolls": 10**7}
    made = CreateTable(game="snake-eyes-casino", seats=bots, options=options, bot_pace="instant")
    table, host = await service.create(made)
    await service.start(table.id, host)
    await until(lambda: table.move >= 40 and not table.tasks, what="the bots to stop")
    assert table.status == "playing" and not table.state.is_terminal()
    await service.shutdown()
    await storage.close()


async def test_a_table_has_a_bounded_number_of_watchers(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Many addresses watching one table made every change go to all of them; past the cap a
    watcher is refused with a typed error, while a seated player still gets in."""
    server = start_server(None, "--watchers-per-table", "2")
    tid = server.table("shake", HUMANS2)["table_id"]
    watchers = [await Client.open(server, tid, None) for _ in range(2)]
    with pytest.raises(ConnectionError) as refused:
        await Client.open(server, tid, None, role="display")
    assert "4429" in str(refused.value)
    ann = await Client.open(server, tid, server.join(tid, "Ann", 0))
    for c in [*watchers, ann]:
        await c.close()


@pytest.mark.parametrize("bad", ["\u202e", "\x07", "\x1b[2J", "\n"])
@pytest.mark.parametrize("where", ["fortune", "board"])
def test_custom_gambler_texts_are_checked_like_names(
    server: ServerProcess, bad: str, where: str
) -> None:
    """A custom Fortune card or board space holding a bidi override, BEL, ESC or a newline
    reaches every player's screen and log: refused by name, and no table is made."""
    text = f"Win {bad}big"
    data: dict[str, Any] = {
        "fortune": {"card": [{"text": text, "effect": "collect", "amount": 5}]},
        "board": {"space": [{"name": "Start", "kind": "start"}, {"name": text, "kind": "fortune"}]},
    }
    before = server.get("/api/tables").json()
    body = {"game": "gambler", "seats": HUMANS2, "options": {where: data[where]}}
    r = server.post("/api/tables", body)
    assert r.status_code == 422 and r.json()["code"] == "bad_option", r.text
    assert "control character" in r.json()["message"], r.text
    assert server.get("/api/tables").json() == before
