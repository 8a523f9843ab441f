"""The Gambler terminal table, driven headless with Textual's Pilot."""

from __future__ import annotations

import gamenight
from gamenight.tui.gambler import GamblerApp
from tui_tables import SIZE, screen_text


async def test_keys_buy_roll_and_refuse_bad_input() -> None:
    state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=5)
    app = GamblerApp(state, seat=0, seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert state.actors() == [0]
        await pilot.press("b")
        assert len(state.view()["players"][0]["tickets"]) == 1
        await pilot.press("p")  # repay without an IOU: refused, nothing changes
        assert not state.view()["players"][0]["iou"]
        assert "not now" in screen_text(app)
        moves = len(state.moves)
        await pilot.press("r")
        assert len(state.moves) > moves
        screen = screen_text(app)
        assert "Start" in screen and "Sweepstakes" in screen and "Shaker" in screen
        assert "$100" in screen and "tickets" in screen  # money and tickets in words


async def test_marker_keys_place_markers_with_odds_shown() -> None:
    state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=5)
    state.apply({"type": "roll"}, 0)
    state.apply({"type": "dice", "faces": [2, 2]})
    state.apply({"type": "sweepstakes"}, 0)
    app = GamblerApp(state, seat=0, seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_text(app)
        assert "59.8%" in screen and "Pairs" in screen  # 4651/7776 as a percentage
        assert "pairs" not in screen and "4651" not in screen  # no raw ids or fractions
        await pilot.press("d")
        assert state.view()["phase"] != "marker" or state.view()["markers"].get("pairs") == 0
        assert any("marker on pairs" in e for e in state.events())
