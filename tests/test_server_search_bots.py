"""Search bots at online tables: a seat kind with a bounded thinking time, whose thinking runs in
a worker thread (the event loop serves every other table meanwhile) on a copy of the state, and
whose thought is dropped when the table moved on before it came back."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from gamenight.bots import make_bot
from gamenight.cli import app as cli
from gamenight.engine import State
from gamenight.server import clock
from gamenight.server.app import Settings, create_app
from gamenight.server.rebuild import replayed
from gamenight.server.table import Table
from services import WAIT, free_port, until

SECONDS = 0.05  # the shortest thinking time a server allows: quick tests


class Ponderer:
    """A test bot that thinks until the test lets it: ``act`` blocks on ``release``. On the event
    loop it would block the loop, so the test could not answer it before its wait ran out."""

    thinks = True

    def __init__(self, game_id: str) -> None:
        self.inner = make_bot(game_id, "sensible", seed=1)
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.thoughts: list[tuple[State, int, dict[str, Any]]] = []  # state, its move, choice
        self.let_go: list[bool] = []  # per thought: released by the test, not timed out
        self.busy = threading.Semaphore(1)
        self.overlapped = False  # two thoughts of this seat ran at once

    def act(self, state: State, seat: int) -> dict[str, Any]:
        alone = self.busy.acquire(blocking=False)
        self.overlapped |= not alone
        try:
            self.thinking.set()
            self.let_go.append(self.release.wait(WAIT))
            action = self.inner.act(state, seat)
            self.thoughts.append((state, len(state.moves), action))
            return action
        finally:
            if alone:
                self.busy.release()


@pytest.fixture
async def http(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The real app in this process (so a test may seat a bot of its own), search bots
    thinking SECONDS a move."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/s.db", bot_seconds=SECONDS))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://localhost") as client,
    ):
        client.app = app  # type: ignore[attr-defined]
        yield client


def live(http: httpx.AsyncClient, table_id: str) -> Table:
    table: Table = http.app.state.service.get(table_id)  # type: ignore[attr-defined]
    return table


async def made(http: httpx.AsyncClient, game: str, seats: list[dict[str, Any]], **kw: Any) -> Any:
    r = await http.post("/api/tables", json={"game": game, "seats": seats, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def pondering_table(
    http: httpx.AsyncClient, game: str, options: dict[str, Any], pace: str = "instant"
) -> tuple[Table, Ponderer, str, str]:
    """A started table: seat 0 the test's Ponderer, seat 1 a human; (table, bot, host, human)."""
    seats = [{"kind": "bot"}, {"kind": "human"}]
    m = await made(http, game, seats, options=options, bot_pace=pace)
    tid, host = m["table_id"], m["host_token"]
    human = (await http.post(f"/api/tables/{tid}/join", json={"name": "Ann"})).json()["token"]
    table = live(http, tid)
    bot = table.bots[0] = Ponderer(game)
    assert (await http.post(f"/api/tables/{tid}/start", headers=auth(host))).status_code == 200
    return table, bot, host, human


def legal_record(table: Table) -> State:
    """The table's stored moves replayed by the engine, which refuses any illegal one."""
    return replayed(table.game_id, table.options, table.seed, table.state.moves)


# --- a search bot plays ------------------------------------------------------------------------
async def test_a_search_bot_plays_a_game_to_its_end_and_every_move_is_legal(
    http: httpx.AsyncClient,
) -> None:
    games = {g["id"]: g["bots"] for g in (await http.get("/api/games")).json()}
    assert "search" in games["shake"]["kinds"] and games["shake"]["search_seconds"] == SECONDS
    assert "search" not in games["snap"]["kinds"] and games["snap"]["search_seconds"] is None
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "search"}]
    m = await made(http, "shake", seats, options={"rounds": 1}, bot_pace="instant")
    tid = m["table_id"]
    assert m["table"]["seats"][1]["bot"] == "search"
    token = (await http.post(f"/api/tables/{tid}/join", json={"name": "Ann"})).json()["token"]
    table = live(http, tid)
    table.bots[1].thinks = True  # in a worker thread (as the search bot itself may declare)
    await http.post(f"/api/tables/{tid}/start", headers=auth(m["host_token"]))

    async def over() -> bool:
        """Play seat 0's first legal action whenever it is to act; true once the game ends."""
        view = (await http.get(f"/api/tables/{tid}/view", headers=auth(token))).json()
        if view["status"] != "playing":
            return True
        if view["legal_actions"]:
            body = {"move": view["move"], "action": view["legal_actions"][0]}
            r = await http.post(f"/api/tables/{tid}/actions", json=body, headers=auth(token))
            assert r.status_code in (200, 409), r.text  # 409: a bot moved first
        return False

    # two requests a poll, ten polls a second: inside the server's 50 requests a second
    await until(over, what="the game against the search bot to end", poll=0.1)
    assert table.status == "finished"
    assert any(seat == 1 for seat, _ in table.state.moves)  # the search bot played
    assert legal_record(table).is_terminal()


