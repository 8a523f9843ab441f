"""No secret leaves the server: every frame of whole games, checked against the seat's view.

Whole Snap, Slap, Gambler and casino (live dealer + results display) games are played by real
WebSocket clients, one per seat plus a spectator. Afterwards the test reads the stored record
(seed and every chance move, which only the server knows), replays it move by move and checks
each frame each connection received: its view is exactly ``view(seat)`` at that move, its legal
actions are that seat's, its event lines are the engine's, and no card appears that the seat
had not been shown; finished frames hold ``public_record(seat)`` and never the seed.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gamenight
from gamenight.games.snap.deck import full_deck
from gamenight.server.views import public_record, seat_view
from services import Client, ServerProcess

pytestmark = pytest.mark.server

CARDS = set(full_deck())
EAGER = ("roll", "done", "accept", "flip", "end_turn", "stop", "take", "claim_start")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose frame rate limit a bot-speed client never reaches.

    These clients answer every frame at once, so a seat can send far more than the default 20
    frames a second; the limit itself is tested in test_server_abuse.
    """
    workdir: Path = tmp_path_factory.mktemp("server")
    proc = ServerProcess(workdir, None, "--rate-limit", "10000").start()
    yield proc
    proc.stop()


def stored(server: ServerProcess, table_id: str) -> tuple[dict[str, Any], list[Any]]:
    db = sqlite3.connect(server.workdir / "gamenight.db")
    game, options, seed = db.execute(
        "SELECT game, options, seed FROM tables WHERE id = ?", (table_id,)
    ).fetchone()
    moves = [
        {"seat": s, "action": json.loads(a)}
        for s, a in db.execute(
            "SELECT seat, action FROM moves WHERE table_id = ? ORDER BY idx", (table_id,)
        )
    ]
    db.close()
    return {"game": game, "options": json.loads(options), "seed": seed}, moves


def strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in [k, *strings(v)]]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def states_by_move(head: dict[str, Any], moves: list[Any]) -> list[Any]:
    """The state after each number of moves, rebuilt from the stored record."""
    state = gamenight.new_game(head["game"], **head["options"]).new_state()
    out = [state.clone()]
    for m in moves:
        state.apply(m["action"], m["seat"])
        out.append(state.clone())
    return out


def check_frames(
    client: Client, seat: int | str | None, states: list[Any], seed: int, realtime: bool
) -> int:
    """Every frame this connection got is what ``seat`` may see; returns how many were checked."""
    es = seat if isinstance(seat, int) else None
    seen: set[str] = set()
    checked = 0
    for frame in client.frames:
        text = json.dumps(frame)
        assert str(seed) not in text, "the seed left the server"
        assert "seed" not in strings(frame), "a seed field left the server"
        if frame["type"] == "state":
            st = states[frame["move"]]
            assert frame["view"] == seat_view(st, es)
            if es is None:  # a spectator, the dealer or the display sees no more than any seat
                assert all(frame["view"] == st.view(s) for s in range(st.players))
            seen.update(strings(frame["view"]))
            if frame["status"] == "playing" and es is not None:
                assert frame["legal_actions"] == st.legal_actions(es)
            elif es is None:
                assert frame["legal_actions"] == []
            assert set(frame["events"]) <= set(st.events())
            seen.update(w for line in frame["events"] for w in line.split())
            if frame["race"]:
                for arrival in frame["race"]["arrivals"]:
                    assert set(arrival) == {"seat", "type", "result"}
        elif frame["type"] == "finished":
            final = states[-1]
            assert frame["move"] == len(states) - 1
            assert frame["record"] == public_record(final, es)
            for m in frame["record"]["moves"]:
                if m["seat"] is None and realtime:
                    assert not set(strings(m["action"])) & CARDS - seen, "a hidden card"
        elif frame["type"] == "race":  # public: who called in what order, no card
            assert realtime and set(frame) == {"type", "move", "race"}
            for arrival in frame["race"]["arrivals"]:
                assert set(arrival) == {"seat", "type", "result"}
        elif frame["type"] not in ("welcome", "seats", "timeout", "pong", "error"):
            raise AssertionError(f"unexpected frame {frame}")
        cards = set(strings(frame)) & CARDS
        assert cards <= seen | set(strings(frame.get("view", {}))), f"unseen cards {cards - seen}"
        checked += 1
    return checked


async def sync_all(clients: list[Client], move: int) -> None:
    for c in clients:
        while c.latest is None or c.latest["move"] < move:
            await c.expect("state")


