"""The table service in-process, on a real SQLite file: expiry, restore, chance after a restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from gamenight.server import wire
from gamenight.server.clock import default_action
from gamenight.server.protocol import CreateTable, SeatSpec, ServerError
from gamenight.server.storage import Storage
from gamenight.server.table import Table
from gamenight.server.tables import TableService
from services import WAIT, until


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def service_at(path: Path, clock: Clock) -> TableService:
    storage = Storage(f"sqlite:///{path}")
    await storage.migrate()
    service = TableService(storage, idle_seconds=600, clock=clock)
    await service.restore()
    return service


async def close(service: TableService) -> None:
    await service.shutdown()
    await service.storage.close()


async def seated(
    service: TableService, created: CreateTable, names: Iterable[str]
) -> tuple[Table, str, list[str]]:
    """A table made and a player joined at each seat in turn: (table, host token, seat tokens)."""
    table, host = await service.create(created)
    return table, host, [(await service.join(table.id, n))[1] for n in names]


def spec(game: str = "shake", players: int = 2) -> CreateTable:
    return CreateTable(game=game, seats=[SeatSpec(kind="human")] * players, options={"rounds": 1})


async def test_idle_tables_expire_and_stay_closed_after_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "t.db"
    service = await service_at(db, clock)
    idle, _ = await service.create(spec())
    busy, host = await service.create(spec())
    seat, token = await service.join(busy.id, "Ann")
    service.connect(busy, seat, +1)  # someone is connected: never idle
    clock.now += 601
    assert await service.expire_idle() == [idle.id]
    assert idle.id not in service.tables and busy.id in service.tables
    await close(service)
    again = await service_at(db, clock)
    assert idle.id not in again.tables and busy.id in again.tables
    expired = await again.find(idle.id)
    assert expired.status == "expired"
    with pytest.raises(ServerError) as e:
        await again.join(idle.id, "Late")
    assert e.value.code == "game_over"
    await close(again)


async def test_a_restart_replays_moves_and_draws_on_from_where_it_stopped(
    tmp_path: Path,
) -> None:
    clock = Clock()
    db = tmp_path / "t.db"
    service = await service_at(db, clock)
    table, host, tokens = await seated(service, spec(), ("Ann", "Bob"))
    await service.start(table.id, host)
    for _ in range(6):
        actor = table.state.actors()[0]
        action = table.state.legal_actions(actor)[0]
        await service.act(table.id, tokens[actor], table.move, action)
    before = table.state.record()
    view = table.state.view(0)
    uninterrupted = table.state.clone()
    await close(service)
    again = await service_at(db, clock)
    restored = again.tables[table.id]
    assert restored.state.record() == before and restored.state.view(0) == view
    # play both on with the same choices; each draws its own dice
    a, b = restored.state.clone(), uninterrupted
    same = []
    while not a.is_terminal() and len(same) < 30:
        if a.is_chance():
            same.append(a.sample_chance() == b.sample_chance())
            if not same[-1]:  # the games part here
                break
        else:
            seat = a.actors()[0]
            choice = a.legal_actions(seat)[0]
            a.apply(choice, seat)
            b.apply(choice, seat)
    if type(restored.state.rng) is random.Random:  # an engine whose generator restarts
        assert not all(same), "after a replay the dice repeated the seed's first draws"
    else:  # a chance stream keyed by draw index: exactly the dice it would have drawn
        assert all(same) and (len(same) >= 10 or a.is_terminal())  # (a seed may end it soon)
    actor = restored.state.actors()[0]
    await again.act(table.id, tokens[actor], restored.move, restored.state.legal_actions(actor)[0])
    assert restored.move > len(before["moves"])
    await close(again)


async def test_a_second_writer_of_the_same_move_index_is_refused_by_storage(
    tmp_path: Path,
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 't.db'}")
    await storage.migrate()
    service = TableService(storage)
    table, _ = await service.create(spec())
    await storage.append_moves(table.id, 0, [(0, {"type": "take"})])
    with pytest.raises(Exception, match="UNIQUE|unique|IntegrityError"):
        await storage.append_moves(table.id, 0, [(1, {"type": "take"})])
    assert await storage.load_moves(table.id) == [(0, {"type": "take"})]
    await storage.close()


async def test_sqlite_group_commits_survive_a_reopen_and_close_twice(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    storage = Storage(url)
    await storage.migrate()
    service = TableService(storage)
    table, _ = await service.create(spec())
    moves = [(0, {"type": "take"}), (None, {"type": "roll", "n": 1})]
    await asyncio.gather(*(storage.append_moves(table.id, i, [moves[i]]) for i in range(2)))
    await storage.close()
    await storage.close()  # a second close is harmless
    again = Storage(url)
    assert await again.load_moves(table.id) == moves  # committed by the writer thread
    await again.close()


def test_default_actions_are_the_cautious_ones() -> None:
    import gamenight

    state = gamenight.new_game("shake", players=2).new_state(seed=3)
    while state.is_chance():
        state.sample_chance()
    seat = state.actors()[0]
    assert default_action(state, seat) == {"type": "take"}
    snap = gamenight.new_game("snap", players=2).new_state(seed=3)
    while snap.is_chance():
        snap.sample_chance()
    assert default_action(snap, snap.actors()[0]) == {"type": "flip"}


@pytest.mark.parametrize("game", ["gambler", "shake", "snake-eyes", "snake-eyes-casino", "snap"])
async def test_spliced_state_frames_say_exactly_what_the_frame_does(
    tmp_path: Path, game: str
) -> None:
    """Frames are encoded from parts shared by every seat; each must decode to its own frame."""
    service = await service_at(tmp_path / "t.db", Clock())
    players = 3
    created = CreateTable(game=game, seats=[SeatSpec(kind="human")] * players, turn_seconds=30)
    table, host, tokens = await seated(service, created, [f"p{i}" for i in range(players)])
    rng = random.Random(7)
    seen: dict[object, int | None] = {}

    def check() -> None:
        for seat in [*range(players), None]:
            for since in (None, 0, max(0, table.state.event_count - 1), seen.get(seat)):
                text, count = service.frame_text(table, seat, since)
                assert wire.loads(text) == service.frame(table, seat, since)
                assert count == table.state.event_count
            seen[seat] = count

    check()  # waiting
    await service.start(table.id, host)
    for _ in range(12):
        check()
        if table.status != "playing":
            break
        actor = service.frame(table, None)["actors"][0]  # the dice holder, in Snake Eyes
        legal = service.frame(table, actor)["legal_actions"]
        await service.act(table.id, tokens[actor], table.move, rng.choice(legal))
    check()
    # the frames were compared along a real game (the server's secret seed may end one sooner)
    assert table.move >= 12 or table.state.is_terminal()
    await close(service)


async def test_a_move_not_stored_while_the_database_is_down_is_forgotten(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """When the commit fails and the table cannot be re-read either (the database is down),
    the move must still be undone in memory: else the next move is stored after a hole."""
    service = await service_at(tmp_path / "t.db", Clock())
    created = CreateTable(game="gambler", seats=[SeatSpec(kind="human")] * 2)
    table, host, tokens = await seated(service, created, [f"p{i}" for i in range(2)])
    await service.start(table.id, host)
    storage = service.storage
    up_append, up_load = storage.append_moves, storage.load_table

    async def down(*args: object, **kw: object) -> None:
        raise ConnectionRefusedError("the database is down")

    before, moves = table.move, list(table.state.moves)
    actor = service.frame(table, None)["actors"][0]
    action = service.frame(table, actor)["legal_actions"][0]
    storage.append_moves, storage.load_table = down, down  # type: ignore[method-assign]
    with pytest.raises(ServerError) as e:
        await service.act(table.id, tokens[actor], before, action)
    assert e.value.code == "server_error"
    assert table.move == before and list(table.state.moves) == moves and table.status == "playing"
    # the log says which table, as a field an operator can filter on
    said = [r for r in caplog.records if r.name.startswith("gamenight.server")]
    assert {r.levelname for r in said} >= {"ERROR", "WARNING"}
    assert all(getattr(r, "table", None) == table.id for r in said)
    storage.append_moves, storage.load_table = up_append, up_load  # type: ignore[method-assign]
    await service.act(table.id, tokens[actor], before, action)  # the database is back
    stored = await storage.load_moves(table.id)
    assert [(s, a) for s, a in stored] == list(table.state.moves)
    await close(service)


def opened(storage: Storage) -> list[Any]:
    """Every connection the storage's pools open from now on (asyncpg's, whose ``is_closed``
    says whether the loop has read the server's close)."""
    connections: list[Any] = []
    for engine in (storage.engine, storage.reader):
        event.listen(
            engine.sync_engine.pool,
            "connect",
            lambda dbapi, _record: connections.append(dbapi.driver_connection),
        )
    return connections


