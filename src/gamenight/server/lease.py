"""The writer lease port: one process writes a table at a time (``scale`` adds a shared one)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Protocol


class Lease(Protocol):
    def hold(self, table_id: str) -> AbstractAsyncContextManager[None]: ...


class _NoLease(AbstractAsyncContextManager[None]):
    """A held lease that holds nothing: one shared object, no generator per move."""

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None


_NO_LEASE = _NoLease()


class LocalLease:
    """One process owns every table: the table's asyncio lock is all the exclusion needed."""

    def hold(self, table_id: str) -> AbstractAsyncContextManager[None]:
        return _NO_LEASE
