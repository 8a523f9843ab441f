"""Exact chance distributions shared by the dice games."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

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
