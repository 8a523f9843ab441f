"""Run the app under uvicorn, as ``gamenight serve`` does."""

from __future__ import annotations

import contextlib
import cProfile
import os
import signal
import sys
from collections.abc import Iterator

import uvicorn

from . import gcpolicy, preflight
from .app import Settings, create_app
from .logs import configure_logging
from .protocol import MAX_FRAME
from .request_head import HeadGuard
from .storage import normalise_url

SWITCH_SECONDS = 0.0005
# What one stranger can hold open (docs/serve.md, "Limits"): past LIMIT_CONCURRENCY connections
# and tasks uvicorn answers 503 at once; an idle keep-alive connection is closed after
# KEEP_ALIVE seconds, a request head not whole within 10 s or 16 KiB (request_head.py).
LIMIT_CONCURRENCY = 4000
KEEP_ALIVE = 5


def address(settings: Settings) -> str:
    host = settings.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{settings.port}"


@contextlib.contextmanager
def profiled() -> Iterator[None]:
    """With GAMENIGHT_PROFILE=path, the whole run under cProfile, its stats written to path
    when the server stops (for benchmarks/server_load.py; costs CPU, so off by default)."""
    path = os.environ.get("GAMENIGHT_PROFILE")
    if not path:
        yield
        return
    # uvicorn raises the SIGTERM it caught again once it has shut down: end by SystemExit then,
    # so the stats below are written
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(path)


def run(settings: Settings) -> None:
    """Serve until Ctrl-C or SIGTERM; in-flight moves are committed before the process ends."""
    # JSON lines for log collectors; readable lines when a person watches the terminal.
    log_config = configure_logging("info", json_lines=not sys.stderr.isatty())
    preflight.check(settings)  # a wrong URL: one line naming it, before "serving on"
    app = create_app(settings)
    where = normalise_url(settings.database_url)
    api = "/docs" if settings.api_docs else "/openapi.json"
    print(f"gamenight is serving on {address(settings)}  (open it in a browser; {api} for the API)")
    print(f"storage: {where.split('@')[-1]}", flush=True)
    gcpolicy.install()  # short collection pauses (server/gcpolicy.py)
    # The storage thread that waited out an fsync needs the GIL back to hand the commit to the
    # loop; by default a busy loop keeps it up to 5 ms, a whole commit's worth of extra latency.
    sys.setswitchinterval(SWITCH_SECONDS)
    with profiled():
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            ws_max_size=4 * MAX_FRAME,  # larger frames are cut off by the protocol; 16 KiB by us
            # No permessage-deflate, as ws and socket.io default: browsers ask for it, and each
            # connection then holds a compressor (30 -> 69 KB) and each frame costs ~10-15 us to
            # deflate, four times a move at a four-seat table, to save a few KB a move.
            ws_per_message_deflate=False,
            timeout_graceful_shutdown=10,
            limit_concurrency=LIMIT_CONCURRENCY,
            timeout_keep_alive=KEEP_ALIVE,
            http=HeadGuard,
            log_level="warning",
            log_config=log_config,
            proxy_headers=True,
        )
