"""Hypothesis: under random flips and calls (false ones too) all 52 cards stay on the table and
no seat's view ever shows a face-down card."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamenight
from gamenight import IllegalAction
from gamenight.games.snap.deck import full_deck


def shown_cards(view: dict) -> Counter[str]:
    cards: Counter[str] = Counter(view["center"])
    for p in view["players"]:
        cards.update(p["face_up"])
    return cards


def check(state) -> None:
    face_up: Counter[str] = Counter(state.center)
    for pile in getattr(state, "up", []):
        face_up.update(pile)
    for seat in [None, *range(state.players)]:
        view = json.loads(json.dumps(state.view(seat)))
        assert all(type(p["pack"]) is int for p in view["players"])
        assert shown_cards(view) == face_up  # only face-up cards are named
        counted = (
            sum(p["pack"] + len(p["face_up"]) for p in view["players"])
            + len(view["center"])
            + view["undealt"]
            + view.get("shuffling", 0)
        )
        assert counted == 52
    every: Counter[str] = face_up + state.undealt + getattr(state, "shuffle_pool", Counter())
    for pack in state.pack:
        every.update(pack)
    assert every == full_deck()


@given(
    game_id=st.sampled_from(["snap", "slap-the-elephant"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**16),
    moves=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2)), max_size=300),
)
def test_cards_are_conserved_and_face_down_cards_stay_hidden(game_id, players, seed, moves):
    state = gamenight.new_game(game_id, players=players, max_flips=200).new_state(seed=seed)
    for seat, pick in moves:
        if state.is_terminal():
            break
        if state.is_chance():
            state.sample_chance()
        else:
            seat %= players
            if state.out[seat]:  # a seat that is out is refused, and nothing changes
                before = state.view()
                with pytest.raises(IllegalAction, match="out of the game"):
                    state.apply({"type": state.CALLS[pick % len(state.CALLS)]}, seat)
                assert state.view() == before
                continue
            calls = [a for a in state.legal_actions(seat) if a["type"] != "flip"]
            if pick == 0 or not calls:
                if state.turn in state.actors():
                    state.apply({"type": "flip"}, state.turn)
            else:
                state.apply(calls[pick % len(calls)], seat)
        check(state)
