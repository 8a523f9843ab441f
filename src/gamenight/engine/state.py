"""The state protocol every game speaks (OpenSpiel's Game/State split, boardgame.io's views).

A subclass writes the rules as hooks; this base class gives every game the same guarantees:
``apply`` validates fully (``_check``) before anything changes (``_do``), every move is recorded
for exact replay, chance is explicit and seeded, and the event log is formatted only when read.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .errors import IllegalAction, MalformedAction, NotYourTurn
from .history import Action, History, Move
from .ledger import Ledger

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Action", "History", "Move", "State"]


class State(ABC):
    """One position of one game. Subclasses implement the hooks marked abstract."""

    ledger: Ledger
    truncated: bool = False  # set when a safety cap (not the rules) ended the game

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.players: int = game.players
        self.seed = seed
        self.rng = random.Random(seed)
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

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _check(self, action: Action, seat: int | None) -> None:
        """Raise IllegalAction naming the rule if ``action`` may not be applied. Never mutate."""

    @abstractmethod
    def _do(self, action: Action, seat: int | None) -> None:
        """Apply an action that ``_check`` accepted."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready picture of the table: all of it, or what ``seat`` may see."""

    @abstractmethod
    def winner(self) -> int | None: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    def stats(self) -> dict[str, float]:
        """Figures of a finished game for the simulator (throws, kitty, ...)."""
        return {}

    def _house_move(self, action: Action) -> bool:
        """Whether the house (seat None) may make ``action`` while players are to act, as a
        casino dealer may; ``_check`` still judges it."""
        return False

    def _sample_chance(self, rng: random.Random) -> Action:
        """Draw a chance action; games override this with a faster draw of the same law."""
        outcomes = self._chance_outcomes()
        r = Fraction(rng.random())
        acc = Fraction(0)
        for action, p in outcomes:
            acc += p
            if r < acc:
                return action
        return outcomes[-1][0]

    # --- the protocol ---------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Every chance action now with its exact probability; they sum to 1."""
        if not self.is_chance():
            raise IllegalAction("this is not a chance node: a player is to act")
        return self._chance_outcomes()

    def sample_chance(self) -> Action:
        """Draw a chance action with the state's seeded RNG, apply it and return it.

        Games may hand out one shared action object per outcome: treat it as read-only."""
        if not self.is_chance():
            raise IllegalAction("this is not a chance node: a player is to act")
        action = self._sample_chance(self.rng)
        self._do(action, None)
        moves = self.moves
        moves.seats.append(None)
        moves.actions.append(action)
        return action

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (None: chance), or raise and change nothing."""
        if type(action) is not dict or type(action.get("type")) is not str:
            raise MalformedAction(
                f"an action is a JSON object with a string 'type'; got {action!r}"
            )
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if seat is None:
            if not self.is_chance() and not self._house_move(action):
                raise NotYourTurn("a chance move (seat None) was given, but a player is to act")
        elif type(seat) is not int or not 0 <= seat < self.players:
            raise NotYourTurn(f"there is no seat {seat!r} (seats are 0 to {self.players - 1})")
        self._check(action, seat)
        self._do(action, seat)
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
        """The JSON game record: replaying it rebuilds this state exactly."""
        rec: dict[str, Any] = {
            "game": self.game.id,
            "options": self.game.options_dict(),
            "moves": [{"seat": s, "action": copy.deepcopy(a)} for s, a in self.moves],
        }
        if self.seed is not None:
            rec["seed"] = self.seed
        if self.truncated:
            rec["truncated"] = True
        return rec

    def clone(self) -> State:
        """An independent copy; the (immutable) game is shared, not copied."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def seat_name(self, seat: int) -> str:
        """Seats read as letters in logs, as the rulebooks name players A, B, C..."""
        return chr(ord("A") + seat)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.record()["moves"] == other.record()["moves"]
            and self.view() == other.view()
        )

    __hash__ = None  # type: ignore[assignment]
