"""A game's history: (seat, action) pairs kept as two flat lists, read like a list of pairs."""

from __future__ import annotations

import gc

import gamenight
from gamenight.engine import History


def test_history_reads_like_a_list_of_moves() -> None:
    h = History()
    roll, dice = {"type": "roll"}, {"type": "dice", "faces": [3, 4]}
    h.append(0, roll)
    h.append(None, dice)
    assert len(h) == 2
    assert list(h) == [(0, roll), (None, dice)]
    assert h[1] == (None, dice) and h[-1] == (None, dice)
    assert h[:1] == [(0, roll)]
    assert h == [(0, roll), (None, dice)] and h != [(0, roll)]
    other = History()
    other.append(0, {"type": "roll"})
    assert h != other
    other.append(None, {"type": "dice", "faces": [3, 4]})
    assert h == other


def test_a_long_session_leaves_nothing_for_the_cycle_collector() -> None:
    """A casino session of drawn rolls adds no tracked objects per roll: its history holds the
    bot's and the draw's shared actions, and its log holds tuples of strings and numbers."""
    from gamenight.analysis.simulate import play_out
    from gamenight.bots.casino_bot import CasinoBot

    def tracked_after(rolls: int) -> int:
        game = gamenight.new_game("snake-eyes-casino", players=1, bankroll=10**9, max_rolls=rolls)
        state = play_out(game.new_state(seed=5), [CasinoBot(seed=5, strategy="benchmark")])
        gc.collect()
        objects = {id(x): x for x in (*state.moves.actions, *state._events)}.values()
        return sum(gc.is_tracked(x) for x in objects)

    assert tracked_after(4000) == tracked_after(400)
