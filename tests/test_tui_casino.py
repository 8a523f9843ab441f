"""The casino table in Textual at 80x24, driven headless by a Pilot: keys, mouse, dealer."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, RichLog

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
    assert parse_command("force slow play") == (
        {"type": "force_give_up", "reason": "slow play"},
        True,
    )
    with pytest.raises(ValueError, match="cannot read"):
        parse_command("wager hard6 lots")


def test_every_area_says_when_it_wins_what_it_pays_and_the_edge() -> None:
    assert pays_text("hard6", "8:1") == "8:1"
    assert pays_text("field", "option-1") == "1:1; 2 pays 3:1, 12 pays 2:1"
    assert pays_text("field", "option-3") == "1:1; 2 pays 3:1"
    text = describe("hard6", "9:1", 1 / 11)
    assert "wins on 3+3" in text and "an easy 6" in text and "any 7" in text
    assert "Pays 9:1" in text and "9.09%" in text
    assert "one roll" in describe("any7", "4:1", 1 / 6)


async def test_the_field_is_described_whole_at_80x24() -> None:
    """Its sentence listed every total's payout and ran past the two lines of the panel."""
    app = CasinoApp(players=1, seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one("#layout", DataTable)
        table.move_cursor(row=WAGER_IDS.index("field"))
        await pilot.pause()
        about = app.query_one("#about")
        rows = screen_text(app).splitlines()[about.region.y : about.region.bottom]
        shown = " ".join(" ".join(rows).split())
        assert "Field: one roll" in shown and "Pays 1:1; 2 pays 3:1, 12 pays 2:1" in shown
        assert shown.endswith("(its average take per chip).")


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


async def test_saving_does_not_send_the_path_to_the_dealer_line(tmp_path: Path) -> None:
    """The save dialog's enter also reached the table: its path was run as a dealer command
    ('cannot read ...' in red in the log)."""
    app = CasinoApp(players=1, seed=0, bot_delay=0, live=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "rec.json")
        await pilot.press("enter")
        await pilot.pause()
        assert (tmp_path / "rec.json").is_file()
        log = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
        assert "cannot read" not in log and "rec.json" not in log


async def test_the_dealer_line_refuses_a_seat_the_table_does_not_have() -> None:
    """'seat 9' at a two-seat table closed the table with an IndexError at the next chip."""
    game = gamenight.new_game("snake-eyes-casino", players=2, live=True)
    app = CasinoApp(game=game, seats=["human", "human"], seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for typed in ("seat 9", "seat Z", "seat", "seat 1 2"):
            await type_command(pilot, typed)
            assert app.seat is None
        await pilot.press("plus")
        assert app.is_running and app.state.bets[0] == {"hard4": 5}
        log = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
        assert "no seat '9': seat A-B or seat off" in log
        await type_command(pilot, "seat b")  # the letter the layout shows
        assert app.seat == 1
        await type_command(pilot, "seat off")
        assert app.seat is None


async def test_a_typed_seat_is_not_told_the_dice_are_offered_to_it() -> None:
    """With 'seat 1' typed, the keys panel said 'B: dice offered' while A was offered them."""
    game = gamenight.new_game("snake-eyes-casino", players=2, live=True)
    app = CasinoApp(game=game, seats=["human", "human"], seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.phase == "offer" and app.state.actors() == [0]
        assert "A: dice offered" in " ".join(screen_text(app).split())
        await type_command(pilot, "seat 1")
        shown = " ".join(screen_text(app).split())
        assert "B: bet" in shown and "dice offered" not in shown


async def test_dice_typed_before_the_roll_say_who_is_still_to_act() -> None:
    """'dice 3 4' typed while players still bet answered 'a chance move (seat None) was given,
    but a player is to act (C, A)': engine words, not a dealer's."""
    game = gamenight.new_game("snake-eyes-casino", players=3, live=True)
    app = CasinoApp(game=game, seats=["human"] * 3, seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await type_command(pilot, "accept")
        moves = len(app.state.moves)
        for typed in ("dice 3 4", "settle", "amend 2 2", "void oops"):
            await type_command(pilot, typed)
        assert len(app.state.moves) == moves and not app.state.is_chance()
        log = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
        assert "seat None" not in log
        assert "not yet: the dice are entered once the shooter rolls (B, C, A to act first)" in log


async def test_a_hot_seat_bettor_is_told_in_words_who_shoots() -> None:
    """Three friends at one keyboard: after A took the dice the keys panel said 'B: bet' and
    only a ▶ beside A, a symbol a screen reader skips, said who would roll."""
    game = gamenight.new_game("snake-eyes-casino", players=3)
    app = CasinoApp(game=game, seats=["human"] * 3, seed=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")  # A accepts the dice
        await pilot.pause()
        assert app.state.shooter == 0 and app.acting == 1
        assert "B: bet (A shoots)" in screen_text(app)
