"""What every server process must agree on: the lobby, the race record and the turn deadline;
and the per-client limit on the HTTP API."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from gamenight.server.app import Settings, build_fanout, build_lease
from gamenight.server.limits import ClientRates
from gamenight.server.protocol import CreateTable, SeatSpec, ServerError
from gamenight.server.storage import Storage
from gamenight.server.sync import merge_race
from gamenight.server.tables import TableService
from services import WAIT, ServerProcess
from services import until as poll_until

HUMANS = [SeatSpec(kind="human")] * 2


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# --- the HTTP rate limit ------------------------------------------------------------------------
def test_a_client_gets_its_burst_then_waits_as_retry_after_says() -> None:
    clock = Clock()
    rates = ClientRates(rate=2, burst=3, clock=clock)
    assert [rates.retry_after("a") for _ in range(3)] == [0, 0, 0]
    wait = rates.retry_after("a")
    assert wait == pytest.approx(0.5) and ClientRates.header(wait) == "1"
    assert rates.retry_after("b") == 0  # another client has its own bucket
    clock.now += wait
    assert rates.retry_after("a") == 0
    assert rates.retry_after("a") > 0
    clock.now += 10  # refills up to the burst, not beyond
    assert [rates.retry_after("a") for _ in range(4)][-1] > 0


def test_a_zero_rate_never_limits() -> None:
    rates = ClientRates(rate=0, burst=0)
    assert all(rates.retry_after("a") == 0 for _ in range(1000))


@pytest.mark.server
async def test_the_api_answers_a_flood_with_429_and_retry_after(
    start_server: Callable[..., ServerProcess],
) -> None:
    server = start_server(None, "--http-rate-limit", "2")  # bursts of 10
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
        answers = await asyncio.gather(*(http.get("/api/tables") for _ in range(30)))
        assert len([r for r in answers if r.status_code == 200]) >= 10
        for _ in range(10):  # a machine too slow to answer 30 at once inside 10 s asks again
            if any(r.status_code == 429 for r in answers):
                break
            answers += await asyncio.gather(*(http.get("/api/tables") for _ in range(30)))
        limited = [r for r in answers if r.status_code == 429]
        assert limited, "30 requests at once, 10 allowed: some must be refused"
        for r in limited:
            assert r.json()["code"] == "rate_limited"
            assert int(r.headers["Retry-After"]) >= 1
        # the rest of the server is not an API route: health checks still pass
        assert (await http.get("/healthz")).status_code == 200
        # another client (behind the trusted local proxy) is not held back by this one
        other = await http.get("/api/tables", headers={"X-Forwarded-For": "10.9.8.7"})
        assert other.status_code == 200
        # a client that waits as Retry-After says is served (each 429 says how long again:
        # an answer that came late may be followed by one a token refilled in between)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        await asyncio.sleep(int(limited[-1].headers["Retry-After"]))
        r = await http.get("/api/tables")
        while r.status_code == 429 and loop.time() < deadline:
            await asyncio.sleep(int(r.headers["Retry-After"]))
            r = await http.get("/api/tables")
        assert r.status_code == 200


# --- the lobby across processes -----------------------------------------------------------------
async def test_the_lobby_lists_waiting_tables_another_process_created(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    one, two = Storage(url), Storage(url)  # two processes' storage on one database
    await one.migrate()
    a, b = TableService(one), TableService(two)
    try:
        table, host = await a.create(CreateTable(game="shake", seats=HUMANS, listed=True))
        await a.join(table.id, "Ann")
        lobby = {t["table_id"]: t for t in await b.open_tables()}
        assert table.id not in b.tables  # listed from storage, not loaded
        seen = lobby[table.id]
        assert seen["game"] == "shake" and seen["status"] == "waiting"
        assert seen["title"] == table.summary()["title"]
        assert [s["taken"] for s in seen["seats"]] == [True, False]
        assert seen["seats"][0]["name"] == "Ann"
        assert {k for k in seen} == set(table.summary())
        await a.join(table.id, "Bob")
        await a.start(table.id, host)
        assert table.id not in {t["table_id"] for t in await b.open_tables()}
        assert table.id not in {t["table_id"] for t in await a.open_tables()}
    finally:
        for service in (a, b):
            await service.shutdown()
            await service.storage.close()


# --- the race record and the turn deadline across processes -------------------------------------
def test_merging_race_records_keeps_every_arrival_once() -> None:
    good = {"seat": 0, "type": "snap", "result": "good"}
    late = {"seat": 1, "type": "snap", "result": "too late"}
    theirs = {"move": 7, "arrivals": [good]}
    merged = merge_race(theirs, {"move": 7, "arrivals": [good, late]})
    assert merged is not None and merged["arrivals"] == [good, late]
    assert merge_race(theirs, {"move": 6, "arrivals": [late]}) == theirs
    assert merge_race(None, theirs) == theirs
    # a process that heard only the late call first still shows the applied call first
    swapped = merge_race({"move": 7, "arrivals": [late]}, {"move": 7, "arrivals": [good]})
    assert swapped is not None and swapped["arrivals"] == [good, late]


@asynccontextmanager
async def sharing(path: Path, redis_url: str, **kw: Any) -> AsyncIterator[list[TableService]]:
    """Two table services sharing one database through Redis, as two server processes do.
    Each one's Redis connections carry a name of their own (CLIENT LIST shows it)."""
    url = f"sqlite:///{path / 'shared.db'}"
    services = []
    try:
        for _ in range(2):
            name = f"gn-test-{uuid.uuid4().hex[:12]}"
            storage = Storage(url)
            await storage.migrate()
            sep = "&" if "?" in redis_url else "?"
            fanout = build_fanout(Settings(redis_url=f"{redis_url}{sep}client_name={name}"))
            await fanout.start()
            services.append(TableService(storage, fanout, lease=build_lease(fanout), **kw))
        yield services
    finally:
        for service in services:
            await service.shutdown()
            await service.fanout.close()
            await service.storage.close()


