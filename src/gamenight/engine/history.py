"""The moves of one game, oldest first: what a record stores and a replay applies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, overload

Action = dict[str, Any]
Move = tuple[int | None, Action]


class History:
    """A list of (seat, action) moves, kept as two flat lists.

    A pair that holds a dict is always tracked by Python's cycle collector, and a long session
    holds hundreds of thousands of them: full collections walking those pairs cost more than
    playing the moves. Flat lists of seats and of (mostly untracked) action dicts cost nothing.
    Actions are stored as given, never copied: treat them as read-only.
    """

    __slots__ = ("seats", "actions")

    def __init__(self) -> None:
        self.seats: list[int | None] = []
        self.actions: list[Action] = []

    def append(self, seat: int | None, action: Action) -> None:
        self.seats.append(seat)
        self.actions.append(action)

    def __len__(self) -> int:
        return len(self.seats)

    def __deepcopy__(self, memo: dict[int, Any]) -> History:
        """A copy of the lists, sharing the (read-only) actions: a cloned table costs its own
        size, not the length of the game so far (a search clones hundreds of times a move)."""
        copy = History()
        copy.seats, copy.actions = self.seats.copy(), self.actions.copy()
        return copy

    def __iter__(self) -> Iterator[Move]:
        return zip(self.seats, self.actions, strict=True)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...
    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return list(zip(self.seats[i], self.actions[i], strict=True))
        return self.seats[i], self.actions[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self.seats == other.seats and self.actions == other.actions
        return isinstance(other, list) and list(self) == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
