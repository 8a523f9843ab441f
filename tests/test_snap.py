"""Snap: every rule path as a scenario with a fixed deal."""

from __future__ import annotations

from fractions import Fraction

import pytest

import gamenight
from gamenight import IllegalAction
from gamenight.games.snap.table import TableState
from snap_helpers import dealt

FLIP = {"type": "flip"}
SNAP = {"type": "snap"}


def test_deal_is_card_by_card_and_uneven_hands_go_to_the_dealers_left() -> None:
    state = gamenight.new_game("snap", players=3).new_state(seed=1)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 13 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(4, 52) for _, p in outcomes)
    while state.is_chance():
        state.sample_chance()
    assert [len(p) for p in state.pack] == [18, 17, 17]
    assert state.turn == 0


def test_two_and_four_handed_deals_are_even() -> None:
    for n, size in ((2, 26), (4, 13)):
        state = gamenight.new_game("snap", players=n).new_state(seed=2)
        while state.is_chance():
            state.sample_chance()
        assert [len(p) for p in state.pack] == [size] * n


def test_flipping_goes_clockwise_from_the_dealers_left_and_only_in_turn() -> None:
    state = dealt("snap", [["kite"], ["owl"], ["fish"]])
    with pytest.raises(IllegalAction, match="turn to flip"):
        state.apply(FLIP, 1)
    for seat in (0, 1, 2):
        state.apply(FLIP, seat)
    assert [u[-1] for u in state.up] == ["kite", "owl", "fish"]
    assert state.turn == 0


def test_every_seat_may_call_at_any_time() -> None:
    state = dealt("snap", [["kite"], ["owl"], ["fish"]])
    assert state.actors() == [0, 1, 2]
    assert state.legal_actions(0) == [FLIP, SNAP]
    assert state.legal_actions(2) == [SNAP]


def test_good_call_takes_the_piles_covered_by_the_matching_cards() -> None:
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"], ["teapot", "owl"]])
    for seat in (0, 1, 2, 0, 1, 2):
        state.apply(FLIP, seat)
    # tops now: owl, crown, owl -> seats 0 and 2 match; seat 1 calls first
    before = len(state.pack[1])
    state.apply(SNAP, 1)
    assert state.up[0] == [] and state.up[2] == []
    assert state.up[1] == ["fish", "crown"]
    assert state.pack[1][before:] == ["kite", "owl", "teapot", "owl"]
    assert state.false_calls == 0


def test_false_call_with_no_match_pays_a_penalty_card_to_the_centre() -> None:
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"]])
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SNAP, 1)  # kite vs fish: no match; B pays crown from the top of his pack
    assert state.center == ["crown"] and state.penalized == 1
    assert state.false_calls == 1
    assert state.matches() == []


def test_penalty_card_that_matches_at_once_goes_to_the_first_caller() -> None:
    state = dealt("snap", [["kite", "owl"], ["fish", "kite", "anchor"]])
    state.apply(FLIP, 0)  # A: kite
    state.apply(FLIP, 1)  # B: fish
    state.apply(SNAP, 1)  # B pays kite: it matches A's kite
    assert state.center == ["kite"] and set(state.matches()) == {0, None}
    before = len(state.pack[0])
    state.apply(SNAP, 0)
    # A takes the penalty card, the pile under the like card (his own) and B's exposed pile
    assert sorted(state.pack[0][before:]) == ["fish", "kite", "kite"]
    assert state.center == [] and state.up == [[], []] and state.penalized is None


def test_penalty_card_waits_in_the_centre_while_other_piles_are_snapped() -> None:
    state = dealt("snap", [["kite", "owl"], ["fish", "crown", "anchor"], ["teapot", "crown"]])
    for seat in (0, 1, 2):
        state.apply(FLIP, seat)
    state.apply(SNAP, 0)  # no match: A pays owl
    assert state.center == ["owl"] and state.penalized == 0
    state.apply(FLIP, 0)  # A's next card (filler) ...
    state.apply(FLIP, 1)  # B: crown
    state.apply(FLIP, 2)  # C: crown -> B and C match (A's filler aside)
    assert {1, 2} <= set(state.matches())
    state.apply(SNAP, 2)
    assert state.up[1] == [] and state.up[2] == []
    assert state.center == ["owl"]  # the penalty card waits for its own match


