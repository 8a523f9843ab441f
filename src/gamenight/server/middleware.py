"""What every request passes before a route or the socket: the body cap, the API's per-client
rate, and the raw ``send`` a WebSocket's state frames take.

Added to the app in ``app.py``; nothing here knows about tables.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import ClientRates
from .metrics import ServerMetrics
from .protocol import MAX_FRAME

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


def add_request_limits(app: FastAPI, http_rates: ClientRates, metrics: ServerMetrics) -> None:
    """The API's per-client rate (429 with Retry-After) and the declared body length (413)."""

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
