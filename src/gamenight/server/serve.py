"""Run the app under uvicorn, as ``gamenight serve`` does."""

from __future__ import annotations

import logging

import uvicorn

from .app import Settings, create_app
from .protocol import MAX_FRAME
from .storage import normalise_url


def address(settings: Settings) -> str:
    host = settings.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{settings.port}"


def run(settings: Settings) -> None:
    """Serve until Ctrl-C or SIGTERM; in-flight moves are committed before the process ends."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = create_app(settings)
    where = normalise_url(settings.database_url)
    print(f"gamenight is serving on {address(settings)}  (open it in a browser; /docs for the API)")
    print(f"storage: {where.split('@')[-1]}", flush=True)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws_max_size=4 * MAX_FRAME,  # larger frames are cut off by the protocol; 16 KiB by us
        timeout_graceful_shutdown=10,
        log_level="warning",
        proxy_headers=True,
    )
