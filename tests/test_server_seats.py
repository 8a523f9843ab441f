"""Table manners on the server: the host kicks, seats a bot, cancels and lists; strangers cannot
start a listed table; an away seat is played by a stand-in bot until its player is back; names
are any printable text, told apart at one table."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from gamenight.server.protocol import CreateTable, SeatSpec, ServerError
from gamenight.server.table import Table
from gamenight.server.tables import TableService
from services import WAIT, ServerProcess, until
from test_server_service import Clock, close, seated, service_at
from test_server_shared import sharing

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def two(game: str = "shake", **extra: object) -> CreateTable:
    return CreateTable(
        game=game, seats=[SeatSpec(kind="human")] * 2, options={"rounds": 1}, **extra
    )


async def refused(code: str, call: object) -> None:
    with pytest.raises(ServerError) as e:
        await call  # type: ignore[misc]
    assert e.value.code == code, e.value


async def stand_in_moves(table: Table, seat: int) -> None:
    """Wait until a move is made for ``seat`` (by its stand-in bot), or the game ends."""
    mark = table.move
    await until(
        lambda: seat in {s for s, _ in list(table.state.moves)[mark:]} or table.status != "playing",
        what=f"a stand-in bot to move for seat {seat}",
    )


async def ann_takes_her_turn(service: TableService, table: Table, token: str) -> None:
    """At Shake, Ann (seat 0) stops if the move is hers, so the next turn is seat 1's."""
    if service.frame(table, None)["actors"] == [0]:
        legal = service.frame(table, 0)["legal_actions"]
        stop = next((a for a in legal if a["type"] == "stop"), legal[0])
        await service.act(table.id, token, table.move, stop)


# --- the host -------------------------------------------------------------------------------
async def test_only_the_host_kicks_seats_a_bot_cancels_or_lists(tmp_path: Path) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        table, host, (ann, ben) = await seated(service, two(), ["Ann", "Ben"])
        other, other_host = await service.create(two())
        before = [s.row() for s in table.seats]
        for token, code in [(None, "bad_token"), (ann, "forbidden"), (other_host, "forbidden")]:
            await refused(code, service.kick(table.id, token, 1))
            await refused(code, service.seat_bot(table.id, token, 1))
            await refused(code, service.cancel(table.id, token))
            await refused(code, service.set_listed(table.id, token, True))
        assert [s.row() for s in table.seats] == before  # nothing changed
        assert table.status == "waiting" and not table.listed
        await refused("bad_request", service.kick(table.id, host, 7))
        # the host frees Ben's seat: his token stops working, the seat is open again
        await service.kick(table.id, host, 1)
        assert table.seats[1].token_hash is None and table.seats[1].name is None
        await refused("bad_token", service.start(table.id, ben))
        await service.seat_bot(table.id, host, 1)
        assert table.seats[1].kind == "bot" and 1 in table.bots
        await refused("bad_request", service.seat_bot(table.id, host, 1))
        await service.cancel(table.id, host)
        assert (await service.storage.load_table(table.id))["status"] == "cancelled"
        await refused("game_over", service.join(table.id, "Cy"))
        await refused("wrong_status", service.start(table.id, host))
        await refused("wrong_status", service.cancel(table.id, host))
    finally:
        await close(service)


