"""Snake Eyes (home): every rulebook example and every rule, with fixed dice."""

from __future__ import annotations

import pytest

import gamenight
from gamenight import IllegalAction
from gamenight.games.snake_eyes import CARDS, SnakeEyesState

A, B, C, D = 0, 1, 2, 3


def table(
    players: int = 4, first: int = A, down: dict[int, list[int]] | None = None, **options
) -> SnakeEyesState:
    """A table where ``first`` holds the dice and the given cards are already face down."""
    state = gamenight.new_game(
        "snake-eyes", players=players, first_player=first, **options
    ).new_state(seed=0)
    assert isinstance(state, SnakeEyesState)
    for seat, cards in (down or {}).items():
        for card in cards:
            state.up[seat][card] = False
            state.up_count[seat] -= 1
    return state


def throw(state: SnakeEyesState, a: int, b: int) -> None:
    state.apply({"type": "dice", "faces": [a, b]})


def chips(state: SnakeEyesState) -> list[int]:
    return [p["chips"] for p in state.view()["players"]]


def test_setup_ante_and_full_rows() -> None:
    state = gamenight.new_game("snake-eyes", players=4).new_state(seed=1)
    view = state.view()
    assert view["kitty"] == 8
    assert chips(state) == [48] * 4
    assert all(p["face_up"] == list(CARDS) for p in view["players"])
    assert 7 not in CARDS and len(CARDS) == 10


def test_throw_for_high_dice_ties_throw_again() -> None:
    state = gamenight.new_game("snake-eyes", players=3).new_state(seed=1)
    assert state.view()["phase"] == "first-player"
    throw(state, 6, 5)  # A 11
    throw(state, 5, 6)  # B 11
    throw(state, 1, 1)  # C 2
    assert state.view()["contenders"] == [A, B]
    assert state.view()["thrower"] == A
    throw(state, 2, 2)  # A 4
    throw(state, 3, 3)  # B 6
    view = state.view()
    assert view["phase"] == "play" and view["thrower"] == B
    assert view["players"][A]["face_up"] == list(CARDS), "start throws turn nothing down"
    assert view["kitty"] == 6


def test_example_1_throw_3_and_1_turns_4_down_and_keeps_throwing() -> None:
    state = table()
    throw(state, 3, 1)
    view = state.view()
    assert 4 not in view["players"][A]["face_up"]
    assert view["thrower"] == A
    assert chips(state) == [48] * 4


def test_example_2_face_down_8_pays_one_chip_and_passes_to_b() -> None:
    state = table(down={A: [8]})
    throw(state, 5, 3)
    view = state.view()
    assert view["players"][A]["chips"] == 47 and view["kitty"] == 9
    assert view["thrower"] == B
    assert 8 not in view["players"][B]["face_up"], "B first turns down #8"
    throw(state, 2, 1)
    assert 3 not in state.view()["players"][B]["face_up"], "then B throws on"


def test_example_2_pass_skips_players_with_the_card_face_down() -> None:
    state = table(down={A: [8], B: [8]})
    throw(state, 4, 4)
    view = state.view()
    assert view["thrower"] == C
    assert 8 not in view["players"][C]["face_up"]
    assert view["players"][B]["chips"] == 48, "skipped players pay nothing"


def test_example_3_complete_pass_three_failures_cost_two_and_pass_left() -> None:
    state = table(down={s: [8] for s in range(4)} | {A: [8, 9]})
    throw(state, 6, 2)  # #8 down everywhere: 1 chip, complete pass back to A
    view = state.view()
    assert view["thrower"] == A and view["chances_left"] == 3
    assert view["players"][A]["chips"] == 47
    throw(state, 5, 3)  # 8 again
    throw(state, 4, 5)  # 9: face down before A
    assert state.view()["chances_left"] == 1
    throw(state, 6, 2)
    view = state.view()
    assert view["players"][A]["chips"] == 45
    assert view["thrower"] == B and view["chances_left"] == 0


def test_complete_pass_chance_that_hits_a_face_up_card_goes_on_as_step_1() -> None:
    state = table(down={s: [8] for s in range(4)})
    throw(state, 6, 2)
    throw(state, 5, 5)  # 10 is face up before A
    view = state.view()
    assert 10 not in view["players"][A]["face_up"]
    assert view["thrower"] == A and view["chances_left"] == 0
    throw(state, 4, 4)  # a face-down 8 now is an ordinary miss again: 1 chip, complete pass
    assert state.view()["chances_left"] == 3


