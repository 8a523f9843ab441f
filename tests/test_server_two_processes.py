"""Two real server processes on one PostgreSQL and one Redis share their tables.

A move accepted by one process reaches the connections the other holds; two processes never
both apply an action to the same move; and after ``kill -9`` of one process mid-game, the game
finishes on the other with every accepted move in storage, in order.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import gamenight
from services import WAIT, Client, Postgres, ServerProcess

pytestmark = [pytest.mark.server, pytest.mark.postgres, pytest.mark.redis]

Start = Callable[..., ServerProcess]


@pytest.fixture
def pair(start_server: Start, postgres: Postgres, redis_url: str) -> list[ServerProcess]:
    """Two server processes on one fresh PostgreSQL database and one Redis."""
    database = postgres.database()
    return [start_server(database, "--redis-url", redis_url) for _ in range(2)]


async def stored_moves(database: str, table_id: str) -> list[tuple[int, int | None, Any]]:
    """The moves table as PostgreSQL has it: (index, seat, action), in index order."""
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch(
            "SELECT idx, seat, action FROM moves WHERE table_id = $1 ORDER BY idx", table_id
        )
    finally:
        await conn.close()
    return [(r["idx"], r["seat"], json.loads(r["action"])) for r in rows]


async def until_move(client: Client, move: int, timeout: float = WAIT) -> dict[str, Any]:
    """Wait until the client has been sent the state at ``move`` (or later)."""
    return await client.until_move(move, timeout)


async def until_status(client: Client, status: str, timeout: float = WAIT) -> None:
    async def wait() -> None:
        while client.latest is None or client.latest["status"] != status:
            await client.expect("state", timeout)  # the whole wait, not a bound a frame

    await asyncio.wait_for(wait(), timeout)


async def test_kill_9_one_process_mid_game_and_finish_on_the_other(
    pair: list[ServerProcess],
) -> None:
    a, b = pair
    made = a.table("shake", [{"kind": "human"}, {"kind": "human"}], bot_pace="instant")
    tid = made["table_id"]
    # Seats joined through different processes; started through the one that did not create it.
    tokens = [a.join(tid, "Ann", 0), b.join(tid, "Bob", 1)]
    assert b.post(f"/api/tables/{tid}/start", None, tokens[0]).status_code == 200
    clients = [await Client.open(a, tid, tokens[0]), await Client.open(b, tid, tokens[1])]
    watcher = await Client.open(b, tid, None)  # a spectator on the other process
    for c in (*clients, watcher):  # the start made on B reaches A within moments
        await until_status(c, "playing")
    rng = random.Random(12)
    accepted: list[tuple[int, dict[str, Any]]] = []  # (seat, action) of every accepted move

    async def play_one() -> dict[str, Any]:
        """The seat to act plays a random legal action; everyone sees the result."""
        state = clients[0].latest
        assert state is not None
        seat = state["actors"][0]
        mine = clients[seat].latest
        assert mine is not None and mine["move"] == state["move"]
        action = rng.choice(mine["legal_actions"])
        reply = await clients[seat].act(action)
        assert reply["type"] == "state", reply
        accepted.append((seat, action))
        # Both players and the spectator, whichever process holds them, see the new state.
        for c in (*clients, watcher):
            await until_move(c, reply["move"])
        return reply

    for _ in range(8):
        last = await play_one()
    assert last["status"] == "playing"
    before_kill = last["move"]

    a.kill9()  # mid-game, no goodbye: seat 0's connection just dies
    with pytest.raises(ConnectionError):
        while True:  # states of moves made before the kill may still be unread, then the close
            assert (await clients[0].expect("state"))["move"] <= before_kill
    clients[0] = await Client.open(b, tid, tokens[0])  # reconnect to the survivor
    assert clients[0].latest is not None
    assert clients[0].latest["move"] == before_kill  # nothing accepted was lost
    await until_move(clients[1], before_kill)

    while clients[0].latest is not None and clients[0].latest["status"] == "playing":
        last = await play_one()
    assert last["status"] == "finished"
    finished = await clients[1].expect("finished")
    assert finished["move"] == last["move"]

    # Storage has exactly the accepted moves, in order, with the chance moves between them.
    rows = await stored_moves(postgres_url_of(a), tid)
    assert [r[0] for r in rows] == list(range(len(rows)))
    assert [(s, act) for _, s, act in rows if s is not None] == accepted
    record = {
        "game": "shake",
        "options": b.get(f"/api/tables/{tid}").json()["options"],
        "moves": [{"seat": s, "action": act} for _, s, act in rows],
    }
    assert gamenight.replay(record).is_terminal()
    assert len(rows) == last["move"]
    for c in (*clients, watcher):
        await c.close()


def postgres_url_of(server: ServerProcess) -> str:
    assert server.database_url is not None
    return server.database_url


async def test_the_same_move_sent_to_both_processes_is_applied_once(
    pair: list[ServerProcess],
) -> None:
    a, b = pair
    tid = a.table("shake", [{"kind": "human"}, {"kind": "human"}])["table_id"]
    tokens = [a.join(tid, "Ann", 0), a.join(tid, "Bob", 1)]
    assert a.post(f"/api/tables/{tid}/start", None, tokens[0]).status_code == 200
    for _ in range(6):
        view = a.get(f"/api/tables/{tid}/view", tokens[0]).json()
        seat = view["actors"][0]
        here = await Client.open(a, tid, tokens[seat])
        there = await Client.open(b, tid, tokens[seat])
        assert here.latest is not None and there.latest is not None
        move = here.latest["move"]
        await until_move(there, move)  # B follows A's last move within moments
        assert there.latest["move"] == move
        action = here.latest["legal_actions"][0]
        frame = {"type": "action", "move": move, "action": action}
        replies = await asyncio.gather(
            here.reply({**frame, "ref": "a"}), there.reply({**frame, "ref": "b"})
        )
        kinds = sorted(r["type"] for r in replies)
        assert kinds == ["error", "state"], replies
        refused = next(r for r in replies if r["type"] == "error")
        assert refused["code"] == "stale_move"
        rows = await stored_moves(postgres_url_of(a), tid)
        assert [r[0] for r in rows] == list(range(len(rows)))
        assert sum(1 for r in rows[move:] if r[1] is not None) == 1
        await here.close()
        await there.close()
    # the cross-process metrics count what happened: notices each way, and leases waited for
    counts = [metric_values(p.get("/metrics").text) for p in pair]
    assert all(c['gamenight_fanout_notices_total{direction="sent"}'] > 0 for c in counts)
    assert sum(c['gamenight_fanout_notices_total{direction="received"}'] for c in counts) > 0
    assert sum(c["gamenight_lease_wait_seconds_count"] for c in counts) >= 6


def metric_values(text: str) -> dict[str, float]:
    """Prometheus text as {name with labels: value}."""
    pairs = (line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    return {name: float(value) for name, value in pairs}


async def test_a_bot_due_in_a_killed_process_is_played_by_the_other(
    pair: list[ServerProcess],
) -> None:
    a, b = pair
    made = a.table("shake", [{"kind": "human"}, {"kind": "bot"}], bot_pace="human")
    tid = made["table_id"]
    token = a.join(tid, "Ann", 0)
    assert a.post(f"/api/tables/{tid}/start", None, token).status_code == 200
    watcher = await Client.open(b, tid, None)
    human = await Client.open(a, tid, token)
    assert human.latest is not None
    # The human plays on A until the bot is due: A plans the bot's move, B keeps a standby.
    while True:
        state = human.latest
        assert state is not None and state["status"] == "playing"
        if state["actors"] == [1]:
            break
        if state["actors"] == [0]:
            reply = await human.act(state["legal_actions"][0])
            assert reply["type"] == "state", reply
        else:
            await human.expect("state")
    due_at = human.latest["move"]
    await until_move(watcher, due_at)
    a.kill9()  # before its bot (0.6-1.5 s away) could move
    moved = await until_move(watcher, due_at + 1)
    assert moved["move"] > due_at  # B's standby played the bot's turn
    rows = await stored_moves(postgres_url_of(b), tid)
    assert [r[0] for r in rows] == list(range(len(rows)))
    assert any(seat == 1 for idx, seat, _ in rows if idx >= due_at)
    await watcher.close()
