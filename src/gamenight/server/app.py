"""The ASGI app: thin HTTP routes and the WebSocket, in front of the table service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketState

import gamenight
from gamenight.engine.errors import describe
from gamenight.engine.game import game_class, is_realtime

from . import chat, gcpolicy, wire
from .fanout import FanOut, LocalFanOut, Notice
from .lease import Lease, LocalLease
from .limits import ClientRates
from .metrics import ServerMetrics
from .protocol import (
    FRAME_TYPES,
    MAX_FRAME,
    ActionFrame,
    ChatFrame,
    CreateTable,
    Hello,
    JoinTable,
    PlayAction,
    ServerError,
    SetTimer,
    clean_chat,
)
from .replay import add_replay_route
from .storage import Storage
from .table import DEALER, SeatKey, Table, token_hash
from .tables import TableService

log = logging.getLogger("gamenight.server")
WEB = Path(gamenight.__file__).parent / "web"
HELLO_SECONDS = 10.0
HEALTH_SECONDS = 2.0  # /healthz waits this long for the database and Redis to answer
NOTICES_HELD = 256  # notices a connection's pump may lag behind before newer ones are dropped


@dataclass
class Settings:
    """How one server process runs; ``gamenight serve`` fills it from the command line."""

    database_url: str | None = None
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: list[str] = field(default_factory=list)
    idle_minutes: float = 360.0
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    http_rate_per_second: float = 50.0  # per client address, for /api/...; 0 turns it off
    http_rate_burst: float = 250.0
    max_refusals: int = 100
    ws_per_client: int = 100  # open WebSockets per client address; 0 turns the cap off
    tables_per_client: int = 50  # unfinished tables one client address made here; 0: no cap


def build_fanout(settings: Settings) -> FanOut:
    """In-process fan-out, or Redis pub/sub across processes with ``--redis-url``."""
    if settings.redis_url:
        try:
            from .redis_fanout import RedisFanOut  # type: ignore[import-not-found,unused-ignore]
        except ImportError as e:
            raise SystemExit(f"--redis-url needs the Redis fan-out (gamenight[redis]): {e}") from e
        fanout: FanOut = RedisFanOut(settings.redis_url)
        return fanout
    return LocalFanOut()


def build_lease(fanout: FanOut) -> Lease:
    """One writer per table: a Redis lease beside the Redis fan-out, else the table's lock."""
    if getattr(fanout, "shared", False):
        from .lease_redis import RedisLease

        # Its hold() yields the held lease (with its fencing token); the port ignores it.
        shared = RedisLease(fanout.redis, owner=fanout.origin)  # type: ignore[attr-defined]
        return cast(Lease, shared)
    return LocalLease()


FrameT = TypeVar("FrameT", bound=BaseModel)


def parsed(model: type[FrameT], frame: dict[str, Any], code: str) -> FrameT:
    """A client frame as its model, or a ``code`` error naming the first bad field."""
    try:
        return model.model_validate(frame)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ServerError(code, f"{where}: {err['msg']}") from None


def _json_loads(text: str) -> Any:
    return wire.loads(text)


ACTION_KEYS = frozenset(ActionFrame.model_fields)


def action_of(frame: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """An action frame's move and action. A well-formed frame is read as it is (the engine
    checks the action itself); anything else goes through the model for its precise error."""
    move, action, ref = frame.get("move"), frame.get("action"), frame.get("ref")
    if (
        type(move) is int
        and move >= 0
        and type(action) is dict
        and (ref is None or (type(ref) is str and len(ref) <= 64))
        and ACTION_KEYS.issuperset(frame)
    ):
        return move, action
    act = parsed(ActionFrame, frame, "bad_frame")
    return act.move, act.action


RAW_SEND = "gamenight.send"


class RawSend:
    """Hands the WebSocket route the server's own ``send``: a state frame then skips the
    layers Starlette wraps around every message (each an extra coroutine per frame)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


class BodyTooLarge(StarletteHTTPException):
    """An HTTP body past MAX_FRAME bytes, found while it arrives."""

    def __init__(self) -> None:
        super().__init__(status_code=413, detail="body too large")


class CapBody:
    """Stops reading an HTTP body at MAX_FRAME bytes: a chunked body has no Content-Length for
    the middleware to check first, and was read whole (200 MB grew the process by 363 MB)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_FRAME) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge()
            return message

        await self.app(scope, capped, send)