async def kill_subscribers(redis: Any, name: str) -> int:
    """Cut the pub/sub connections of the clients named ``name``, and no one else's."""
    killed = 0
    for client in await redis.client_list(_type="pubsub"):
        if client.get("name") == name:
            killed += await redis.client_kill_filter(_id=client["id"])
    return killed


@pytest.fixture
async def two_processes(tmp_path: Path, redis_url: str) -> AsyncIterator[list[TableService]]:
    async with sharing(tmp_path, redis_url) as services:
        yield services


async def until(check: Callable[[], Any], timeout: float = WAIT) -> None:
    await poll_until(check, timeout)


@pytest.mark.redis
async def test_both_processes_show_the_same_race_record_and_deadline(
    two_processes: list[TableService],
) -> None:
    a, b = two_processes
    spec = CreateTable(game="snap", seats=[SeatSpec(kind="human")] * 3, turn_seconds=60)
    table, host = await a.create(spec)
    tokens = [(await a.join(table.id, f"P{i}", i))[1] for i in range(3)]
    await a.start(table.id, host)
    there = await b.find(table.id)
    await until(lambda: there.status == "playing" and there.deadline is not None)
    assert table.deadline is not None and there.deadline == table.deadline  # A's, not B's own
    # flip on A until a pair shows: the first call takes it, the second voice is too late
    for _ in range(300):
        if table.state.matches():
            break
        turn = table.state.actors()[0]
        await a.act(table.id, tokens[turn], table.move, {"type": "flip"})
    assert table.state.matches(), "no pair showed in 300 flips"
    callers = [s for s in range(3) if {"type": "snap"} in table.state.legal_actions(s)][:2]
    flip = table.move
    await a.act(table.id, tokens[callers[0]], flip, {"type": "snap"})  # first, on A
    await until(lambda: there.move == table.move and there.race is not None)
    with pytest.raises(ServerError) as late:  # second, on B, against the same flip
        await b.act(table.id, tokens[callers[1]], flip, {"type": "snap"})
    assert late.value.code == "too_late"
    await until(lambda: table.race is not None and len(table.race["arrivals"]) == 2)
    race = table.race
    assert race is not None and race == there.race
    assert [x["seat"] for x in race["arrivals"]] == callers
    assert race["arrivals"][1]["result"] == "too late"
    # the frame each process sends shows the same
    assert a.frame(table, None)["race"] == b.frame(there, None)["race"]
    assert a.frame(table, None)["deadline"] == b.frame(there, None)["deadline"]


