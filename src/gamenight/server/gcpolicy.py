"""Garbage collection for a long-running server: short pauses, memory still reclaimed.

A full collection walks every tracked object: with a thousand seats that is hundreds of
thousands (each table's moves and events, each connection), and its pause landed on whichever
moves arrived meanwhile (the human-pace p99). Objects that survived a full collection are
frozen (``gc.freeze``), so the next full collection walks only what came since; every
``RECLAIM_SECONDS`` everything is thawed and collected once, so cyclic garbage among frozen
objects is still freed, in one pause instead of one every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

RECLAIM_SECONDS = 600.0


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def install() -> None:
    """Freeze the survivors of every full collection from now on (once per process)."""
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def installed() -> bool:
    return _freeze_survivors in gc.callbacks


def uninstall() -> None:
    if _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)
    gc.unfreeze()


def reclaim() -> None:
    """Thaw everything and collect it all once (the survivors are frozen again)."""
    gc.unfreeze()
    gc.collect()


async def reclaim_loop(seconds: float = RECLAIM_SECONDS) -> None:
    while True:
        await asyncio.sleep(seconds)
        reclaim()
