"""``gamenight serve``: the browser table's server, with its settings checked before it starts."""

from __future__ import annotations

import errno
from typing import Annotated

import typer

from gamenight.server.settings import BOT_SECONDS, BOT_SECONDS_RANGE, bot_seconds_problem

from .common import (
    fail,
    refuse,
)


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there, asked before it says it serves there: a second
    ``gamenight serve`` printed the first one's address, then failed in a log line."""
    import socket

    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as e:
        return f"--host {host}: {getattr(e, 'strerror', None) or e}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(where)
        except OSError as e:
            hint = " (is another gamenight serve running?)" if e.errno == errno.EADDRINUSE else ""
            return f"--port {port}: {e.strerror} on {host}{hint}"
    return None


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: your network)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL; default: SQLite file gamenight.db here"),
    ] = None,
    redis_url: Annotated[
        str | None, typer.Option(help="Redis URL: share tables between server processes")
    ] = None,
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="another web origin allowed to open WebSockets")
    ] = None,
    idle_minutes: Annotated[float, typer.Option(help="close tables idle this long")] = 360.0,
    rate_limit: Annotated[
        float, typer.Option(help="frames a second one WebSocket may send (bursts of twice that)")
    ] = 20.0,
    http_rate_limit: Annotated[
        float,
        typer.Option(min=0, help="API requests a second per client address (bursts of 5x); 0: off"),
    ] = 50.0,
    ws_per_client: Annotated[
        int, typer.Option(min=0, help="WebSockets one client address may hold open; 0: no cap")
    ] = 100,
    tables_per_client: Annotated[
        int,
        typer.Option(min=0, help="unfinished tables one client address may have made; 0: no cap"),
    ] = 50,
    watchers_per_table: Annotated[
        int, typer.Option(min=0, help="spectators and displays one table may have; 0: no cap")
    ] = 500,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="a Host name to answer (default: loopback names on a loopback host)"),
    ] = None,
    api_docs: Annotated[
        bool, typer.Option(help="serve Swagger UI at /docs (its script comes from a CDN)")
    ] = False,
    bot_seconds: Annotated[
        float,
        typer.Option(
            help="seconds a search bot may think a move ({:g} to {:g})".format(*BOT_SECONDS_RANGE)
        ),
    ] = BOT_SECONDS,
) -> None:
    """Serve every game online: tables, seats and bots over HTTP and WebSockets."""
    if not idle_minutes > 0:
        raise refuse("--idle-minutes", f"must be more than 0 (got {idle_minutes})")
    if not rate_limit > 0:
        raise refuse("--rate-limit", f"must be more than 0 (got {rate_limit})")
    if not http_rate_limit >= 0:  # nan passes Typer's range check
        raise refuse("--http-rate-limit", f"must be 0 (off) or more (got {http_rate_limit})")
    problem = bot_seconds_problem(bot_seconds)
    if problem:
        raise refuse("--bot-seconds", problem)
    taken = cannot_listen(host, port)
    if taken:
        raise fail(taken)
    from sqlalchemy.exc import ArgumentError

    from gamenight.server.app import Settings
    from gamenight.server.preflight import StartupError
    from gamenight.server.serve import run

    try:
        run(
            Settings(
                database_url=database_url,
                redis_url=redis_url,
                host=host,
                port=port,
                allowed_origins=list(allow_origin or []),
                idle_minutes=idle_minutes,
                rate_per_second=rate_limit,
                rate_burst=2 * rate_limit,
                http_rate_per_second=http_rate_limit,
                http_rate_burst=5 * http_rate_limit,
                ws_per_client=ws_per_client,
                tables_per_client=tables_per_client,
                watchers_per_table=watchers_per_table,
                allowed_hosts=list(allowed_host or []),
                api_docs=api_docs,
                bot_seconds=bot_seconds,
            )
        )
    except ArgumentError as e:  # a URL SQLAlchemy cannot read, or a database it has no driver for
        raise fail(f"--database-url {database_url}: {e}") from None
    except StartupError as e:  # the database or Redis cannot be used: say which and why
        raise fail(e) from None