async def gambler_on_both(a: TableService, b: TableService) -> tuple[Any, list[str], Any]:
    """A two-seat Gambler game started on A and followed by B: (A's table, seat tokens, B's
    copy)."""
    table, host = await a.create(CreateTable(game="gambler", seats=HUMANS))
    tokens = [(await a.join(table.id, f"P{i}", i))[1] for i in range(2)]
    await a.start(table.id, host)
    there = await b.find(table.id)
    await until(lambda: there.status == "playing" and there.move == table.move)
    return table, tokens, there


@pytest.mark.redis
async def test_a_moves_notice_carries_its_moves_so_the_other_process_reads_no_storage(
    two_processes: list[TableService],
) -> None:
    a, b = two_processes
    table, tokens, there = await gambler_on_both(a, b)
    reads: list[int] = []
    load_moves = b.storage.load_moves

    async def counted(table_id: str, since: int = 0) -> list[tuple[int | None, Any]]:
        reads.append(since)
        return await load_moves(table_id, since)

    b.storage.load_moves = counted  # type: ignore[method-assign]
    for _ in range(6):
        if table.status != "playing":
            break
        turn = table.state.actors()[0]
        await a.act(table.id, tokens[turn], table.move, table.state.legal_actions(turn)[0])
        await until(lambda: there.move == table.move)
    assert reads == []
    assert list(there.state.moves) == list(table.state.moves)
    for seat in (0, 1, None):
        assert b.frame(there, seat) == a.frame(table, seat)


def test_carried_moves_are_used_only_when_they_follow_on_our_copy() -> None:
    from gamenight.server.sync import carried_moves

    class Stub:
        move = 4

    moves = [[0, {}], [None, {}]]
    notice: dict[str, Any] = {"kind": "moves", "first": 4, "move": 6, "moves": moves}
    assert carried_moves(Stub(), notice) == [(0, {}), (None, {})]  # type: ignore[arg-type]
    for gap in ({"first": 3}, {"move": 7}, {"moves": [[0, {}], ["x", {}]]}, {"kind": "status"}):
        assert carried_moves(Stub(), {**notice, **gap}) is None  # type: ignore[arg-type]
    assert carried_moves(Stub(), {"kind": "moves", "move": 6}) is None  # type: ignore[arg-type]


def test_catching_up_finds_the_newest_call_from_the_new_moves_alone() -> None:
    """A process that catches up scans only the moves it lacked for the newest call (which
    refuses older calls as too late); that must equal a scan of the whole game at every step."""
    import random

    import gamenight

    rng = random.Random(4)
    st = gamenight.replay({"game": "snap", "options": {"players": 3}, "moves": [], "seed": 5})
    full: list[int] = []
    while not st.is_terminal() and len(st.moves) < 400:
        if st.is_chance():
            st.sample_chance()
        else:
            seat = rng.choice(st.actors())
            legal = st.legal_actions(seat)
            snaps = [a for a in legal if a["type"] == "snap"]
            others = [a for a in legal if a["type"] != "snap"] or legal
            st.apply(snaps[0] if snaps and rng.random() < 0.1 else rng.choice(others), seat)
        full.append(TableService._last_call(st))
    # calls far apart: a scan that looked at too few moves would miss them
    assert sum(b - a > 3 for a, b in zip(full, full[1:], strict=False)) >= 3
    record = st.record()
    moves = list(record["moves"])
    for start in range(0, len(full), 7):  # caught up from `start`, in steps of 1 to 20 moves
        known = full[start - 1] if start else 0
        replay = gamenight.replay(record | {"moves": moves[:start]})
        done = start
        while done < len(full):
            step = min(len(full), done + rng.randint(1, 20))
            for m in moves[done:step]:
                replay.apply(m["action"], m["seat"])
            known = TableService._last_call(replay, done, known)
            assert known == full[step - 1]
            done = step
    # a game without calls never scans its history
    shake = gamenight.replay({"game": "shake", "options": {}, "moves": [], "seed": 1})
    assert TableService._last_call(shake, 0, 9) == 9


