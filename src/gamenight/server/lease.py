"""The writer lease port: one process writes a table at a time (``scale`` adds a shared one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol


class Lease(Protocol):
    def hold(self, table_id: str) -> AbstractAsyncContextManager[None]: ...


class LocalLease:
    """One process owns every table: the table's asyncio lock is all the exclusion needed."""

    @asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[None]:
        yield