async def test_a_table_is_listed_only_when_its_host_lists_it(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_at(tmp_path / "t.db", clock)
    try:
        hidden, _ = await service.create(two())
        shown, host = await service.create(two(listed=True))
        later, later_host = await service.create(two())
        listed = {t["table_id"] for t in await service.open_tables()}
        assert shown.id in listed and hidden.id not in listed and later.id not in listed
        await service.set_listed(later.id, later_host, True)
        await service.set_listed(shown.id, host, False)
        listed = {t["table_id"] for t in await service.open_tables()}
        assert later.id in listed and shown.id not in listed
        await close(service)
        service = await service_at(tmp_path / "t.db", clock)  # stored, not only in memory
        assert (await service.find(later.id)).listed
        assert {t["table_id"] for t in await service.open_tables()} == {later.id}
    finally:
        await close(service)


async def test_strangers_who_fill_a_listed_table_cannot_start_it(tmp_path: Path) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        listed, host, (a, _) = await seated(service, two(listed=True), ["Sid", "Sue"])
        await refused("forbidden", service.start(listed.id, a))  # every seat taken, still no
        await service.kick(listed.id, host, 1)  # the host chooses who plays
        await service.join(listed.id, "Pal", 1)
        await service.start(listed.id, host)
        assert listed.status == "playing"
        # an unlisted table fills only through its join link: its players may start it
        unlisted, _, (b, _) = await seated(service, two(), ["Ann", "Ben"])
        await service.start(unlisted.id, b)
        assert unlisted.status == "playing"
    finally:
        await close(service)


# --- away seats -----------------------------------------------------------------------------
async def test_a_seat_out_of_time_is_played_by_a_bot_until_its_player_is_back(
    tmp_path: Path,
) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        made = CreateTable(
            game="snake-eyes",
            seats=[SeatSpec(kind="human")] * 2,
            turn_seconds=3,
            bot_pace="instant",
        )
        table, host, tokens = await seated(service, made, ["Ann", "Ben"])
        await service.start(table.id, host)
        first = service.frame(table, None)["actors"][0]  # the dice holder
        await until(lambda: table.seats[first].away, what="the seat out of time to go away")
        async with table.lock:  # the change is stored before the lock is let go
            pass
        stored = (await service.storage.load_table(table.id))["seats"][first]
        assert stored["away"] is True and table.summary()["seats"][first]["away"] is True
        # a bot throws for the away seat: the table goes on without waiting a turn each time
        await stand_in_moves(table, first)
        # its player comes back (any device, the same token): the seat is his again
        await service.back(table, first)
        assert not table.seats[first].away and first not in table.bots
        assert table.seats[first].token_hash is not None
    finally:
        await close(service)


async def test_a_seat_kicked_mid_game_is_played_until_someone_takes_it(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_at(tmp_path / "t.db", clock)
    try:
        made = CreateTable(game="shake", seats=[SeatSpec(kind="human")] * 2, bot_pace="instant")
        table, host, tokens = await seated(service, made, ["Ann", "Ben"])
        await service.start(table.id, host)
        await service.kick(table.id, host, 1)
        assert table.seats[1].away and 1 in table.bots
        await close(service)  # a restart keeps the seat away, its stand-in playing
        service = await service_at(tmp_path / "t.db", clock)
        table = await service.find(table.id)
        assert table.seats[1].away and 1 in table.bots
        await ann_takes_her_turn(service, table, tokens[0])
        await stand_in_moves(table, 1)
        seat, token = await service.join(table.id, "Cy", 1)
        assert seat == 1 and not table.seats[1].away and 1 not in table.bots
    finally:
        await close(service)


# --- names ----------------------------------------------------------------------------------
async def test_two_players_of_one_name_are_told_apart(tmp_path: Path) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        created = CreateTable(game="snake-eyes", seats=[SeatSpec(kind="human")] * 4)
        table, _, _ = await seated(service, created, ["Alice", "alice", "Alice", "Bob"])
        assert [s.name for s in table.seats] == ["Alice", "alice 2", "Alice 3", "Bob"]
    finally:
        await close(service)


# --- over HTTP ------------------------------------------------------------------------------
pytestmark = pytest.mark.server


def test_names_are_any_printable_text_and_come_back_as_typed(server: ServerProcess) -> None:
    tid = server.table("snake-eyes", [{"kind": "human"}] * 4)["table_id"]
    for name in ["O'Brien", "Tom & Jerry", "<b>x</b>"]:
        r = server.post(f"/api/tables/{tid}/join", {"name": name})
        assert r.status_code == 200 and r.json()["name"] == name, r.text
    names = [s["name"] for s in server.get(f"/api/tables/{tid}").json()["seats"]]
    assert names[:3] == ["O'Brien", "Tom & Jerry", "<b>x</b>"]
    for name, word in [
        ("", "type a display name"),
        ("  ", "type a display name"),
        ("x" * 25, "at most 24"),
        ("a\u202eb", "U+202E"),
        ("bell\x07", "U+0007"),
    ]:
        r = server.post(f"/api/tables/{tid}/join", {"name": name})
        assert r.status_code == 422 and word in r.json()["message"], (name, r.text)
    r = server.post(f"/api/tables/{tid}/join", {"name": "O'Brien"})
    assert r.json()["name"] == "O'Brien 2"


def test_the_host_routes_refuse_a_strangers_token(server: ServerProcess) -> None:
    made = server.table("shake", HUMANS2, options={"rounds": 1})
    tid, host = made["table_id"], made["host_token"]
    ann = server.join(tid, "Ann")
    stranger = server.table("shake", HUMANS2)["host_token"]
    for path, body in [
        ("kick", {"seat": 0}),
        ("bot", {"seat": 0}),
        ("cancel", None),
        ("listing", {"listed": True}),
    ]:
        for token, status, code in [
            (None, 401, "bad_token"),
            (ann, 403, "forbidden"),
            (stranger, 403, "forbidden"),
        ]:
            r = server.post(f"/api/tables/{tid}/{path}", body, token)
            assert (r.status_code, r.json()["code"]) == (status, code), (path, r.text)
    assert server.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Ann"
    r = server.post(f"/api/tables/{tid}/kick", {"seat": "nobody"}, host)
    assert r.status_code == 422
    assert (
        server.post(f"/api/tables/{tid}/kick", {"seat": 0}, host).json()["seats"][0]["taken"]
        is False
    )
    assert server.post(f"/api/tables/{tid}/cancel", None, host).json()["status"] == "cancelled"


def test_browsers_get_a_not_found_page_and_api_clients_json(server: ServerProcess) -> None:
    page = {"Accept": "text/html,application/xhtml+xml"}
    for path in ["/no/such/page", "/t/nosuchtable", "/t/nosuchtable/display"]:
        r = server.request(lambda p=path: httpx.get(server.url + p, headers=page, timeout=WAIT))
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert "not here" in r.text.lower(), r.text
    r = server.request(lambda: httpx.get(server.url + "/no/such/page", timeout=WAIT))
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = server.request(lambda: httpx.get(server.url + "/api/nope", headers=page, timeout=WAIT))
    assert r.json()["code"] == "not_found"


async def test_an_away_player_connecting_is_back_and_a_freed_seats_socket_is_closed(
    server: ServerProcess,
) -> None:
    from services import Client

    # (Snake Eyes: the dice pass round the table, so Ann's turn comes soon; a Shake bot may
    # shake for a minute before the turn passes)
    made = server.table("snake-eyes", [{"kind": "human"}, {"kind": "bot"}], turn_seconds=3)
    tid, host = made["table_id"], made["host_token"]
    ann = server.join(tid, "Ann", 0)
    assert server.post(f"/api/tables/{tid}/start", None, host).status_code == 200
    await until(
        lambda: server.get(f"/api/tables/{tid}").json()["seats"][0]["away"],
        what="Ann's seat to go away when her time runs out",
        poll=0.2,
    )
    # the timer off, so she cannot run out of time again while the test looks
    assert server.post(f"/api/tables/{tid}/timer", {"turn_seconds": None}, host).status_code == 200
    client = await Client.open(server, tid, ann)  # she opens the table again: she is back
    try:
        assert server.get(f"/api/tables/{tid}").json()["seats"][0]["away"] is False
        # the host frees her seat: her open socket is told and closed
        assert server.post(f"/api/tables/{tid}/kick", {"seat": 0}, host).status_code == 200
        refused = await client.expect("error")
        assert refused["code"] == "bad_token"
        await until(lambda: client.closed is not None, what="the freed seat's socket to close")
        summary = server.get(f"/api/tables/{tid}").json()
        assert summary["seats"][0]["taken"] is False and summary["seats"][0]["away"] is True
    finally:
        await client.ws.close()


async def test_a_player_who_leaves_mid_game_leaves_a_bot_in_his_seat(tmp_path: Path) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        made = CreateTable(game="shake", seats=[SeatSpec(kind="human")] * 2, bot_pace="instant")
        table, host, tokens = await seated(service, made, ["Ann", "Ben"])
        await service.leave(table.id, tokens[1])  # before the start: simply an open seat
        assert not table.seats[1].away and 1 not in table.bots
        _, ben = await service.join(table.id, "Ben", 1)
        await service.start(table.id, host)
        await service.leave(table.id, ben)  # mid-game: a bot plays on for him
        assert table.seats[1].away and 1 in table.bots and table.seats[1].token_hash is None
        await ann_takes_her_turn(service, table, tokens[0])
        await stand_in_moves(table, 1)
    finally:
        await close(service)


# --- two processes --------------------------------------------------------------------------
@pytest.mark.redis
async def test_the_hosts_changes_on_one_process_hold_on_the_other(
    tmp_path: Path, redis_url: str
) -> None:
    async with sharing(tmp_path, redis_url) as (a, b):
        made = CreateTable(
            game="snake-eyes", seats=[SeatSpec(kind="human")] * 2, bot_pace="instant"
        )
        table, host, tokens = await seated(a, made, ["Ann", "Ben"])
        await a.start(table.id, host)
        there = await b.find(table.id)
        await until(lambda: there.status == "playing")
        await b.kick(table.id, host, 1)  # the host's request lands on the other process
        await until(lambda: table.seats[1].away and 1 in table.bots, what="A to see the stand-in")
        assert there.seats[1].away and 1 in there.bots and there.seats[1].token_hash is None
        await refused("bad_token", a.act(table.id, tokens[1], table.move, {"type": "throw"}))
        await a.cancel(table.id, host)
        await until(lambda: there.status == "cancelled", what="B to see the table cancelled")
        # the table's log says the same on both: the seat freed on B, the cancel on A
        assert (
            [n["kind"] for n in there.notes]
            == ["freed", "cancelled"]
            == [n["kind"] for n in table.notes]
        )
        await refused("game_over", b.join(table.id, "Cy", 1))