def test_seven_during_the_chances_follows_the_seven_rule() -> None:
    state = table(down={s: [8] for s in range(4)})
    throw(state, 6, 2)
    throw(state, 3, 4)
    view = state.view()
    assert view["thrower"] == B and view["chances_left"] == 0
    assert view["players"][A]["chips"] == 48 - 1 - 2


def test_snake_eyes_face_up_turns_2_down_and_draws_2() -> None:
    state = table()
    throw(state, 1, 1)
    view = state.view()
    assert 2 not in view["players"][A]["face_up"]
    assert view["players"][A]["chips"] == 50 and view["kitty"] == 6
    assert view["thrower"] == A


def test_snake_eyes_face_down_draws_1_and_passes_without_bonus() -> None:
    state = table(down={A: [2]})
    throw(state, 1, 1)
    view = state.view()
    assert view["players"][A]["chips"] == 49
    assert view["thrower"] == B and 2 not in view["players"][B]["face_up"]
    assert view["players"][B]["chips"] == 48, "no bonus for a #2 turned down after a pass"
    assert view["kitty"] == 7


def test_seven_costs_two_and_passes_to_the_immediate_left() -> None:
    state = table(first=D, down={A: [4]})
    throw(state, 3, 4)
    view = state.view()
    assert view["players"][D]["chips"] == 46 and view["thrower"] == A


def test_winner_takes_the_whole_kitty() -> None:
    state = table(players=2, down={A: [c for c in CARDS if c != 6]})
    throw(state, 5, 2)  # A: 7, pays 2 -> kitty 6
    throw(state, 2, 2)  # B turns #4 down
    throw(state, 4, 3)  # B: 7 -> kitty 8, dice to A
    throw(state, 3, 3)  # A turns down the last card
    assert state.is_terminal() and state.winner() == A
    view = state.view()
    assert view["kitty"] == 0 and view["winner"] == A
    assert view["players"][A]["chips"] == 48 - 2 + 8
    assert state.returns() == [4.0, -4.0]
    assert "wins and takes the kitty of 8" in state.events()[-1]


def test_a_pass_can_win_the_game_for_the_receiver() -> None:
    state = table(players=3, down={A: [9], B: [c for c in CARDS if c != 9]})
    throw(state, 4, 5)
    assert state.winner() == B


def test_broke_player_pays_what_they_have_and_plays_on() -> None:
    state = table(players=2, starting_chips=3)
    throw(state, 3, 4)  # A holds 1 chip, owes 2
    view = state.view()
    assert view["players"][A]["chips"] == 0 and view["kitty"] == 5
    assert state.ledger.is_balanced()


def test_empty_kitty_pays_what_it_holds() -> None:
    state = table(players=2, ante=0)
    throw(state, 1, 1)
    assert state.view()["players"][A]["chips"] == 50 and state.view()["kitty"] == 0


@pytest.mark.parametrize(
    "action",
    [
        {"type": "dice", "faces": [0, 3]},
        {"type": "dice", "faces": [1]},
        {"type": "dice", "faces": [1, 2], "extra": 1},
        {"type": "take"},
        {"type": "dice"},
        {"type": "dice", "faces": [1.0, 2]},
        {"type": "dice", "faces": [True, 2]},
    ],
)
def test_malformed_throws_are_refused_and_change_nothing(action: dict) -> None:
    state = table()
    before = state.view()
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert state.view() == before and state.moves == []


def test_a_seat_cannot_throw_as_a_player() -> None:
    state = table()
    with pytest.raises(IllegalAction, match="chance"):
        state.apply({"type": "dice", "faces": [1, 2]}, seat=A)


def test_the_event_log_reads_like_the_table_talk() -> None:
    state = table(down={A: [8]})
    throw(state, 5, 3)
    assert state.events()[-4:] == [
        "A throws 8 (5+3).",
        "A puts 1 chip(s) in the kitty (#8 already face down).",
        "Dice pass to B, who has #8 face up.",
        "B turns #8 face down.",
    ]
