"""The table's own log: what happened to its seats and to the table itself (away, back, freed,
given to a bot, left, taken mid-game, cancelled), as opposed to the game's events.

Kept with the table (stored in its row, the newest ``NOTES_KEPT``) and sent in its summary, so a
page opened later, a restart or another process shows the same lines. Each note says after how
many of the game's events it came, so a page puts it at its place among them.
"""

from __future__ import annotations

import time
from typing import Any

from .table import DEALER, SeatKey, Table

NOTES_KEPT = 50

WORDS = {
    "away": "{who} is away: a bot plays for them until they are back",
    "back": "{who} is back and plays again",
    "left": "{who} left the table",
    "took": "{who} takes {seat}",
    "freed": "The host freed {seat_named}",
    "bot": "The host gave {seat_named} to a bot for the rest of the game",
    "cancelled": "The host cancelled the table",
}
STAND_IN = ": a bot plays it until someone takes it with the join link"


def seat_words(seat: SeatKey) -> str:
    return "the dealer" if seat == DEALER else f"seat {chr(ord('A') + int(seat))}"


def say(table: Table, kind: str, seat: SeatKey | None = None, name: str | None = None) -> None:
    """Add a note to the table's log (the caller stores and announces the change)."""
    where = "" if seat is None else seat_words(seat)
    named = f"{where} ({name})" if name else where
    text = WORDS[kind].format(who=name or where, seat=where, seat_named=named)
    if kind in ("left", "freed") and table.status == "playing" and seat != DEALER:
        text += STAND_IN
    last = table.notes[-1]["n"] if table.notes else 0
    note: dict[str, Any] = {
        "n": last + 1,  # a page shows each note once, whichever summary brings it
        "kind": kind,
        "seat": seat,
        "name": name,
        "text": text,
        "event": table.state.event_count,
        "move": table.move,
        "at": time.time(),
    }
    table.notes = [*table.notes, note][-NOTES_KEPT:]
