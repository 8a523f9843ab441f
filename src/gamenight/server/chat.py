"""Table chat: short plain-text lines from seated players, stored with the table, shown to all.

A message is committed to storage before anyone hears of it; the fan-out notice names only its
id, and every process reads the table's newest messages from storage, so a reload, a reconnect
or another process shows the same recent chat. Text is never markup: the server stores and
sends it as typed (after ``clean_chat``), and the page inserts it as text.
"""

from __future__ import annotations

from typing import Any, Protocol

from .fanout import FanOut
from .protocol import ServerError, clean_chat
from .storage import Storage
from .table import SeatKey, Table

CHAT_KEEP = 50  # messages a table holds in memory and sends a page that (re)connects
CHAT_PER_SECOND = 1.0  # a connection's chat rate (its own bucket, besides the frame rate)
CHAT_BURST = 5.0


class Hub(Protocol):
    """What chat needs of the service that calls it: storage, and the fan-out to announce."""

    storage: Storage
    fanout: FanOut


def message(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row as the ``chat`` frame shows it."""
    seat: int | str = int(row["seat"]) if str(row["seat"]).isdigit() else str(row["seat"])
    return {
        "id": int(row["id"]),
        "seat": seat,
        "name": row["name"],
        "text": row["text"],
        "at": float(row["at"]),
    }


def _merge(table: Table, messages: list[dict[str, Any]]) -> None:
    """Add messages to the table's recent chat by id (each once, in id order)."""
    known = {m["id"]: m for m in table.chat or []}
    known.update((m["id"], m) for m in messages)
    table.chat = [known[i] for i in sorted(known)][-CHAT_KEEP:]


async def recent(service: Hub, table: Table) -> list[dict[str, Any]]:
    """The table's newest messages, read from storage the first time they are wanted."""
    if table.chat is None:
        rows = await service.storage.load_chat(table.id, CHAT_KEEP)
        _merge(table, [message(r) for r in rows])
    return table.chat or []


async def say(service: Hub, table: Table, seat: SeatKey | None, text: str) -> dict[str, Any]:
    """Store a seated player's line, then tell every connection of the table (any process)."""
    if seat is None:
        raise ServerError("spectator", "take a seat to chat; spectators read along")
    text = clean_chat(text)
    holder = table.seat(seat)
    name = holder.name or ("Dealer" if isinstance(seat, str) else f"Seat {chr(65 + seat)}")
    await recent(service, table)
    row = await service.storage.add_chat(table.id, str(seat), name, text)
    said = message(row)
    _merge(table, [said])
    notice = {"table_id": table.id, "move": table.move, "kind": "chat", "id": said["id"]}
    await service.fanout.publish(table.id, notice)
    return said


async def absorb(service: Hub, table: Table) -> None:
    """Another process stored a message: read the table's newest from storage."""
    rows = await service.storage.load_chat(table.id, CHAT_KEEP)
    _merge(table, [message(r) for r in rows])
