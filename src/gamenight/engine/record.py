"""Game records: validated on the way in, replayed move by move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import BadRecord, GamenightError, IllegalAction
from .game import new_game
from .state import State


class MoveModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None
    action: dict[str, Any]


class RecordModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    options: dict[str, Any] = {}
    moves: list[MoveModel]
    seed: int | None = None
    truncated: bool = False  # a safety cap ended the game; replay must agree


def replay(record: dict[str, Any] | str | Path) -> State:
    """Rebuild the state of a record (a dict, JSON text or a file path).

    A malformed record or an illegal move raises BadRecord naming the index of the move.
    """
    if isinstance(record, Path):
        record = record.read_text()
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise BadRecord(f"not JSON: {e}") from None
    try:
        rec = RecordModel.model_validate(record)
    except ValidationError as e:
        err = e.errors()[0]
        loc = err["loc"]
        index = loc[1] if len(loc) > 1 and loc[0] == "moves" and isinstance(loc[1], int) else None
        raise BadRecord(f"{'.'.join(map(str, loc))}: {err['msg']}", index) from None
    try:
        state = new_game(rec.game, **rec.options).new_state(seed=rec.seed)
    except GamenightError as e:
        raise BadRecord(str(e)) from None
    for i, move in enumerate(rec.moves):
        try:
            state.apply(move.action, seat=move.seat)
        except IllegalAction as e:
            raise BadRecord(f"illegal move {move.model_dump()}: {e}", i) from None
    if rec.truncated != state.truncated:
        raise BadRecord(f"the record says truncated={rec.truncated}, its moves do not")
    return state
