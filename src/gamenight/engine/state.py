"""The state protocol every game speaks (OpenSpiel's Game/State split, boardgame.io's views).

A subclass writes the rules as hooks; this base class gives every game the same guarantees:
seats and action shapes are checked before any rule runs (``ACTIONS``, ``CHANCE_ACTIONS``),
``apply`` validates fully (``_check``) before anything changes (``_do``), every move is recorded
for exact replay, chance is explicit and seeded per draw, what goes in or out is a copy, and the
event log is formatted only when read.
"""

from __future__ import annotations

import copy
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from .chance import MAX_SEED, ChanceStream, Uniforms
from .errors import BadOption, IllegalAction, MalformedAction, NotYourTurn, describe
from .history import Action, History, Move
from .ledger import Ledger
from .schema import ActionTypes, AnyFlat, Field, Spec, copy_action

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Action", "History", "Move", "State"]

RECORD_FORMAT = 1  # the "format" of records and public records this engine writes

# Public methods a game never overrides: they guard its hooks (a game that writes
# ``legal_actions`` or ``view`` itself has them moved under the guard as hooks).
_GUARDED = (
    "apply",
    "sample_chance",
    "play_chance",
    "chance_outcomes",
    "public_record",
    "parse_action",
)
_ADOPTED = {"legal_actions": "_legal_actions", "view": "_view"}


