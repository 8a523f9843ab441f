"""The replay of a finished game for the browser's viewer: what one seat saw after each move.

Kept apart from the routes and the table service (added for the `web` client): it replays the
table's full record on a fresh state and takes, after every move, the same filtered view the
seat was sent live (spectators: the public view), so the replay shows nothing new.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI, Header
from fastapi.responses import Response

import gamenight

from . import wire
from .protocol import ServerError
from .views import seat_view

MAX_FRAMES = 2000  # a long Snap game is thinned to this many pictures, the last one always kept
MAX_BYTES = 2 * 1024 * 1024  # an answer past this is thinned further (casino views are large)
MAX_MOVES = 20_000  # longer games get no replay: 97k moves took 2.8 s of CPU and 10.8 MiB
KEPT_BYTES = 32 * 1024 * 1024  # encoded replays kept, newest first: a replay never changes


class ReplayCache:
    """Encoded replays by (table, seat), built once each in a worker thread and kept within
    KEPT_BYTES: replaying a long game on the event loop for every request held up every table
    (ten requests for a 97k-move game at once: 9.2 s, pings of 2.7 s at other tables). Requests
    for one replay while it is being built wait for that build; one build runs at a time."""

    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self.kept: OrderedDict[tuple[str, int | None], bytes] = OrderedDict()
        self.building: dict[tuple[str, int | None], asyncio.Future[bytes]] = {}
        self.one_at_a_time = asyncio.Semaphore(1)

    async def get(self, state: Any, table_id: str, seat: int | None) -> bytes:
        key = (table_id, seat)
        body = self.kept.get(key)
        if body is not None:
            self.kept.move_to_end(key)
            return body
        if len(state.moves) > MAX_MOVES:
            raise ServerError(
                "too_long",
                f"this game has {len(state.moves)} moves; replays are made for games of at most "
                f"{MAX_MOVES} (its record is at /record)",
            )
        if key not in self.building:
            self.building[key] = asyncio.ensure_future(self._build(key, state, seat))
        return await asyncio.shield(self.building[key])

    async def _build(self, key: tuple[str, int | None], state: Any, seat: int | None) -> bytes:
        try:
            async with self.one_at_a_time:
                body = await asyncio.to_thread(encoded_replay, state, seat)
        finally:
            del self.building[key]
        self.kept[key] = body
        while sum(map(len, self.kept.values())) > self.budget and len(self.kept) > 1:
            self.kept.popitem(last=False)
        return body


def encoded_replay(state: Any, seat: int | None) -> bytes:
    """The replay's JSON answer, thinned until it fits MAX_BYTES (the last frame always kept)."""
    frames = replay_frames(state, seat)
    body = wire.dumps({"frames": frames}).encode()
    while len(body) > MAX_BYTES and len(frames) > 2:
        step = -(-len(body) // MAX_BYTES)
        frames = frames[:-1][::step] + frames[-1:]
        body = wire.dumps({"frames": frames}).encode()
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
        body = await cache.get(table.state, table.id, es)
        return Response(body, media_type="application/json")
