"""Slap the Elephant: every rule path as a scenario with a fixed deal."""

from __future__ import annotations

import pytest

import gamenight
from gamenight import IllegalAction
from snap_helpers import dealt

FLIP = {"type": "flip"}
SLAP = {"type": "slap"}
FINGERS = {"type": "snap_fingers"}


def test_three_players_one_gets_an_extra_card() -> None:
    state = gamenight.new_game("slap-the-elephant", players=3).new_state(seed=4)
    while state.is_chance():
        state.sample_chance()
    assert [len(p) for p in state.pack] == [18, 17, 17]


def test_cards_go_to_one_centre_pile_in_turn() -> None:
    state = dealt("slap-the-elephant", [["kite"], ["owl"], ["fish"]])
    assert state.actors() == [0] and state.legal_actions(0) == [FLIP]
    with pytest.raises(IllegalAction, match="nothing on the table"):
        state.apply(SLAP, 1)
    for seat in (0, 1, 2):
        state.apply(FLIP, seat)
    assert state.center == ["kite", "owl", "fish"]
    assert state.actors() == [0, 1, 2]


def test_first_slap_on_an_elephant_takes_the_pile_and_starts_the_next() -> None:
    state = dealt("slap-the-elephant", [["kite"], ["elephant"], ["fish"]])
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    before = len(state.pack[2])
    state.apply(SLAP, 2)
    assert state.pack[2][before:] == ["kite", "elephant"]
    assert state.center == [] and state.turn == 2


def test_first_finger_snap_on_a_mouse_takes_the_pile() -> None:
    state = dealt("slap-the-elephant", [["mouse"], ["owl"]])
    state.apply(FLIP, 0)
    before = len(state.pack[1])
    state.apply(FINGERS, 1)
    assert state.pack[1][before:] == ["mouse"] and state.turn == 1


def test_the_log_says_who_snapped_his_fingers_in_plain_words() -> None:
    state = dealt("slap-the-elephant", [["mouse", "kite"], ["owl", "fish"]])
    state.apply(FLIP, 0)
    state.apply(FINGERS, 1)  # right: B takes the mouse
    state.apply(FLIP, 1)
    state.apply(FINGERS, 0)  # wrong: the top is an owl
    said = state.events()
    assert "B snaps their fingers first at the mouse and takes 1 card" in said
    assert any(e.startswith("A wrongly snaps their fingers at an owl: ") for e in said)


@pytest.mark.parametrize(
    "call, top, said", [(SLAP, "mouse", "a mouse"), (FINGERS, "elephant", "an elephant"),
                        (SLAP, "kite", "a kite")],
)  # fmt: skip
def test_wrong_reaction_divides_the_pile_among_the_others(call, top, said) -> None:
    state = dealt("slap-the-elephant", [["owl", "fish"], ["crown", top], ["anchor"]])
    for seat in (0, 1, 2, 0, 1):
        state.apply(FLIP, seat)
    assert len(state.center) == 5
    sizes = [len(p) for p in state.pack]
    state.apply(call, 0)
    # 5 cards, 2 others: 2 each (top cards first), 1 left in the centre
    assert [len(p) - s for p, s in zip(state.pack, sizes, strict=True)] == [0, 2, 2]
    assert state.center == ["owl"]
    assert state.false_calls == 1
    assert f"at {said}: 2 cards each to B and C; 1 left in the centre" in state.events()[-1]


def test_pile_that_divides_evenly_leaves_nothing() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["fish"]])
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SLAP, 1)
    assert state.center == [] and state.pack[0][-2:] == ["fish", "owl"]


def test_player_with_no_cards_is_out_and_last_one_in_wins_everything() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["fish"]])
    # test shortcut: B holds a single card, the rest already lie in the centre
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)  # B's last card: he stays in while it may still be reacted to
    assert not state.is_terminal() and not state.out[1]
    state.apply(FLIP, 0)
    assert state.is_terminal() and state.winner() == 0
    assert len(state.pack[0]) == 52 and state.center == []


def test_out_seat_may_not_react() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["fish"], ["kite"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(FLIP, 2)  # C covers B's last card: B is out
    assert state.out[1] and state.turn == 0
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(SLAP, 1)


def test_flip_limit_stops_the_game() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["fish"]], max_flips=2)
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    assert state.is_terminal() and state.winner() is None
    assert state.returns() == [0.0, 0.0]