# --- thinking off the event loop ---------------------------------------------------------------
async def test_the_server_answers_while_a_bot_thinks_on_a_copy_of_the_state(
    http: httpx.AsyncClient,
) -> None:
    table, bot, _, human = await pondering_table(http, "gambler", {"first_player": 0})
    try:
        await until(bot.thinking.is_set, what="the bot to start thinking")
        at = table.move
        # with the thought on the loop none of these could be answered before it ran out
        assert (await http.get("/healthz")).json()["status"] == "ok"
        assert "gamenight_bot_thoughts 1.0" in (await http.get("/metrics")).text
        assert (await http.get(f"/api/tables/{table.id}")).json()["move"] == at
        view = (await http.get(f"/api/tables/{table.id}/view", headers=auth(human))).json()
        assert view["actors"][0] == 0 and view["move"] == at
        bot.release.set()
        await until(lambda: table.move > at, what="the bot's move")
        assert bot.let_go[0] is True  # released by the test: the loop was free
        first_state, first_move, first_choice = bot.thoughts[0]
        assert first_state is not table.state and first_move == at  # a copy, of move ``at``
        assert table.state.moves[at] == (0, first_choice)
    finally:
        bot.release.set()


async def test_thoughts_past_the_cores_wait_for_one(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two search tables on a one-core server: one thinks, the other waits its turn (in a
    thread of its own it would only slice the core, and both run past their budgets)."""
    monkeypatch.setattr(clock, "THINKERS", 1)
    first, a, _, _ = await pondering_table(http, "gambler", {"first_player": 0})
    second, b, _, _ = await pondering_table(http, "gambler", {"first_player": 0})
    try:
        await until(lambda: first.thoughts and second.thoughts, what="both bots to be due")
        await until(lambda: a.thinking.is_set() or b.thinking.is_set(), what="one to think")
        metrics = (await http.get("/metrics")).text
        assert "gamenight_bot_thoughts 2.0" in metrics  # one thinking, one queued
        assert a.thinking.is_set() != b.thinking.is_set()
        waiting = b if a.thinking.is_set() else a
        (a if waiting is b else b).release.set()
        await until(waiting.thinking.is_set, what="the queued bot to think once the core is free")
    finally:
        a.release.set()
        b.release.set()


async def test_a_bot_that_thought_longer_than_a_person_would_then_plays_at_once(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a table of human pace the pause before a bot's move counts from the start of its
    thought: one that thought longer than that does not then pause again."""
    pace = 0.3
    monkeypatch.setattr(clock.Timers, "_pace", staticmethod(lambda table: pace))
    pauses: list[float] = []  # every pause the clock asks for

    class Pauses:
        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        @staticmethod
        async def sleep(seconds: float) -> None:
            pauses.append(seconds)
            await asyncio.sleep(seconds)

    monkeypatch.setattr(clock, "asyncio", Pauses())
    table, bot, _, _ = await pondering_table(http, "gambler", {"first_player": 0}, "human")
    try:
        await until(bot.thinking.is_set, what="the bot to start thinking")
        began, at = time.monotonic(), table.move
        await until(lambda: time.monotonic() - began > pace, what="a person's pause to pass")
        bot.release.set()
        await until(lambda: table.move > at, what="the bot's move")
        assert pauses and max(pauses[:2]) <= 0  # no standby, and nothing left of the pace
    finally:
        bot.release.set()


async def test_a_thought_the_table_moved_past_is_dropped_and_the_bot_thinks_again(
    http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """At the casino the other seats may wager while the shooter decides: a thought about the
    table before their wager is not played on the table after it."""
    caplog.set_level(logging.INFO, logger="gamenight.server")
    table, bot, _, human = await pondering_table(http, "snake-eyes-casino", {})
    try:
        await until(bot.thinking.is_set, what="the shooter's bot to start thinking")
        at = table.move
        view = (await http.get(f"/api/tables/{table.id}/view", headers=auth(human))).json()
        wager = next(a for a in view["legal_actions"] if a["type"] == "wager")
        r = await http.post(
            f"/api/tables/{table.id}/actions",
            json={"move": at, "action": wager},
            headers=auth(human),
        )
        assert r.status_code == 200, r.text
        assert table.state.moves[at] == (1, wager)
        bot.release.set()
        await until(lambda: len(bot.thoughts) >= 2, what="the bot to think again")
        await until(lambda: any(s == 0 for s, _ in table.state.moves[at:]), what="its move")
        assert not bot.overlapped  # one thought at a time, though the first was called off
        assert [move for _, move, _ in bot.thoughts[:2]] == [at, at + 1]
        # each of its moves was decided at the move it was played at: the stale one at none
        decided = [(move, choice) for _, move, choice in bot.thoughts]
        for i, (seat, action) in enumerate(table.state.moves[at:], start=at):
            if seat == 0:
                assert (i, action) in decided
        legal_record(table)
        failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert failures == [], [r.getMessage() for r in failures]
    finally:
        bot.release.set()


async def test_a_thought_out_when_the_host_cancels_is_never_played(
    http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gamenight.server")
    table, bot, host, _ = await pondering_table(http, "gambler", {"first_player": 0})
    try:
        await until(bot.thinking.is_set, what="the bot to start thinking")
        at = table.move
        r = await http.post(f"/api/tables/{table.id}/cancel", headers=auth(host))
        assert r.json()["status"] == "cancelled"
        bot.release.set()
        await until(lambda: bot.thoughts and not table.thoughts, what="the thought to come back")
        assert table.move == at and table.status == "cancelled" and len(bot.thoughts) == 1
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        bot.release.set()


# --- refusals ----------------------------------------------------------------------------------
async def test_search_is_refused_where_bots_race_and_unknown_kinds_are_named(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    kinds: list[str] = []  # the bots the server asked for

    def make(game_id: str, kind: str = "sensible", **kw: Any) -> Any:
        kinds.append(kind)
        return make_bot(game_id, kind, **kw)

    monkeypatch.setattr(clock, "make_bot", make)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "search"}]
    r = await http.post("/api/tables", json={"game": "snap", "seats": seats})
    assert r.status_code == 422 and r.json()["code"] == "bad_option"
    assert "seat 1" in r.json()["message"] and "reaction level" in r.json()["message"]
    casino = [{"kind": "human"}, {"kind": "bot", "bot": "search", "strategy": "pass_line"}]
    r = await http.post("/api/tables", json={"game": "snake-eyes-casino", "seats": casino})
    assert r.status_code == 422 and "seat 1" in r.json()["message"]
    # the host's bot: its kind chosen, sensible unless named, an unknown one named back
    for game in ("snap", "shake"):
        m = await made(http, game, [{"kind": "human"}] * 3)
        tid, host = m["table_id"], auth(m["host_token"])
        r = await http.post(
            f"/api/tables/{tid}/bot", json={"seat": 1, "bot": "clever"}, headers=host
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_request"
        assert "'clever'" in r.json()["message"] and "search" in r.json()["message"]
        r = await http.post(
            f"/api/tables/{tid}/bot", json={"seat": 1, "bot": "search"}, headers=host
        )
        if game == "snap":
            assert r.status_code == 422 and "seat 1" in r.json()["message"]
            assert live(http, tid).seats[1].kind == "human"  # nothing changed
        else:
            assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "search"
            assert kinds[-1] == f"mcts-{SECONDS:g}s"  # thinking up to the server's time
        r = await http.post(f"/api/tables/{tid}/bot", json={"seat": 2}, headers=host)
        assert r.json()["seats"][2]["bot"] == "sensible"


@pytest.mark.parametrize("seconds", ["0", "100", "nan", "-1"])
def test_serve_refuses_a_thinking_time_out_of_bounds(
    seconds: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamenight.server.serve

    monkeypatch.setattr(gamenight.server.serve, "run", lambda settings: pytest.fail("served"))
    result = CliRunner().invoke(cli, ["serve", "--bot-seconds", seconds])
    assert result.exit_code == 2, result.output
    assert "--bot-seconds" in result.output and "0.05 to 10 seconds" in result.output
    with pytest.raises(ValueError, match="bot_seconds"):
        Settings(bot_seconds=float(seconds))


def test_the_thinking_time_reaches_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Settings] = []
    import gamenight.server.serve

    monkeypatch.setattr(gamenight.server.serve, "run", seen.append)
    port = str(free_port())
    result = CliRunner().invoke(cli, ["serve", "--port", port, "--bot-seconds", "0.25"])
    assert result.exit_code == 0, result.output
    assert seen[0].bot_seconds == 0.25
