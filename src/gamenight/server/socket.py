"""The WebSocket: a connection counted and greeted, then each frame it sends read, limited and
answered (an action to the table service, a chat line, a sync or a ping).

Thin, as the routes are: parse, authorise, call the table service. What a connection is sent
after a change comes through its ``Connection`` (``connection.py``), not from here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DBAPIError

from gamenight.engine.errors import describe

from . import chat, wire
from .connection import Connection
from .limits import ClientRates, RateLimit
from .metrics import ServerMetrics
from .presence import Presence
from .protocol import (
    FRAME_TYPES,
    MAX_FRAME,
    ActionFrame,
    ChatFrame,
    Hello,
    ServerError,
    clean_chat,
)
from .settings import Settings
from .table import SeatKey, Table
from .tables import TableService

log = logging.getLogger("gamenight.server")
HELLO_SECONDS = 10.0

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


def add_socket(
    app: FastAPI,
    service: TableService,
    settings: Settings,
    metrics: ServerMetrics,
    connections: set[Connection],
    http_rates: ClientRates,
) -> None:
    """``/ws/{table_id}``: one table's socket, for a seat, a spectator or a display."""

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser; it still needs a token to act
        if origin in settings.allowed_origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host")

    open_sockets: dict[str, int] = {}  # client address -> its WebSockets open here
    presence = Presence()

    async def announce_seats(table: Table) -> None:
        """Every connection of the table (every process) is sent the seats summary."""
        notice = {"table_id": table.id, "move": table.move, "kind": "seats"}
        await service.fanout.publish(table.id, notice)

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
        cap = settings.watchers_per_table
        if seat is None and cap and table.spectators >= cap:
            full = ServerError("rate_limited", f"this table has {cap} watchers already")
            await refuse(ws, full, 4429)
            return
        conn = Connection(ws, service, table, seat, hello.token)
        connections.add(conn)
        counted = seat if hello.role == "player" else None
        service.connect(table, counted, +1)
        unsubscribe = service.fanout.subscribe(table.id, conn.on_notice)
        pump = asyncio.create_task(conn.pump())
        try:
            # Read storage after subscribing: a change another process made while we subscribed
            # is either in what we read or in a notice still to come, never lost in between.
            await service.catch_up(table, row=True)
            if hello.role == "player":  # an away player connecting is back: the bot stands up
                await service.back(table, seat)
            await conn.send(
                {"type": "welcome", "table": table.summary(), "seat": seat, "role": hello.role}
            )
            await conn.send_state(force=True)
            await chat.recent(service, table)
            await conn.send_chat()  # the table's recent chat, when there is any
            first = counted is not None and table.connected.get(counted) == 1
            await presence.changed(table.id, lambda: announce_seats(table), first)
            await serve(conn)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as e:  # on connecting: the database or Redis away, or a fault of ours
            await refuse_unexpected(ws, table.id, e)
        finally:
            pump.cancel()
            unsubscribe()
            connections.discard(conn)
            service.connect(table, counted, -1)
            try:
                last = counted is not None and table.connected.get(counted) == 0
                await presence.changed(table.id, lambda: announce_seats(table), last)
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
        while True:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            data = message.get("bytes") or b"" if text is None else b""
            ref = None
            try:
                if not limit.allow():  # an occasional burst is forgiven, a flood is not
                    if limit.refusals > settings.max_refusals:
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
