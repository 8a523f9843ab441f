"""Exact chance distributions shared by the dice games."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from typing import Any, Protocol

import numpy as np

Action = dict

SIXTH = Fraction(1, 6)


@cache
def dice_faces(n: int, sides: int = 6) -> tuple[tuple[int, ...], ...]:
    """Every ordered throw of ``n`` dice (ordered, so each is equally likely)."""
    return tuple(itertools.product(range(1, sides + 1), repeat=n))


@cache
def _outcomes(n: int, kind: str, sides: int) -> tuple[tuple[Action, Fraction], ...]:
    p = Fraction(1, sides**n)
    return tuple(({"type": kind, "faces": list(f)}, p) for f in dice_faces(n, sides))


def dice_outcomes(n: int, kind: str = "dice", sides: int = 6) -> list[tuple[Action, Fraction]]:
    """Chance outcomes of throwing ``n`` fair dice as ``{"type": kind, "faces": [...]}`` actions.

    Built once per kind of throw (six dice have 46,656 outcomes): the list is new each call,
    the actions in it are shared, so treat them as read-only, as every action."""
    return list(_outcomes(n, kind, sides))


def check_faces(action: Action, n: int, sides: int = 6) -> list[int]:
    """Validate the ``faces`` of a dice action; returns them."""
    from .errors import MalformedAction

    faces = action.get("faces")
    if (
        not isinstance(faces, list)
        or len(faces) != n
        or not all(type(f) is int and 1 <= f <= sides for f in faces)
    ):
        raise MalformedAction(
            f"a {action.get('type')!r} action needs 'faces': a list of {n} whole numbers "
            f"from 1 to {sides}; got {faces!r}"
        )
    return faces


class Uniforms(Protocol):
    """What a game's ``_sample_chance`` draws from: uniform doubles in [0, 1)."""

    def random(self) -> float: ...


MAX_SEED = 2**64 - 1
# Doubles generated at once: a state's first block is small (most games end within it, and
# generating costs a few microseconds plus a little per double); each later one is twice the
# last, up to _MAX_BLOCK.
_FIRST_BLOCK = 128
_MAX_BLOCK = 4096
_local = threading.local()


class _Philox:
    """This thread's Philox bit generator, a Generator drawing doubles from it, and one state
    dict whose counter and key arrays are refilled for each block (the setter copies them)."""

    def __init__(self) -> None:
        self.bg = np.random.Philox(key=0)
        self.gen = np.random.Generator(self.bg)
        self.counter = np.zeros(4, dtype=np.uint64)
        self.key = np.zeros(2, dtype=np.uint64)
        self.state: Any = {
            "bit_generator": "Philox",
            "state": {"counter": self.counter, "key": self.key},
            "buffer": np.zeros(4, dtype=np.uint64),
            "buffer_pos": 4,
            "has_uint32": 0,
            "uinteger": 0,
        }


def _philox() -> _Philox:
    p = getattr(_local, "philox", None)
    if p is None:
        p = _local.philox = _Philox()
    return p


def _doubles(key: int, stream: int, position: int, n: int) -> np.ndarray:
    """Doubles number ``position`` to ``position + n`` of Philox stream (key, stream).

    Philox is counter-based: setting the counter jumps to any position in O(1). Each double is
    the top 53 bits of one raw 64-bit output over 2**53 (``Generator.random``'s own rule)."""
    p = _philox()
    p.counter[0] = position >> 2
    p.key[0], p.key[1] = key, stream
    bg = p.bg
    bg.state = p.state
    skip = position & 3
    if skip:
        bg.random_raw(skip)
    return p.gen.random(n)


class ChanceStream:
    """Where chance draw number ``i`` of a seeded state gets its randomness.

    Each draw owns ``width`` doubles at position ``i * width`` of a Philox stream keyed by the
    seed, so draw ``i`` depends on (seed, i) only: a state rebuilt by replay resumes at its
    next draw in O(1), whatever came before. A draw that needs more than ``width`` doubles
    (``overflow``) reads its own Philox stream, also keyed by (seed, i)."""

    __slots__ = ("key", "width", "base", "slots", "random")

    def __init__(self, key: int, width: int = 1) -> None:
        self.key = key
        self.width = width
        self.base = 0  # the first draw in ``slots``
        # the ``width`` doubles of each of a block of draws, one tuple per draw (handing a draw
        # its tuple costs less than slicing a flat list each time)
        self.slots: list[tuple[float, ...]] = []
        self.random: Callable[[], float] = _exhausted

    def at(self, index: int) -> ChanceStream:
        """Point ``random`` at the doubles of draw ``index``; returns self."""
        slot = index - self.base
        slots = self.slots
        if not 0 <= slot < len(slots):
            w = self.width
            size = max(w, min(max(2 * len(slots) * w, _FIRST_BLOCK), _MAX_BLOCK) // w * w)
            flat = iter(_doubles(self.key, 0, index * w, size).tolist())
            self.slots = slots = list(zip(*[flat] * w, strict=True))
            self.base, slot = index, 0
        self.random = iter(slots[slot]).__next__
        return self

    def overflow(self, index: int) -> ChanceStream:
        """Point ``random`` at an endless stream of its own for draw ``index`` (a rare, slow
        path for a draw that needed more than ``width`` doubles)."""
        key = self.key

        def endless() -> Iterator[float]:
            pos = 0
            while True:
                yield from _doubles(key, 1 + index, pos, 1024).tolist()
                pos += 1024

        self.random = endless().__next__
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # a pickle starts afresh: blocks are derived data
        return (ChanceStream, (self.key, self.width))

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceStream:
        """A clone shares the current block: blocks are replaced, never changed."""
        new = ChanceStream(self.key, self.width)
        new.base, new.slots = self.base, self.slots
        return new


def _exhausted() -> float:
    raise StopIteration
