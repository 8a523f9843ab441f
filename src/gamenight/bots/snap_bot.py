"""A turn-by-turn bot for the calling games: call when a call is right, otherwise flip.

It has no reaction time, so with the generic simulator (which asks the first actor, the seat
to flip) that seat wins every call; real races between seats are `gamenight.realtime`'s job.
"""

from __future__ import annotations

import random
from typing import Any

from gamenight.engine import State


class CallerBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> dict[str, Any]:
        from gamenight.realtime.table import correct_call

        legal = state.legal_actions(seat)
        call = correct_call(state)
        if call is not None and call in legal:
            return call
        if {"type": "flip"} in legal:
            return {"type": "flip"}
        return self.rng.choice(legal)
