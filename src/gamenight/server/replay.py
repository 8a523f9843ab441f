"""The replay of a finished game for the browser's viewer: what one seat saw after each move.

Kept apart from the routes and the table service (added for the `web` client): it replays the
table's full record on a fresh state and takes, after every move, the same filtered view the
seat was sent live (spectators: the public view), so the replay shows nothing new.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Header

import gamenight

from .protocol import ServerError
from .views import seat_view

MAX_FRAMES = 2000  # a long Snap game is thinned to this many pictures, the last one always kept


def replay_frames(state: Any, seat: int | None) -> list[dict[str, Any]]:
    """[{move, view, events}] from the start to the end of `state`'s record."""
    rec = state.record()
    st = gamenight.new_game(rec["game"], **rec["options"]).new_state(seed=rec.get("seed"))
    frames = [{"move": 0, "view": seat_view(st, seat), "events": st.events()}]
    seen = st.event_count
    total = len(rec["moves"])
    step = max(1, -(-total // MAX_FRAMES))
    for i, move in enumerate(rec["moves"], start=1):
        st.apply(move["action"], move["seat"])
        if i % step and i != total:
            continue
        frames.append({"move": i, "view": seat_view(st, seat), "events": st.events(seen)})
        seen = st.event_count
    return frames


def add_replay_route(app: FastAPI, service: Any, bearer: Any) -> None:
    """GET /api/tables/{id}/replay: the finished game's frames for the token's seat."""

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        table = await service.find(table_id)
        if table.status != "finished":
            raise ServerError("wrong_status", "the replay is shown once the game is over")
        token = bearer(authorization)
        seat = table.seat_of(token) if token else None
        es = seat if isinstance(seat, int) else None
        return {"frames": replay_frames(table.state, es)}
