"""The table on a phone (360x740): the moves bar stuck to the bottom of the screen never hides
what the player has to see or press, and the turn line speaks to the player, not about them."""

from __future__ import annotations

from typing import Any

from .conftest import Server
from .test_tables import BOT, HUMAN, sit, start_with


def test_the_turn_line_does_not_name_the_player_on_their_own_turn(
    server: Server, context: Any
) -> None:
    """The line read "Your turn · Sam turns up a card" to Sam."""
    for game in ("snap", "snake-eyes", "shake"):
        tid, token = start_with(server, game, [HUMAN, BOT])
        page = sit(context, server, tid, 0, token, "Sam")
        page.wait_for_selector("#turn.mine")
        turn = page.locator("#turn").inner_text()
        assert turn.startswith("Your turn") and "Sam" not in turn, (game, turn)
        page.close()
