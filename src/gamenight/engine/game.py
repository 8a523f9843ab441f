"""Games, their validated options, and the registry every front end reads."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import BadOption, UnknownGame

if TYPE_CHECKING:
    from .state import State


class Options(BaseModel):
    """Base of every game's options: unknown names are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = 2


class Game(ABC):
    """A rulebook with its options fixed: a factory of states."""

    id: ClassVar[str]
    title: ClassVar[str]
    Options: ClassVar[type[Options]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8

    def __init__(self, **options: Any) -> None:
        try:
            self.options = self.Options(**options)
        except ValidationError as e:
            err = e.errors()[0]
            name = ".".join(str(p) for p in err["loc"]) or "options"
            problem = err["msg"]
            if err["type"] == "extra_forbidden":
                known = ", ".join(self.Options.model_fields)
                problem = f"unknown option (known: {known})"
            elif "input" in err and err["type"] != "missing":
                problem = f"{problem} (got {err['input']!r})"
            raise BadOption(self.id, name, problem) from None
        players = self.options.players
        if not self.min_players <= players <= self.max_players:
            raise BadOption(
                self.id,
                "players",
                f"must be from {self.min_players} to {self.max_players} (got {players})",
            )
        self.players: int = players
        self.validate()

    def validate(self) -> None:  # noqa: B027
        """Checks that tie options together; raise BadOption."""

    def options_dict(self) -> dict[str, Any]:
        """The options as JSON-ready data, as a record stores them."""
        return self.options.model_dump(mode="json")

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State: ...

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options_dict()})"


G = TypeVar("G", bound=type[Game])
_REGISTRY: dict[str, type[Game]] = {}


def register_game(cls: G) -> G:
    """Class decorator: make a game known to every front end by its id."""
    _REGISTRY[cls.id] = cls
    return cls


def _load() -> dict[str, type[Game]]:
    import gamenight.games  # noqa: F401  (importing registers the games)

    return _REGISTRY


def list_games() -> list[str]:
    return sorted(_load())


def game_class(game_id: str) -> type[Game]:
    games = _load()
    if not isinstance(game_id, str) or game_id not in games:
        raise UnknownGame(str(game_id), sorted(games))
    return games[game_id]


def new_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` validated; BadOption names a bad one."""
    return game_class(game_id)(**options)
