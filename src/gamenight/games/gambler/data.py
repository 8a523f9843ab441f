"""Gambler's board, Fortune cards, lottery tickets and horses: TOML data checked by a schema.

The rulebook leaves the track and the cards out, so gamenight ships its own (``data/``) and lets a
table load custom files; a bad file gets a BadGameData naming the file, the entry and the problem.
A game takes custom data as options (``data_options`` reads the files), so a record carries the
data itself, bounded by the schema, and replaying it never opens a file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from gamenight.engine.errors import GamenightError, control_character, describe

SpaceKind = Literal[
    "start", "fortune", "sweepstakes", "lottery", "races", "daily_double", "collect", "pay"
]
Effect = Literal[
    "collect",
    "pay",
    "collect_from_each",
    "pay_each",
    "advance",
    "go_to",
    "sweepstakes",
    "lottery",
    "horse_race",
]
MONEY_EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "advance")


class BadGameData(GamenightError, ValueError):
    """A board, card or ticket file that does not fit the schema."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        self.file, self.entry, self.problem = file, entry, problem
        super().__init__(f"{file}: {entry}: {problem}")


def _printable(text: str) -> str:
    """Names and card texts reach every player's screen and terminal: no control characters."""
    bad = control_character(text)
    if bad is not None:
        raise ValueError(f"text may not hold control character {bad}")
    return text


Text = Annotated[str, AfterValidator(_printable)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Space(_Strict):
    name: Text = Field(min_length=1, max_length=60)
    kind: SpaceKind
    amount: int | None = Field(default=None, ge=1, le=10_000)

    @model_validator(mode="after")
    def _amount_fits_kind(self) -> Space:
        if self.kind in ("collect", "pay") and self.amount is None:
            raise ValueError(f"a {self.kind!r} space needs an amount")
        if self.kind not in ("collect", "pay") and self.amount is not None:
            raise ValueError(f"a {self.kind!r} space takes no amount")
        return self


class Board(_Strict):
    design: Text = Field(default="", max_length=200)
    space: list[Space] = Field(min_length=2, max_length=100)

    @model_validator(mode="after")
    def _start_first(self) -> Board:
        starts = [i for i, s in enumerate(self.space) if s.kind == "start"]
        if starts != [0]:
            raise ValueError("the track needs exactly one Start space, and it must come first")
        return self


class Card(_Strict):
    text: Text = Field(min_length=1, max_length=300)
    effect: Effect
    amount: int | None = Field(default=None, ge=1, le=10_000)
    to: SpaceKind | None = None

    @model_validator(mode="after")
    def _fields_fit_effect(self) -> Card:
        if (self.effect in MONEY_EFFECTS) != (self.amount is not None):
            need = "needs" if self.effect in MONEY_EFFECTS else "takes no"
            raise ValueError(f"effect {self.effect!r} {need} an amount")
        if (self.effect == "go_to") != (self.to is not None):
            raise ValueError("'to' goes with effect 'go_to' only, and 'go_to' needs it")
        return self


class FortuneDeck(_Strict):
    design: Text = Field(default="", max_length=200)
    card: list[Card] = Field(min_length=1, max_length=200)


class Tickets(_Strict):
    design: Text = Field(default="", max_length=200)
    tickets: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(
        min_length=1, max_length=100
    )

    @model_validator(mode="after")
    def _pairs(self) -> Tickets:
        for i, (a, b) in enumerate(self.tickets):
            if not (1 <= a <= 6 and 1 <= b <= 6) or a == b:
                raise ValueError(f"ticket {i} {[a, b]}: two different numbers from 1 to 6")
        return self


class Horses(_Strict):
    design: Text = Field(default="", max_length=200)
    horses: list[int] = Field(min_length=1, max_length=6)

    @model_validator(mode="after")
    def _faces(self) -> Horses:
        if sorted(set(self.horses)) != sorted(self.horses) or not all(
            1 <= h <= 6 for h in self.horses
        ):
            raise ValueError("horses are different die faces from 1 to 6")
        return self


def _read(path: str | Path | None, default: str) -> tuple[str, dict[str, Any]]:
    if path is None:
        text = resources.files(__package__).joinpath("data", default).read_text()
        name = f"<built-in {default}>"
    else:
        name = str(path)
        try:
            with Path(path).open("rb") as f:  # bounded: /dev/zero must not hang a table
                raw = f.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise BadGameData(name, "file", f"cannot read it ({e.strerror})") from None
        if len(raw) > MAX_FILE_BYTES:
            raise BadGameData(name, "file", f"bigger than {MAX_FILE_BYTES} bytes")
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            raise BadGameData(name, "file", "not UTF-8 text") from None
    try:
        return name, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadGameData(name, "file", f"not valid TOML: {e}") from None


def _validate(model: type[_Strict], name: str, raw: dict[str, Any]) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        loc = [str(p) for p in err["loc"]]
        entry = (
            f"{loc[0]} {int(loc[1]) + 1}" if len(loc) > 1 and loc[1].isdigit() else ".".join(loc)
        )
        if len(loc) > 2 and loc[1].isdigit():
            entry += f" field {'.'.join(loc[2:])}"
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] not in ("missing", "value_error") and "input" in err:
            msg = f"{msg} (got {describe(err['input'])})"
        raise BadGameData(name, entry or "file", msg) from None


@dataclass(frozen=True)
class GamblerData:
    """Everything printed on the board and the cards, as one immutable bundle."""

    board: Board
    fortune: FortuneDeck
    tickets: Tickets
    horses: Horses


MAX_FILE_BYTES = 1 << 20  # a data file bigger than this is refused before it is parsed


def load_data(
    board: str | Path | None = None,
    fortune: str | Path | None = None,
    tickets: str | Path | None = None,
    horses: str | Path | None = None,
) -> GamblerData:
    """Load the built-in files, or custom ones where a path is given."""
    if board is fortune is tickets is horses is None:
        return builtin_data()
    return GamblerData(
        _validate(Board, *_read(board, "board.toml")),
        _validate(FortuneDeck, *_read(fortune, "fortune.toml")),
        _validate(Tickets, *_read(tickets, "tickets.toml")),
        _validate(Horses, *_read(horses, "horses.toml")),
    )


@cache
def builtin_data() -> GamblerData:
    """The data gamenight ships, read once per process."""
    return GamblerData(
        _validate(Board, *_read(None, "board.toml")),
        _validate(FortuneDeck, *_read(None, "fortune.toml")),
        _validate(Tickets, *_read(None, "tickets.toml")),
        _validate(Horses, *_read(None, "horses.toml")),
    )


def data_options(
    board: str | Path | None = None,
    fortune: str | Path | None = None,
    tickets: str | Path | None = None,
    horses: str | Path | None = None,
) -> dict[str, Any]:
    """Custom data files read and checked here, as options for ``new_game("gambler", ...)``:
    the game, and every record of it, then carries the data, never the path."""
    files = {"board": board, "fortune": fortune, "tickets": tickets, "horses": horses}
    models: dict[str, type[_Strict]] = {
        "board": Board,
        "fortune": FortuneDeck,
        "tickets": Tickets,
        "horses": Horses,
    }
    out: dict[str, Any] = {}
    for name, path in files.items():
        if path is not None:
            data = _validate(models[name], *_read(path, ""))
            out[name] = data.model_dump(mode="json")
    return out