def test_later_match_of_the_penalty_card() -> None:
    state = dealt("snap", [["kite", "fish"], ["crown", "owl", "fish"]])
    state.apply(FLIP, 0)  # A kite
    state.apply(FLIP, 1)  # B crown
    state.apply(SNAP, 1)  # false: B pays owl
    assert state.center == ["owl"]
    state.apply(FLIP, 0)  # A fish
    state.apply(FLIP, 1)  # B fish: A and B match; the owl does not
    assert set(state.matches()) == {0, 1}
    state.apply(SNAP, 0)
    assert state.center == ["owl"]
    state2 = dealt("snap", [["kite", "owl"], ["crown", "owl", "fish"]])
    state2.apply(FLIP, 0)
    state2.apply(FLIP, 1)
    state2.apply(SNAP, 1)  # false: B pays owl
    state2.apply(FLIP, 0)  # A owl matches the centre owl later on
    assert set(state2.matches()) == {0, None}
    before = len(state2.pack[1])
    state2.apply(SNAP, 1)  # even the penalised seat may win it back
    assert sorted(state2.pack[1][before:]) == ["crown", "kite", "owl", "owl"]
    assert state2.center == [] and state2.up == [[], []]


def test_used_up_pack_is_reformed_by_a_card_by_card_reshuffle() -> None:
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"]])
    # test shortcut: A keeps one card in his pack and two face up; B holds the rest
    rest = state.pack[0][1:]
    state.pack[0] = ["kite"]
    state.up[0] = [rest.pop(0), rest.pop(0)]
    state.pack[1] += rest
    assert state.total_cards() == 52
    shuffled = sorted(["kite", *state.up[0]])
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    assert state.turn == 0 and state.pack[0] == []
    assert state.is_chance() and state.actors() == []
    outcomes = state.chance_outcomes()
    assert sorted(a["card"] for a, _ in outcomes) == sorted(set(shuffled))
    assert {a["type"] for a, _ in outcomes} == {"reshuffle"}
    while state.is_chance():
        state.sample_chance()
    assert sorted(state.pack[0]) == shuffled and state.up[0] == []
    assert state.total_cards() == 52