async def play_whole_game(
    server: ServerProcess, game: str, options: dict[str, Any], players: int, seed: int
) -> tuple[str, list[tuple[Client, int | str | None]]]:
    rng = random.Random(seed)
    made = server.table(game, [{"kind": "human"}] * players, options=options)
    tid = made["table_id"]
    tokens = [server.join(tid, f"P{i}", i) for i in range(players)]
    live = bool(options.get("live"))
    dealer_token = server.join(tid, "Dealer", "dealer") if live else None
    seated = [(await Client.open(server, tid, t), i) for i, t in enumerate(tokens)]
    watchers: list[tuple[Client, int | str | None]] = [(await Client.open(server, tid, None), None)]
    dealer = None
    if dealer_token:
        dealer = await Client.open(server, tid, dealer_token)
        watchers.append((dealer, "dealer"))
        watchers.append((await Client.open(server, tid, None, role="display"), None))
    everyone = seated + watchers
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    clients = [c for c, _ in everyone]
    for c in clients:
        while c.latest is None or c.latest["status"] == "waiting":
            await c.expect("state")
    for _ in range(3000):
        frame = seated[0][0].latest
        assert frame is not None
        if frame["status"] != "playing":
            break
        move = frame["move"]
        if dealer is not None and frame["dealer_due"]:
            faces = [rng.randint(1, 6), rng.randint(1, 6)]
            kind = (
                "dice"
                if dealer.latest and dealer.latest["view"]["phase"] == "rolling"
                else ("settle")
            )
            action = {"type": "dice", "faces": faces} if kind == "dice" else {"type": "settle"}
            reply = await dealer.act(action, move)
            assert reply["type"] == "state", reply
        elif (
            game in ("snap", "slap-the-elephant")
            and len(frame["actors"]) > 1
            and (rng.random() < 0.35)
        ):
            callers = rng.sample(frame["actors"][1:], min(2, len(frame["actors"]) - 1))
            call = rng.choice(
                [a for a in seated[callers[0]][0].latest["legal_actions"] if a["type"] != "flip"]
            )
            sent = [
                seated[s][0].reply({"type": "action", "move": move, "action": call, "ref": f"c{s}"})
                for s in callers
            ]
            replies = await asyncio.gather(*sent)
            kinds = sorted(r.get("code", r["type"]) for r in replies)
            # the second is too late if it asked for what the first took, else judged too
            assert kinds in (["state"], ["state", "state"], ["state", "too_late"]), kinds
        else:
            actor = frame["actors"][0]
            client = seated[actor][0]
            legal = client.latest["legal_actions"]
            eager = [a for a in legal if a["type"] in EAGER]
            action = rng.choice(eager if eager and rng.random() < 0.7 else legal)
            reply = await client.act(action, move)
            assert reply["type"] == "state", reply
        latest = max(c.latest["move"] for c in clients if c.latest)
        await sync_all(clients, latest)
    else:
        raise AssertionError("the game did not finish")
    for c in clients:
        if not any(f["type"] == "finished" for f in c.frames):
            await c.expect("finished")
    for c in clients:
        await c.close()
    return tid, everyone


GAMES = [
    ("snap", {"max_flips": 40}, 3),
    ("slap-the-elephant", {"max_flips": 40}, 3),
    ("gambler", {"max_turns": 16}, 2),  # long enough for 20 frames a client when sends merge
    ("snake-eyes-casino", {"max_rolls": 3, "live": True}, 2),
]


@pytest.mark.parametrize(("game", "options", "players"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_frame_of_a_whole_game_is_the_seats_view(
    server: ServerProcess, game: str, options: dict[str, Any], players: int
) -> None:
    connections = players + (3 if options.get("live") else 1)  # + watcher (dealer, display)
    total, games = 0, 0
    # The server deals each game from its own secret seed, and a short one (a Gambler player out
    # after a few turns) sends few frames: whole games are played until 20 a connection are
    # checked, so the count is certain and every frame of every game is still checked.
    while total <= 20 * connections and games < 10:
        tid, everyone = await play_whole_game(server, game, options, players, games + len(game))
        assert len(everyone) == connections
        head, moves = stored(server, tid)
        states = states_by_move(head, moves)
        assert states[-1].is_terminal()
        for client, seat in everyone:
            total += check_frames(
                client, seat, states, head["seed"], game in ("snap", "slap-the-elephant")
            )
        games += 1
    assert total > 20 * connections, f"{games} games sent only {total} frames"
