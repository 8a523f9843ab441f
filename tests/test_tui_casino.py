"""The casino table in Textual at 80x24, driven headless by a Pilot: keys, mouse, dealer."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

import gamenight
from gamenight.games.casino_wagers import WAGER_IDS
from gamenight.tui.casino import CasinoApp, describe, parse_command, pays_text
from tui_tables import SIZE, screen_text


def test_parse_command() -> None:
    assert parse_command("wager hard6 10") == (
        {"type": "wager", "area": "hard6", "amount": 10},
        False,
    )
    assert parse_command("dice 3 4") == ({"type": "dice", "faces": [3, 4]}, True)
    with pytest.raises(ValueError, match="cannot read"):
        parse_command("wager hard6 lots")


def test_every_area_says_when_it_wins_what_it_pays_and_the_edge() -> None:
    assert pays_text("hard6", "8:1") == "8:1"
    assert pays_text("field", "option-1") == "2 pays 3:1, 3 pays 1:1, 4 pays 1:1, 9 pays 1:1, " \
        "10 pays 1:1, 11 pays 1:1, 12 pays 2:1"  # fmt: skip
    text = describe("hard6", "9:1", 1 / 11)
    assert "wins on 3+3" in text and "an easy 6" in text and "any 7" in text
    assert "Pays 9:1" in text and "9.09%" in text
    assert "one roll" in describe("any7", "4:1", 1 / 6)


async def type_command(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.click("#command")
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


async def test_every_area_fits_at_80x24_with_payout_edge_and_chips() -> None:
    app = CasinoApp(players=3, bots={1: "field", 2: "numbers"}, seed=2, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.query_one("#layout", DataTable)
        assert table.row_count == len(WAGER_IDS)
        assert table.region.height >= len(WAGER_IDS) + 1  # every row and the header, no scroll
        screen = screen_text(app)
        for name in ("Hard 4", "Hardway Combo", "Field", "Craps 12", "11 in 1 Roll"):
            assert name in screen
        assert "9:1" in screen and "9.09%" in screen  # Hard 6's payout and house edge
        assert "[red]" not in screen and "[/" not in screen  # no literal markup


async def test_keys_place_wagers_on_the_chosen_area_and_roll() -> None:
    app = CasinoApp(players=2, bots={1: "field"}, seed=1, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        s = app.state
        await pilot.pause()
        await pilot.press("a")  # A accepts the dice and shoots
        await pilot.press("down", "plus", "plus")  # Hard 6, two chips of 5
        assert s.wagers_of(0) == {"hard6": 10}
        await pilot.press("minus")
        assert s.wagers_of(0) == {"hard6": 5}
        await pilot.press("c", "down", "down", "down", "down", "down", "plus")  # chip 25 on the 6
        assert s.wagers_of(0) == {"hard6": 5, "num6": 25}
        await pilot.press("x")
        assert s.wagers_of(0) == {"hard6": 5}
        for _ in range(5):
            await pilot.pause()
        assert s.wagers_of(1) == {"field": 5}  # the bot bet on its own, on the timer
        await pilot.press("r")
        await pilot.pause()
        assert s.rolls == 1 and len(s.results) == 1
        assert f"thrown {s.results[0]}" in screen_text(app)  # dice faces and the number


async def test_mouse_click_on_the_chosen_row_bets_a_chip() -> None:
    app = CasinoApp(players=1, seed=1, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#keys", offset=(1, 3))  # the words "a accept dice" are clickable
        await pilot.pause()
        assert app.state.shooter == 0
        row = 1 + WAGER_IDS.index("field")  # the header is row 0
        await pilot.click("#layout", offset=(3, row))  # choose Field
        await pilot.pause()
        assert app.area == "field"
        assert "Field" in screen_text(app) and "one roll" in screen_text(app)
        await pilot.click("#layout", offset=(3, row))  # click again: a chip
        await pilot.pause()
        assert app.state.wagers_of(0) == {"field": 5}
        await pilot.click("#keys", offset=(1, 1))  # "+ bet 5" in the key panel
        await pilot.pause()
        assert app.state.wagers_of(0) == {"field": 10}


async def test_refusals_are_messages_in_the_log_and_change_nothing() -> None:
    app = CasinoApp(players=1, seed=1, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.state.view()
        await pilot.press("r")  # not the shooter yet
        await pilot.press("minus")  # no chips on the area
        await pilot.pause()
        assert app.state.view() == before
        screen = screen_text(app)
        assert "not the shooter" in screen or "no chips" in screen


async def test_hot_seat_human_wagers_and_dealer_enters_live_dice() -> None:
    game = gamenight.new_game("snake-eyes-casino", players=2, live=True, payouts={"hard6": "8:1"})
    app = CasinoApp(game=game, seats=["human", "human"], seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        s = app.state
        await type_command(pilot, "wager num6 10")
        await type_command(pilot, "accept")
        await type_command(pilot, "seat 1")
        await type_command(pilot, "wager field 5")
        await type_command(pilot, "seat 0")
        await type_command(pilot, "roll")
        assert s.phase == "rolling" and s.wagers_of(1) == {"field": 5}
        await type_command(pilot, "dice 3 3")
        assert s.view()["lit"] == ["hard6", "hardway_combo", "num6"]
        assert "8:1" in screen_text(app)  # the table's own payout is on the layout
        await type_command(pilot, "amend 4 2")
        await type_command(pilot, "settle")
        assert s.ledger["seat0"] == 1000 - 10 + 10 and s.results == [6]
        assert "thrown 6" in screen_text(app)


async def test_bots_play_a_whole_session_on_their_own() -> None:
    app = CasinoApp(players=2, bots={0: "benchmark", 1: "numbers"}, max_rolls=30, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(300):
            if app.state.is_terminal():
                break
            await pilot.pause()
        assert app.state.is_terminal() and app.state.rolls == 30