@pytest.mark.redis
async def test_after_redis_comes_back_each_process_catches_up_on_what_it_missed(
    two_processes: list[TableService], redis: Any
) -> None:
    """Notices sent while a process's subscriber was cut off are lost; the next one used to be
    the only repair, and a finished game has no next one: its copy stayed stale for good."""
    a, b = two_processes
    table, tokens, there = await gambler_on_both(a, b)
    heard, received = b.fanout._enqueue, b.fanout.received  # type: ignore[attr-defined]
    b.fanout._enqueue = lambda *args: None  # type: ignore[attr-defined]  # B hears nothing
    for _ in range(4):
        turn = table.state.actors()[0]
        await a.act(table.id, tokens[turn], table.move, table.state.legal_actions(turn)[0])
    await until(lambda: b.fanout.received >= received + 4)  # type: ignore[attr-defined]
    assert there.move < table.move
    b.fanout._enqueue = heard  # type: ignore[attr-defined]
    # the outage ends: B's subscriber is cut (only B's: CI's Redis is shared by every xdist
    # worker) and resubscribes
    name = b.fanout.redis.connection_pool.connection_kwargs["client_name"]  # type: ignore[attr-defined]
    assert await kill_subscribers(redis, name) == 1
    await until(lambda: there.move == table.move)
    assert list(there.state.moves) == list(table.state.moves)


@pytest.mark.redis
async def test_a_table_played_on_another_process_is_not_expired_as_idle(
    tmp_path: Path, redis_url: str
) -> None:
    """The process that created a table expired it mid-game (status 'expired' in storage for
    every process) while both players were playing it through the other process: only its own
    connections and moves counted as activity, and it had neither."""
    clock = Clock()
    async with sharing(tmp_path, redis_url, idle_seconds=600, clock=clock) as (a, b):
        table, host = await a.create(CreateTable(game="gambler", seats=HUMANS))
        tokens = [(await a.join(table.id, f"P{i}", i))[1] for i in range(2)]
        await a.start(table.id, host)
        there = await b.find(table.id)
        await until(lambda: there.status == "playing" and there.move == table.move)
        for seat in range(2):
            b.connect(there, seat, +1)  # both players' pages are on B
        for _ in range(4):  # a move on B every five minutes: twenty minutes of play
            clock.now += 300
            turn = there.state.actors()[0]
            await b.act(there.id, tokens[turn], there.move, there.state.legal_actions(turn)[0])
            await until(lambda: table.move == there.move)
            assert await a.expire_idle() == []
        assert table.status == "playing" and there.status == "playing"
        assert (await a.storage.load_table(table.id) or {})["status"] == "playing"
        # nobody anywhere: then it does expire
        for seat in range(2):
            b.connect(there, seat, -1)
        clock.now += 601
        assert await a.expire_idle() == [table.id]
        assert (await a.storage.load_table(table.id) or {})["status"] == "expired"


@pytest.mark.redis
async def test_a_table_dropped_from_memory_leaves_nothing_behind_in_its_lease(
    two_processes: list[TableService],
) -> None:
    """Each table a process ever wrote left an entry in its lease's memory for as long as the
    process ran (a long night of tables, none of them ever forgotten)."""
    a, b = two_processes
    table, tokens, _ = await gambler_on_both(a, b)
    turn = table.state.actors()[0]
    await a.act(table.id, tokens[turn], table.move, table.state.legal_actions(turn)[0])
    lease: Any = a.lease
    # the lease is given back after the mover's reply
    await until(lambda: table.id in lease._last)
    a.idle_seconds = 0  # nobody is connected: it expires at once
    assert await a.expire_idle() == [table.id]
    assert table.id not in lease._last and table.id not in lease._local


@pytest.mark.redis
@pytest.mark.parametrize("kind", ["sensible", "search"])
async def test_a_bot_the_host_seats_on_one_process_is_built_on_the_other_too(
    two_processes: list[TableService], kind: str
) -> None:
    """The other process reloaded the seats and built a stand-in for an away seat only: a seat
    given to a bot elsewhere had no bot there, so that process had nobody to move for it."""
    a, b = two_processes
    table, host = await a.create(CreateTable(game="gambler", seats=HUMANS))
    for i in range(2):
        await a.join(table.id, f"P{i}", i)
    await a.start(table.id, host)
    there = await b.find(table.id)
    await until(lambda: there.status == "playing")
    assert there.bots == {}
    await a.seat_bot(table.id, host, 1, kind)
    await until(lambda: there.seats[1].kind == "bot" and 1 in there.bots)
    assert getattr(there.bots[1], "thinks", False) is (kind == "search")
    assert 0 not in there.bots  # seat 0 is still its player's
