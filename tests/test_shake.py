"""Shake: the rulebook examples and every rule path, with fixed dice."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamenight
from gamenight import BadOption, IllegalAction, MalformedAction, NotYourTurn
from gamenight.analysis.simulate import play_out
from gamenight.bots import Bot, RandomBot
from gamenight.bots.shake_bot import ShakeBot
from gamenight.games.shake import ShakeState, crap_out_chance

A, B, C, D, E = range(5)
BLANK = [0] * 6


def table(players: int = 5, **options) -> ShakeState:
    state = gamenight.new_game("shake", players=players, **options).new_state(seed=0)
    assert isinstance(state, ShakeState)
    return state


def roll(state: ShakeState, *faces: int) -> None:
    state.apply({"type": "dice", "faces": list(faces)})


def shake(state: ShakeState, tens: int) -> None:
    state.apply({"type": "shake", "faces": [10] * tens + [0] * (6 - tens)})


def act(state: ShakeState, seat: int, kind: str) -> None:
    state.apply({"type": kind}, seat)


def pad(state: ShakeState, round_: int = 1) -> list[int | None]:
    return [p["rounds"][round_ - 1] for p in state.view()["players"]]


def snapshot(state: ShakeState) -> str:
    return json.dumps(state.view(), sort_keys=True)


def test_example_of_a_5_player_round_matching_40s_score_and_60_chooses_first() -> None:
    state = table()
    roll(state, 4, 6, 4, 2, 5)  # A and C match on 40
    view = state.view()
    assert pad(state)[A] == 40 and pad(state)[C] == 40
    assert view["choosing_order"] == [B, E, D], "remaining dice from high to low"
    assert view["to_act"] == B and state.legal_actions(B) == [{"type": "take"}, {"type": "shake"}]
    assert state.legal_actions(E) == []


def test_example_of_a_shake_40_then_70_then_crap_out_scores_zero() -> None:
    state = table(players=2)
    roll(state, 5, 2)
    act(state, A, "shake")
    assert pad(state)[B] == 20, "the other player must score the die"
    shake(state, 4)
    assert state.view()["shake_points"] == 40
    act(state, A, "shake")
    shake(state, 3)
    assert state.view()["shake_points"] == 70
    assert state.legal_actions(A) == [{"type": "shake"}, {"type": "stop"}]
    act(state, A, "shake")
    state.apply({"type": "shake", "faces": BLANK})
    assert pad(state)[A] == 0
    assert state.view()["players"][A]["crap_outs"] == 1
    assert state.view()["round"] == 2 and state.is_chance()


def test_all_equal_dice_are_rolled_again() -> None:
    state = table(players=3)
    roll(state, 3, 3, 3)
    assert state.view()["phase"] == "roll" and state.view()["round"] == 1
    assert pad(state) == [None, None, None]
    roll(state, 3, 3, 1)
    assert pad(state) == [30, 30, None]


def test_everyone_takes_their_die() -> None:
    state = table(players=3)
    roll(state, 1, 6, 4)
    for seat in (B, C, A):
        act(state, seat, "take")
    assert pad(state) == [10, 60, 40]
    assert state.view()["round"] == 2


def test_all_dice_matched_ends_the_round_without_choices() -> None:
    state = table(players=4)
    roll(state, 2, 5, 2, 5)
    assert pad(state) == [20, 50, 20, 50] and state.view()["phase"] == "roll"


def test_the_shaker_makes_everyone_after_score_their_die_and_stop_keeps_points() -> None:
    state = table(players=4)
    roll(state, 6, 5, 3, 1)
    act(state, A, "take")
    act(state, B, "shake")
    assert pad(state) == [60, None, 30, 10], "only one shaker a round"
    shake(state, 2)
    act(state, B, "stop")
    assert pad(state) == [60, 20, 30, 10]


def test_crap_out_on_first_shake_scores_zero() -> None:
    state = table(players=2)
    roll(state, 6, 1)
    act(state, A, "shake")
    state.apply({"type": "shake", "faces": BLANK})
    assert pad(state) == [0, 10]


def test_shake_law_is_exact() -> None:
    state = table(players=2, scoring_faces=2)
    roll(state, 6, 1)
    act(state, A, "shake")
    law = dict((tuple(a["faces"]), p) for a, p in state.chance_outcomes())
    assert len(law) == 64 and sum(law.values()) == 1
    assert law[(0,) * 6] == Fraction(4, 6) ** 6 == crap_out_chance(2)
    view = state.view()
    assert view["crap_out_chance"] == "64/729"
    assert view["crap_out_probability"] == pytest.approx(64 / 729)
    assert crap_out_chance(3) == Fraction(1, 64)


def play_rounds(state: ShakeState, faces: list[list[int]]) -> None:
    """Each round: roll ``faces``, everyone left takes their die."""
    for f in faces:
        roll(state, *f)
        while state.actors():
            act(state, state.actors()[0], "take")


def test_all_shake_round_goes_in_score_order_and_every_turn_opens_with_a_shake() -> None:
    state = table(players=3, rounds=1)
    play_rounds(state, [[2, 6, 4]])
    view = state.view()
    assert view["all_shake_round"] and view["all_shake_order"] == [B, C, A]
    assert view["phase"] == "shake" and view["shaker"] == B, "no choice to decline"
    shake(state, 1)
    act(state, B, "stop")
    assert state.view()["shaker"] == C
    state.apply({"type": "shake", "faces": BLANK})
    assert state.view()["shaker"] == A
    shake(state, 6)
    act(state, A, "shake")
    shake(state, 5)
    act(state, A, "stop")
    assert state.is_terminal()
    assert [p["all_shake"] for p in state.view()["players"]] == [110, 10, 0]
    assert [p["total"] for p in state.view()["players"]] == [130, 70, 40]
    assert state.winner() == A and state.returns() == [1.0, 0.0, 0.0]


def test_tied_totals_roll_off_and_the_high_roller_chooses_the_order() -> None:
    state = table(players=4, rounds=1)
    play_rounds(state, [[3, 5, 1, 6]])  # A 30, B 50, C 10, D 60: no tie yet
    assert state.view()["all_shake_order"] == [D, B, A, C]
    state = table(players=4, rounds=2)
    play_rounds(state, [[3, 5, 1, 6], [5, 3, 1, 2]])  # totals A 80, B 80, C 20, D 80
    view = state.view()
    assert view["phase"] == "order-roll" and view["roll_off"]["seats"] == [A, B, D]
    roll(state, 4, 4, 2)  # A and B tie at the top of the roll-off: they roll again
    assert state.view()["roll_off"]["seats"] == [A, B]
    roll(state, 1, 5)
    assert state.view()["phase"] == "order" and state.actors() == [B]
    assert len(state.legal_actions(B)) == 6
    with pytest.raises(MalformedAction):
        state.apply({"type": "order", "seats": [A, B, C]}, B)
    with pytest.raises(NotYourTurn):
        state.apply({"type": "order", "seats": [A, B, D]}, A)
    state.apply({"type": "order", "seats": [D, A, B]}, B)
    assert state.view()["all_shake_order"] == [D, A, B, C]
    assert state.view()["shaker"] == D


def test_final_tie_is_shared_by_default() -> None:
    state = table(players=2, rounds=1)
    play_rounds(state, [[5, 3]])
    shake(state, 1)
    act(state, A, "stop")
    shake(state, 3)
    act(state, B, "stop")
    assert state.is_terminal()
    assert state.view()["winners"] == [A, B] and state.winner() is None
    assert state.returns() == [0.5, 0.5]


def test_final_tie_roll_off_option_decides_one_winner() -> None:
    state = table(players=2, rounds=1, final_tie="roll-off")
    play_rounds(state, [[5, 3]])
    shake(state, 1)
    act(state, A, "stop")
    shake(state, 3)
    act(state, B, "stop")
    assert state.view()["phase"] == "final-roll" and not state.is_terminal()
    roll(state, 2, 2)
    assert not state.is_terminal(), "a tied roll-off rolls again"
    roll(state, 2, 6)
    assert state.is_terminal() and state.winner() == B and state.returns() == [0.0, 1.0]


BAD_MOVES = [
    ({"type": "take"}, C, NotYourTurn),  # out of turn
    ({"type": "stop"}, B, IllegalAction),  # not after a shake
    ({"type": "take", "extra": 1}, B, MalformedAction),
    ({"type": "jump"}, B, MalformedAction),
    ({"type": "dice", "faces": [1, 2, 3, 4, 5]}, None, NotYourTurn),
    ({"type": "order", "seats": [0]}, B, IllegalAction),
]


@pytest.mark.parametrize(("action", "seat", "error"), BAD_MOVES)
def test_bad_input_raises_a_typed_error_and_changes_nothing(action, seat, error) -> None:
    state = table()
    roll(state, 4, 6, 4, 2, 5)
    before, moves = snapshot(state), len(state.moves)
    with pytest.raises(error):
        state.apply(action, seat)
    assert snapshot(state) == before and len(state.moves) == moves


def test_a_second_shaker_in_one_round_is_refused() -> None:
    state = table(players=3)
    roll(state, 6, 5, 4)
    act(state, A, "shake")
    shake(state, 2)
    before = snapshot(state)
    for seat in (B, C):
        with pytest.raises(NotYourTurn):
            act(state, seat, "shake")
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "chance",
    [
        {"type": "shake", "faces": [10, 10, 10, 10, 10]},
        {"type": "shake", "faces": [10, 5, 0, 0, 0, 0]},
        {"type": "dice", "faces": [1, 2, 3]},
        {"type": "shake", "faces": BLANK, "seed": 1},
    ],
)
def test_malformed_shakes_are_refused(chance) -> None:
    state = table(players=3)
    roll(state, 6, 5, 4)
    act(state, A, "shake")
    before = snapshot(state)
    with pytest.raises(MalformedAction):
        state.apply(chance)
    with pytest.raises(MalformedAction, match="no field 'faces'"):  # a player cannot enter dice
        state.apply({"type": "shake", "faces": BLANK}, A)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "options",
    [{"players": 7}, {"players": 1}, {"scoring_faces": 6}, {"rounds": 0}, {"final_tie": "coin"}],
)
def test_bad_options_are_named(options) -> None:
    with pytest.raises(BadOption):
        gamenight.new_game("shake", **options)


@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_every_round_fills_the_pad_and_totals_add_up(seed: int, players: int) -> None:
    state = gamenight.new_game("shake", players=players, rounds=3).new_state(seed)
    play_out(state, [ShakeBot()] * players)
    for p in state.view()["players"]:
        assert None not in p["rounds"] and p["all_shake"] is not None
        assert p["total"] == sum(p["rounds"]) + p["all_shake"]
        assert all(r % 10 == 0 and r >= 0 for r in p["rounds"])
    assert sum(state.returns()) == pytest.approx(1.0)


def test_sensible_bot_beats_the_random_bot() -> None:
    games, wins = 60, 0.0
    for g in range(games):
        state = gamenight.new_game("shake", players=2).new_state(seed=g)
        me = g % 2
        bots: list[Bot] = [ShakeBot(), RandomBot(seed=g)]
        play_out(state, bots if me == 0 else bots[::-1])
        wins += state.returns()[me]
    assert wins / games > 0.8


def test_bot_in_the_last_all_shake_turn_stops_once_it_leads() -> None:
    state = table(players=2, rounds=1)
    play_rounds(state, [[5, 3]])  # A 50 shakes first, B 30 last
    shake(state, 2)
    act(state, A, "stop")  # A 70
    shake(state, 3)  # B 60: behind, must go on
    assert ShakeBot().act(state, B) == {"type": "shake"}
    act(state, B, "shake")
    shake(state, 2)  # B 80: leads with nobody after
    assert ShakeBot().act(state, B) == {"type": "stop"}


def test_bot_takes_a_good_die_when_shaking_is_poor() -> None:
    state = table(players=2, scoring_faces=1)
    roll(state, 6, 1)
    assert ShakeBot().act(state, A) == {"type": "take"}
    state = table(players=2)
    roll(state, 6, 1)
    assert ShakeBot().act(state, A) == {"type": "shake"}
