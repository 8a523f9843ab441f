"""The HTTP API of a real server process: tables, seats, tokens, rematch, errors."""

from __future__ import annotations

import pytest

from services import ServerProcess

pytestmark = pytest.mark.server

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def test_games_lists_every_game_with_options_and_bots(server: ServerProcess) -> None:
    games = {g["id"]: g for g in server.get("/api/games").json()}
    assert set(games) == {
        "gambler",
        "shake",
        "slap-the-elephant",
        "snake-eyes",
        "snake-eyes-casino",
        "snap",
    }
    snake = {o["name"]: o for o in games["snake-eyes"]["options"]}
    assert snake["starting_chips"]["default"] == 50 and snake["starting_chips"]["minimum"] == 2
    assert games["snap"]["bots"]["levels"] == ["easy", "normal", "expert"]
    assert "hardways" in games["snake-eyes-casino"]["bots"]["strategies"]
    assert server.get("/openapi.json").json()["info"]["title"] == "gamenight"
    assert server.get("/healthz").json()["status"] == "ok"


def test_create_join_start_play_over_http(server: ServerProcess) -> None:
    made = server.table("shake", HUMANS2, options={"rounds": 1}, listed=True)
    tid = made["table_id"]
    assert made["join_url"].endswith(f"/t/{tid}")
    assert tid in {t["table_id"] for t in server.get("/api/tables").json()}
    a = server.join(tid, "Ann")
    b = server.join(tid, "Bob")
    assert len(a) >= 43  # 256 bits, url-safe
    assert server.post(f"/api/tables/{tid}/join", {"name": "Cy"}).json()["code"] == "seat_taken"
    r = server.post(f"/api/tables/{tid}/actions", {"move": 0, "action": {"type": "throw"}}, a)
    assert r.status_code == 409 and r.json()["code"] == "not_started"
    # a listed table: the seated players may not start it, its host does
    assert server.post(f"/api/tables/{tid}/start", None, a).json()["code"] == "forbidden"
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    assert tid not in {t["table_id"] for t in server.get("/api/tables").json()}
    view = server.get(f"/api/tables/{tid}/view", a).json()
    seat = view["actors"][0]
    token = a if seat == 0 else b
    other = b if seat == 0 else a
    legal = server.get(f"/api/tables/{tid}/view", token).json()["legal_actions"]
    assert legal and server.get(f"/api/tables/{tid}/view", other).json()["legal_actions"] == []
    move = view["move"]
    # another seat's token, a made-up token, no token, a stale move: refused, nothing changes
    for tok, mv, code in [
        (other, move, "not_your_turn"),
        ("x" * 43, move, "bad_token"),
        (None, move, "bad_token"),
        (token, move - 1, "stale_move"),
        (token, move + 1, "stale_move"),
    ]:
        r = server.post(f"/api/tables/{tid}/actions", {"move": mv, "action": legal[0]}, tok)
        assert r.json()["code"] == code, (tok, mv, r.text)
    assert server.get(f"/api/tables/{tid}").json()["move"] == move
    r = server.post(f"/api/tables/{tid}/actions", {"move": move, "action": legal[0]}, token)
    assert r.status_code == 200 and r.json()["move"] > move
    assert server.get(f"/api/tables/{tid}/record").json()["code"] == "wrong_status"


def test_names_with_control_characters_are_refused(server: ServerProcess) -> None:
    tid = server.table("snake-eyes", HUMANS2)["table_id"]
    for name in ["a\x00b", "tab\there", "", " ", "x" * 25, "bell\x07", "rtl\u202eover"]:
        r = server.post(f"/api/tables/{tid}/join", {"name": name})
        assert r.status_code == 422 and r.json()["code"] == "bad_name", name
    for bad in [{"name": 5}, {"nom": "x"}, [], "x"]:
        assert server.post(f"/api/tables/{tid}/join", bad).status_code == 422
    assert server.get(f"/api/tables/{tid}").json()["seats"][0]["name"] is None
    assert server.join(tid, "Zoë") and server.join(tid, "Ann Marie")


def test_bad_tables_are_refused_with_the_reason(server: ServerProcess) -> None:
    cases = [
        ({"game": "chess", "seats": HUMANS2}, "chess"),
        ({"game": "snake-eyes", "seats": HUMANS2, "options": {"ante": -1}}, "ante"),
        ({"game": "snake-eyes", "seats": HUMANS2, "options": {"players": 3}}, "players"),
        ({"game": "snake-eyes", "seats": [{"kind": "bot", "level": "expert"}] * 2}, "level"),
        ({"game": "snap", "seats": [{"kind": "bot", "strategy": "field"}] * 2}, "strategy"),
        ({"game": "snake-eyes", "seats": [{"kind": "alien"}] * 2}, "kind"),
    ]
    for body, word in cases:
        r = server.post("/api/tables", body)
        assert r.status_code == 422 and word in r.json()["message"], (body, r.text)
    assert server.get("/api/tables/nope").status_code == 404
    r = server.post("/api/tables", None)
    assert r.status_code == 422
    big = {"game": "snake-eyes", "seats": HUMANS2, "options": {"x": "y" * 20000}}
    assert server.post("/api/tables", big).status_code == 413


