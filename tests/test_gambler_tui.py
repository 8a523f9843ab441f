"""The Gambler terminal table, driven headless with Textual's Pilot."""

from __future__ import annotations

import gamenight
from gamenight.tui.gambler import GamblerApp
from tui_tables import SIZE, screen_text


async def test_keys_buy_roll_and_refuse_bad_input() -> None:
    state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=5)
    app = GamblerApp(state, seat=0, seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert state.actors()[0] == 0  # B may also take an IOU at any time
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


async def test_a_key_not_open_now_is_refused_in_words_not_as_a_dict() -> None:
    """After doubles, r showed "{'type': 'roll'} is not allowed in the 'doubles' phase"."""
    state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=5)
    state.apply({"type": "roll"}, 0)
    state.apply({"type": "dice", "faces": [2, 2]})
    app = GamblerApp(state, seat=0, seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        moves = len(state.moves)
        await pilot.press("r")
        screen = screen_text(app)
        assert len(state.moves) == moves and state.view()["phase"] == "doubles"
        assert "not now: r (roll the dice and move) is not open at this point" in screen
        assert "{" not in screen and "'doubles'" not in screen
        assert "a roll again" in screen  # the keys that are open stay listed


async def test_the_claim_key_names_the_money_waiting_at_start() -> None:
    """Two passes of Start in one turn owe $200 (each pass pays $100); the keys bar said
    "claim the $100 from Start" whatever was waiting."""
    state = gamenight.new_game("gambler", players=2, first_player=0).new_state(seed=5)
    state.position[0] = 20
    state.apply({"type": "roll"}, 0)
    state.apply({"type": "dice", "faces": [4, 2]})  # past Start to space 2, Fortune
    state.apply({"type": "fortune", "card": 13})  # go straight to Start: a second pass
    app = GamblerApp(state, seat=0, seed=5, bot_delay=0)
    async with app.run_test(size=SIZE):
        screen = screen_text(app)
        assert "c claim the $200 from Start" in screen


async def test_in_a_sweepstakes_the_marker_points_at_the_seat_placing_a_marker() -> None:
    """Hot seat: B called a Sweepstakes and A was to place a marker, but ▶ stayed on B (the
    seat whose turn it is) while the keys bar said 'A:': two friends, two answers."""
    state = gamenight.new_game("gambler", players=3, first_player=0).new_state(seed=5)
    state.apply({"type": "roll"}, 0)
    state.apply({"type": "dice", "faces": [2, 2]})
    state.apply({"type": "sweepstakes"}, 0)
    app = GamblerApp(state, seats=["human", "human", "bot"], seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert "Sweepstakes: A, press a key" in screen_text(app)
        await pilot.press("d")  # A's marker on Pairs; B places next
        assert state.view()["current"] == 0 and state.actors()[0] == 1
        screen = screen_text(app)
        assert "Sweepstakes: B, press a key" in screen
        marked = [line for line in screen.splitlines() if "▶" in line]
        assert len(marked) == 1 and "▶B" in marked[0].replace(" ", ""), marked
