"""Typed errors: every bad input gets one that names the problem."""

from __future__ import annotations


class GamenightError(Exception):
    """Base class of every error gamenight raises on purpose."""


class UnknownGame(GamenightError, KeyError):
    """A game id that no registered game answers to."""

    def __init__(self, game_id: str, known: list[str]) -> None:
        self.game_id = game_id
        super().__init__(f"unknown game {game_id!r}; known games: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class BadOption(GamenightError, ValueError):
    """A game option that is unknown, of the wrong type or out of range."""

    def __init__(self, game_id: str, option: str, problem: str) -> None:
        self.game_id, self.option, self.problem = game_id, option, problem
        super().__init__(f"{game_id}: option {option!r}: {problem}")


class IllegalAction(GamenightError, ValueError):
    """An action the rules do not allow now; the state is left exactly as it was."""


class MalformedAction(IllegalAction):
    """An action that is not even well formed (not a dict, unknown type, bad fields)."""


class NotYourTurn(IllegalAction):
    """A seat that may not act now tried to act."""


class BadRecord(GamenightError, ValueError):
    """A game record that is malformed or holds an illegal move (``index`` names it)."""

    def __init__(self, problem: str, index: int | None = None) -> None:
        self.index = index
        where = f"move {index}: " if index is not None else ""
        super().__init__(f"bad record: {where}{problem}")
