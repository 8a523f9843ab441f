"""The HTTP routes: health and metrics, the games, tables made, listed, joined, left, started,
timed, rematched and played, a seat's view and record, and the pages of the browser client.

Thin: each parses, authorises and calls the table service (``tables.py``); errors answer in
one shape (``errors.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

import gamenight
from gamenight.engine.game import game_class, is_realtime

from . import wire
from .connection import Connection
from .errors import missing_page
from .lobby import LOBBY_SIZE
from .metrics import ServerMetrics
from .protocol import (
    BOT_KINDS,
    BotChoice,
    CreateTable,
    JoinTable,
    Listing,
    PlayAction,
    SeatChoice,
    ServerError,
    SetTimer,
)
from .replay import add_replay_route
from .settings import Settings
from .tables import TableService

WEB = Path(gamenight.__file__).parent / "web"
HEALTH_SECONDS = 2.0  # /healthz waits this long for the database and Redis to answer
LISTED_PER_ADDRESS = 10  # waiting tables of one address the lobby lists
LOBBY_BYTES = 256 * 1024  # the lobby's answer, at most (about 1 KB a table)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if there is one."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def reachable(check: Callable[[], Awaitable[Any]]) -> str:
    try:
        await asyncio.wait_for(check(), HEALTH_SECONDS)
    except Exception as e:  # any failure is the answer, not an error of the check
        return f"down: {type(e).__name__}"
    return "ok"


def add_routes(
    app: FastAPI,
    service: TableService,
    settings: Settings,
    metrics: ServerMetrics,
    connections: set[Connection],
) -> None:
    """Every HTTP route and page of the app (the socket is ``socket.py``'s)."""
    storage = service.storage

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """For a load balancer: the tables and connections this process holds, and whether
        the database and Redis answer (503 when one does not: every move would fail)."""
        checks = {"database": await reachable(storage.ping)}
        redis = getattr(service.fanout, "redis", None)
        if redis is not None:
            checks["redis"] = await reachable(redis.ping)
        ok = all(v == "ok" for v in checks.values())
        body = {
            "status": "ok" if ok else "degraded",
            "tables": len(service.tables),
            "connections": len(connections),
            **checks,
        }
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        """Prometheus scrape: tables, connections, moves, refusals and move latency."""
        return Response(metrics.render(), media_type=metrics.content_type)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game with its options, seat limits and bot kinds."""
        from gamenight.bots.casino_bot import STRATEGIES
        from gamenight.realtime.reaction import LEVELS

        out = []
        for gid in gamenight.list_games():
            cls = game_class(gid)
            opts = []
            for name, f in cls.Options.model_fields.items():
                lo = hi = None
                for m in f.metadata:
                    lo = getattr(m, "ge", lo)
                    hi = getattr(m, "le", hi)
                default = f.get_default(call_default_factory=True)
                opts.append(
                    {
                        "name": name,
                        "type": getattr(f.annotation, "__name__", str(f.annotation)),
                        "default": default,
                        "description": f.description,
                        "minimum": lo,
                        "maximum": hi,
                    }
                )
            out.append(
                {
                    "id": gid,
                    "title": cls.title,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": opts,
                    "bots": {
                        # Snap and Slap bots race by a reaction level; a search bot thinks
                        # up to search_seconds a move
                        "kinds": [k for k in BOT_KINDS if k != "search" or not is_realtime(gid)],
                        "search_seconds": None if is_realtime(gid) else settings.bot_seconds,
                        "levels": list(LEVELS) if is_realtime(gid) else [],
                        "strategies": list(STRATEGIES) if gid == "snake-eyes-casino" else [],
                    },
                    "dealer": gid == "snake-eyes-casino",
                }
            )
        return out

    made_by: dict[str, list[str]] = {}  # client address -> the tables it made here

    def unfinished_from(address: str) -> int:
        """How many tables this address made are still waiting or playing in this process."""
        live = [
            tid
            for tid in made_by.get(address, ())
            if (t := service.tables.get(tid)) is not None and t.status in ("waiting", "playing")
        ]
        if live:
            made_by[address] = live
        else:
            made_by.pop(address, None)
        return len(live)

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table: the game, its options and who sits where (humans or bots).

        One address may hold ``tables_per_client`` unfinished tables: within the HTTP rate
        limit, one client made 60 tables a second, each kept in memory (12 KB) for the idle
        expiry's 6 hours, pushing everyone else's tables out of the lobby's newest 200."""
        address = request.client.host if request.client else "?"
        cap = settings.tables_per_client
        if cap and unfinished_from(address) >= cap:
            raise ServerError(
                "too_many_tables",
                f"at most {cap} unfinished tables from one address: start and finish "
                "(or leave) some of yours first",
            )
        table, host = await service.create(spec)
        made_by.setdefault(address, []).append(table.id)
        return {
            "table_id": table.id,
            "join_url": str(request.url_for("table_page", table_id=table.id)),
            "host_token": host,
            "table": table.summary(),
        }

    @app.get("/api/tables")
    async def list_tables() -> Response:
        """Tables waiting for players, on every server process (the newest 200), at most
        LISTED_PER_ADDRESS of them made by one address here, within LOBBY_BYTES: 200 tables
        with large custom options made one answer 15 MiB, polled by every lobby page, and
        one client's flood pushed everyone else's tables out of the list."""
        owner = {tid: address for address, tids in made_by.items() for tid in tids}
        shown: dict[str, int] = {}
        parts: list[str] = []
        size = 2
        for entry in await service.open_tables(LOBBY_SIZE + settings.tables_per_client):
            who = owner.get(entry["table_id"])
            if who is not None:
                shown[who] = shown.get(who, 0) + 1
                if shown[who] > LISTED_PER_ADDRESS:
                    continue
            # custom data (a Gambler board, a casino's payouts) is read at the table itself
            small = {k: v for k, v in entry["options"].items() if len(wire.dumps(v)) <= 64}
            text = wire.dumps({**entry, "options": small})
            size += len(text) + 1
            if len(parts) == LOBBY_SIZE or size > LOBBY_BYTES:
                break
            parts.append(text)
        return Response("[" + ",".join(parts) + "]", media_type="application/json")

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return (await service.find(table_id)).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take a seat with a display name; the answer holds the seat's token (keep it)."""
        seat, token = await service.join(table_id, body.name, body.seat)
        # the name as seated: "Ann 2" when the table has an Ann already
        name = service.get(table_id).seat(seat).name
        return {"table_id": table_id, "seat": seat, "token": token, "name": name}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        return (await service.leave(table_id, bearer(authorization))).summary()

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        return (await service.start(table_id, bearer(authorization))).summary()

    @app.post("/api/tables/{table_id}/timer")
    async def set_timer(
        table_id: str, body: SetTimer, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Set (or take off) the turn timer of a waiting or playing table."""
        table = await service.set_timer(table_id, bearer(authorization), body.turn_seconds)
        return table.summary()

    @app.post("/api/tables/{table_id}/kick")
    async def kick(
        table_id: str, body: SeatChoice, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """The host frees a seat; while the game runs a bot plays it until someone sits."""
        return (await service.kick(table_id, bearer(authorization), body.seat)).summary()

    @app.post("/api/tables/{table_id}/bot")
    async def seat_bot(
        table_id: str, body: BotChoice, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """The host gives a human seat to a bot (sensible unless ``bot`` names another kind)
        for the rest of the game."""
        table = await service.seat_bot(table_id, bearer(authorization), body.seat, body.bot)
        return table.summary()

    @app.post("/api/tables/{table_id}/cancel")
    async def cancel(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The host ends a waiting or playing table for good."""
        return (await service.cancel(table_id, bearer(authorization))).summary()

    @app.post("/api/tables/{table_id}/listing")
    async def listing(
        table_id: str, body: Listing, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """The host shows the table in the lobby, or takes it out."""
        return (await service.set_listed(table_id, bearer(authorization), body.listed)).summary()

    @app.post("/api/tables/{table_id}/back")
    async def back(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """An away player takes his seat back from the bot standing in."""
        table = await service.find(table_id)
        await service.back(table, await service.seat_for(table, bearer(authorization)))
        return table.summary()

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(
        table_id: str, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """A new table with the same seats, names and options; old tokens keep their seats."""
        new = await service.rematch(table_id, bearer(authorization))
        return {
            "table_id": new.id,
            "join_url": str(request.url_for("table_page", table_id=new.id)),
            "table": new.summary(),
        }

    @app.post("/api/tables/{table_id}/actions")
    async def act(
        table_id: str, body: PlayAction, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Play an action for the token's seat, chosen at move ``move``."""
        token = bearer(authorization)
        done = await service.act(table_id, token, body.move, body.action)
        table = service.get(table_id)
        await service.settled(table)
        return service.frame(table, done.seat, since=None)

    @app.get("/api/tables/{table_id}/view")
    async def view(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        table = await service.find(table_id)
        token = bearer(authorization)
        seat = table.seat_of(token) if token else None
        await service.settled(table)
        return service.frame(table, seat)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, authorization: str | None = Header(None)) -> Response:
        table = await service.find(table_id)
        token = bearer(authorization)
        # a long game's record is megabytes: built and encoded off the event loop
        body = await asyncio.to_thread(lambda: wire.dumps(service.record_for(table, token)))
        return Response(body, media_type="application/json")

    add_replay_route(app, service, bearer)  # the web client's replay viewer (server/replay.py)

    # --- pages ------------------------------------------------------------------------------
    def page(name: str) -> Any:
        path = WEB / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(
            "<!doctype html><title>gamenight</title><p>gamenight is running; the browser "
            "client is not installed. The API is described at "
            "<a href=/openapi.json>/openapi.json</a>.</p>"
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Any:
        return page("index.html")

    async def table_or_missing(table_id: str, name: str) -> Any:
        """A table's page, or the not-found page with a 404 for a table nobody made."""
        try:
            await service.find(table_id)
        except ServerError as e:
            if e.code != "table_not_found":
                raise
            return missing_page()
        return page(name)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Any:
        return await table_or_missing(table_id, "table.html")

    @app.get("/t/{table_id}/display", include_in_schema=False)
    async def display_page(table_id: str) -> Any:
        return await table_or_missing(table_id, "display.html")

    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")
