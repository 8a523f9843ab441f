"""Snake Eyes online: the human holding the dice throws them (server/throws.py)."""

from __future__ import annotations

from typing import Any

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def frame(server: Any, tid: str, token: str) -> dict[str, Any]:
    return server.get(f"/api/tables/{tid}/view", token).json()


def test_the_holder_throws_and_only_the_holder(server: Any) -> None:
    made = server.table("snake-eyes", HUMANS2, options={"starting_chips": 20})
    tid = made["table_id"]
    tokens = [server.join(tid, "Ann", 0), server.join(tid, "Ben", 1)]
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    throws = 0
    while True:
        frames = [frame(server, tid, t) for t in tokens]
        if frames[0]["status"] == "finished":
            break
        holder = frames[0]["view"]["thrower"]
        assert frames[0]["actors"] == [holder]
        assert frames[holder]["legal_actions"] == [{"type": "throw"}]
        other = 1 - holder
        assert frames[other]["legal_actions"] == []
        move = frames[0]["move"]
        refused = server.post(
            f"/api/tables/{tid}/actions", {"move": move, "action": {"type": "throw"}}, tokens[other]
        )
        assert refused.json()["code"] == "not_your_turn"
        done = server.post(
            f"/api/tables/{tid}/actions",
            {"move": move, "action": {"type": "throw"}},
            tokens[holder],
        )
        assert done.status_code == 200 and done.json()["move"] == move + 1  # one throw, one move
        throws += 1
        assert throws < 2000
    record = server.get(f"/api/tables/{tid}/record", tokens[0]).json()
    assert len(record["moves"]) == throws
    assert all(m["seat"] is None and m["action"]["type"] == "dice" for m in record["moves"])


def test_bots_throw_their_own_dice_at_once(server: Any) -> None:
    seats = [{"kind": "bot"}, {"kind": "bot"}]
    made = server.table("snake-eyes", seats, options={"starting_chips": 20})
    tid = made["table_id"]
    assert server.post(f"/api/tables/{tid}/start", None, made["host_token"]).status_code == 200
    assert server.get(f"/api/tables/{tid}").json()["status"] == "finished"