async def test_postgres_connections_a_restart_closed_are_replaced_not_failed_once(
    pg_database: str,
) -> None:
    """After PostgreSQL restarts, every kept or pooled connection is closed by the server; the
    first move, read and write on each used to fail ('connection is closed') before it was
    dropped, so players saw 'could not be stored' and 500s well after the database was back."""
    import asyncpg

    storage = Storage(pg_database)
    connections = opened(storage)
    await storage.migrate()
    service = TableService(storage)
    table, _ = await service.create(spec())
    moves = [(0, {"type": "take"}), (1, {"type": "take"})]
    await storage.append_moves(table.id, 0, moves[:1])  # a group-commit connection, kept
    assert await storage.load_table(table.id) is not None  # a pooled reading connection
    admin = await asyncpg.connect(pg_database)
    try:  # what a restart does to each of them: the server ends the connection
        # with a timeout, pg_terminate_backend waits until each backend has really exited
        # (without one it only signals them, and a busy machine may not have ended them yet)
        await admin.execute(
            "SELECT pg_terminate_backend(pid, $1) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()",
            int(WAIT * 1000),
        )
    finally:
        await admin.close()
    # the loop must have read each closed socket (a busy machine may take its time)
    assert len(connections) >= 2  # the group commit's and a reader's at least
    await until(
        lambda: all(c.is_closed() for c in connections), what="each connection to read its close"
    )
    await storage.append_moves(table.id, 1, moves[1:])
    assert await storage.load_moves(table.id) == moves
    await storage.update_table(table.id, status="playing")
    assert (await storage.load_table(table.id) or {})["status"] == "playing"
    await storage.close()


