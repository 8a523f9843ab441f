"""The table's own log (server/notes.py): away, back, seats freed, left, taken or given to a bot
and the table cancelled are said by the server, kept with the table (a restart keeps them) and sent
in its summary, so a page opened later shows them too."""

from __future__ import annotations

from pathlib import Path

from gamenight.server.notes import NOTES_KEPT, say
from gamenight.server.protocol import CreateTable, SeatSpec
from services import Client, ServerProcess, until
from test_server_service import Clock, close, seated, service_at

ANN, BEN = "<b>Ann</b>", "Tom & Jerry"  # names are text: kept as typed, never markup


def kinds(summary: dict) -> list[str]:
    return [n["kind"] for n in summary["notes"]]


async def test_away_back_freed_and_cancelled_are_kept_through_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_at(tmp_path / "t.db", clock)
    try:
        made = CreateTable(
            game="snake-eyes",
            seats=[SeatSpec(kind="human")] * 2,
            turn_seconds=3,
            bot_pace="instant",
        )
        table, host, tokens = await seated(service, made, [ANN, BEN])
        assert table.summary()["notes"] == []
        await service.start(table.id, host)
        first = service.frame(table, None)["actors"][0]  # the dice holder runs out of time
        await until(lambda: table.seats[first].away, what="the seat out of time to go away")
        await service.set_timer(table.id, host, None)  # so nobody runs out of time again
        name = table.seats[first].name
        away = table.summary()["notes"][0]
        assert away["kind"] == "away" and away["seat"] == first and away["name"] == name
        assert away["text"].startswith(f"{name} is away")
        assert 0 < away["event"] <= table.state.event_count
        await service.back(table, first)
        await service.back(table, first)  # already back: said once
        other = 1 - first
        await service.kick(table.id, host, other)
        await service.join(table.id, "Cy", other)  # mid-game: said too
        await service.cancel(table.id, host)
        notes = table.summary()["notes"]
        assert kinds(table.summary()) == ["away", "back", "freed", "took", "cancelled"]
        assert notes[1]["text"] == f"{name} is back and plays again"
        assert notes[2]["name"] == table_name(other) and table_name(other) in notes[2]["text"]
        assert "a bot plays it" in notes[2]["text"]  # freed mid-game: a stand-in plays
        assert notes[3]["text"] == f"Cy takes seat {'AB'[other]}"
        assert [n["n"] for n in notes] == [1, 2, 3, 4, 5]
        await close(service)
        service = await service_at(tmp_path / "t.db", clock)  # stored with the table
        again = await service.find(table.id)
        assert again.summary()["notes"] == notes
    finally:
        await close(service)


def table_name(seat: int) -> str:
    return [ANN, BEN][seat]


async def test_the_log_keeps_its_newest_notes(tmp_path: Path) -> None:
    service = await service_at(tmp_path / "t.db", Clock())
    try:
        table, _, (ann,) = await seated(
            service, CreateTable(game="shake", seats=[SeatSpec(kind="human")] * 2), ["Ann"]
        )
        for _ in range(NOTES_KEPT + 7):
            say(table, "left", 0, "Ann")
        numbers = [n["n"] for n in table.notes]
        assert numbers == list(range(8, NOTES_KEPT + 8))  # the oldest go, the count goes on
        await service.leave(table.id, ann)  # stored with the seats: still bounded
        stored = (await service.storage.load_table(table.id))["notes"]
        assert len(stored) == NOTES_KEPT and stored[-1]["text"] == "Ann left the table"
    finally:
        await close(service)


async def test_a_connection_opened_after_the_away_is_told_it(server: ServerProcess) -> None:
    made = server.table("snake-eyes", [{"kind": "human"}, {"kind": "bot"}], turn_seconds=3)
    tid, host = made["table_id"], made["host_token"]
    ann = server.join(tid, ANN, 0)
    assert server.post(f"/api/tables/{tid}/start", None, host).status_code == 200
    await until(
        lambda: server.get(f"/api/tables/{tid}").json()["seats"][0]["away"],
        what="Ann's seat to go away when her time runs out",
        poll=0.2,
    )
    assert server.post(f"/api/tables/{tid}/timer", {"turn_seconds": None}, host).status_code == 200
    watcher = await Client.open(server, tid, None, role="spectator")
    try:
        welcome = next(f for f in watcher.frames if f["type"] == "welcome")
        assert [n["text"] for n in welcome["table"]["notes"]] == [
            f"{ANN} is away: a bot plays for them until they are back"
        ]
        player = await Client.open(server, tid, ann)  # she opens the table again: she is back
        await player.ws.close()

        def told_back() -> bool:
            seen = [f for f in watcher.frames if f["type"] == "seats"]
            return bool(seen) and kinds(seen[-1]["table"])[-1:] == ["back"]

        await until(told_back, what="the watcher to be told Ann is back")
    finally:
        await watcher.ws.close()