def test_player_with_no_cards_is_out_and_may_not_call() -> None:
    state = dealt("snap", [["kite"], ["fish"], ["owl"]])
    state.center = state.pack[2][1:] + state.center
    state.pack[2] = ["owl"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(FLIP, 2)  # C has turned up his only card
    state.apply(SNAP, 2)  # false: with no pack, C pays his face-up card and is out
    assert state.out[2]
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(SNAP, 2)
    assert 2 not in state.actors()


def test_last_seat_in_holds_all_cards_and_wins() -> None:
    state = dealt("snap", [["kite"], ["fish"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SNAP, 1)  # B's last card goes to the centre: B is out
    assert state.is_terminal() and state.winner() == 0
    assert len(state.pack[0]) + len(state.up[0]) == 52
    assert state.returns() == [1.0, -1.0]


def test_flip_limit_ends_a_never_ending_game_and_most_cards_wins() -> None:
    state = dealt("snap", [["kite"], ["fish"]], max_flips=3)
    state.apply(SNAP, 0)  # nothing exposed: false call, A pays one card
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(FLIP, 0)
    assert state.is_terminal() and state.winner() == 1
    assert state.stats()["stopped"] == 1.0
    assert state.view()["truncated"] and state.record()["truncated"] is True
    assert gamenight.replay(state.record()).truncated
    # a player's own copy says so too: its winner held the most cards, he did not take all 52
    assert state.public_record(0)["truncated"] is True


def test_a_natural_end_is_not_truncated_and_a_false_claim_is_refused() -> None:
    state = dealt("snap", [["kite"], ["fish"]])
    state.center = state.pack[1][1:]
    state.pack[1] = ["fish"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    state.apply(SNAP, 1)
    assert state.is_terminal() and not state.view()["truncated"]
    record = state.record()
    assert "truncated" not in record and "truncated" not in state.public_record(None)
    with pytest.raises(gamenight.BadRecord, match="truncated"):
        gamenight.replay({**record, "truncated": True})


def test_simulate_counts_games_stopped_by_a_cap_apart_from_wins() -> None:
    from gamenight.analysis.simulate import simulate

    sim = simulate("snap", games=5, players=3, max_flips=5).to_json()
    assert sim["truncated"] == 5 and sum(sim["wins_by_seat"]) == 0
    assert sim["no_single_winner"] == 0
    full = simulate("snap", games=5, players=3).to_json()
    assert full["truncated"] == 0 and sum(full["wins_by_seat"]) + full["no_single_winner"] == 5


@pytest.mark.parametrize(
    "action, seat, problem",
    [
        ({"type": "snap", "loud": True}, 0, "no fields"),
        ({"type": "slap"}, 0, "unknown action"),
        ({"type": "flip"}, 1, "turn to flip"),
        ({"type": "deal", "card": "kite"}, None, "chance move"),
        ({"type": "snap"}, 7, "no seat"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(action, seat, problem) -> None:
    state = dealt("snap", [["kite"], ["fish"]])
    before = state.view()
    with pytest.raises(IllegalAction, match=problem):
        state.apply(action, seat)
    assert state.view() == before


def test_a_deal_card_that_is_used_up_is_refused() -> None:
    state = gamenight.new_game("snap", players=2).new_state()
    for _ in range(4):
        state.apply({"type": "deal", "card": "owl"})
    with pytest.raises(IllegalAction, match="still in the pool"):
        state.apply({"type": "deal", "card": "owl"})
    with pytest.raises(IllegalAction, match="chance move"):
        state.apply(FLIP, 0)


def _last_card_pair() -> TableState:
    """A turns up his last pack card (kite) and B matches it; A is to flip next."""
    state = dealt("snap", [["kite"], ["kite"]])
    # test shortcut: the rest of A's cards lie under his face-up pile
    state.up[0] = state.pack[0][1:]
    state.pack[0] = ["kite"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)
    assert state.turn == 0 and state.pack[0] == [] and state.matches() == [0, 1]
    return state


def test_pair_made_with_a_last_card_can_be_called_before_the_reshuffle() -> None:
    """The Snap rule: whenever two matching face-up cards show, anyone may call Snap, so the
    reshuffle may not take the pair off the table before a call can be made."""
    state = _last_card_pair()
    assert not state.is_chance()
    assert set(state.actors()) == {0, 1}
    assert SNAP in state.legal_actions(0) and FLIP in state.legal_actions(0)
    state.apply(SNAP, 0)  # A calls his own pair and keeps his face-up pile
    assert state.up == [[], []] and len(state.pack[0]) == 27
    assert state.total_cards() == 52


def test_flip_on_an_empty_pack_picks_the_pile_up_and_the_shuffle_starts() -> None:
    """Rulebook: a used-up pack is re-formed "by reshuffling his face up cards"; if nobody
    calls, the owner's flip is that moment and the pair goes with the pile."""
    state = _last_card_pair()
    pile = len(state.up[0])
    state.apply(FLIP, 0)
    assert state.up[0] == [] and state.is_chance() and state.view()["shuffling"] == pile
    while state.is_chance():
        state.sample_chance()
    assert len(state.pack[0]) == pile and state.turn == 0 and state.total_cards() == 52


@pytest.mark.parametrize("players, ok", [(1, False), (2, True), (8, True), (9, False)])
def test_snap_is_for_two_to_eight_players(players: int, ok: bool) -> None:
    """Rulebook: "For 2 to 8 players"."""
    if ok:
        assert gamenight.new_game("snap", players=players).options.players == players
    else:
        with pytest.raises(gamenight.BadOption, match="players"):
            gamenight.new_game("snap", players=players)


def test_a_false_caller_with_an_empty_pack_pays_his_oldest_face_up_card() -> None:
    """Rulebook: the penalty card is "the top card from his face down pack"; with that pack
    used up, docs/rules/snap.md decides he pays the oldest card of his face-up pile."""
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"]])
    rest = state.pack[1][2:]  # test shortcut: B's pack is just fish, crown; A holds the rest
    state.pack[1] = ["fish", "crown"]
    state.pack[0] += rest
    for seat in (0, 1, 0, 1):
        state.apply(FLIP, seat)  # A: kite then owl face up; B: fish then crown
    assert state.pack[1] == [] and state.up[1] == ["fish", "crown"] and state.matches() == []
    state.apply(SNAP, 1)
    assert state.center == ["fish"] and state.up[1] == ["crown"] and state.penalized == 1
    assert not state.out[1] and state.total_cards() == 52


def test_a_second_penalty_card_covers_the_first_and_only_its_payer_is_at_stake() -> None:
    """docs/rules/snap.md: the centre is one pile; only the seat that paid its top card has his
    face-up pile at stake when the centre is matched."""
    state = dealt(
        "snap", [["kite", "owl", "anchor", "cactus"], ["fish", "teapot", "anchor", "teapot"]]
    )
    state.apply(FLIP, 0)  # A kite
    state.apply(FLIP, 1)  # B fish
    state.apply(SNAP, 0)  # false: A pays owl
    state.apply(SNAP, 1)  # false: B pays teapot, covering the owl
    assert state.center == ["owl", "teapot"] and state.penalized == 1
    state.apply(FLIP, 0)  # A anchor
    state.apply(FLIP, 1)  # B anchor: A and B match, the centre's teapot does not
    assert set(state.matches()) == {0, 1}
    state.apply(SNAP, 0)
    assert state.center == ["owl", "teapot"] and state.up == [[], []]
    state.apply(FLIP, 0)  # A cactus
    state.apply(FLIP, 1)  # B teapot twins the centre's top
    assert set(state.matches()) == {1, None}
    before = len(state.pack[1])
    state.apply(SNAP, 1)
    # B takes the centre and his own pile; A paid only the covered owl: his cactus stays
    assert state.pack[1][before:] == ["owl", "teapot", "teapot"]
    assert state.up[0] == ["cactus"] and state.center == [] and state.penalized is None


def test_one_good_call_takes_every_matched_picture_at_once() -> None:
    """docs/rules/snap.md decides: with two pictures matched at once, one call wins all four."""
    state = dealt("snap", [["kite"], ["owl"], ["kite"], ["owl"]])
    for seat in range(4):
        state.apply(FLIP, seat)
    assert state.matches() == [0, 1, 2, 3]
    before = len(state.pack[0])
    state.apply(SNAP, 0)
    assert state.pack[0][before:] == ["kite", "owl", "kite", "owl"]
    assert state.up == [[], [], [], []] and state.false_calls == 0


def test_an_out_seat_is_skipped_when_turns_go_round() -> None:
    """Snap rulebook: a player with no cards left drops out and the others play on, so turns
    skip his seat."""
    state = dealt("snap", [["kite", "fish"], ["kite", "owl"], ["crown", "anchor"]])
    state.center = state.pack[1][1:] + state.center  # test shortcut: B holds one card
    state.pack[1] = ["kite"]
    state.apply(FLIP, 0)
    state.apply(FLIP, 1)  # B's last card matches A's kite
    state.apply(SNAP, 2)  # C takes both piles: B holds nothing and is out
    assert state.out[1] and not state.is_terminal()
    state.apply(FLIP, 2)
    state.apply(FLIP, 0)
    assert state.turn == 2 and state.actors()[0] == 2
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(FLIP, 1)
