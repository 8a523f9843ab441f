"""One WebSocket connection: its seat, what it was last sent, one sender at a time, and the
pump that sends what each notice announces, as that seat may see it.

A notice reaches ``on_notice`` from the fan-out; a moves notice is sent at once when nothing
would wait, else queued for the pump. The frames themselves are built in ``frames.py`` (through
the table service), once per move for every connection that sees the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Send
from starlette.websockets import WebSocketState

from . import wire
from .fanout import Notice
from .middleware import RAW_SEND
from .protocol import ServerError
from .table import SeatKey, Table, token_hash
from .tables import TableService

log = logging.getLogger("gamenight.server")
NOTICES_HELD = 256  # notices a connection's pump may lag behind before newer ones are dropped


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
