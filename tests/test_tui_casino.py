"""The casino table in Textual, driven headless by a Pilot."""

from __future__ import annotations

import pytest
from rich.console import Console

from gamenight.tui.casino import CasinoApp, layout_table, parse_command


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


async def type_command(pilot, text: str) -> None:
    await pilot.click("#command")
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


async def test_hot_seat_human_wagers_and_dealer_enters_live_dice() -> None:
    app = CasinoApp(players=2, bots={1: "field"}, live=True, payouts={"hard6": "8:1"})
    async with app.run_test(size=(160, 50)) as pilot:
        s = app.state
        await type_command(pilot, "wager num6 10")
        await type_command(pilot, "accept")
        await type_command(pilot, "roll")
        assert s.phase == "rolling" and s.wagers_of(1) == {"field": 5}
        await type_command(pilot, "dice 3 3")
        assert s.view()["lit"] == ["hard6", "hardway_combo", "num6"]
        screen = Console(width=160, record=True)
        screen.print(layout_table(s))
        assert "8:1" in screen.export_text()  # the table's own payout is on the layout
        await type_command(pilot, "amend 4 2")
        await type_command(pilot, "settle")
        assert s.ledger["seat0"] == 1000 - 10 + 10 and s.results == [6]
        assert "6" in str(app.query_one("#results").render())


async def test_bad_command_changes_nothing_and_is_shown() -> None:
    app = CasinoApp(players=1)
    async with app.run_test() as pilot:
        before = app.state.view()
        await type_command(pilot, "wager pass_line 10")
        assert app.state.view() == before
        await type_command(pilot, "roll")
        assert app.state.view() == before


async def test_bots_play_on_their_own_when_not_live() -> None:
    app = CasinoApp(players=2, bots={0: "benchmark", 1: "numbers"}, max_rolls=30)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.state.is_terminal() and app.state.rolls == 30