def test_bad_options_are_named() -> None:
    with pytest.raises(gamenight.BadOption, match="players"):
        gamenight.new_game("slap-the-elephant", players=5)
    with pytest.raises(gamenight.BadOption, match="max_flips"):
        gamenight.new_game("snap", max_flips=0)


def test_last_card_elephant_can_be_slapped_back_by_its_player() -> None:
    """Rulebook: "When an elephant card appears, all players try to slap it": B, who just
    played his last card, is not out until that card's slap is resolved and may win the pile."""
    state = dealt("slap-the-elephant", [["owl"], ["elephant"], ["kite"]])
    state.center = state.pack[1][1:]  # test shortcut: B holds one card, the rest lie in the centre
    state.pack[1] = ["elephant"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    assert not state.out[1] and 1 in state.actors() and SLAP in state.legal_actions(1)
    state.apply(SLAP, 1)
    assert not state.out[1] and state.center == [] and state.turn == 1
    assert state.total_cards() == 52


def test_last_card_player_is_out_once_another_slaps_his_elephant() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["elephant"], ["kite"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["elephant"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SLAP, 2)
    assert state.out[1] and state.turn == 2


def test_last_card_player_is_out_once_his_card_is_covered() -> None:
    state = dealt("slap-the-elephant", [["owl"], ["fish"], ["kite"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    assert not state.out[1]  # a plain card: someone might still react to it
    state.apply(FLIP, 2)
    assert state.out[1] and state.turn == 0
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(SLAP, 1)


def test_last_card_player_gets_a_share_of_a_wrong_reaction() -> None:
    """Rulebook: a wrong reaction divides the pile "among the other players"; B is still one."""
    state = dealt("slap-the-elephant", [["owl"], ["fish"], ["kite"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SLAP, 2)  # wrong: the pile is shared by A and B
    assert not state.out[1] and len(state.pack[1]) > 0
    assert state.total_cards() == 52


def test_a_pile_too_small_to_share_stays_and_the_log_says_so() -> None:
    state = dealt("slap-the-elephant", [["owl", "fish"], ["crown"], ["anchor"]])
    state.apply(FLIP, 0)  # one card in the centre, two others to share it
    state.apply(SLAP, 2)
    assert state.center == ["owl"] and state.false_calls == 1
    assert state.events()[-1] == (
        "C wrongly slaps at an owl: too few cards to share; 1 left in the centre"
    )


@pytest.mark.parametrize("players, sizes", [(2, [26, 26]), (4, [13] * 4)])
def test_two_and_four_handed_deals_are_even_and_hidden_from_everyone(players, sizes) -> None:
    """Rulebook: cards are "dealt face down, one card at a time", in piles kept "face down so
    that neither he nor the other players can see them"."""
    state = gamenight.new_game("slap-the-elephant", players=players).new_state(seed=6)
    while state.is_chance():
        state.sample_chance()
    assert [len(p) for p in state.pack] == sizes
    for seat in [None, *range(players)]:
        view = state.view(seat)
        assert [p["pack"] for p in view["players"]] == sizes
        assert all(p["face_up"] == [] for p in view["players"]) and view["center"] == []


def test_a_last_card_player_who_reacts_wrongly_hands_the_pile_out_and_is_out() -> None:
    """Slap rulebook: a wrong reaction shares the centre pile out evenly among the other
    players; B, who just laid his last card, gets none of it, so he now holds nothing and is
    out (a player left with no cards leaves the game)."""
    state = dealt("slap-the-elephant", [["owl"], ["fish"], ["kite"]])
    state.center = state.pack[1][1:]  # test shortcut: B holds one card, the rest lie in the centre
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SLAP, 1)  # wrong: a fish; the pile goes to A and C
    assert state.out[1] and state.pack[1] == [] and 1 not in state.actors()
    assert len(state.center) < 2 and state.total_cards() == 52 and not state.is_terminal()


def test_a_last_card_player_whose_wrong_reaction_shares_nothing_stays_in() -> None:
    """docs/rules/slap-the-elephant.md: a pile too small to share stays in the centre; B's last
    card is still its top, so B is still in and may react to it."""
    state = dealt("slap-the-elephant", [["owl"], ["fish"], ["kite"], ["cactus"]])
    state.pack[0] += state.pack[1][1:]  # test shortcut: B holds one card, A the rest of B's
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SLAP, 1)  # wrong, but two cards cannot be shared among A, C and D
    assert not state.out[1] and state.center == ["owl", "fish"] and 1 in state.actors()
    assert state.total_cards() == 52