class RateLimit:
    """A token bucket per connection: ``rate`` frames a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One WebSocket: its seat, what it was last sent, and one sender at a time."""

    def __init__(
        self,
        ws: WebSocket,
        service: TableService,
        table: Table,
        seat: SeatKey | None,
        token: str | None,
    ) -> None:
        self.ws, self.service, self.table, self.seat = ws, service, table, seat
        self.token = token if seat is not None else None
        self.digest = token_hash(self.token) if self.token else None  # once, not per action
        self.raw_send: Send | None = ws.scope.get(RAW_SEND)
        # uvicorn's "the socket takes more" flag: while it is set, its send does not wait
        flag = getattr(getattr(self.raw_send, "__self__", None), "writable", None)
        self.writable: asyncio.Event | None = flag if isinstance(flag, asyncio.Event) else None
        self.replying = False  # an action of ours is in play: its reply sends the new state
        self.events_seen: int | None = None
        self.last_move = -1
        self.finished_sent = False
        self.send_lock = asyncio.Lock()
        self.notices: deque[Notice] = deque()  # what the pump has still to send, in order
        self.wake: asyncio.Future[None] | None = None  # the pump's, while it waits for notices
        self.chat_sent: set[int] = set()  # ids of the chat messages this connection was sent

    async def send(self, frame: dict[str, Any]) -> None:
        await self.send_text(wire.dumps(frame))

    def revoked(self) -> bool:
        """Whether the seat was left (or taken by a new joiner) since this connection's hello:
        its old socket went on chatting as the seat, under the new holder's name."""
        return (
            self.seat is not None
            and self.digest is not None
            and not self.table.holds(self.seat, self.digest)
        )

    async def drop_revoked(self) -> None:
        """Tell a connection whose token no longer holds its seat, and close it (4401)."""
        e = ServerError("bad_token", "this seat was left: your token no longer holds it")
        async with self.send_lock:
            await self.send(e.frame())
        await self.ws.close(code=4401, reason=e.code)

    async def send_text(self, text: str) -> None:
        ws = self.ws
        if ws.client_state != WebSocketState.CONNECTED:
            return
        if self.raw_send is None or ws.application_state != WebSocketState.CONNECTED:
            await ws.send_text(text)  # Starlette's checks and errors
            return
        try:
            await self.raw_send({"type": "websocket.send", "text": text})
        except OSError:  # the client went away: what Starlette's send_text raises then
            ws.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None

    async def send_state(self, ref: str | None | bool = False, force: bool = False) -> None:
        """The current state frame; ``ref`` (a reply's, possibly None) marks it as a reply."""
        async with self.send_lock:
            table = self.table
            if not force and table.move == self.last_move:
                return
            await self.service.settled(table)  # no await from here on: nothing uncommitted shows
            # encoded once per move for every connection of the seat at the same point
            text, self.events_seen = self.service.frame_text(table, self.seat, self.events_seen)
            self.last_move = table.move
            if ref is not False:  # a reply: the same text with its ref
                text = wire.with_ref(text, ref if isinstance(ref, str) else None)
            await self.send_text(text)
            if table.status == "finished" and not self.finished_sent:
                self.finished_sent = True
                await self.send(self.service.finished_frame(table, self.seat))

    async def send_chat(
        self, ref: str | None | bool = False, said: dict[str, Any] | None = None
    ) -> None:
        """The table's chat messages this connection has not been sent yet; a reply (``ref``)
        always holds the message ``said`` as the server stored it."""
        async with self.send_lock:
            fresh = [m for m in self.table.chat or [] if m["id"] not in self.chat_sent]
            if said is not None and said not in fresh:
                fresh = sorted([*fresh, said], key=lambda m: int(m["id"]))
            if not fresh and ref is False:
                return
            self.chat_sent = {m["id"] for m in self.table.chat or []}
            frame: dict[str, Any] = {"type": "chat", "messages": fresh}
            if ref is not False:
                frame["ref"] = ref
            await self.send(frame)

    async def on_notice(self, notice: Notice) -> None:
        if len(self.notices) >= NOTICES_HELD:  # a slow client gets the newest state later
            return
        if self.sends_now(notice):
            try:
                await self.send_state()
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass  # gone: its own receive loop ends the connection
            except Exception:  # never the mover's error: its move is committed
                log.exception(
                    "a state frame for table %s failed",
                    self.table.id,
                    extra={"table": self.table.id},
                )
            return
        self.notices.append(notice)
        wake = self.wake
        if wake is not None and not wake.done() and not self.replying:
            wake.set_result(None)

    def sends_now(self, notice: Notice) -> bool:
        """Whether a moves notice can be sent here and now, in the mover's step, instead of by
        waking the pump (a task step per seat per move): only when nothing is queued before it,
        the pump is idle, and neither the send lock, the table's lock nor the socket would wait.
        With other processes, only once our copy of the table holds the notice's move (the
        service absorbs a notice before its connections hear it), as the pump would catch up."""
        wake, writable = self.wake, self.writable
        move = notice.get("move")
        return (
            notice.get("kind") == "moves"
            and not self.notices
            and wake is not None
            and not wake.done()
            and not self.replying
            and writable is not None
            and writable.is_set()
            and not self.send_lock.locked()
            and not self.table.lock.locked()
            and (not self.service.shared or (type(move) is int and self.table.move >= move))
        )

    def replied(self) -> None:
        """After an action's reply: what was queued meanwhile goes to the pump (a moves notice
        the reply already covered is skipped there)."""
        self.replying = False
        notices = self.notices
        while notices and notices[0].get("kind") == "moves":
            move = notices[0].get("move")
            if not isinstance(move, int) or move > self.last_move:
                break
            notices.popleft()  # the reply was that move or a newer one
        wake = self.wake
        if notices and wake is not None and not wake.done():
            wake.set_result(None)

    async def pump(self) -> None:
        """Send what the notices announce, in order, each as this seat may see it."""
        notices = self.notices
        while True:
            if not notices:  # a deque and one future: an asyncio.Queue cost more per notice
                self.wake = asyncio.get_running_loop().create_future()
                await self.wake
                continue
            notice = notices.popleft()
            kind = notice.get("kind")
            if kind == "seats":
                if self.revoked():
                    await self.drop_revoked()
                    return
                async with self.send_lock:
                    await self.send({"type": "seats", "table": self.table.summary()})
            elif kind == "timer":
                async with self.send_lock:
                    await self.send(
                        {
                            "type": "timeout",
                            "seat": notice.get("seat"),
                            "action": notice.get("action"),
                            "move": notice.get("move"),
                        }
                    )
            elif kind == "race":  # a call too late to change the table changed the race
                async with self.send_lock:
                    await self.send(
                        {"type": "race", "move": self.table.move, "race": self.table.race}
                    )
            elif kind == "chat":
                await self.send_chat()
            else:
                await self.service.catch_up(self.table, notice.get("move"))
                await self.send_state(force=kind == "status")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole server: storage, fan-out and tables are built when the app starts."""
    settings = settings or Settings()
    storage = Storage(settings.database_url)
    fanout = build_fanout(settings)
    service = TableService(
        storage, fanout, lease=build_lease(fanout), idle_seconds=settings.idle_minutes * 60
    )
    connections: set[Connection] = set()
    metrics = ServerMetrics(lambda: len(service.tables), lambda: len(connections))
    service.on_move = lambda table, done, seconds: metrics.moved(
        table.game_id, seconds, chance=done.move - done.first - 1
    )
    if hasattr(fanout, "on_count"):  # the Redis fan-out and its lease
        fanout.on_count = lambda direction: metrics.notices.labels(direction).inc()
    if hasattr(service.lease, "on_wait"):
        service.lease.on_wait = metrics.lease_wait.observe

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await storage.migrate()
        if not await storage.lock_serving(shared=bool(settings.redis_url)):  # preflight said
            log.warning("another gamenight serve uses this database without sharing it")
        await service.fanout.start()
        restored = await service.restore()
        log.info("restored %d tables from %s", restored, storage.dialect)
        reclaim = asyncio.create_task(gcpolicy.reclaim_loop()) if gcpolicy.installed() else None
        yield
        if reclaim is not None:
            reclaim.cancel()
        await service.shutdown()
        for conn in list(connections):
            with contextlib.suppress(Exception):  # already gone
                await conn.ws.close(code=1001, reason="server shutting down")
        await service.fanout.close()
        close_lease = getattr(service.lease, "close", None)
        if close_lease is not None:
            close_lease()
        await storage.close()
        log.info("stopped cleanly: %d moves were in flight, all settled", service.in_flight)

    app = FastAPI(
        title="gamenight",
        summary="Five dice and card games online: tables, seats, bots and a WebSocket per seat.",
        lifespan=lifespan,
    )
    app.add_middleware(RawSend)
    app.add_middleware(CapBody)
    app.state.service = service
    app.state.settings = settings
    app.state.metrics = metrics

    # --- errors -----------------------------------------------------------------------------
    @app.exception_handler(ServerError)
    async def server_error(_: Request, e: ServerError) -> JSONResponse:
        metrics.refused.labels(e.code).inc()
        return JSONResponse({"code": e.code, "message": e.message}, status_code=e.status)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, e: Exception) -> JSONResponse:
        """Anything else, in the error shape of every other answer and with no internals (the
        traceback goes to the log): 503 with a retry hint when the database or Redis is away
        (connection errors), else 500 (a fault of ours: trying again would not help)."""
        metrics.refused.labels("server_error").inc()
        away = isinstance(e, (OSError, DBAPIError)) or type(e).__module__.startswith("redis")
        message = "the server could not answer that" + ("; try again" if away else "")
        return JSONResponse(
            {"code": "server_error", "message": message},
            status_code=503 if away else 500,
            headers={"Retry-After": "2"} if away else None,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        err = e.errors()[0] if e.errors() else {"loc": (), "msg": "invalid request"}
        if err.get("type") == "json_invalid":  # malformed, not invalid: 400, as documented
            ctx = err.get("ctx")
            why = ctx.get("error", "") if isinstance(ctx, dict) else ""
            message = f"the body is not JSON ({why})" if why else "the body is not JSON"
            return JSONResponse({"code": "bad_frame", "message": message}, status_code=400)
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "the body"
        code = "bad_name" if where == "name" else "bad_request"
        return JSONResponse({"code": code, "message": f"{where}: {err['msg']}"}, status_code=422)

    HTTP_CODES = {
        400: "bad_frame",
        404: "not_found",
        405: "method_not_allowed",
        413: "frame_too_large",
    }

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (a body it cannot parse, an unknown path or method) in the
        error shape of every other answer, not its ``{"detail": ...}``."""
        code = HTTP_CODES.get(e.status_code, "bad_request")
        message = {
            400: "the body is not JSON the server can read (too deeply nested, or a number "
            "too long)",
            404: "there is no such page or API path",
            405: "this path does not take that method",
            413: f"bodies are at most {MAX_FRAME} bytes",
        }.get(e.status_code, str(e.detail))
        return JSONResponse(
            {"code": code, "message": message}, status_code=e.status_code, headers=e.headers
        )

    http_rates = ClientRates(settings.http_rate_per_second, settings.http_rate_burst)

    @app.middleware("http")
    async def body_cap(request: Request, call_next: Any) -> Any:
        if request.url.path.startswith("/api/"):
            wait = http_rates.retry_after(request.client.host if request.client else "?")
            if wait:
                metrics.refused.labels("rate_limited").inc()
                return JSONResponse(
                    {
                        "code": "rate_limited",
                        "message": f"too many requests: retry in {wait:.1f} s",
                        "retry_after": round(wait, 3),
                    },
                    status_code=429,
                    headers={"Retry-After": ClientRates.header(wait)},
                )
        length = request.headers.get("content-length")
        if length and (not length.isdigit() or int(length) > MAX_FRAME):
            return JSONResponse(
                {"code": "frame_too_large", "message": f"bodies are at most {MAX_FRAME} bytes"},
                status_code=413,
            )
        return await call_next(request)

    def bearer(authorization: str | None) -> str | None:
        if not authorization:
            return None
        scheme, _, token = authorization.partition(" ")
        return token.strip() if scheme.lower() == "bearer" else None

    # --- HTTP -------------------------------------------------------------------------------
    async def reachable(check: Callable[[], Awaitable[Any]]) -> str:
        try:
            await asyncio.wait_for(check(), HEALTH_SECONDS)
        except Exception as e:  # any failure is the answer, not an error of the check
            return f"down: {type(e).__name__}"
        return "ok"

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
                        "kinds": ["sensible", "random"],
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
    async def list_tables() -> list[dict[str, Any]]:
        """Tables waiting for players, on every server process (the newest 200)."""
        return await service.open_tables()

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return (await service.find(table_id)).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take a seat with a display name; the answer holds the seat's token (keep it)."""
        seat, token = await service.join(table_id, body.name, body.seat)
        return {"table_id": table_id, "seat": seat, "token": token}

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
    async def record(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        table = await service.find(table_id)
        return service.record_for(table, bearer(authorization))

    add_replay_route(app, service, bearer)  # the web client's replay viewer (server/replay.py)

    # --- pages ------------------------------------------------------------------------------
    def page(name: str) -> Any:
        path = WEB / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(
            "<!doctype html><title>gamenight</title><p>gamenight is running; the browser "
            "client is not installed. The API is at <a href=/docs>/docs</a>.</p>"
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Any:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Any:
        return page("table.html")

    @app.get("/t/{table_id}/display", include_in_schema=False)
    async def display_page(table_id: str) -> Any:
        return page("display.html")

    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

    # --- WebSocket --------------------------------------------------------------------------
    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser; it still needs a token to act
        if origin in settings.allowed_origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host")

    open_sockets: dict[str, int] = {}  # client address -> its WebSockets open here

    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        """Counts the client's sockets around ``play_socket``: one address opening a thousand
        spectators made every connect announce itself to all the others (seconds of stall for
        every table), and each half-open one holds a slot for the hello's 10 s."""
        await ws.accept()
        address = ws.client.host if ws.client else "?"
        held = open_sockets.get(address, 0)
        cap = settings.ws_per_client
        if cap and held >= cap:
            e = ServerError("rate_limited", f"at most {cap} connections from one address")
            await refuse(ws, e, 4429)
            return
        # a connect counts as an API request: each one is announced to every connection of
        # the table, so 450 connect-and-close a second pushed 900 frames a second to each
        wait = http_rates.retry_after(address)
        if wait:
            e = ServerError("rate_limited", f"too many connections: retry in {wait:.1f} s")
            await refuse(ws, e, 4429)
            return
        open_sockets[address] = held + 1
        try:
            await play_socket(ws, table_id)
        finally:
            left = open_sockets.get(address, 1) - 1
            if left > 0:
                open_sockets[address] = left
            else:
                open_sockets.pop(address, None)

    async def play_socket(ws: WebSocket, table_id: str) -> None:
        if not origin_ok(ws):
            await refuse(ws, ServerError("forbidden_origin", "this origin may not connect"), 4403)
            return
        try:
            hello, table, seat = await greet(ws, table_id)
        except (WebSocketDisconnect, RuntimeError):
            return
        except ServerError as e:
            codes = {"bad_token": 4401, "table_not_found": 4404, "hello_required": 4400}
            await refuse(ws, e, codes.get(e.code, 4400))
            return
        except TimeoutError:
            await refuse(ws, ServerError("hello_required", "send hello first"), 4408)
            return
        except Exception as e:
            await refuse_unexpected(ws, table_id, e)
            return
        conn = Connection(ws, service, table, seat, hello.token)
        connections.add(conn)
        service.connect(table, seat if hello.role == "player" else None, +1)
        unsubscribe = service.fanout.subscribe(table.id, conn.on_notice)
        pump = asyncio.create_task(conn.pump())
        try:
            # Read storage after subscribing: a change another process made while we subscribed
            # is either in what we read or in a notice still to come, never lost in between.
            await service.catch_up(table, row=True)
            await conn.send(
                {"type": "welcome", "table": table.summary(), "seat": seat, "role": hello.role}
            )
            await conn.send_state(force=True)
            await chat.recent(service, table)
            await conn.send_chat()  # the table's recent chat, when there is any
            await service.fanout.publish(
                table.id, {"table_id": table.id, "move": table.move, "kind": "seats"}
            )
            await serve(conn)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as e:  # on connecting: the database or Redis away, or a fault of ours
            await refuse_unexpected(ws, table.id, e)
        finally:
            pump.cancel()
            unsubscribe()
            connections.discard(conn)
            service.connect(table, seat if hello.role == "player" else None, -1)
            try:
                await service.fanout.publish(
                    table.id, {"table_id": table.id, "move": table.move, "kind": "seats"}
                )
            except Exception:
                log.exception("could not announce a disconnect")

    async def refuse(ws: WebSocket, e: ServerError, code: int) -> None:
        try:
            await ws.send_text(wire.dumps(e.frame()))
            await ws.close(code=code, reason=e.code)
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def refuse_unexpected(ws: WebSocket, table_id: str, e: Exception) -> None:
        """A connect that failed on our side: the page is told and reconnects by itself. With
        PostgreSQL down, each reconnect of every page used to cut its socket (1006) and log a
        traceback through the driver; an outage is one warning line, a bug keeps its trace."""
        metrics.refused.labels("server_error").inc()
        away = isinstance(e, (OSError, DBAPIError)) or type(e).__module__.startswith("redis")
        if away:
            log.warning(
                "a connection to table %s was refused: the database or Redis is away (%s)",
                table_id,
                type(e).__name__,
                extra={"table": table_id},
            )
        else:
            log.error(
                "a connection to table %s failed", table_id, exc_info=e, extra={"table": table_id}
            )
        why = "the server could not open the table" + ("; try again" if away else "")
        await refuse(ws, ServerError("server_error", why), 1013 if away else 1011)

    async def greet(ws: WebSocket, table_id: str) -> tuple[Hello, Table, SeatKey | None]:
        text = await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS)
        if len(text.encode()) > MAX_FRAME:
            raise ServerError("hello_required", "the hello frame is too large")
        try:
            first = _json_loads(text)
        except ValueError as e:
            raise ServerError("hello_required", f"the first frame is not JSON: {e}") from None
        if type(first) is not dict or first.get("type") != "hello":
            raise ServerError(
                "hello_required", 'the first frame is {"type": "hello", "token": ... | null}'
            )
        hello = parsed(Hello, first, "hello_required")  # names the field that is wrong
        table = await service.find(table_id)
        if hello.role != "player":
            return hello, table, None
        seat = await service.seat_for(table, hello.token) if hello.token else None
        if seat is None:
            hello = Hello(type="hello", token=None, role="spectator")
        return hello, table, seat

    async def serve(conn: Connection) -> None:
        limit = RateLimit(settings.rate_per_second, settings.rate_burst)
        refusals = 0  # refused frames in a row: an occasional burst is forgiven
        while True:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            data = message.get("bytes") or b"" if text is None else b""
            ref = None
            try:
                if limit.allow():
                    refusals = 0
                else:
                    refusals += 1
                    if refusals > settings.max_refusals:
                        e = ServerError("rate_limited", "too many frames: closing")
                        await refuse(conn.ws, e, 4429)
                        return
                    raise ServerError(
                        "rate_limited",
                        f"slow down: at most {settings.rate_per_second:g} frames a second",
                    )
                if text is None:
                    if len(data) > MAX_FRAME:
                        raise ServerError(
                            "frame_too_large", f"frames are at most {MAX_FRAME} bytes"
                        )
                    raise ServerError("bad_frame", "send JSON text frames, not binary")
                if len(text) > MAX_FRAME or len(text.encode()) > MAX_FRAME:
                    raise ServerError("frame_too_large", f"frames are at most {MAX_FRAME} bytes")
                try:
                    frame = _json_loads(text)
                except ValueError as e:
                    raise ServerError("bad_frame", f"not JSON: {e}") from None
                if not isinstance(frame, dict):
                    raise ServerError("bad_frame", "a frame is a JSON object with a 'type'")
                if isinstance(frame.get("ref"), str) and len(frame["ref"]) <= 64:
                    ref = frame["ref"]
                await handle(conn, frame, ref)
            except ServerError as e:
                metrics.refused.labels(e.code).inc()
                async with conn.send_lock:
                    await conn.send({**e.frame(), "ref": ref})
            except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
                raise
            except Exception:  # a bug must not take the connection or the table down
                log.exception(
                    "a frame at table %s failed", conn.table.id, extra={"table": conn.table.id}
                )
                oops = ServerError("server_error", "that frame could not be handled; try again")
                async with conn.send_lock:
                    await conn.send({**oops.frame(), "ref": ref})

    async def handle(conn: Connection, frame: dict[str, Any], ref: str | None) -> None:
        kind = frame.get("type")
        if kind not in FRAME_TYPES:
            raise ServerError(
                "unknown_type",
                f"unknown frame type {describe(kind)} (known: action, sync, ping, chat)",
            )
        if kind == "ping":
            async with conn.send_lock:
                await conn.send({"type": "pong", "ref": ref})
        elif kind == "sync":
            await conn.service.catch_up(conn.table, row=True)
            if conn.revoked():
                await conn.drop_revoked()
                return
            await conn.send_state(ref=ref, force=True)
        elif kind == "hello":
            raise ServerError("bad_frame", "hello is the first frame only")
        elif kind == "chat":
            said = parsed(ChatFrame, frame, "bad_chat")
            if conn.seat is None:
                raise ServerError("spectator", "take a seat to chat; spectators read along")
            if conn.revoked():
                await conn.drop_revoked()
                return
            text = clean_chat(said.text)  # a refused line costs no chat token
            # one bucket per seat, not per connection: a seat's token opened many sockets
            bucket = conn.table.chat_limits.get(conn.seat)
            if bucket is None:
                bucket = conn.table.chat_limits[conn.seat] = RateLimit(
                    chat.CHAT_PER_SECOND, chat.CHAT_BURST
                )
            if not bucket.allow():
                raise ServerError(
                    "rate_limited", f"slow down: at most {chat.CHAT_BURST:g} chat lines at once"
                )
            stored = await chat.say(conn.service, conn.table, conn.seat, text)
            await conn.send_chat(ref=ref, said=stored)
        else:
            move, action = action_of(frame)
            if conn.seat is None or conn.token is None or conn.digest is None:
                raise ServerError("spectator", "spectators and displays watch; they cannot act")
            conn.replying = True  # notices of this move wait for the reply, which sends it
            try:
                await conn.service.act_as(
                    conn.table, conn.seat, conn.token, conn.digest, move, action
                )
                await conn.send_state(ref=ref, force=True)
            finally:
                conn.replied()

    return app


__all__ = ["DEALER", "Settings", "create_app"]
