"""What may leave the server for one seat: its view, the public view, the public record.

The engine filters hidden information (HOUSE.md); these helpers only pick the right filter and
fall back safely while a game lacks ``public_record``: chance moves are then sent as their type
alone, so no dealt card, shuffle or seed can leave.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine import State


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """``view(seat)`` for a player; the public view for a spectator (seat None)."""
    if seat is None:
        public = getattr(state, "public_view", None)
        return public() if callable(public) else state.view(None)
    return state.view(seat)


def public_record(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see of a finished game's record."""
    engine_public = getattr(state, "public_record", None)
    if callable(engine_public):
        rec: dict[str, Any] = engine_public(seat)
    else:
        rec = {
            "game": state.game.id,
            "options": state.game.options_dict(),
            "moves": [
                {"seat": s, "action": a if s is not None else {"type": a.get("type", "chance")}}
                for s, a in state.moves
            ],
        }
    rec.pop("seed", None)
    return rec
