"""Games, their validated options, and the registry every front end reads."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import BadOption, UnknownGame, describe

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
    realtime: ClassVar[bool] = False  # calls race: front ends order them by arrival time

    def __init__(self, /, **options: Any) -> None:
        try:
            self.options = self.Options(**options)
        except ValidationError as e:
            err = e.errors(include_url=False, include_context=False)[0]
            name = ".".join(describe(p) if not isinstance(p, str) else p for p in err["loc"])
            problem = err["msg"]
            if err["type"] == "extra_forbidden":
                known = ", ".join(self.Options.model_fields)
                problem = f"unknown option (known: {known})"
            elif err["type"] == "value_error":  # our own check: its sentence names the value
                problem = problem.removeprefix("Value error, ")
            elif "input" in err and err["type"] != "missing":
                problem = f"{problem} (got {describe(err['input'])})"
            raise BadOption(self.id, name[:100] or "options", problem) from None
        players = self.options.players
        if not self.min_players <= players <= self.max_players:
            raise BadOption(
                self.id,
                "players",
                f"must be from {self.min_players} to {self.max_players} (got {describe(players)})",
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


_ENTRY_POINTS = "gamenight.games"  # the entry-point group through which games register
_plugins_loaded = False


def register_game(cls: G) -> G:
    """Class decorator: make a game known to every front end by its id.

    The engine knows no game: the package front door (``import gamenight``) imports the
    built-in ones, and other packages add theirs through a ``gamenight.games`` entry point."""
    _REGISTRY[cls.id] = cls
    return cls


def _load() -> dict[str, type[Game]]:
    """The registry, after loading once the modules named by ``gamenight.games`` entry points."""
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        from importlib.metadata import entry_points

        for ep in entry_points(group=_ENTRY_POINTS):
            ep.load()
    return _REGISTRY


def list_games() -> list[str]:
    return sorted(_load())


def game_class(game_id: str) -> type[Game]:
    games = _load()
    if type(game_id) is not str or game_id not in games:
        raise UnknownGame(game_id, sorted(games))
    return games[game_id]


def is_realtime(game_id: str) -> bool:
    """Whether ``game_id`` is a calling game, where seats race (False for unknown ids)."""
    return type(game_id) is str and game_id in _load() and _REGISTRY[game_id].realtime


def new_game(game_id: str, /, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` validated; BadOption names a bad one (positional-only
    parameters, so an option called ``game_id`` or ``self`` is just an unknown option)."""
    return game_class(game_id)(**options)