async def test_a_second_call_at_nothing_is_judged_not_excused(tmp_path: Path) -> None:
    """Snap rulebook: a Snap called while no two face-up cards match costs the caller a
    penalty card. A call chosen before another call was applied is the second voice only if it
    asked for what that call took; with nothing to take, it is judged on the table like any
    call."""
    service = await service_at(tmp_path / "t.db", Clock())
    players = CreateTable(game="snap", seats=[SeatSpec(kind="human")] * 2)
    table, host, tokens = await seated(service, players, ("Ann", "Ben"))
    await service.start(table.id, host)
    st = table.state
    await service.act(table.id, tokens[0], table.move, {"type": "flip"})  # one card: no pair
    seen = table.move
    await service.act(table.id, tokens[0], seen, {"type": "snap"})  # false: Ann pays
    assert st.false_calls == 1
    paired = bool(st.matches())  # Ann's penalty card may twin her face-up card
    await service.act(table.id, tokens[1], seen, {"type": "snap"})  # Ben, on the same flip
    assert st.false_calls == (1 if paired else 2)
    assert table.race is not None
    assert table.race["arrivals"][1]["result"] == ("good" if paired else "false")
    await close(service)


async def test_a_call_still_right_after_a_false_call_is_judged_not_excused(tmp_path: Path) -> None:
    """As at the realtime table, a call chosen before another call is the second voice only
    when that call took what it asked for. Slap: an elephant alone in the centre, Ann snaps her
    fingers at it (wrong, and one card is too few to share among two), so the elephant still
    tops the pile: Ben's slap, sent on the same flip, wins it instead of being dropped."""
    service = await service_at(tmp_path / "t.db", Clock())
    players = CreateTable(game="slap-the-elephant", seats=[SeatSpec(kind="human")] * 3)
    for _ in range(300):  # deal until the first card turned up is an elephant
        table, host, tokens = await seated(service, players, ("Ann", "Ben", "Cy"))
        await service.start(table.id, host)
        st = table.state
        flipper = st.actors()[0]
        await service.act(table.id, tokens[flipper], table.move, {"type": "flip"})
        if st.center == ["elephant"]:
            break
    else:
        pytest.fail("no deal turned up an elephant first")
    ann, ben = (flipper + 1) % 3, (flipper + 2) % 3
    seen = table.move
    await service.act(table.id, tokens[ann], seen, {"type": "snap_fingers"})
    assert st.false_calls == 1 and st.center == ["elephant"]
    await service.act(table.id, tokens[ben], seen, {"type": "slap"})
    assert st.center == [] and st.false_calls == 1
    assert table.race is not None
    assert [a["result"] for a in table.race["arrivals"]] == ["false", "good"]
    await close(service)


