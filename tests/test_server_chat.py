"""Table chat over real WebSockets, and Snap races broadcast the moment they change.

Chat: a seated player's line is stored, then reaches every connection of the table as the same
plain string (markup included); bad lines get a typed ``bad_chat`` error and change nothing; a
reconnect, a restarted server and another process show the recent chat from storage.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from gamenight.server.chat import CHAT_PER_SECOND
from services import WAIT, Client, Postgres, ServerProcess, until

pytestmark = pytest.mark.server

TWO = [{"kind": "human"}, {"kind": "human"}]
EVIL = "<img src=x onerror=alert(1)>"


def started(server: ServerProcess, game: str = "shake", **extra: Any) -> tuple[str, list[str]]:
    made = server.table(game, TWO, **extra)
    tid = made["table_id"]
    tokens = [server.join(tid, name, i) for i, name in enumerate(("Ann", "Ben"))]
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    return tid, tokens


async def said(client: Client, timeout: float = WAIT) -> list[dict[str, Any]]:
    """The messages of the next ``chat`` frame pushed to ``client``."""
    return list((await client.expect("chat", timeout))["messages"])


async def test_a_line_of_markup_reaches_everyone_as_the_same_plain_string(
    server: ServerProcess,
) -> None:
    tid, (a, b) = started(server)
    ann, ben = await Client.open(server, tid, a), await Client.open(server, tid, b)
    watcher = await Client.open(server, tid, None)
    move = server.get(f"/api/tables/{tid}").json()["move"]
    reply = await ann.reply({"type": "chat", "text": f"  {EVIL}  ", "ref": "c1"})
    assert reply["type"] == "chat" and reply["ref"] == "c1", reply
    (mine,) = reply["messages"]
    assert (mine["seat"], mine["name"], mine["text"]) == (0, "Ann", EVIL)
    for other in (ben, watcher):
        (line,) = await said(other)
        assert line == mine
    # a spectator reads along but may not speak; chat is no move
    refused = await watcher.reply({"type": "chat", "text": "hi", "ref": "w"})
    assert (refused["type"], refused["code"]) == ("error", "spectator")
    assert server.get(f"/api/tables/{tid}").json()["move"] == move
    for c in (ann, ben, watcher):
        await c.close()


async def test_bad_lines_get_a_typed_error_and_change_nothing(server: ServerProcess) -> None:
    tid, (a, b) = started(server)
    ann, ben = await Client.open(server, tid, a), await Client.open(server, tid, b)
    assert (await ann.reply({"type": "chat", "text": "good luck"}))["type"] == "chat"
    await said(ben)
    move = server.get(f"/api/tables/{tid}").json()["move"]
    bad: list[Any] = [
        {"type": "chat"},
        {"type": "chat", "text": 7},
        {"type": "chat", "text": ["hi"]},
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "   "},
        {"type": "chat", "text": "x" * 201},
        {"type": "chat", "text": "x" * 900},
        {"type": "chat", "text": "nul\x00byte"},
        {"type": "chat", "text": "two\nlines"},
        {"type": "chat", "text": "bell\x07"},
        {"type": "chat", "text": "evil\u202eright-to-left"},
        {"type": "chat", "text": "sep\u2028line"},
        {"type": "chat", "text": "hi", "seat": 1},
    ]
    for i, frame in enumerate(bad):
        reply = await ann.reply({**frame, "ref": f"b{i}"})
        assert reply["type"] == "error" and reply["code"] == "bad_chat", (frame, reply)
        assert reply["ref"] == f"b{i}" and reply["message"]
    # exactly 200 characters, and an emoji sequence held together by zero-width joiners, pass
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    for text in ("y" * 200, family):
        (line,) = (await ann.reply({"type": "chat", "text": text, "ref": "ok"}))["messages"]
        assert line["text"] == text
    assert server.get(f"/api/tables/{tid}").json()["move"] == move
    # nothing refused was stored or sent: a new connection gets the three good lines only
    late = await Client.open(server, tid, b)
    history = await said(late)
    assert [m["text"] for m in history] == ["good luck", "y" * 200, family]
    sent_to_ben = [m["text"] for f in ben.frames if f["type"] == "chat" for m in f["messages"]]
    assert all(t in ("good luck", "y" * 200, family) for t in sent_to_ben), sent_to_ben
    for c in (ann, ben, late):
        await c.close()


async def test_a_chat_flood_is_rate_limited(server: ServerProcess) -> None:
    tid, (a, _) = started(server)
    ann = await Client.open(server, tid, a)
    # sent at once, then read: one line at a time, a slow machine could take long enough to
    # store each line that the bucket (a line a second) refilled in between
    sent = 30  # more than the chat burst, well under the frame burst (40)
    for i in range(sent):
        await ann.send({"type": "chat", "text": f"spam {i}", "ref": f"s{i}"})
    replies: dict[str, dict[str, Any]] = {}
    while len(replies) < sent:
        frame = await ann.unread.get()
        assert frame["type"] != "_closed", ann.closed
        if str(frame.get("ref", "")).startswith("s"):
            replies[frame["ref"]] = frame
    codes = [replies[f"s{i}"].get("code", replies[f"s{i}"]["type"]) for i in range(sent)]
    assert "rate_limited" in codes, codes
    assert codes[:5] == ["chat"] * 5, codes  # a burst of a few lines is fine

    # the bucket refills (CHAT_PER_SECOND): the seat is heard again, however slow the machine;
    # a refused try costs no chat token, and these tries stay far under the frame rate
    async def heard_again() -> bool:
        reply = await ann.reply({"type": "chat", "text": "sorry"})
        assert reply["type"] == "chat" or reply.get("code") == "rate_limited", reply
        return bool(reply["type"] == "chat")

    await until(heard_again, what="the chat bucket to refill", poll=0.5 / CHAT_PER_SECOND)
    await ann.close()


async def run_chat_survives_restart(start: Callable[..., ServerProcess], url: str | None) -> None:
    server = start(url)
    tid, (a, b) = started(server)
    ann = await Client.open(server, tid, a)
    for text in ("one", EVIL, "three"):
        assert (await ann.reply({"type": "chat", "text": text}))["type"] == "chat"
    await ann.close()
    # a reload: the page's new connection is sent the recent chat after its state
    ben = await Client.open(server, tid, b)
    assert [m["text"] for m in await said(ben)] == ["one", EVIL, "three"]
    await ben.close()
    server.stop()
    again = start(url)  # same storage, a new process
    ben = await Client.open(again, tid, b)
    history = await said(ben)
    assert [(m["seat"], m["name"], m["text"]) for m in history] == [
        (0, "Ann", "one"),
        (0, "Ann", EVIL),
        (0, "Ann", "three"),
    ]
    assert (await ben.reply({"type": "chat", "text": "back"}))["messages"][0]["id"] > max(
        m["id"] for m in history
    )
    await ben.close()


async def test_chat_is_stored_on_sqlite_and_shown_after_a_restart(start_server: Any) -> None:
    await run_chat_survives_restart(start_server, None)


@pytest.mark.postgres
async def test_chat_is_stored_on_postgresql_and_shown_after_a_restart(
    start_server: Any, pg_database: str
) -> None:
    await run_chat_survives_restart(start_server, pg_database)


async def flip_then_two_calls(server: ServerProcess, clients: list[Client]) -> int:
    """Cards are turned in turn until a pair shows; both seats call 'snap' on that flip, seat 0
    first (he takes the pair; the second voice is too late). Returns the flip's move."""
    ann, ben = clients
    assert ann.latest is not None
    frame = ann.latest
    for _ in range(300):
        frame = await clients[frame["view"]["turn"]].act({"type": "flip"}, move=frame["move"])
        assert frame["type"] == "state", frame
        if frame["view"]["matches"]:
            break
    assert frame["view"]["matches"], "no pair showed in 300 flips"
    move = frame["move"]
    first = await ann.act({"type": "snap"}, move=move)
    assert first["type"] == "state", first  # judged: good, a move
    second = await ben.act({"type": "snap"}, move=move)
    assert (second["type"], second["code"]) == ("error", "too_late"), second
    return move


