"""A seat's own throw of the dice, for the browser and any other client.

In Snake Eyes every move is a throw: drawn at once, a whole game would be over the moment it
starts. So, like the terminal table's space key, the table waits for the human who holds the
dice to send ``{"type": "throw"}`` and then draws that throw (still a chance move of the record,
drawn by the server). Chance moves that follow a player's decision (a shake, a roll) are drawn at
once as before, and a bot's throws are too.
"""

from __future__ import annotations

from typing import Any

from .protocol import ServerError

THROW = {"type": "throw"}
# game id -> the view key naming the seat whose throw the pending chance move is
HOLDER_KEY = {"snake-eyes": "thrower"}


def holder(table: Any) -> int | None:
    """The human seat whose own throw the table waits for, if any."""
    key = HOLDER_KEY.get(table.game_id)
    st = table.state
    if key is None or not st.is_chance() or st.is_terminal():
        return None
    seat = st.view(None).get(key)
    if type(seat) is not int or table.seats[seat].kind != "human":
        return None
    return seat


def offer(table: Any, seat: Any) -> list[dict[str, Any]]:
    """The throw, as a legal action, for the seat holding the dice."""
    return [dict(THROW)] if seat is not None and seat == holder(table) else []


def throw(table: Any, seat: Any) -> list[tuple[int | None, Any]]:
    """Draw the throw of `seat`, who must hold the dice; the chance move for the record."""
    if seat != holder(table):
        raise ServerError("not_your_turn", "only the player holding the dice throws them")
    return [(None, table.state.sample_chance())]