def test_leave_frees_the_seat_and_revokes_the_token(server: ServerProcess) -> None:
    tid = server.table("snake-eyes", HUMANS2)["table_id"]
    a = server.join(tid, "Ann", 0)
    assert server.post(f"/api/tables/{tid}/leave", None, a).status_code == 200
    assert server.post(f"/api/tables/{tid}/leave", None, a).json()["code"] == "bad_token"
    a2 = server.join(tid, "Ann again", 0)
    assert a2 != a
    assert server.post(f"/api/tables/{tid}/start", None, a).status_code == 401
    # not every seat taken: only the host may start
    assert server.post(f"/api/tables/{tid}/start", None, a2).json()["code"] == "forbidden"


def test_bots_finish_a_game_and_a_rematch_keeps_seats_and_tokens(server: ServerProcess) -> None:
    import time

    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    made = server.table("shake", seats, options={"rounds": 1}, bot_pace="instant", turn_seconds=3)
    tid, host = made["table_id"], made["host_token"]
    a = server.join(tid, "Ann")
    assert server.post(f"/api/tables/{tid}/start", None, host).status_code == 200
    deadline = time.monotonic() + 300  # generous: the machine may be busy
    while server.get(f"/api/tables/{tid}").json()["status"] != "finished":
        view = server.get(f"/api/tables/{tid}/view", a).json()
        if view["legal_actions"]:
            server.post(
                f"/api/tables/{tid}/actions",
                {"move": view["move"], "action": view["legal_actions"][0]},
                a,
            )
        assert time.monotonic() < deadline, "the game did not finish in 300 s"
        # no pause of our own: server.get/post keep under the server's request rate
    record = server.get(f"/api/tables/{tid}/record", a).json()
    assert "seed" not in record and record["public"] is True and record["viewer"] == 0
    assert len(record["moves"]) == server.get(f"/api/tables/{tid}").json()["move"]
    assert server.get(f"/api/tables/{tid}/record").json()["viewer"] is None  # a spectator
    r = server.post(f"/api/tables/{tid}/rematch", None, a)
    assert r.status_code == 200
    new = r.json()["table_id"]
    assert new != tid
    assert server.post(f"/api/tables/{tid}/rematch", None, a).json()["table_id"] == new
    summary = server.get(f"/api/tables/{new}").json()
    assert summary["rematch_of"] == tid and summary["seats"][0]["name"] == "Ann"
    assert server.post(f"/api/tables/{new}/start", None, a).status_code == 200
    assert server.get(f"/api/tables/{new}/view", a).json()["seat"] == 0


async def test_bots_with_levels_play_snap_and_strategies_bet_the_casino(
    server: ServerProcess,
) -> None:
    from gamenight.bots.casino_bot import STRATEGIES
    from services import Client, until

    snap = server.table(
        "snap",
        [{"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "easy"}],
        options={"max_flips": 400},  # 80 flips hold no pair to call in about 1 game in 90
        bot_pace="instant",
    )
    casino = server.table(
        "snake-eyes-casino",
        [{"kind": "bot", "strategy": "hardways"}, {"kind": "bot", "strategy": "field"}],
        options={"max_rolls": 5},
        bot_pace="instant",
    )
    watchers = []
    for made in (snap, casino):
        watchers.append(await Client.open(server, made["table_id"], None))
        assert (
            server.post(
                f"/api/tables/{made['table_id']}/start", None, made["host_token"]
            ).status_code
            == 200
        )
    for w in watchers:
        await w.expect("finished")
    # the record, not the frames: a slow watcher is sent the newest state, not every state
    snap_moves = server.get(f"/api/tables/{snap['table_id']}/record").json()["moves"]
    assert any(m["action"]["type"] == "snap" for m in snap_moves), "the bots never called"
    record = server.get(f"/api/tables/{casino['table_id']}/record").json()
    for seat, strategy in ((0, "hardways"), (1, "field")):
        areas = {
            m["action"]["area"]
            for m in record["moves"]
            if m["seat"] == seat and m["action"]["type"] == "wager"
        }
        assert areas and areas <= set(STRATEGIES[strategy])
    # at a human pace bots take their time but play on
    paced = server.table("shake", [{"kind": "bot"}, {"kind": "bot"}], options={"rounds": 1})
    assert (
        server.post(f"/api/tables/{paced['table_id']}/start", None, paced["host_token"]).status_code
        == 200
    )
    start = server.get(f"/api/tables/{paced['table_id']}").json()["move"]
    await until(
        lambda: server.get(f"/api/tables/{paced['table_id']}").json()["move"] > start,
        poll=0.1,
        what="a move by the human-pace bots",
    )
    for w in watchers:
        await w.close()
