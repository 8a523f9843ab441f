"""Bots read a few public figures instead of a full view: they must decide as the view says.

Each sensible bot is checked against the same decision taken from ``view(seat)``, the picture
the seat is entitled to, at every decision of many games: a cheap read that drifted from the
view (or read something the view hides) would decide differently somewhere.
"""

from __future__ import annotations

import random
from typing import Any

import gamenight
from gamenight.bots.gambler_bot import CUSHION, GamblerBot
from gamenight.bots.shake_bot import ShakeBot, keeps_shaking, shake_values
from gamenight.engine import State
from gamenight.games.gambler.state import IOU_INTEREST, IOU_LOAN


def shake_from_view(state: State, seat: int) -> dict[str, Any]:
    """The Shake bot's rule, taken from the seat's view as the bot once did."""
    view = state.view(seat)
    k = state.game.options.scoring_faces
    if view["phase"] == "choose":
        die = view["rolled_points"][seat]
        return {"type": "shake" if shake_values(k)[0] > die else "take"}
    if view["phase"] == "shaken":
        points = view["shake_points"]
        if not view["all_shake_round"]:
            return {"type": "shake" if keeps_shaking(points, k) else "stop"}
        players = view["players"]
        mine = players[seat]["total"] + points
        best = max(p["total"] for s, p in enumerate(players) if s != seat)
        order = view["all_shake_order"]
        later = [s for s in order if s != seat and players[s]["all_shake"] is None]
        # behind a rival: shake on; ahead with nobody after: stop; else shake by expectation
        go = mine <= best or (bool(later) and keeps_shaking(points, k))
        return {"type": "shake" if go else "stop"}
    return ShakeBot().act(state, seat)  # the order phase reads legal actions only


def decisions(game_id: str, players: int, seed: int, bot: Any) -> list[tuple[State, int]]:
    """Positions where ``bot`` decides, from games it plays against random players."""
    rng = random.Random(seed)
    state = gamenight.new_game(game_id, players=players).new_state(seed=seed)
    out: list[tuple[State, int]] = []
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
            continue
        seat = state.actors()[0]
        if seat == 0:
            out.append((state.clone(), seat))
            action = bot.act(state, seat)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    return out


def test_shake_bot_decides_as_its_view_says() -> None:
    checked = 0
    for seed in range(6):
        for state, seat in decisions("shake", 2 + seed % 3, seed, ShakeBot()):
            assert ShakeBot().act(state, seat) == shake_from_view(state, seat)
            checked += 1
    assert checked > 500


def test_gambler_bot_reads_the_cash_its_view_shows() -> None:
    checked = 0
    for seed in range(6):
        for state, seat in decisions("gambler", 2 + seed % 3, seed, GamblerBot(seed)):
            cash = state.view(seat)["players"][seat]["cash"]
            assert state.ledger[state.purse[seat]] == cash
            legal = state.legal_actions(seat)
            repay = {"type": "repay_iou"} in legal and cash >= IOU_LOAN + IOU_INTEREST + CUSHION
            if repay:
                assert GamblerBot(seed).act(state, seat) == {"type": "repay_iou"}
            checked += 1
    assert checked > 100
