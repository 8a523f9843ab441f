"""A bot that thinks (the search bot) at the terminal: in a worker thread on a copy of the table,
its move played only where it was asked, and a table that closes meanwhile closes cleanly."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import gamenight
from gamenight.bots.shake_bot import ShakeBot
from gamenight.tui.app import GameApp
from gamenight.tui.base import HelpScreen
from tui_tables import SIZE, human_key


class HeldBot:
    """A thinking bot that decides only when the test lets it: no sleeps, no timing."""

    thinks = True

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.go = threading.Event()
        self.seen: list[Any] = []

    def act(self, state: Any, seat: int) -> dict[str, Any]:
        self.seen.append(state)
        self.asked.set()
        assert self.go.wait(60), "the test never let the bot decide"
        return ShakeBot().act(state, seat)


def bot_first(tmp_path: Path, bot: HeldBot) -> GameApp:
    """Shake with the held bot in seat A and a human in seat B."""
    game = gamenight.new_game("shake", players=2, rounds=1)
    return GameApp(game, ["bot", "human"], 2, bot_delay=0, save_path=tmp_path / "g.json",
                   bots={0: bot, 1: ShakeBot()})  # fmt: skip


async def until_asked(app: GameApp, pilot: Any, bot: HeldBot) -> None:
    """Play the human's first choices until the held bot is thinking."""
    for _ in range(10_000):  # a bound (about 100 s) instead of a hang if it never comes
        if bot.asked.is_set():
            return
        key = human_key(app)  # the human's throw or choice, on the way to the bot's turn
        if key is None:
            await pilot.pause(0.01)
        else:
            await pilot.press(key)
    raise AssertionError("the bot was never asked")


async def release(app: GameApp, pilot: Any, bot: HeldBot) -> None:
    """Let the held bot decide, and wait until its thought has landed."""
    bot.go.set()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_bot_thinks_on_a_copy_and_its_move_lands_on_the_table(tmp_path: Path) -> None:
    bot = HeldBot()
    app = bot_first(tmp_path, bot)
    async with app.run_test(size=SIZE) as pilot:
        await until_asked(app, pilot, bot)
        before = len(app.state.moves)
        assert bot.seen[0] is not app.state  # a copy: the live table is never read in a thread
        held = set(app.thoughts)
        await pilot.press("question_mark")  # the screen answers keys while the bot thinks
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await release(app, pilot, bot)
        assert len(app.state.moves) == before  # the move waits while the dialog is open
        await pilot.press("escape")
        for _ in range(2400):  # then it is played (the wait re-arms every 0.1 s): up to 2 min
            if len(app.state.moves) > before:
                break
            await pilot.pause(0.05)
        # its thought is done with (the bot's next decision may be under way already)
        assert len(app.state.moves) > before and not held & set(app.thoughts)


async def test_a_thought_for_a_table_that_moved_on_is_dropped(tmp_path: Path) -> None:
    bot = HeldBot()
    app = bot_first(tmp_path, bot)
    async with app.run_test(size=SIZE) as pilot:
        await until_asked(app, pilot, bot)
        fresh = app.game.new_state(seed=9)  # as a resumed or new game replaces the table
        app.state = fresh
        await release(app, pilot, bot)
        assert fresh.moves == []  # the old table's move was not played on the new one
        assert not app.thoughts


async def test_a_table_closed_while_the_bot_thinks_closes_cleanly(tmp_path: Path) -> None:
    bot = HeldBot()
    app = bot_first(tmp_path, bot)
    async with app.run_test(size=SIZE) as pilot:
        await until_asked(app, pilot, bot)
        moves = len(app.state.moves)
        app.exit()
        bot.go.set()
        await pilot.pause()
    assert not app.is_running and len(app.state.moves) == moves
