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
        # B reacted to the pair too: he sees it go in time and holds back, or is the second
        # voice (too late); either way he pays no penalty
        assert "bot B: snap — held back" in log or "bot B: snap — too late" in log
        assert app.state.false_calls == 0


async def test_a_bot_wins_a_snap_from_a_slow_human() -> None:
    app, clock = matching_app()
    async with app.run_test() as pilot:
        await pilot.press("f")
        clock.ms = 3000.0
        app.tick()
        await pilot.press("space")  # the pile is gone: the human's call is now false
        log = "\n".join(str(line.text) for line in app.query_one("RichLog").lines)
        assert "bot B: snap — first correct call" in log
        assert "you: snap — nothing to call: A calls Snap with no match and pays" in log
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


def test_the_rules_page_names_the_keys_the_snap_table_binds() -> None:
    """docs/rules/snap.md told players to press `s` to call Snap; `s` saves the game, and the
    call is `space` (Snap, or a slap in Slap the Elephant)."""
    import re
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "rules" / "snap.md").read_text()
    line = re.search(r"Keys: (.*?)\.\s*The board", page, re.S)
    assert line is not None
    said = dict(re.findall(r"`([^`]+)` ([a-zA-Z][a-zA-Z ]*)", line.group(1)))
    bound = {b.key: b.action for b in SnapApp.BINDINGS if not b.key.startswith("ctrl+")}
    aliases = {"?": "question_mark"}
    assert {aliases.get(k, k) for k in said} == set(bound)
    for key, words in said.items():
        action = bound[aliases.get(key, key)]
        assert any(w in action.lower() for w in words.lower().split()), (key, words, action)


async def test_a_false_slap_says_what_it_cost_in_the_games_words() -> None:
    """A false slap with too few centre cards to share costs nothing; the log said 'penalty'."""
    clock = Clock()
    state = dealt("slap-the-elephant", [["kite"], ["fish"], ["owl"]])
    app = SnapApp(state=state, level="easy", seed=1, clock=clock, tick_s=None)
    async with app.run_test() as pilot:
        await pilot.press("f")  # a kite on the centre: nothing to slap
        await pilot.press("space")
        log = " ".join(" ".join(str(line.text) for line in app.query_one("RichLog").lines).split())
        assert "you: slap — nothing to call: A wrongly slaps at a kite" in log
        assert "too few cards to share" in log and "penalty" not in log
        assert [len(p) for p in app.state.pack] == [17, 17, 17]  # nothing was paid


async def test_a_tick_after_the_board_is_gone_does_nothing() -> None:
    """A tick that fired while the app was closing raised NoMatches('#board') (seen once in
    a run of random key presses); the game must not move on with nothing drawn either."""
    app, clock = matching_app()
    async with app.run_test() as pilot:
        await pilot.press("f")
        flips = app.state.view(0)["flips"]
        await app.query_one("#board").remove()
        clock.ms = 5000.0  # B's flip came due meanwhile
        app.tick()
        assert app.state.view(0)["flips"] == flips
