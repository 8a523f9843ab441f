"""What each seat is sent: its ``state`` frame (and that frame's wire text), the ``finished``
frame and the record, each holding only what that seat may see.

The serializer of the server, as Colyseus has one: the engine filters hidden information in
``view(seat)`` (HOUSE.md); this file picks the filter for a seat, adds what the table knows
(actors, legal actions, the turn deadline, the race record) and encodes what every seat's frame
shares once per change of the table.
"""

from __future__ import annotations

from typing import Any

from . import throws, wire
from .protocol import ServerError
from .table import DEALER, FrameParts, SeatKey, Table, engine_seat
from .views import public_record, seat_view

EVENTS_ON_JOIN = 50


def first_event(count: int, since: int | None) -> int:
    """Where a frame's events start: after ``since``, or the last few for a new connection."""
    return max(0, count - EVENTS_ON_JOIN) if since is None else min(since, count)


async def settled(table: Table) -> None:
    """Wait out a write in flight (applied in memory, its commit awaited under the table's
    lock), so a frame built right after, with no await between, shows only stored moves."""
    if table.lock.locked():
        async with table.lock:
            pass


def frame_text(table: Table, seat: SeatKey | None, since: int | None) -> tuple[str, int]:
    """``frame`` as JSON text and its event count: what every seat's frame of the table
    shares is encoded once per change of the table, only the seat's own part per frame."""
    return spliced(table, parts(table), seat, since)


def parts(table: Table) -> FrameParts:
    """What every seat's frame of the table has in common now, encoded once per change."""
    race = table.race
    stamp = (
        id(table.state),
        table.move,
        table.status,
        table.deadline,
        None if race is None else (race["move"], len(race["arrivals"])),
    )
    kept = table.frame_parts
    if kept is None or kept.stamp != stamp:
        st = table.state
        playing = table.status == "playing"
        head = (
            f'{{"type":"state","table_id":{wire.dumps(table.id)},"move":{table.move},'
            f'"status":{wire.dumps(table.status)},"seat":'
        )
        acting = wire.dumps(actors(table))
        due = "true" if playing and table.live_dealer and st.is_chance() else "false"
        tail = (
            f',"event_count":{st.event_count},"deadline":{wire.dumps(table.deadline)},'
            f'"race":{wire.dumps(race)}}}'
        )
        kept = table.frame_parts = FrameParts(stamp, head, acting, due, tail)
    return kept


def spliced(
    table: Table, parts: FrameParts, seat: SeatKey | None, since: int | None
) -> tuple[str, int]:
    """One seat's ``frame`` as JSON text: its own seat and legal actions between the parts
    all seats share (the view, when the game shows every seat the same, and the events)."""
    st = table.state
    es = engine_seat(seat)
    view_key = es if type(st).VIEW_BY_SEAT else None
    view = parts.views.get(view_key)
    if view is None:
        # encoded and let go at once: a kept view (a Gambler view is ~70 dicts and lists)
        # outlived young collections and was walked by each generation until the next move
        view = parts.views[view_key] = wire.dumps(seat_view(st, view_key))
    count = st.event_count
    start = first_event(count, since)
    events = parts.events.get(start)
    if events is None:
        events = parts.events[start] = wire.dumps(st.events(start))
    legal_text = wire.dumps(legal(table, seat))
    text = (
        f'{parts.head}{wire.dumps(seat)},"view":{view},"actors":{parts.actors},'
        f'"dealer_due":{parts.dealer_due},"legal_actions":{legal_text},"events":{events}'
        f"{parts.tail}"
    )
    return text, count


def view(table: Table, seat: int | None) -> dict[str, Any]:
    """``seat``'s view: the public one when the game shows every seat the same picture."""
    st = table.state
    return seat_view(st, seat if type(st).VIEW_BY_SEAT else None)


def legal(table: Table, seat: SeatKey | None) -> list[Any]:
    """What ``seat`` may play now (nothing for a spectator, or a table not playing)."""
    if table.status != "playing" or seat is None:
        return []
    # the dealer enters any result (dice, amend, settle, void): no list to offer
    offered = [] if seat == DEALER else table.state.legal_actions(int(seat))
    return offered + throws.offer(table, seat)


def actors(table: Table) -> list[int]:
    """The seats the table waits for (in Snake Eyes, the human holding the dice)."""
    if table.status != "playing":
        return []
    thrower = throws.holder(table)
    return table.state.actors() if thrower is None else [thrower]


def frame(table: Table, seat: SeatKey | None, since: int | None = None) -> dict[str, Any]:
    """The ``state`` frame for one seat (None: spectator): only what it may see."""
    st = table.state
    es = engine_seat(seat)
    count = st.event_count
    start = first_event(count, since)
    playing = table.status == "playing"
    return {
        "type": "state",
        "table_id": table.id,
        "move": table.move,
        "status": table.status,
        "seat": seat,
        "view": view(table, es),
        "actors": actors(table),
        "dealer_due": bool(playing and table.live_dealer and st.is_chance()),
        "legal_actions": legal(table, seat),
        "events": st.events(start),
        "event_count": count,
        "deadline": table.deadline,
        "race": table.race,
    }


def finished_frame(table: Table, seat: SeatKey | None) -> dict[str, Any]:
    """The ``finished`` frame: winner, returns and the record as this seat may see it."""
    st = table.state
    es = engine_seat(seat)
    return {
        "type": "finished",
        "move": table.move,
        "winner": st.winner(),
        "returns": st.returns(),
        "record": public_record(st, es),
    }


def record_for(table: Table, token: str | None) -> dict[str, Any]:
    """A finished game's record as the token's seat (no token: a spectator) may see it."""
    if table.status != "finished":
        raise ServerError("wrong_status", "the record is shown once the game is over")
    seat = table.seat_of(token) if token else None
    es = engine_seat(seat)
    return public_record(table.state, es)
