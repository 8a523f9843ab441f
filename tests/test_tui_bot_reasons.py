"""The table says why a Shake bot shakes on or stops, from the bot's own expected values."""

from __future__ import annotations

from typing import Any

import gamenight
from gamenight.bots.explain import explain
from gamenight.bots.shake_bot import ShakeBot, keeps_shaking
from gamenight.tui.app import GameApp
from tui_tables import SIZE, screen_text


def first_shake() -> Any:
    """A Shake state just after somebody's first shake of an ordinary round, and that seat."""
    state = gamenight.new_game("shake", players=2, rounds=3).new_state(seed=1)
    for _ in range(500):
        view = state.view()
        if view["phase"] == "shaken" and not view["all_shake_round"]:
            return state, view["shaker"]
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            kinds = [a["type"] for a in state.legal_actions(seat)]
            act = {"type": "shake"} if "shake" in kinds else state.legal_actions(seat)[0]
            state.apply(act, seat)
    raise AssertionError("no shake happened")


def test_the_reason_quotes_gain_risk_and_points_in_hand() -> None:
    state, seat = first_shake()
    points = state.view()["shake_points"]
    why = explain(state, seat, {"type": "shake"})
    assert why is not None
    assert "expected gain +30" in why and "1.6% risk" in why and f"{points:,} in hand" in why


def test_the_bot_stops_where_the_expected_loss_passes_the_gain() -> None:
    # with 3 scoring faces a shake adds 30 on average and risks 1/64 of the points in hand:
    # the gain wins below 1,920 and loses above it, which is where the bot stops
    assert keeps_shaking(1850, 3) and not keeps_shaking(1930, 3)


async def test_a_bots_reason_is_on_screen_while_it_plays() -> None:
    game = gamenight.new_game("shake", players=2, rounds=2)
    app = GameApp(game, ["human", "bot"], 2, bot_delay=0, bots={1: ShakeBot()})
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3000):
            if app.state.is_terminal() or "expected gain" in app.why:
                break
            if app.waiting_throw is not None:
                await pilot.press("space")
            elif app.keymap:
                await pilot.press("1")
            else:
                await pilot.pause()
        assert "expected gain +30" in app.why
        assert "expected gain" in screen_text(app)


async def test_a_long_reason_is_shown_whole_at_80_columns() -> None:
    """At 80x24 the status bar cut '... 1,270 in hand (expected' off before 'loss 20)'."""
    game = gamenight.new_game("shake", players=2, rounds=2)
    app = GameApp(game, ["human", "bot"], 2, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        why = (
            "F shakes on: expected gain +30 against a 1.6% risk to 1,270 in hand (expected loss 20)"
        )
        app.set_status("F bot is thinking …", why)
        await pilot.pause()
        status = app.query_one("#status")
        rows = screen_text(app).splitlines()[status.region.y : status.region.bottom]
        shown = " ".join(" ".join(rows).split())
        assert "F bot is thinking" in shown and "(expected loss 20)" in shown
