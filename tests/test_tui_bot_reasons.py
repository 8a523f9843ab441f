"""The table says why a Shake bot shakes on or stops, from the bot's own expected values."""

from __future__ import annotations

from typing import Any

import gamenight
from gamenight.bots.explain import explain
from gamenight.bots.shake_bot import ShakeBot, TurnPlan, keeps_shaking, sensible_stop
from gamenight.tui.app import GameApp
from tui_tables import SIZE, human_key, screen_text


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


def test_a_search_bots_own_stop_is_given_as_its_reason() -> None:
    """A search bot that stops early (or shakes on past the usual stop) says it follows its
    plan for the turn; a plan at the usual stop leaves the usual reason."""
    state, seat = first_shake()
    points = state.view()["shake_points"]
    early = TurnPlan(seat, state.view()["round"], points, tuple(state.scores))
    why = explain(state, seat, {"type": "stop"}, early)
    assert why is not None and f"stops at {points:,}, its stop this turn" in why
    assert "not the usual 1,920" in why
    late = early._replace(stop_at=3000)
    why = explain(state, seat, {"type": "shake"}, late)
    assert why is not None and "shakes on to 3,000 this turn" in why
    usual = early._replace(stop_at=sensible_stop(3))
    assert explain(state, seat, {"type": "shake"}, usual) == explain(state, seat, {"type": "shake"})
    other = early._replace(seat=1 - seat)  # another seat's plan says nothing of this one
    assert explain(state, seat, {"type": "stop"}, other) == explain(state, seat, {"type": "stop"})


async def test_a_game_against_the_search_bot_at_the_terminal(tmp_path: Any) -> None:
    """The search bot thinks in a worker thread on a copy of the table (its thinking never
    freezes the keys): a whole short game against it ends, every move legal."""
    game = gamenight.new_game("shake", players=2, rounds=1)
    app = GameApp(game, ["human", "bot"], 3, bot_delay=0, save_path=tmp_path / "g.json",
                  bot="mcts-50")  # fmt: skip
    assert getattr(app.bots[1], "thinks", False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(10_000):  # a bound on steps (keys, thoughts, dice), not on time
            if app.state.is_terminal():
                break
            key = human_key(app)
            if key is None:  # the bot thinks, or the dice roll: wait for the thought to land
                await app.workers.wait_for_complete()
                await pilot.pause()
            else:
                await pilot.press(key)
        assert app.state.is_terminal()
        assert gamenight.replay(app.state.record()).returns() == app.state.returns()
        assert "Game over" in screen_text(app)
