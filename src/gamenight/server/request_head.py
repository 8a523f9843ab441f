"""uvicorn's HTTP protocol with a deadline and a size cap on each request's head.

uvicorn times out idle keep-alive connections, but not a connection that has sent part of a
request head (or nothing at all): 20,000 half-sent requests were held open for ever, and then
nothing else was served. Neither limit exists as an option of uvicorn's httptools protocol, so
this subclass adds both: the head must arrive whole within HEAD_SECONDS of the connection or of
the end of the previous request, and within MAX_HEAD bytes; else the connection is closed (431
for a head too large).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = 10.0
MAX_HEAD = 16 * 1024
_BODY = b'{"code": "frame_too_large", "message": "request heads are at most 16 KiB"}'
TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_BODY), _BODY)
)


class HeadGuard(HttpToolsProtocol):
    """Closes a connection whose request head is late or oversized."""

    head_seconds = HEAD_SECONDS
    max_head = MAX_HEAD

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_bytes = 0
        self.in_head = True

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.in_head:  # the head ended in this chunk: the rest is a body
            return
        self.head_bytes += len(data)
        if self.head_bytes > self.max_head and not self.transport.is_closing():
            self._disarm()
            self.transport.write(TOO_LARGE)
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self.in_head:  # a keep-alive connection's next request: a new deadline
            self.in_head, self.head_bytes = True, 0
            self._arm()

    def on_headers_complete(self) -> None:
        self.in_head = False
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.in_head, self.head_bytes = True, 0  # bytes of the next head count from here
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self.head_timer = self.loop.call_later(self.head_seconds, self._late)

    def _disarm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _late(self) -> None:
        self.head_timer = None
        if self.in_head and not self.transport.is_closing():
            self.transport.close()
