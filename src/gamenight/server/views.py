"""What may leave the server for one seat: its view, the public view, the public record.

The engine filters hidden information (HOUSE.md); these helpers only pick the right filter.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine import State


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """``view(seat)`` for a player; the public view for a spectator (seat None).

    No game hides anything per seat yet, so ``view(None)`` is the public view; a game that
    does must define ``public_view()`` (tests/test_server_secrets.py checks the difference)."""
    if seat is None:
        public = getattr(state, "public_view", None)
        return public() if callable(public) else state.view(None)
    return state.view(seat)


def public_record(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see of a finished game's record: never the seed,
    never a card it was not shown."""
    rec = state.public_record(seat)
    rec.pop("seed", None)
    return rec
