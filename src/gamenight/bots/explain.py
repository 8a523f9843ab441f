"""Why a bot chose its move, in a sentence a player reads at the table.

Reads the bots' own figures (Shake's exact expected values) without changing how they play, so
a bot that shakes on to 1,900 points explains itself instead of looking broken.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine import State

from .shake_bot import STEP, TurnPlan, sensible_stop, shake_values


def explain(state: State, seat: int, action: dict[str, Any], plan: object = None) -> str | None:
    """Why ``seat`` plays ``action`` in ``state`` (before it is applied), or None if obvious;
    ``plan``: the search bot's plan for the turn, if it has one."""
    if state.game.id == "shake":
        if isinstance(plan, TurnPlan):
            planned = explain_plan(state, seat, action, plan)
            if planned:
                return planned
        return explain_shake(state, seat, action)
    return None


def explain_plan(state: State, seat: int, action: dict[str, Any], plan: TurnPlan) -> str | None:
    """Shake: a search bot's shake or stop where its plan for the turn is not the sensible one."""
    view = state.view(seat)
    usual = sensible_stop(state.game.options.scoring_faces)  # type: ignore[attr-defined]
    if (plan.seat, plan.round) != (seat, view["round"]) or plan.stop_at == usual:
        return None
    name, kind = state.seat_name(seat), action.get("type")
    why = f"not the usual {_n(usual)}: its search finds that wins more often"
    if kind == "shake" and view["phase"] in ("choose", "shaken"):
        return f"{name} shakes on to {_n(plan.stop_at)} this turn, {why}"
    if kind == "stop" and view["phase"] == "shaken":
        return f"{name} stops at {_n(view['shake_points'])}, its stop this turn, {why}"
    return None


def _n(x: float) -> str:
    return f"{x:,.0f}"


def explain_shake(state: State, seat: int, action: dict[str, Any]) -> str | None:
    """Shake: the expected gain of one more shake against the risk to the points in hand."""
    view = state.view(seat)
    k: int = state.game.options.scoring_faces  # type: ignore[attr-defined]
    name = state.seat_name(seat)
    phase, kind = view["phase"], action.get("type")
    if phase == "choose" and kind in ("take", "shake"):
        die = view["rolled_points"][seat]
        worth = shake_values(k)[0]
        if kind == "shake":
            return f"{name} gives up {die} to shake: a shake turn averages {_n(worth)} points"
        return f"{name} takes {die}: a shake turn averages only {_n(worth)} points"
    if phase != "shaken" or kind not in ("shake", "stop"):
        return None
    points = view["shake_points"]
    risk = ((6 - k) / 6) ** 6  # six blanks: the points in hand are lost
    gain = 6 * (k / 6) * STEP  # points one more shake adds on average
    odds = f"expected gain +{_n(gain)} against a {risk:.1%} risk to {_n(points)} in hand"
    if view["all_shake_round"]:
        players = view["players"]
        mine = players[seat]["total"] + points
        best = max(p["total"] for s, p in enumerate(players) if s != seat)
        if kind == "shake" and mine <= best:
            return f"{name} shakes on: {_n(mine)} would not beat the leader's {_n(best)}"
        if kind == "stop" and mine > best:
            return f"{name} stops: {_n(mine)} already beats every rival ({odds})"
    verb = "shakes on" if kind == "shake" else "stops"
    return f"{name} {verb}: {odds} (expected loss {_n(risk * points)})"
