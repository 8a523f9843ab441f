"""Every terminal table at 80x24 through Textual's Pilot: one key map, help, save, quit, a game.

The same tests run over every table (Snake Eyes, Shake, Gambler, the casino, Snap, Slap the
Elephant) so the key map and the dialogs cannot drift apart from table to table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, RichLog

import gamenight
from gamenight.tui.base import NEW_GAME, ConfirmQuit, HelpScreen, SaveScreen
from gamenight.tui.rules_help import RULES
from tui_tables import SIZE, TABLES, notices, play_out, screen_text

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
        # a saved turn-based game plays on with --resume; a real-time one only replays
        resumable = game_id not in ("snap", "slap-the-elephant")
        assert (f"gamenight play {game_id} --resume FILE" in shown["s"]) == resumable
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
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        good = tmp_path / "saved [1].json"  # a bracket in the name must not break the message
        await save_to(pilot, app, str(good))
        record = json.loads(good.read_text())
        assert record["game"] == game_id
        assert gamenight.replay(record).record()["moves"] == record["moves"]
        assert any("saved" in text for _, text in said), said
        for bad in (tmp_path / "no such dir" / "g.json", tmp_path):  # missing dir; a directory
            await save_to(pilot, app, str(bad))
            assert app.is_running and not isinstance(app.screen, SaveScreen)
            errors = [text for severity, text in said if severity == "error"]
            assert errors and "could not save" in errors[-1], said
        moves = len(app.state.moves)
        await play_out(app, pilot, limit=60)  # the game goes on after a failed save
        assert len(app.state.moves) > moves or app.state.is_terminal()


@pytest.mark.parametrize("game_id", GAMES)
async def test_saving_over_a_file_the_table_did_not_write_asks_first(
    game_id: str, tmp_path: Path
) -> None:
    """A path typed into the save dialog silently replaced any file there (a table file, a
    record of another game)."""
    app = TABLES[game_id](tmp_path)
    other = tmp_path / "table.json"
    other.write_text('{"players": 3}')
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot, limit=3)
        await save_to(pilot, app, str(other))
        assert isinstance(app.screen, SaveScreen)  # still asking, the file untouched
        assert other.read_text() == '{"players": 3}'
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
        assert "already exists: enter again replaces it, or change the name" in shown
        await pilot.press("enter")  # enter again: replace it
        await pilot.pause()
        assert not isinstance(app.screen, SaveScreen)
        assert json.loads(other.read_text())["game"] == game_id
        await play_out(app, pilot, limit=3)
        await save_to(pilot, app, str(other))  # the table's own file: replaced at once
        assert not isinstance(app.screen, SaveScreen)
        assert len(json.loads(other.read_text())["moves"]) == len(app.state.moves)


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


@pytest.mark.parametrize("game_id", GAMES)
async def test_n_deals_a_new_game_once_the_game_is_over(game_id: str, tmp_path: Path) -> None:
    """At the end of a game the only way to play again was to quit and type a command. Before
    the end n stays the table's own key (the casino's "pass the dice") and deals nothing."""
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot, limit=3)
        assert app.state.moves and not app.state.is_terminal()
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and "new game" not in screen_text(app)
        await play_out(app, pilot)
        assert app.state.is_terminal()
        await pilot.pause()
        assert "n new game" in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and "n" in dict(app.screen.keys)
        await pilot.press("n")  # not while a dialog is open
        await pilot.pause()
        assert app.is_running
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert not app.is_running
    assert app.return_value == NEW_GAME


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_long_log_line_wraps_inside_the_log_at_80x24(game_id: str, tmp_path: Path) -> None:
    """The Snap call log at 80x24 read 'B snaps their fingers fir' / 'at the mouse': a log drew
    its lines 78 cells wide (Textual's default) and the scrollbar hid the last letters."""
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(RichLog)
        # the call that lost its letters: its first 78 cells end in "first"
        line = "  58.24s bot B: snap_fingers — first correct call: B snaps their fingers first at the mouse and takes 5 cards"  # noqa: E501
        for _ in range(30):  # enough lines for the scrollbar to show
            log.write(line)
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert log.show_vertical_scrollbar
        assert max(strip.cell_length for strip in log.lines) <= width


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_terminal_below_80x24_is_told_figures_are_cut_off(
    game_id: str, tmp_path: Path
) -> None:
    """Resized to 60x20 the Gambler side panel showed no bankrolls and Snake Eyes cut seat
    names to '…', with nothing to say a figure was missing."""
    app = TABLES[game_id](tmp_path)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not any("80x24" in text for _, text in said)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        cut = "needs 80x24: some names and figures are cut off"
        assert sum(cut in text for _, text in said) == 1, said
