"""Every terminal table at 80x24 through Textual's Pilot: one key map, help, save, quit, a game.

The same tests run over every table (Snake Eyes, Shake, Gambler, the casino, Snap, Slap the
Elephant) so the key map and the dialogs cannot drift apart from table to table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

import gamenight
from gamenight.tui.base import ConfirmQuit, HelpScreen, SaveScreen
from gamenight.tui.rules_help import RULES
from tui_tables import SIZE, TABLES, play_out, screen_text

GAMES = sorted(TABLES)


def test_every_registered_game_has_a_table_and_rules() -> None:
    assert set(TABLES) == set(gamenight.list_games()) == set(RULES)


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_whole_game_with_bots_at_80x24(game_id: str, tmp_path: Path) -> None:
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        presses = await play_out(app, pilot)
        assert app.state.is_terminal()
        if game_id not in ("snap", "slap-the-elephant"):  # there the human only auto-flips
            assert presses > 0, "the human in seat A got to play"
        text = screen_text(app)
        assert app.state.game.title.split(" (")[0] in str(app.title)
        assert "seed 4" in str(app.title) and "A you" in str(app.title)
        assert "q" in text and "help" in text  # the footer's keys are on screen
        # q at the end of a game quits at once
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("game_id", GAMES)
async def test_help_lists_every_key_and_the_rules_and_pauses_bots(
    game_id: str, tmp_path: Path
) -> None:
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = dict(app.screen.keys)
        for key in ("?", "s", "q"):
            assert key in shown
        for key, _what in app.TABLE_KEYS:
            assert key in shown
        assert app.screen.rules == RULES[game_id]
        moves = len(app.state.moves)
        for _ in range(20):  # bots and dice wait while the dialog is open
            if hasattr(app, "clock"):
                app.clock.ms += 2000  # type: ignore[attr-defined]
                app.tick()  # type: ignore[attr-defined]
            await pilot.pause()
        assert len(app.state.moves) == moves
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def save_to(pilot, app, path: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("s")
    await pilot.pause()
    assert isinstance(app.screen, SaveScreen)
    app.screen.query_one(Input).value = path
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("game_id", GAMES)
async def test_save_to_a_good_and_to_a_bad_path(game_id: str, tmp_path: Path) -> None:
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        good = tmp_path / "saved [1].json"  # a bracket in the name must not break the message
        await save_to(pilot, app, str(good))
        record = json.loads(good.read_text())
        assert record["game"] == game_id
        assert gamenight.replay(record).record()["moves"] == record["moves"]
        assert any("saved" in str(n.message) for n in app._notifications)  # noqa: SLF001
        for bad in (tmp_path / "no such dir" / "g.json", tmp_path):  # missing dir; a directory
            await save_to(pilot, app, str(bad))
            assert app.is_running and not isinstance(app.screen, SaveScreen)
            errors = [n for n in app._notifications if n.severity == "error"]  # noqa: SLF001
            assert errors and "could not save" in str(errors[-1].message)
        moves = len(app.state.moves)
        await play_out(app, pilot, limit=60)  # the game goes on after a failed save
        assert len(app.state.moves) > moves or app.state.is_terminal()


@pytest.mark.parametrize("game_id", GAMES)
async def test_quit_mid_game_asks_first(game_id: str, tmp_path: Path) -> None:
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot, limit=3)
        assert app.state.moves and not app.state.is_terminal()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ConfirmQuit)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
