"""The fan-out port: tell every process's connections that a table changed.

A notice names the table, its move counter and what kind of change it was; it carries no view
(across processes a moves notice adds the committed moves). Receivers bring their copy of the
table up to date and send each connection its own seat's view. ``LocalFanOut`` serves one
process; ``scale`` adds Redis.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

Notice = dict[str, Any]
Callback = Callable[[Notice], Awaitable[None]]


class FanOut(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, table_id: str, notice: Notice) -> None: ...

    def subscribe(self, table_id: str, callback: Callback) -> Callable[[], None]: ...


class LocalFanOut:
    """In-process fan-out: callbacks are awaited in subscription order."""

    def __init__(self) -> None:
        self.subscribers: dict[str, list[Callback]] = {}

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self.subscribers.clear()

    async def publish(self, table_id: str, notice: Notice) -> None:
        for callback in list(self.subscribers.get(table_id, ())):
            await callback(notice)

    def subscribe(self, table_id: str, callback: Callback) -> Callable[[], None]:
        subs = self.subscribers.setdefault(table_id, [])
        subs.append(callback)

        def unsubscribe() -> None:
            if callback in subs:
                subs.remove(callback)
            if not subs:
                self.subscribers.pop(table_id, None)

        return unsubscribe
