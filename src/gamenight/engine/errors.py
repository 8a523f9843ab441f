"""Typed errors: every bad input gets one that names the problem."""

from __future__ import annotations


class GamenightError(Exception):
    """Base class of every error gamenight raises on purpose."""


class UnknownGame(GamenightError, KeyError):
    """A game id that no registered game answers to."""

    def __init__(self, game_id: object, known: list[str]) -> None:
        self.game_id = game_id
        super().__init__(f"unknown game {describe(game_id)}; known games: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class BadOption(GamenightError, ValueError):
    """A game option that is unknown, of the wrong type or out of range."""

    def __init__(self, game_id: str, option: str, problem: str) -> None:
        self.game_id, self.option, self.problem = game_id, option, problem
        super().__init__(f"{game_id}: option {option!r}: {problem}")


class ClashingOptions(BadOption):
    """Options each valid alone that contradict each other; ``problem`` names them all."""

    def __init__(self, game_id: str, options: tuple[str, ...], problem: str) -> None:
        super().__init__(game_id, options[0], problem)
        self.options = options
        self.args = (f"{game_id}: {problem}",)


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


BRIEF_CHARS = 60  # characters of an attacker's string shown in a message
BRIEF_ITEMS = 4  # items of a list or object shown in a message


def describe(value: object, depth: int = 0) -> str:
    """A short, safe picture of any value for an error message.

    Never walks deeper than one level, never prints an int of thousands of digits (``str()``
    of one raises) and cuts long strings: hostile input cannot make a message huge or slow."""
    t = type(value)
    if value is None or t is bool or t is float:
        return repr(value)
    if t is int:
        bits = value.bit_length()  # type: ignore[attr-defined]
        return repr(value) if bits <= 64 else f"<a whole number of {bits} bits>"
    if t is str:
        s: str = value  # type: ignore[assignment]
        return repr(s) if len(s) <= BRIEF_CHARS else f"{s[:BRIEF_CHARS]!r}... ({len(s)} chars)"
    if t is list or t is tuple or t is dict:
        n = len(value)  # type: ignore[arg-type]
        if depth or n > BRIEF_ITEMS:
            return f"<{t.__name__} of {n} items>"
        if t is dict:
            items = ", ".join(
                f"{describe(k, 1)}: {describe(v, 1)}"
                for k, v in value.items()  # type: ignore[attr-defined]
            )
            return "{" + items + "}"
        inner = ", ".join(describe(v, 1) for v in value)  # type: ignore[attr-defined]
        return f"[{inner}]" if t is list else f"({inner})"
    return f"<{t.__name__}>"


def control_character(text: str) -> str | None:
    """The first character of ``text`` that is not printable, named as U+XXXX, else None: free
    text reaches every player's log and terminal, where a newline forges an event line and an
    escape sequence drives the screen."""
    for ch in text:
        if not ch.isprintable():
            return f"U+{ord(ch):04X}"
    return None