async def test_a_second_voice_for_the_call_that_ends_the_game_is_too_late(tmp_path: Path) -> None:
    """The call that takes the last cards ends the game; the other seat's call on the same flip
    is the second voice, refused as too late and shown in the race record, not as 'game over'."""
    service = await service_at(tmp_path / "t.db", Clock())
    players = CreateTable(game="snap", seats=[SeatSpec(kind="human")] * 2)
    table, host, tokens = await seated(service, players, ("Ann", "Ben"))
    await service.start(table.id, host)
    st = table.state
    for _ in range(5000):  # Ann takes every pair, so Ben soon runs out
        seen = table.move
        if st.matches():
            await service.act(table.id, tokens[0], seen, {"type": "snap"})
        else:
            await service.act(table.id, tokens[st.actors()[0]], seen, {"type": "flip"})
        if table.status == "finished":
            break
    assert table.status == "finished" and st.winner() == 0, "Ann did not win by a call"
    assert table.state.moves[-1][1] == {"type": "snap"}
    with pytest.raises(ServerError) as late:
        await service.act(table.id, tokens[1], seen, {"type": "snap"})
    assert late.value.code == "too_late"
    assert table.race is not None and table.race["arrivals"][-1]["result"] == "too late"
    with pytest.raises(ServerError) as over:  # a move at the table's last move is still refused
        await service.act(table.id, tokens[1], table.move, {"type": "snap"})
    assert over.value.code == "game_over"
    await close(service)


async def test_a_turn_timer_set_mid_game_moves_the_table_on_for_a_seat_that_left(
    tmp_path: Path,
) -> None:
    """A friend left on his turn at a table created without a timer: nothing could ever move
    the table on. A seated player (or the host) sets a timer, and it plays for the empty seat;
    a stranger's token may not, and a finished table takes no timer."""
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        table, host, tokens = await seated(service, spec(), ("Ann", "Ben"))
        await service.start(table.id, host)
        gone = service.frame(table, None)["actors"][0]
        stays = 1 - gone
        before = table.move
        with pytest.raises(ServerError) as refused:
            await service.set_timer(table.id, "not-a-token", 3)
        assert refused.value.code == "bad_token"
        assert table.turn_seconds is None and table.deadline is None
        await service.set_timer(table.id, tokens[stays], 3)
        assert (await service.storage.load_table(table.id))["turn_seconds"] == 3
        assert table.deadline is not None
        # the timer (real seconds: the deadline is set from now)
        await until(lambda: table.move > before, what="the timer to play for the seat that left")
        assert table.state.moves.seats[before] == gone
    finally:
        await close(service)


async def test_the_lobby_leaves_out_a_waiting_table_whose_process_is_gone(tmp_path: Path) -> None:
    """Two processes, one of them stopped for good (scaled down): the tables it made and held
    stay 'waiting' in storage, as no process expires them, and the lobby (read from storage)
    listed them with their Join buttons for ever; a table untouched for the idle time is gone."""
    clock = Clock()
    service = await service_at(tmp_path / "lobby.db", clock)  # idle_seconds=600
    try:
        seats = [{"kind": "human", "bot": None, "level": None, "strategy": None, "name": None}]
        row = {
            "game": "shake",
            "options": {"players": 2},
            "seed": 1,
            "seats": seats * 2,
            "host_hash": "0" * 64,
            "status": "waiting",
            "turn_seconds": None,
            "bot_pace": "human",
            "listed": True,
        }
        # made by the other process: one an hour ago, one a minute ago
        await service.storage.create_table(
            {**row, "id": "abandoned", "created_at": clock.now - 3600}
        )
        await service.storage.create_table({**row, "id": "recent", "created_at": clock.now - 60})
        mine, _ = await service.create(spec().model_copy(update={"listed": True}))
        listed = [t["table_id"] for t in await service.open_tables()]
        assert "abandoned" not in listed
        assert "recent" in listed and mine.id in listed
        abandoned = await service.find("abandoned")  # a join link still opens it
        assert abandoned.status == "waiting"
    finally:
        await close(service)