async def until_race(client: Client, arrivals: int, timeout: float = WAIT) -> dict[str, Any]:
    """The first race pushed to ``client`` (in a race or state frame) with this many arrivals."""

    async def wait() -> dict[str, Any]:
        while True:
            frame = await client.unread.get()
            assert frame["type"] != "_closed", client.closed
            race = frame.get("race") if frame["type"] in ("race", "state") else None
            if race and len(race["arrivals"]) >= arrivals:
                return dict(race)

    return await asyncio.wait_for(wait(), timeout)


async def test_a_call_too_late_reaches_every_connection_at_once(server: ServerProcess) -> None:
    tid, tokens = started(server, "snap", bot_pace="instant")
    ann, ben = [await Client.open(server, tid, t) for t in tokens]
    watcher = await Client.open(server, tid, None)
    move = await flip_then_two_calls(server, [ann, ben])
    # nobody moves again: the passed-over call still shows, in the server's order, everywhere
    for client in (ann, ben, watcher):
        race = await until_race(client, 2)
        assert race["move"] == move
        assert [(x["seat"], x["result"]) for x in race["arrivals"]][1] == (1, "too late")
        assert race["arrivals"][0]["seat"] == 0
    assert server.get(f"/api/tables/{tid}/view").json()["race"] == race
    for c in (ann, ben, watcher):
        await c.close()


@pytest.fixture
def pair(start_server: Any, postgres: Postgres, redis_url: str) -> list[ServerProcess]:
    """Two server processes on one fresh PostgreSQL database and one Redis."""
    database = postgres.database()
    return [start_server(database, "--redis-url", redis_url) for _ in range(2)]


@pytest.mark.postgres
@pytest.mark.redis
async def test_chat_and_races_cross_processes(pair: list[ServerProcess]) -> None:
    one, two = pair
    tid, (a, b) = started(one, "snap", bot_pace="instant")
    ann, ben = await Client.open(one, tid, a), await Client.open(two, tid, b)
    watcher = await Client.open(two, tid, None)
    reply = await ann.reply({"type": "chat", "text": EVIL})
    for other in (ben, watcher):
        assert await said(other) == reply["messages"]
    await flip_then_two_calls(one, [ann, ben])
    for client in (ann, ben, watcher):
        race = await until_race(client, 2)
        assert [x["result"] for x in race["arrivals"]][1] == "too late"
    for c in (ann, ben, watcher):
        await c.close()
