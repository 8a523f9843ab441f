"""One live table, the room's own state: its settings, seats and their tokens, the engine state
rebuilt from its stored moves, its lock, and the handles of its bots and timers.

Nothing here changes a game: moves go through ``referee.py``; this file only holds what they
change and answers questions about it (who holds a token, what the lobby shows).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from gamenight.engine import State
from gamenight.engine.errors import describe
from gamenight.engine.game import is_realtime

from .protocol import ServerError

SeatKey = int | str  # a player seat number, or "dealer"
DEALER = "dealer"


def engine_seat(seat: SeatKey | None) -> int | None:
    """The engine's seat for a table seat: the dealer and spectators see the public view."""
    return None if seat is None or seat == DEALER else int(seat)


def new_token() -> str:
    """A seat or host token: 256 random bits."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """One seat's settings and holder; only the token's hash is kept."""

    kind: str  # "human" | "bot" | "dealer"
    bot: str = "sensible"
    level: str | None = None
    strategy: str | None = None
    name: str | None = None
    token_hash: str | None = None
    away: bool = False  # a human seat a stand-in bot plays until its player is back

    def row(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "bot": self.bot,
            "level": self.level,
            "strategy": self.strategy,
            "name": self.name,
            "token_hash": self.token_hash,
            "away": self.away,
        }

    def summary(self, key: SeatKey, connected: bool) -> dict[str, Any]:
        """What the lobby and every seat are told of this seat: no token, not even its hash."""
        return {
            "seat": key,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot if self.kind == "bot" else None,  # sensible, random or search
            "level": self.level,
            "strategy": self.strategy,
            "taken": self.kind == "bot" or self.token_hash is not None,
            "connected": connected,
            "away": self.away,
        }


@dataclass
class Accepted:
    """What one accepted action did: the counter before and after."""

    table_id: str
    seat: SeatKey
    first: int
    move: int


@dataclass
class FrameParts:
    """The JSON every seat's state frame of one table shares at one point (``stamp``): built
    once per move, not once per seat; views and event lists are kept as they are asked for."""

    stamp: tuple[Any, ...]
    head: str  # from the frame's start to its "seat" value
    actors: str
    dealer_due: str
    tail: str  # from "event_count" to the frame's end
    views: dict[int | None, str] = field(default_factory=dict)
    events: dict[int, str] = field(default_factory=dict)


@dataclass
class Table:
    """A live table: settings, seats and the engine state rebuilt from its stored moves."""

    id: str
    game_id: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    host_hash: str
    status: str
    turn_seconds: float | None
    bot_pace: str
    state: State
    rematch_of: str | None = None
    rematch: str | None = None
    dealer: Seat | None = None
    listed: bool = False  # shown in the lobby: only the host's choice (docs/serve.md)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_call_move: int = 0
    right_before: tuple[int, Any] | None = None  # (last call's move, the right call before it)
    race: dict[str, Any] | None = None
    chat: list[dict[str, Any]] | None = None  # the newest chat messages (server/chat.py)
    notes: list[dict[str, Any]] = field(default_factory=list)  # the table's log (notes.py)
    chat_limits: dict[SeatKey, Any] = field(default_factory=dict)  # each seat's chat bucket
    bot_rate: Any = None  # the bots' moves bucket (server/clock.py)
    connected: dict[SeatKey, int] = field(default_factory=dict)
    spectators: int = 0
    deadline: float | None = None
    last_active: float = field(default_factory=time.time)
    moved_at: float = 0.0  # when the last moves were stored (the row's updated_at)
    tasks: dict[Any, tuple[int, asyncio.Task[None]]] = field(default_factory=dict)
    bots: dict[int, Any] = field(default_factory=dict)
    thoughts: dict[int, asyncio.Future[Any]] = field(default_factory=dict)  # bots thinking now
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    frame_parts: FrameParts | None = None  # what every seat's state frame shares, encoded

    @property
    def move(self) -> int:
        return len(self.state.moves)

    @property
    def realtime(self) -> bool:
        return is_realtime(self.game_id)

    @property
    def live_dealer(self) -> bool:
        return self.dealer is not None

    def seat_of(self, token: str | None) -> SeatKey:
        """The seat a token acts for; a wrong or missing token is ``bad_token``."""
        if not token:
            raise ServerError("bad_token", "this needs a seat token (Authorization: Bearer ...)")
        digest = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash and hmac.compare_digest(s.token_hash, digest):
                return i
        if (
            self.dealer
            and self.dealer.token_hash
            and hmac.compare_digest(self.dealer.token_hash, digest)
        ):
            return DEALER
        raise ServerError("bad_token", "this token holds no seat at this table")

    def holds(self, key: SeatKey, digest: str) -> bool:
        """Whether seat ``key`` is held by the token whose hash is ``digest``."""
        try:
            held = self.seat(key).token_hash
        except ServerError:
            return False
        return held is not None and hmac.compare_digest(held, digest)

    def is_host(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.host_hash, token_hash(token or ""))

    def seat_rows(self) -> list[dict[str, Any]]:
        rows = [s.row() for s in self.seats]
        if self.dealer:
            rows.append({**self.dealer.row(), "seat": DEALER})
        return rows

    def summary(self) -> dict[str, Any]:
        seats = [s.summary(key, self.connected.get(key, 0) > 0) for key, s in self.all_seats()]
        return {
            "table_id": self.id,
            "game": self.game_id,
            "title": getattr(self.state.game, "title", self.game_id),
            "options": self.options,
            "status": self.status,
            "move": self.move,
            "seats": seats,
            "turn_seconds": self.turn_seconds,
            "bot_pace": self.bot_pace,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
            "spectators": self.spectators,
            "listed": self.listed,
            "notes": self.notes,
        }

    def all_seats(self) -> list[tuple[SeatKey, Seat]]:
        out: list[tuple[SeatKey, Seat]] = list(enumerate(self.seats))
        if self.dealer:
            out.append((DEALER, self.dealer))
        return out

    def seat(self, key: SeatKey) -> Seat:
        if key == DEALER and self.dealer:
            return self.dealer
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(self.seats):
            return self.seats[key]
        raise ServerError("bad_request", f"there is no seat {describe(key)} at this table")
