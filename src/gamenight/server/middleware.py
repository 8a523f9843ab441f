"""What every request passes before a route or the socket: the body cap, the API's per-client
rate, the browser hardening headers, and the raw ``send`` a WebSocket's state frames take.

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


# Only this origin's own files run, nothing frames a page (a seat token lives on this origin),
# and the client's inline `style` attributes (seat colours) are the one inline thing allowed.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# /docs (only with --api-docs) loads Swagger UI from FastAPI's CDN
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds the browser hardening headers to every HTTP answer: the page holds seat tokens, so
    no other site may frame it, sniff its types, read its referrer or run script in it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_CSP if scope["path"] == "/docs" else CSP
        extra = [*SECURITY_HEADERS, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


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