class State(ABC):
    """One position of one game. Subclasses implement the hooks marked abstract."""

    ledger: Ledger
    truncated: bool = False  # set when a safety cap (not the rules) ended the game

    # The shapes of the actions a game accepts, per action type: {type: {field: spec}}.
    # None: not declared, so any flat action of bounded scalars passes to ``_check``.
    ACTIONS: ClassVar[Mapping[str, Mapping[str, Spec | Field]] | None] = None
    CHANCE_ACTIONS: ClassVar[Mapping[str, Mapping[str, Spec | Field]] | None] = None
    # Uniform doubles one chance draw may take from its own slot of the seeded stream.
    CHANCE_UNIFORMS: ClassVar[int] = 1
    # Whether ``view(seat)`` may differ between seats (a hand only its owner sees). A game whose
    # seats all see one picture says False, so that a server builds that picture once a move.
    VIEW_BY_SEAT: ClassVar[bool] = True

    _player_types: ClassVar[ActionTypes]
    _chance_types: ClassVar[ActionTypes]
    _chance_copy: ClassVar[Mapping[str, Callable[[Action], Action]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _GUARDED:
            if name in cls.__dict__:
                raise TypeError(f"{cls.__name__} overrides State.{name}: write the hooks instead")
        for public, hook in _ADOPTED.items():
            if public in cls.__dict__:  # a game written as ``def view``: guard it as a hook
                setattr(cls, hook, cls.__dict__[public])
                delattr(cls, public)
        if "ACTIONS" in cls.__dict__ or not hasattr(cls, "_player_types"):
            a = cls.ACTIONS
            cls._player_types = AnyFlat("a player") if a is None else ActionTypes("a player", a)
        if "CHANCE_ACTIONS" in cls.__dict__ or not hasattr(cls, "_chance_types"):
            c = cls.CHANCE_ACTIONS
            cls._chance_types = AnyFlat("chance") if c is None else ActionTypes("chance", c)
            cls._chance_copy = cls._chance_types.copiers

    def __init__(self, game: Game, seed: int | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(63)  # kept in the record, so even this game replays exactly
        elif type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise BadOption(
                game.id, "seed", f"must be a whole number from 0 to 2**64 - 1; got {describe(seed)}"
            )
        self.game = game
        self.players: int = game.players
        self.seed: int = seed
        self.rng = ChanceStream(seed, self.CHANCE_UNIFORMS)
        self.chance_draws = 0  # chance moves so far: the next draw's index in the stream
        self.moves = History()
        self._events: list[tuple[Any, ...]] = []  # (format, *args), one flat tuple each

    # --- the rules, written by each game -------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def is_chance(self) -> bool: ...

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]: ...

    @abstractmethod
    def actors(self) -> list[int]:
        """Seats that may act now: one in turn-based play, several in real-time games."""

    def next_actor(self) -> int | None:
        """The seat a turn-by-turn driver moves next, ``actors()[0]`` (None: nobody). Games
        that can answer without building the list of actors override it."""
        actors = self.actors()
        return actors[0] if actors else None

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of a valid seat, each a new dict (the caller may change it)."""

    @abstractmethod
    def _check(self, action: Action, seat: int | None) -> None:
        """Raise IllegalAction naming the rule if ``action`` may not be applied. Never mutate.

        ``action`` has already passed its type's schema and is a private copy."""

    @abstractmethod
    def _do(self, action: Action, seat: int | None) -> None:
        """Apply an action that ``_check`` accepted. Keep no reference into ``action``'s lists
        that you later change: the record holds the same object."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """JSON-ready picture of the table built fresh: all of it, or what ``seat`` may see."""

    @abstractmethod
    def winner(self) -> int | None: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    def stats(self) -> dict[str, float]:
        """Figures of a finished game for the simulator (throws, kitty, ...)."""
        return {}

    def _house_move(self, action: Action) -> bool:
        """Whether the house (seat None) may make ``action`` while players are to act, as a
        casino dealer may; ``_check`` still judges it. It is not a chance draw."""
        return False

    def _sample_chance(self, rng: Uniforms) -> Action:
        """Draw a chance action from ``rng.random()``; never mutate the state here.

        Games override this with a faster draw of the same law (at most ``CHANCE_UNIFORMS``
        doubles on the fast path)."""
        outcomes = self._chance_outcomes()
        r = Fraction(rng.random())
        acc = Fraction(0)
        for action, p in outcomes:
            acc += p
            if r < acc:
                return action
        return outcomes[-1][0]

    def _public_action(self, action: Action, seat: int | None, viewer: int | None) -> Action:
        """What ``viewer`` (None: a spectator) may know of one recorded move; by default all
        of it. A game with hidden deals returns a redacted copy (never ``action`` itself)."""
        return copy_action(action)

    # --- the protocol ---------------------------------------------------------------------------
    def _seat(self, seat: object) -> int:
        """A seat argument: an int (not a bool) of a seat at this table."""
        if type(seat) is not int:
            raise MalformedAction(f"a seat is a whole number; got {describe(seat)}")
        if not 0 <= seat < self.players:
            raise NotYourTurn(
                f"there is no seat {describe(seat)} (seats are 0 to {self.players - 1})"
            )
        return seat

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now (new dicts, the caller's to keep or change)."""
        if type(seat) is not int or not 0 <= seat < self.players:  # _seat's test, inline
            self._seat(seat)  # raises, naming the problem
        return self._legal_actions(seat)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready picture of the table: all of it (None), or what ``seat`` may see."""
        return self._view(None if seat is None else self._seat(seat))

    def parse_action(self, action: object, seat: int | None = None) -> Action:
        """Check ``action``'s shape against this game's schema for ``seat`` (None: chance);
        returns a private copy, or raises MalformedAction naming the field."""
        types = self._chance_types if seat is None else self._player_types
        return types.parse(action)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Every chance action now with its exact probability; they sum to 1 (new dicts)."""
        if not self.is_chance():
            raise self._not_chance()
        copy = self._chance_types.copy
        return [(copy(a), p) for a, p in self._chance_outcomes()]

    def _not_chance(self) -> IllegalAction:
        """Why no chance move can come now: the game is over, or these players are to act."""
        if self.is_terminal():
            return IllegalAction("the game is over: no more chance moves")
        waiting = ", ".join(self.seat_name(s) for s in self.actors())
        return IllegalAction(f"this is not a chance node: a player is to act ({waiting})")

    def sample_chance(self) -> Action:
        """Draw chance action number ``chance_draws`` from the seeded stream, apply it and return
        a copy of it. The draw depends on (seed, index) only, so a replayed state draws next
        exactly what the original would have."""
        self.play_chance()
        action = self.moves.actions[-1]
        copy = self._chance_copy.get(action["type"])  # ActionTypes.copy, one call fewer
        return copy(action) if copy is not None else copy_action(action)

    def play_chance(self) -> None:
        """``sample_chance`` for a play loop that does not look at the draw: the same move,
        without the copy that handing it out costs."""
        if not self.is_chance():
            raise self._not_chance()
        index = self.chance_draws
        rng = self.rng
        slot = index - rng.base
        slots = rng.slots
        if 0 <= slot < len(slots):  # the common case of ChanceStream.at, inline on the hot path
            rng.random = iter(slots[slot]).__next__
        else:
            rng.at(index)
        try:
            action = self._sample_chance(rng)
        except (StopIteration, RuntimeError) as e:  # the draw wanted more doubles than its slot
            if isinstance(e, RuntimeError) and not isinstance(e.__cause__, StopIteration):
                raise  # (a generator turns StopIteration into RuntimeError)
            action = self._sample_chance(self.rng.overflow(index))
        self._do(action, None)
        self.chance_draws = index + 1
        moves = self.moves
        moves.seats.append(None)
        moves.actions.append(action)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (None: chance), or raise and change nothing."""
        if seat is None:
            types = self._chance_types
        else:
            if type(seat) is not int or not 0 <= seat < self.players:
                self._seat(seat)
            types = self._player_types
        # ActionTypes.parse, its well-formed case inline on the hot path; an action of a type
        # without fields is recorded as the type's one shared (never handed out) action
        parsed = None
        if type(action) is dict:
            kind = action.get("type")
            if type(kind) is str:
                parsed = types.bare.get(kind) if len(action) == 1 else None
                if parsed is None:
                    fast = types.checks.get(kind)
                    if fast is not None:
                        parsed = fast(action)
        if parsed is None:
            parsed = types.parse(action)
        if seat is not None:  # _apply_parsed, inline for a player's move
            if self.is_terminal():
                raise IllegalAction("the game is over")
            self._check(parsed, seat)
            self._do(parsed, seat)
            moves = self.moves
            moves.seats.append(seat)
            moves.actions.append(parsed)
            return
        self._apply_parsed(parsed, seat)

    def _apply_parsed(self, action: Action, seat: int | None) -> None:
        """Apply an action whose seat and shape are checked (``apply``, ``replay``)."""
        if self.is_terminal():
            raise IllegalAction("the game is over")
        house = seat is None and not self.is_chance()  # the house acts between chance moves
        if house and not self._house_move(action):
            waiting = ", ".join(self.seat_name(s) for s in self.actors())  # whom to wait for
            raise NotYourTurn(
                f"a chance move (seat None) was given, but a player is to act ({waiting})"
            )
        self._check(action, seat)
        self._do(action, seat)
        if seat is None and not house:
            self.chance_draws += 1
        moves = self.moves
        moves.seats.append(seat)
        moves.actions.append(action)

    def log(self, fmt: str, *args: Any) -> None:
        """Add an event; the text is only formatted when someone reads it.

        Kept as one flat tuple of strings and numbers, which the cycle collector stops tracking
        at its first pass; a (format, args) pair lingers, and a long session holds many."""
        self._events.append((fmt,) + args)

    def events(self, since: int = 0) -> list[str]:
        """The readable event log, oldest first."""
        return [e[0].format(*e[1:]) for e in self._events[since:]]

    @property
    def event_count(self) -> int:
        return len(self._events)

    def record(self) -> dict[str, Any]:
        """The full JSON record: seed, options and every move, chance ones too.

        Replaying it rebuilds this state exactly, and the rebuilt state draws next what this
        one would. It holds everything hidden (deals, shuffles): it stays with the table."""
        chance, player = self._chance_types.copy, self._player_types.copy
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "options": self.game.options_dict(),
            "seed": self.seed,
            "moves": [
                {"seat": s, "action": chance(a) if s is None else player(a)}
                for s, a in zip(self.moves.seats, self.moves.actions, strict=True)
            ],
        }
        if getattr(self, "truncated", False) is True:  # a game stopped by a safety cap
            rec["truncated"] = True
        return rec

    def public_record(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see of the record (None: a spectator): no seed, and every chance
        move stripped of what that seat has not seen (deals, shuffles, others' hidden cards).

        For display and for players' own archives; it cannot be replayed. Both record formats
        are described in docs/records.md."""
        viewer = None if seat is None else self._seat(seat)
        public = self._public_action
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "public": True,
            "viewer": viewer,
            "game": self.game.id,
            "options": self.game.options_dict(),
            "moves": [
                {"seat": s, "action": public(a, s, viewer)}
                for s, a in zip(self.moves.seats, self.moves.actions, strict=True)
            ],
        }
        if getattr(self, "truncated", False) is True:  # cut short: its winner held the most
            rec["truncated"] = True
        return rec

    def clone(self) -> State:
        """An independent copy; the (immutable) game and the log's (immutable) lines are shared,
        not copied, so a copy costs the table, not the game so far."""
        return copy.deepcopy(self, {id(self.game): self.game, id(self._events): self._events[:]})

    def seat_name(self, seat: int) -> str:
        """Seats read as letters in logs, as the rulebooks name players A, B, C..."""
        return chr(ord("A") + seat)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State) and self.moves == other.moves and self.view() == other.view()
        )

    __hash__ = None  # type: ignore[assignment]
