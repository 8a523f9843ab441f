"""A table from its stored row and moves, and back: the row's fields, the seats read back, the
moves replayed with the dice resumed where they end, the last call found again.

Storage holds the truth (HOUSE.md): a restart, another process's table, or a commit that failed
all rebuild a table here, by replay, exactly as it was after its last stored move.
"""

from __future__ import annotations

import random
import time
from typing import Any

import gamenight
from gamenight.engine import State

from .clock import make_bots
from .table import DEALER, Seat, Table


def row(table: Table) -> dict[str, Any]:
    """The table as storage's ``tables`` row (what ``from_row`` reads back)."""
    return {
        "id": table.id,
        "game": table.game_id,
        "options": table.options,
        "seed": table.seed,
        "seats": table.seat_rows(),
        "host_hash": table.host_hash,
        "status": table.status,
        "turn_seconds": table.turn_seconds,
        "bot_pace": table.bot_pace,
        "rematch_of": table.rematch_of,
        "rematch": table.rematch,
        "listed": table.listed,
        "notes": table.notes,
    }


def from_row(row: dict[str, Any], moves: list[tuple[int | None, Any]], bot_seconds: float) -> Table:
    """A live table from its stored row and moves, replayed; its search bots think up to
    ``bot_seconds`` a move (this process's setting, not the one it was made under)."""
    seats, dealer = seats_from(row)
    state = replayed(row["game"], row["options"], row["seed"], moves)
    table = Table(
        id=row["id"],
        game_id=row["game"],
        options=row["options"],
        seed=row["seed"],
        seats=seats,
        dealer=dealer,
        host_hash=row["host_hash"],
        status=row["status"],
        turn_seconds=row["turn_seconds"],
        bot_pace=row["bot_pace"],
        state=state,
        rematch_of=row.get("rematch_of"),
        rematch=row.get("rematch"),
        listed=bool(row.get("listed")),
        notes=row.get("notes") or [],
    )
    table.last_active = table.moved_at = row.get("updated_at") or time.time()
    table.last_call_move = last_call(state)
    table.right_before = None  # recomputed from the moves when needed
    make_bots(table, bot_seconds)
    return table


def replayed(game: str, options: Any, seed: int, moves: Any) -> Any:
    """A game rebuilt from its record's (seat, action) moves, its dice resumed after them."""
    moves = [{"seat": s, "action": a} for s, a in moves]
    record = {"game": game, "options": options, "seed": seed, "moves": moves}
    # the stored rows do not say whether a cap (Snap's max_flips) ended the game: its moves do
    state = gamenight.replay(record, check_truncated=False)
    resume_dice(state, seed)
    return state


def seats_from(row: dict[str, Any]) -> tuple[list[Seat], Seat | None]:
    """A stored row's seats, and its dealer seat (stored last) if it has one."""
    seats_data = list(row["seats"])
    dealer = None
    if seats_data and seats_data[-1].get("seat") == DEALER:
        d = dict(seats_data.pop())
        d.pop("seat")
        dealer = Seat(**d)
    return [Seat(**s) for s in seats_data], dealer


def resume_dice(state: State, seed: int) -> None:
    """After a replay, draw on from where the stored moves end, not from the seed's start."""
    if type(state.rng) is not random.Random:  # an engine chance stream keyed by draw index
        return  # resumes by itself
    state.rng = random.Random(f"{seed}:{len(state.moves)}")


def call_types(state: State) -> tuple[str, ...]:
    """The actions that are calls in this game (Snap, Slap), if any."""
    return tuple(getattr(state, "CALLS", ()))


def last_call(state: State, start: int = 0, before: int = 0) -> int:
    """The move after the newest call (Snap, Slap) at or past move ``start``; ``before``
    (what it was up to ``start``) when there is none: catching up scans only new moves."""
    calls = call_types(state)
    if not calls:
        return before
    for i in range(len(state.moves) - 1, start - 1, -1):
        seat, action = state.moves[i]
        if seat is not None and action.get("type") in calls:
            return i + 1
    return before
