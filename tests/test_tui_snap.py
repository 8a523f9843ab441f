"""The Snap terminal table, driven headless by Textual's Pilot with a scripted clock."""

from __future__ import annotations

from gamenight.tui.snap import SnapApp
from snap_helpers import dealt


class Clock:
    def __init__(self) -> None:
        self.ms = 0.0

    def __call__(self) -> float:
        return self.ms


def matching_app(level: str = "expert") -> tuple[SnapApp, Clock]:
    clock = Clock()
    state = dealt("snap", [["kite"], ["kite"]])
    return SnapApp(state=state, level=level, seed=1, clock=clock, tick_s=None), clock


async def test_scripted_human_beats_the_bot_to_a_snap() -> None:
    app, clock = matching_app()
    async with app.run_test() as pilot:
        await pilot.press("f")  # A turns up a kite
        clock.ms = 1000.0  # the bot turns up its kite at 900 ms
        app.tick()
        assert app.state.matches() == [0, 1]
        await pilot.press("space")  # the human calls before the bot's ~1.3 s reaction
        assert app.state.pack[0][-2:] == ["kite", "kite"]
        clock.ms = 4000.0
        app.tick()
        log = "\n".join(str(line.text) for line in app.query_one("RichLog").lines)
        assert "you: snap — first correct call" in log
        assert "bot B: snap — too late" in log


async def test_a_bot_wins_a_snap_from_a_slow_human() -> None:
    app, clock = matching_app()
    async with app.run_test() as pilot:
        await pilot.press("f")
        clock.ms = 3000.0
        app.tick()
        await pilot.press("space")  # the pile is gone: the human's call is now false
        log = "\n".join(str(line.text) for line in app.query_one("RichLog").lines)
        assert "bot B: snap — first correct call" in log
        assert "you: snap — nothing to call: penalty" in log
        assert "bot B" in app.board_text()


async def test_keys_change_level_and_tempo_and_refuse_out_of_turn() -> None:
    app, clock = matching_app("easy")
    async with app.run_test() as pilot:
        await pilot.press("l")
        assert app.level == "normal" and "bots: normal" in app.board_text()
        await pilot.press("a")
        assert app.table.auto_flip_humans
        await pilot.press("f")
        await pilot.press("f")  # not A's turn any more
        log = "\n".join(str(line.text) for line in app.query_one("RichLog").lines)
        assert "you cannot flip now" in log
