"""The replay of a finished game for the browser's viewer: what one seat saw after each move.

Kept apart from the routes and the table service (added for the `web` client): it replays the
table's full record on a fresh state and takes, after every move, the same filtered view the
seat was sent live (spectators: the public view), so the replay shows nothing new.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import FastAPI, Header
from fastapi.responses import Response

import gamenight

from . import wire
from .protocol import ServerError
from .views import seat_view

MAX_FRAMES = 2000  # a long Snap game is thinned to this many pictures, the last one always kept
KEPT = 32  # encoded replays kept: a finished game's replay never changes


class ReplayCache:
    """The newest KEPT encoded replays by (table, seat): replaying a 1,400-move Snap game
    took 37 ms of the event loop, so one client asking 27 times a second, within the API's
    rate, held the loop for every table."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self.kept: OrderedDict[tuple[str, int | None], bytes] = OrderedDict()

    def get(self, state: Any, table_id: str, seat: int | None) -> bytes:
        key = (table_id, seat)
        body = self.kept.get(key)
        if body is None:
            body = wire.dumps({"frames": replay_frames(state, seat)}).encode()
            self.kept[key] = body
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)
        else:
            self.kept.move_to_end(key)
        return body


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

    cache = ReplayCache()

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, authorization: str | None = Header(None)) -> Response:
        table = await service.find(table_id)
        if table.status != "finished":
            raise ServerError("wrong_status", "the replay is shown once the game is over")
        token = bearer(authorization)
        seat = table.seat_of(token) if token else None
        es = seat if isinstance(seat, int) else None
        return Response(cache.get(table.state, table.id, es), media_type="application/json")
