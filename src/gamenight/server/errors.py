"""Every refusal over HTTP in one shape, ``{"code", "message"}``: our own errors, request
validation, Starlette's (unknown paths, bodies it cannot read) and anything unexpected.

The codes are the protocol's (``protocol.py``); a traceback goes to the log, never to a client.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .metrics import ServerMetrics
from .protocol import MAX_FRAME, ServerError

HTTP_CODES = {
    400: "bad_frame",
    404: "not_found",
    405: "method_not_allowed",
    413: "frame_too_large",
}


MISSING = Path(__file__).parent.parent / "web" / "missing.html"


def missing_page() -> Response:
    """The browser's not-found page (API clients get the JSON error)."""
    body = MISSING.read_bytes() if MISSING.is_file() else b"<!doctype html><title>Not found</title>"
    return Response(body, status_code=404, media_type="text/html")


def wants_page(request: Request) -> bool:
    """A browser loading a page (not the API, not a script fetching JSON)."""
    accept = request.headers.get("accept", "")
    return not request.url.path.startswith("/api/") and "text/html" in accept


def add_error_answers(app: FastAPI, metrics: ServerMetrics) -> None:
    """Install the app's exception handlers (each refusal counted in the metrics)."""

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

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        """Starlette's own refusals (a body it cannot parse, an unknown path or method) in the
        error shape of every other answer, not its ``{"detail": ...}``; a browser asking for
        a page that is not there gets a page saying so."""
        if e.status_code == 404 and wants_page(request):
            return missing_page()
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
