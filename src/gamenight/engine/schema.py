"""Action shapes: one schema per action type, checked before any rule runs.

A game lists its action types with the fields each carries (``Int``, ``Str``, ``IntList``, ...).
The schema is compiled once per game class; checking an action is then a handful of plain
``type()`` and range tests, never a walk into values it does not expect, so a huge number, a
deep nesting or an unhashable value is refused by its type alone. A checked action comes back
as a private copy: the caller's dict can change afterwards without reaching the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import MalformedAction, control_character, describe

Action = dict[str, Any]

MAX_STR = 200  # characters in any string field of an action (areas, reasons, card names)
MAX_ITEMS = 64  # items in any list field of an action


@dataclass(frozen=True)
class Int:
    """A whole number (not a bool) from ``lo`` to ``hi``."""

    lo: int
    hi: int

    def test(self, v: str) -> str:
        return f"(type({v}) is int and {self.lo} <= {v} <= {self.hi})"

    def problem(self, v: object) -> str | None:
        if type(v) is not int or not self.lo <= v <= self.hi:
            if self.lo == 1:
                return f"a positive whole number (at most {self.hi})"
            return f"a whole number from {self.lo} to {self.hi}"
        return None


@dataclass(frozen=True)
class Str:
    """Printable text of at most ``max_len`` characters, one of ``choices`` when given.

    Printable (``str.isprintable``): a free-text field such as a void roll's reason reaches
    every player's event log and ``gamenight replay``'s terminal, where a newline would forge a
    log line and an escape sequence would drive the terminal."""

    max_len: int = MAX_STR
    choices: frozenset[str] | None = None

    def test(self, v: str) -> str:
        ok = f"(type({v}) is str and len({v}) <= {self.max_len} and {v}.isprintable())"
        if self.choices is not None:
            ok = f"({ok} and {v} in {sorted(self.choices)!r})"
        return ok

    def problem(self, v: object) -> str | None:
        if type(v) is not str or len(v) > self.max_len:
            return f"a string of at most {self.max_len} characters"
        bad = control_character(v)
        if bad is not None:
            return f"printable text (no control character {bad})"
        if self.choices is not None and v not in self.choices:
            return "one of " + ", ".join(sorted(self.choices))
        return None


@dataclass(frozen=True)
class IntList:
    """A list of ``min_len`` to ``max_len`` whole numbers, each from ``lo`` to ``hi``."""

    min_len: int
    max_len: int
    lo: int
    hi: int

    def test(self, v: str) -> str:
        lo, hi = self.lo, self.hi
        if self.min_len == self.max_len <= 6:  # short fixed lists (dice): unrolled
            n = self.min_len
            items = " and ".join(
                f"type({v}[{i}]) is int and {lo} <= {v}[{i}] <= {hi}" for i in range(n)
            )
            return f"(type({v}) is list and len({v}) == {n}" + (f" and {items})" if n else ")")
        return (
            f"(type({v}) is list and {self.min_len} <= len({v}) <= {self.max_len} and "
            f"all(type(x) is int and {lo} <= x <= {hi} for x in {v}))"
        )

    def problem(self, v: object) -> str | None:
        lo, hi = self.lo, self.hi
        if (
            type(v) is not list
            or not self.min_len <= len(v) <= self.max_len
            or not all(type(x) is int and lo <= x <= hi for x in v)
        ):
            n = (
                str(self.min_len)
                if self.min_len == self.max_len
                else f"{self.min_len} to {self.max_len}"
            )
            return f"a list of {n} whole numbers, each from {lo} to {hi}"
        return None


Spec = Int | Str | IntList


@dataclass(frozen=True)
class Field:
    """One field of an action type: its spec, and whether it may be left out."""

    spec: Spec
    optional: bool = False


def optional(spec: Spec) -> Field:
    return Field(spec, optional=True)


class ActionTypes:
    """The compiled schema of one side of a game (its players, or its chance seat)."""

    __slots__ = ("types", "who", "_known", "checks", "copiers", "bare")

    def __init__(self, who: str, types: Mapping[str, Mapping[str, Spec | Field]]) -> None:
        self.who = who
        self.types: dict[str, tuple[tuple[str, Spec, bool], ...]] = {
            kind: tuple(
                (name, f.spec, f.optional) if isinstance(f, Field) else (name, f, False)
                for name, f in fields.items()
            )
            for kind, fields in types.items()
        }
        self._known = ", ".join(sorted(types)) or "none"
        self.checks = {kind: _compile_check(kind, f) for kind, f in self.types.items()}
        # per type: the compiled check (a private copy, or None if malformed) and copy
        self.copiers = {
            kind: _compile_copy(kind, f) for kind, f in self.types.items() if _all_required(f)
        }
        # per type without fields: one shared, read-only action that every move of it records
        # (``State.apply`` only: ``parse`` hands its result out, so it always copies)
        self.bare: dict[str, Action] = {
            kind: {"type": kind} for kind, f in self.types.items() if not f
        }

    def parse(self, action: object) -> Action:
        """Check ``action`` against its type's schema; return a private copy of it.

        The well-formed case runs one compiled test per type; anything else takes the slow
        path below, which finds and names the problem."""
        if type(action) is dict:
            kind = action.get("type")
            if type(kind) is str:
                fast = self.checks.get(kind)
                if fast is not None:
                    out = fast(action)
                    if out is not None:
                        return out
        return self._parse_slow(action)

    def copy(self, action: Action) -> Action:
        """A copy of a well-formed action that shares nothing mutable with it."""
        copy = self.copiers.get(action["type"])
        return copy(action) if copy is not None else copy_action(action)

    def _parse_slow(self, action: object) -> Action:
        if type(action) is not dict:
            raise MalformedAction(
                f"an action is a JSON object with a string 'type'; got {describe(action)}"
            )
        kind = action.get("type")
        if type(kind) is not str:
            raise MalformedAction(f"an action needs a string 'type'; got {describe(kind)}")
        fields = self.types.get(kind)
        if fields is None:
            if not self.types:
                raise MalformedAction(
                    f"{self.who} has no actions in this game: every move is a chance move "
                    f"(seat None); got {describe(kind)}"
                )
            raise MalformedAction(
                f"unknown action type {describe(kind)} for {self.who} (known: {self._known})"
            )
        out: Action = {"type": kind}
        for name, spec, opt in fields:
            v = action.get(name, _MISSING)
            if v is _MISSING:
                if opt:
                    continue
                raise MalformedAction(f"a {kind!r} action needs the field {name!r}")
            why = spec.problem(v)
            if why is not None:
                raise MalformedAction(
                    f"a {kind!r} action: {name!r} must be {why}; got {describe(v)}"
                )
            out[name] = v.copy() if type(v) is list else v
        if len(out) != len(action):  # a field the type does not have
            _extra(action, kind, fields)
        return out


Field3 = tuple[str, Spec, bool]


def _all_required(fields: tuple[Field3, ...]) -> bool:
    return not any(opt for _, _, opt in fields)


def _compile_check(kind: str, fields: tuple[Field3, ...]) -> Callable[[Action], Action | None]:
    """One function per action type: the private copy of a well-formed action, else None."""
    if _all_required(fields):  # every field tested, then the copy built in one expression
        lines = ["def check(a):"]
        items = [f"'type': {kind!r}"]
        for i, (name, spec, _) in enumerate(fields):
            v = f"v{i}"
            lines.append(f"    {v} = a.get({name!r}, MISSING)")
            lines.append(f"    if not {spec.test(v)}: return None")
            items.append(f"{name!r}: {v}[:]" if isinstance(spec, IntList) else f"{name!r}: {v}")
        lines.append(f"    if len(a) != {len(fields) + 1}: return None")
        lines.append("    return {" + ", ".join(items) + "}")
        namespace: dict[str, Any] = {"MISSING": _MISSING}
        exec("\n".join(lines), namespace)  # source built above from the game's own schema
        return namespace["check"]
    lines = ["def check(a):", "    n = 1", "    out = {'type': " + repr(kind) + "}"]
    for i, (name, spec, opt) in enumerate(fields):
        v = f"v{i}"
        lines.append(f"    {v} = a.get({name!r}, MISSING)")
        copy = f"{v}[:]" if isinstance(spec, IntList) else v
        if opt:
            lines.append(f"    if {v} is not MISSING:")
            lines.append(f"        if not {spec.test(v)}: return None")
            lines.append(f"        out[{name!r}] = {copy}; n += 1")
        else:
            lines.append(f"    if not {spec.test(v)}: return None")
            lines.append(f"    out[{name!r}] = {copy}; n += 1")
    lines.append("    return out if len(a) == n else None")
    namespace = {"MISSING": _MISSING}
    exec("\n".join(lines), namespace)  # source built above from the game's own schema
    return namespace["check"]


def _compile_copy(kind: str, fields: tuple[Field3, ...]) -> Callable[[Action], Action]:
    """One function per action type copying a well-formed action (lists copied too)."""
    items = [f"'type': {kind!r}"] + [
        f"{name!r}: a[{name!r}]" + ("[:]" if isinstance(spec, IntList) else "")
        for name, spec, _ in fields
    ]
    namespace: dict[str, Any] = {}
    exec("def copy(a): return {" + ", ".join(items) + "}", namespace)
    return namespace["copy"]


_MISSING = object()


def _extra(action: dict[Any, Any], kind: str, fields: tuple[tuple[str, Spec, bool], ...]) -> None:
    allowed = {"type", *(f[0] for f in fields)}
    for key in action:
        if type(key) is not str or key not in allowed:
            names = ", ".join(sorted(allowed - {"type"}))
            has = f"its fields: {names}" if fields else "it has no fields besides 'type'"
            raise MalformedAction(f"a {kind!r} action has no field {describe(key)} ({has})")


def copy_action(action: Action) -> Action:
    """A copy that shares nothing mutable with ``action`` (actions are flat: lists of scalars)."""
    out = action.copy()  # then the lists: twice as fast as one comprehension over the fields
    for k, v in action.items():
        if type(v) is list:
            out[k] = v.copy()
    return out


class AnyFlat(ActionTypes):
    """The schema of a game that declares none: any type, flat fields of bounded scalars."""

    def __init__(self, who: str) -> None:
        super().__init__(who, {})

    def parse(self, action: object) -> Action:
        if type(action) is not dict:
            raise MalformedAction(
                f"an action is a JSON object with a string 'type'; got {describe(action)}"
            )
        if type(action.get("type")) is not str or len(action) > MAX_ITEMS:
            raise MalformedAction(f"an action needs a string 'type'; got {describe(action)}")
        out: Action = {}
        for k, v in action.items():
            ok = type(k) is str and len(k) <= MAX_STR
            if type(v) is list:
                ok = ok and len(v) <= MAX_ITEMS and all(_scalar(x) for x in v)
                v = v.copy()
            else:
                ok = ok and _scalar(v)
            if not ok:
                raise MalformedAction(
                    f"field {describe(k)} must hold a number, a short string or a flat list; "
                    f"got {describe(v)}"
                )
            out[k] = v
        return out


def _scalar(v: object) -> bool:
    """None, a bool, a float, a 64-bit whole number or a short string."""
    t = type(v)
    if t is int:
        return -(2**63) <= v < 2**64  # type: ignore[operator]
    return v is None or t is bool or t is float or (t is str and len(v) <= MAX_STR)  # type: ignore[arg-type]
