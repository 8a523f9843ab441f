"""Game records: checked on the way in, replayed move by move.

A full record is what ``State.record()`` writes (docs/records.md)::

    {"format": 1, "game": "snake-eyes", "options": {...}, "seed": 7,
     "moves": [{"seat": null, "action": {"type": "dice", "faces": [3, 4]}}, ...]}

Replay input is bounded, so that a record from a stranger cannot ask for unbounded memory or
time: at most ``MAX_RECORD_BYTES`` of JSON text, ``MAX_MOVES`` moves, and options each game bounds
itself. Every problem is a BadRecord; one in a move names the move's index.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import BadRecord, GamenightError, IllegalAction, describe
from .game import new_game
from .schema import AnyFlat
from .state import RECORD_FORMAT, State

MAX_RECORD_BYTES = 64 * 2**20  # JSON text of one record
MAX_MOVES = 1_000_000  # moves in one record
_KEYS = {"format", "game", "options", "seed", "moves", "truncated"}


def replay(record: dict[str, Any] | str | bytes | Path, *, check_truncated: bool = True) -> State:
    """Rebuild the state of a full record (a dict, JSON text or a file path).

    A malformed record or an illegal move raises BadRecord naming the index of the move. The
    rebuilt state continues exactly as the original would: its next chance draw is the same.
    ``check_truncated=False`` is for moves the caller stored itself without the record's
    ``truncated`` flag (the server's rows): the moves alone then say whether a cap ended it.
    """
    rec = _load(record)
    game, options, seed, moves = _top(rec)
    try:
        state = new_game(game, **options).new_state(seed=seed)
    except GamenightError as e:
        raise BadRecord(str(e)) from None
    player_types, chance_types = state._player_types, state._chance_types
    players = state.players
    # One copy of each distinct action serves every move that repeats it: a long game holds
    # a few dozen dice actions, not a dict per throw.
    shared: dict[tuple[Any, ...], dict[str, Any]] = {}
    share = not isinstance(player_types, AnyFlat) and not isinstance(chance_types, AnyFlat)
    for i, move in enumerate(moves):
        if type(move) is not dict or move.keys() != {"seat", "action"}:
            raise BadRecord(
                f"a move is an object with 'seat' and 'action'; got {describe(move)}", i
            )
        seat = move["seat"]
        if seat is not None and not (type(seat) is int and 0 <= seat < players):
            raise BadRecord(f"'seat' must be null or 0 to {players - 1}; got {describe(seat)}", i)
        try:
            action = (chance_types if seat is None else player_types).parse(move["action"])
            if share:
                key = tuple((k, tuple(v) if type(v) is list else v) for k, v in action.items())
                action = shared.setdefault(key, action)
            state._apply_parsed(action, seat)
        except IllegalAction as e:
            raise BadRecord(f"illegal move (seat {describe(seat)}): {e}", i) from None
    said = rec.get("truncated", False)  # a safety cap ended it, or did not
    if check_truncated and said != getattr(state, "truncated", False):
        raise BadRecord(f"the record says truncated={said}; its moves do not")
    return state


def _load(record: object) -> dict[str, Any]:
    """The record as a dict: JSON text or a file is parsed within the size limit."""
    if isinstance(record, Path):
        path = record
        try:
            with path.open("rb") as f:
                record = f.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            raise BadRecord(f"cannot read {path}: {e.strerror}") from None
    if isinstance(record, str | bytes):
        if len(record) > MAX_RECORD_BYTES:
            raise BadRecord(f"a record is at most {MAX_RECORD_BYTES} bytes of JSON")
        try:
            record = json.loads(record, object_hook=_Sharer())
        except (ValueError, RecursionError) as e:  # JSONDecodeError, huge ints, deep nesting
            hint = ""  # replay("game.json"): a file name given as text
            if isinstance(record, str) and len(record) < 1000 and record[:1] not in "{[ \n":
                hint = " (a str is JSON text: to read a file, pass a pathlib.Path)"
            raise BadRecord(f"not JSON: {describe(str(e))}{hint}") from None
    if type(record) is not dict:
        raise BadRecord(f"a record is a JSON object; got {describe(record)}")
    return record


class _Sharer:
    """A JSON object hook that hands out one object for equal small flat objects.

    A record repeats the same few actions (36 throws of two dice) and moves thousands of
    times; sharing them while parsing keeps one copy of each, so parsing a long record costs
    little more than its list of moves. Only objects whose values are strings, whole numbers
    (not bools), nulls or lists of whole numbers are shared, keyed with their types, so equal
    keys mean equal JSON. The parsed record is read, never changed, by ``replay``."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: dict[tuple[Any, ...], dict[str, Any]] = {}

    def __call__(self, obj: dict[str, Any]) -> dict[str, Any]:
        if len(obj) > 4:
            return obj
        key = []
        for k, v in obj.items():
            t = type(v)
            if t is str or t is int or v is None:
                key.append((k, t, v))
            elif t is list and len(v) <= 8 and all(type(x) is int for x in v):
                key.append((k, t, tuple(v)))
            elif t is dict:
                key.append((k, t, id(v)))  # an already shared object (inner objects come first)
            else:
                return obj
        return self.seen.setdefault(tuple(key), obj)


def _top(rec: dict[str, Any]) -> tuple[str, dict[str, Any], int | None, list[Any]]:
    """The record's game, options, seed and moves, each checked for type and size."""
    if "game" not in rec and "moves" not in rec:  # another JSON file, such as a table's settings
        raise BadRecord("not a game record: no 'game' and no 'moves' (s saves one at a table)")
    for key in rec:
        if key not in _KEYS:
            what = "a public record cannot be replayed" if key in ("public", "viewer") else ""
            raise BadRecord(f"unknown field {describe(key)} {what}".strip())
    if rec.get("format", RECORD_FORMAT) != RECORD_FORMAT or type(rec.get("format", 1)) is not int:
        raise BadRecord(f"'format' must be {RECORD_FORMAT}; got {describe(rec.get('format'))}")
    game = rec.get("game")
    if type(game) is not str:
        raise BadRecord(f"'game' must be a game id string; got {describe(game)}")
    options = rec.get("options", {})
    if type(options) is not dict or not all(type(k) is str for k in options):
        raise BadRecord(f"'options' must be an object of named options; got {describe(options)}")
    seed = rec.get("seed")
    if seed is not None and type(seed) is not int:
        raise BadRecord(f"'seed' must be a whole number; got {describe(seed)}")
    if "truncated" in rec and type(rec["truncated"]) is not bool:
        raise BadRecord(f"'truncated' must be true or false; got {describe(rec['truncated'])}")
    if "moves" not in rec:
        raise BadRecord("'moves' is missing")
    moves = rec["moves"]
    if type(moves) is not list:
        raise BadRecord(f"'moves' must be a list; got {describe(moves)}")
    if len(moves) > MAX_MOVES:
        raise BadRecord(f"a record holds at most {MAX_MOVES} moves; this one has {len(moves)}")
    return game, options, seed, moves
