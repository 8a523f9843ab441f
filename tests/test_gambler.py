"""Gambler: the rulebook's examples and every rule as a scenario with fixed dice."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamenight
from gamenight import IllegalAction
from gamenight.games.gambler import BadGameData, GamblerState, data_options, load_data
from gamenight.games.gambler.odds import has_pair, has_straight, ticket_probability, wins

# The built-in track: 0 Start, 4 Sweepstakes, 6 Off to the Races, 7 Fortune, 9 Lottery, ...


def table(players: int = 2, **opts: object) -> GamblerState:
    state = gamenight.new_game("gambler", players=players, first_player=0, **opts).new_state(1)
    assert isinstance(state, GamblerState)
    return state


def cash(state: GamblerState, seat: int) -> int:
    return state.view()["players"][seat]["cash"]


def roll(state: GamblerState, a: int, b: int) -> None:
    state.apply({"type": "roll"}, state.current)
    state.apply({"type": "dice", "faces": [a, b]})


def shake(state: GamblerState, faces: list[int]) -> None:
    for f in faces:
        state.apply({"type": "die", "face": f})


def buy(state: GamblerState, a: int, b: int) -> None:
    state.apply({"type": "buy_ticket"}, state.current)
    state.apply({"type": "ticket", "ticket": [a, b]})


def refused(state: GamblerState, action: dict, seat: int | None, words: str) -> None:
    before = json.dumps(state.view(), sort_keys=True)
    with pytest.raises(IllegalAction, match=words):
        state.apply(action, seat)
    assert json.dumps(state.view(), sort_keys=True) == before
    assert state.ledger.is_balanced()


# --- the rulebook's examples ---------------------------------------------------------------------
def test_lottery_example_6_4_3_5_2_3() -> None:
    dice = [6, 4, 3, 5, 2, 3]
    for ticket in ([4, 6], [3, 5], [5, 6]):
        assert set(ticket) <= set(dice)
    assert not {1, 2} <= set(dice)
    s = table()
    buy(s, 4, 6)
    buy(s, 3, 5)
    buy(s, 1, 2)
    assert cash(s, 0) == 70
    roll(s, 4, 5)  # Start + 9 = Lottery
    assert s.chance == "shaker"
    shake(s, dice)
    assert cash(s, 0) == 70 + 2 * 50
    assert s.view()["players"][0]["tickets"] == []
    assert len(s.ticket_deck) == 14
    assert any("ticket 1-2" not in e and "wins $50" in e for e in s.events())


def test_straight_example_3_4_5_in_a_row_wins() -> None:
    assert has_straight([1, 3, 4, 5, 5, 2])


def test_straight_example_3_2_1_counting_down_wins() -> None:
    assert has_straight([1, 6, 3, 2, 1, 5])


def test_straight_example_2_3_4_separated_by_1_loses() -> None:
    assert not has_straight([2, 1, 3, 4, 6, 5])


def test_pairs_example_4_3_3_5_4_2_wins() -> None:
    assert has_pair([4, 3, 3, 5, 4, 2])
    assert not has_pair([1, 2, 1, 2, 1, 2])


# --- Sweepstakes ---------------------------------------------------------------------------------
def sweep_by_doubles(s: GamblerState) -> None:
    roll(s, 2, 2)
    assert s.phase == "doubles"
    s.apply({"type": "sweepstakes"}, 0)
    assert s.phase == "marker"


def test_doubles_sweepstakes_fees_markers_in_turn_and_prizes() -> None:
    s = table(players=3)
    sweep_by_doubles(s)
    assert [cash(s, i) for i in range(3)] == [90, 90, 90]
    assert s.actors()[0] == 0
    odds = s.view()["odds"]
    assert odds["straight"]["p"] == str(Fraction(3059, 23328))
    s.apply({"type": "marker", "space": "straight"}, 0)
    assert "straight" not in s.view()["odds"]
    refused(s, {"type": "marker", "space": "straight"}, 1, "one marker per space")
    s.apply({"type": "marker", "space": "pairs"}, 1)
    s.apply({"type": "marker", "space": "high-6"}, 2)
    shake(s, [1, 3, 4, 5, 5, 2])
    assert [cash(s, i) for i in range(3)] == [90 + 450, 90 + 200, 90]
    assert s.current == 1  # the doubles turn is over


def test_high_number_tie_pays_each_position_and_split_under_it() -> None:
    s = table(players=4)
    sweep_by_doubles(s)
    for seat, space in enumerate(["high-1", "high-3", "split-1-2", "high-2"]):
        s.apply({"type": "marker", "space": space}, seat)
    shake(s, [6, 1, 6, 2, 3, 4])
    assert [cash(s, i) for i in range(4)] == [390, 390, 240, 90]


def test_more_pairs_or_three_alike_pay_the_pairs_prize_once() -> None:
    """PAIRS: "Two or more pairs, or three or more dice of the same number, do not increase
    winnings." A Shaker of 3-3-3-5-5-2 pays the Pairs marker $200, no more."""
    s = table(players=2)
    sweep_by_doubles(s)
    s.apply({"type": "marker", "space": "pairs"}, 0)
    s.apply({"type": "marker", "space": "straight"}, 1)
    shake(s, [3, 3, 3, 5, 5, 2])
    assert [cash(s, i) for i in range(2)] == [90 + 200, 90]


def test_split_wins_on_either_position() -> None:
    assert wins("split-4-5", [1, 2, 3, 4, 6, 5])
    assert not wins("split-4-5", [6, 2, 3, 4, 5, 5])


def test_sweepstakes_fee_forces_an_iou() -> None:
    s = table()
    s.ledger.transfer("seat1", "bank", 95)
    sweep_by_doubles(s)
    assert s.iou[1] and cash(s, 1) == 5 + 200 - 10
    assert s.ledger.is_balanced()


# --- doubles, moving, Start ----------------------------------------------------------------------
def test_second_doubles_pays_500_and_ends_turn() -> None:
    s = table()
    roll(s, 3, 3)
    s.apply({"type": "roll_again"}, 0)
    s.apply({"type": "dice", "faces": [4, 4]})
    assert cash(s, 0) == 600 and s.current == 1 and s.position[0] == 0


def test_failed_second_roll_just_ends_turn() -> None:
    s = table()
    roll(s, 3, 3)
    s.apply({"type": "roll_again"}, 0)
    s.apply({"type": "dice", "faces": [4, 5]})
    assert cash(s, 0) == 100 and s.current == 1


def test_move_and_follow_a_money_space() -> None:
    s = table()
    roll(s, 1, 2)  # Parking ticket: pay $20
    assert s.position[0] == 3 and cash(s, 0) == 80 and s.current == 1


def test_start_must_be_claimed_before_next_roll() -> None:
    s = table()
    s.position[0] = 20
    roll(s, 1, 3)  # lands on Start
    assert s.phase == "claim" and s.actors()[0] == 0
    s.apply({"type": "end_turn"}, 0)
    assert cash(s, 0) == 100 and s.current == 1
    s = table()
    s.position[0] = 20
    roll(s, 2, 3)  # passes Start to Payday
    s2 = s.clone()
    s.apply({"type": "claim_start"}, 0)
    assert cash(s, 0) == 100 + 50 + 100 and s.current == 1
    refused(s, {"type": "claim_start"}, 1, "no \\$100")
    s2.apply({"type": "end_turn"}, 0)
    assert cash(s2, 0) == 150


def test_auto_claim_option_pays_start_at_once() -> None:
    s = table(auto_claim_start=True)
    s.position[0] = 21
    roll(s, 1, 2)  # lands on Start
    assert cash(s, 0) == 200 and s.current == 1


@pytest.mark.parametrize("auto", [False, True])
def test_passing_start_twice_in_one_turn_pays_twice(auto: bool) -> None:
    """Start space rule: the bank pays $100 for every landing on or pass of Start. Passing
    Start to Fortune space 2 and drawing the card that sends the player straight to Start
    reaches it twice in one turn: $200, whether claimed at once or at the end of the turn."""
    s = table(auto_claim_start=auto)
    s.position[0] = 20
    roll(s, 4, 2)  # 20 + 6 passes Start to space 2, Fortune
    s.apply({"type": "fortune", "card": 13})  # Go straight to Start
    if not auto:
        assert s.phase == "claim" and s.view()["start_owed"] == 200
        s.apply({"type": "claim_start"}, 0)
    assert cash(s, 0) == 100 + 200 and s.current == 1


# --- tickets, IOUs: bad input -------------------------------------------------------------------
def test_fourth_ticket_is_refused() -> None:
    s = table()
    for t in ([1, 2], [1, 3], [1, 4]):
        buy(s, *t)
    refused(s, {"type": "buy_ticket"}, 0, "already hold 3 tickets")


def test_buying_mid_turn_is_refused() -> None:
    s = table()
    roll(s, 2, 2)
    refused(s, {"type": "buy_ticket"}, 0, "start of your own turn")


def test_repaying_without_the_money_is_refused() -> None:
    s = table()
    refused(s, {"type": "repay_iou"}, 0, "no IOU")
    s.apply({"type": "take_iou"}, 0)
    refused(s, {"type": "take_iou"}, 0, "only one at a time")
    s.ledger.transfer("seat0", "bank", 81)
    refused(s, {"type": "repay_iou"}, 0, "needs \\$220; you have \\$219")
    assert {"type": "repay_iou"} not in s.legal_actions(0)


def test_iou_repaid_with_interest() -> None:
    s = table()
    s.apply({"type": "take_iou"}, 0)
    assert cash(s, 0) == 300 and s.view()["players"][0]["iou"]
    s.apply({"type": "repay_iou"}, 0)
    assert cash(s, 0) == 80 and not s.iou[0]


def test_holder_who_loses_the_borrowed_money_is_out() -> None:
    s = table()
    s.apply({"type": "take_iou"}, 0)
    s.ledger.transfer("seat0", "bank", 290)
    roll(s, 1, 2)  # Parking ticket $20; only $10 left
    assert s.view()["players"][0]["out"]
    assert s.is_terminal() and s.winner() == 1


# --- Lottery, Horse Race, Fortune ----------------------------------------------------------------
def test_no_lottery_when_nobody_holds_tickets() -> None:
    s = table()
    roll(s, 4, 5)
    assert s.chance is None and s.current == 1


def test_horse_race_pays_80_or_bank_keeps_fees() -> None:
    s = table()
    roll(s, 2, 4)  # Off to the Races
    s.apply({"type": "horse", "horse": 3})
    s.apply({"type": "horse", "horse": 5})
    s.apply({"type": "die", "face": 5})
    assert [cash(s, 0), cash(s, 1)] == [80, 160]
    s = table()
    roll(s, 2, 4)
    s.apply({"type": "horse", "horse": 3})
    s.apply({"type": "horse", "horse": 5})
    s.apply({"type": "die", "face": 1})
    assert [cash(s, 0), cash(s, 1)] == [80, 80]


def test_fortune_card_read_aloud_followed_and_put_at_the_bottom() -> None:
    s = table()
    roll(s, 3, 4)  # Fortune
    assert s.chance == "fortune"
    s.apply({"type": "fortune", "card": 2})  # savings bond: collect $100
    assert cash(s, 0) == 200
    assert any("savings bond" in e for e in s.events())
    assert s.fortune_known == [2] and 2 not in s.fortune_unseen


def test_first_to_1000_wins_and_richest_when_several_cross() -> None:
    s = table()
    s.ledger.transfer("bank", "seat0", 800)
    s.ledger.transfer("bank", "seat1", 850)
    sweep_by_doubles(s)
    s.apply({"type": "marker", "space": "high-1"}, 0)
    s.apply({"type": "marker", "space": "high-2"}, 1)
    shake(s, [6, 6, 1, 1, 1, 1])
    assert s.is_terminal() and s.winner() == 1


def test_iou_holder_cannot_win() -> None:
    s = table()
    s.apply({"type": "take_iou"}, 0)
    s.ledger.transfer("bank", "seat0", 900)
    assert not s.is_terminal()
    s.apply({"type": "repay_iou"}, 0)
    assert cash(s, 0) == 980 and not s.is_terminal()


# --- data files ----------------------------------------------------------------------------------
def test_builtin_data_is_the_projects_own_design() -> None:
    d = load_data()
    assert "gamenight" in d.board.design and len(d.fortune.card) == 24
    assert len(d.tickets.tickets) == 14 and len(d.horses.horses) == 6


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[space]]\nname="Start"\nkind="start"\n[[space]]\nname="X"\nkind="casino"\n', "space 2"),
        ('[[space]]\nname="A"\nkind="fortune"\n[[space]]\nname="B"\nkind="lottery"\n', "Start"),
        ('[[space]]\nname="Start"\nkind="start"\n[[space]]\nname="P"\nkind="pay"\n', "amount"),
        ("this is not toml ==", "not valid TOML"),
    ],
)
def test_malformed_board_file_names_file_entry_problem(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "myboard.toml"
    path.write_text(text)
    with pytest.raises(BadGameData, match=words) as e:
        gamenight.new_game("gambler", **data_options(board=path))
    assert "myboard.toml" in str(e.value)


def test_card_with_unknown_effect_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(
        '[[card]]\ntext="ok"\neffect="pay"\namount=5\n[[card]]\ntext="x"\neffect="teleport"\n'
    )
    with pytest.raises(BadGameData, match="card 2 field effect"):
        load_data(fortune=path)


def test_ticket_value_is_exact() -> None:
    p = ticket_probability(1, 2)
    assert p == 1 - 2 * Fraction(5, 6) ** 6 + Fraction(2, 3) ** 6 == Fraction(9751, 23328)


# --- invariants ----------------------------------------------------------------------------------
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_money_is_conserved_bank_included_at_every_step(seed: int, players: int) -> None:
    rng = random.Random(seed)
    s = gamenight.new_game("gambler", players=players, max_turns=60).new_state(seed)
    while not s.is_terminal():
        assert sum(s.ledger.balances.values()) == 0  # the bank started at 0 and paid everything
        assert all(s.ledger[p] >= 0 for p in s.purse)
        if s.is_chance():
            s.sample_chance()
        else:
            seat = s.actors()[0]
            s.apply(rng.choice(s.legal_actions(seat)), seat)
    assert s.winner() is not None


def test_turn_limit_ends_a_game_with_the_richest() -> None:
    s = gamenight.new_game("gambler", players=3, max_turns=10).new_state(4)
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance()
        else:
            seat = s.actors()[0]
            legal = s.legal_actions(seat)
            pick = next((a for a in legal if a["type"] in ("roll", "end_turn")), legal[0])
            s.apply(pick, seat)
    assert s.turns <= 10 and s.stats()["turn_limit"] in (0.0, 1.0)
    assert s.view()["truncated"] == bool(s.stats()["turn_limit"])


def test_a_game_stopped_by_the_turn_cap_says_so_in_view_and_record() -> None:
    s = gamenight.new_game("gambler", players=2, max_turns=10, first_player=0).new_state(4)
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance()
        else:
            seat = s.actors()[0]
            legal = s.legal_actions(seat)
            keep = ("roll", "end_turn", "roll_again", "marker", "claim_start")
            s.apply(next(a for a in legal if a["type"] in keep), seat)
    assert s.truncated and s.view()["truncated"] and s.record()["truncated"] is True
    assert gamenight.replay(s.record()).truncated


# --- bots ----------------------------------------------------------------------------------------
def test_sensible_bot_uses_the_exact_odds() -> None:
    from gamenight.bots import make_bot

    bot = make_bot("gambler", "sensible", seed=1)
    s = table()
    roll(s, 2, 2)
    # a Sweepstakes with Pairs free is worth 4651/7776 * $200 > $500 / 6 for a second doubles
    assert bot.act(s, 0) == {"type": "sweepstakes"}
    s.apply({"type": "sweepstakes"}, 0)
    assert bot.act(s, 0) == {"type": "marker", "space": "pairs"}
    s.apply({"type": "marker", "space": "pairs"}, 0)
    assert bot.act(s, 1) == {"type": "marker", "space": "high-1"}


def test_sensible_bot_games_end() -> None:
    from gamenight.analysis.simulate import play_out
    from gamenight.bots import make_bot

    s = gamenight.new_game("gambler", players=4).new_state(seed=3)
    play_out(s, [make_bot("gambler", "sensible", seed=i) for i in range(4)])
    assert s.is_terminal() and s.winner() is not None and s.ledger.is_balanced()


# --- Fortune card effects and corner cases -------------------------------------------------------
def fortune(s: GamblerState, card: int) -> None:
    roll(s, 3, 4)  # Fortune space 7
    s.apply({"type": "fortune", "card": card})


def test_fortune_collect_from_each_and_pay_each() -> None:
    s = table(players=3)
    fortune(s, 4)  # birthday: $10 from each
    assert [cash(s, i) for i in range(3)] == [120, 90, 90]
    s = table(players=3)
    fortune(s, 5)  # pizza: pay each $10
    assert [cash(s, i) for i in range(3)] == [80, 110, 110]


def test_fortune_moves_follow_the_new_space() -> None:
    s = table()
    fortune(s, 9)  # advance 3: 7 -> 10 Tax refund
    assert s.position[0] == 10 and cash(s, 0) == 160
    s = table()
    fortune(s, 11)  # next Lottery: 9; nobody holds tickets
    assert s.position[0] == 9 and s.current == 1
    s = table()
    fortune(s, 13)  # go to Start: passes it, claim waits
    assert s.position[0] == 0 and s.phase == "claim"


def test_fortune_card_can_call_a_sweepstakes() -> None:
    s = table()
    fortune(s, 6)
    assert s.phase == "marker" and s.actors()[0] == 0 and cash(s, 1) == 90


def test_fortune_deck_cycles_in_known_order_once_all_are_seen() -> None:
    s = table()
    s.fortune_known, s.fortune_unseen = list(range(24)), []
    roll(s, 3, 4)
    assert not s.is_chance()
    assert s.fortune_known[-1] == 0 and cash(s, 0) == 150  # card 0: $50 prize


def test_spending_the_last_borrowed_dollar_on_a_ticket_puts_you_out_and_play_passes() -> None:
    s = table(players=3)
    s.apply({"type": "take_iou"}, 0)
    s.ledger.transfer("seat0", "bank", 290)
    buy(s, 1, 2)
    assert s.out[0] and s.current == 1 and s.view()["players"][0]["tickets"] == []
    assert len(s.ticket_deck) == 14


def test_custom_valid_board_is_used(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        '[[space]]\nname="Start"\nkind="start"\n[[space]]\nname="Gift"\nkind="collect"\n'
        'amount=5\n[[space]]\nname="Fortune"\nkind="fortune"\n'
        '[[space]]\nname="Sweep"\nkind="sweepstakes"\n[[space]]\nname="Lotto"\nkind="lottery"\n'
        '[[space]]\nname="Race"\nkind="races"\n'
    )
    s = gamenight.new_game("gambler", players=2, first_player=0, **data_options(board=path))
    state = s.new_state(1)
    assert len(state.view()["board"]) == 6


def test_high_roll_goes_first_and_ties_throw_again() -> None:
    s = gamenight.new_game("gambler", players=3).new_state(1)
    for faces in ([6, 5], [3, 3], [6, 5]):  # A and C tie on 11
        s.apply({"type": "dice", "faces": faces})
    assert s.is_chance() and s.contenders == [0, 2]
    s.apply({"type": "dice", "faces": [1, 2]})
    s.apply({"type": "dice", "faces": [4, 2]})
    assert s.actors()[0] == 2 and s.view()["phase"] == "turn"


def test_daily_double_is_the_same_horse_race() -> None:
    s = table()
    s.position[0] = 10
    roll(s, 1, 3)  # space 14, Daily Double
    assert s.chance == "horse" and cash(s, 0) == 80 and cash(s, 1) == 80


def test_bad_first_player_option_is_named() -> None:
    with pytest.raises(gamenight.BadOption, match="first_player"):
        gamenight.new_game("gambler", players=2, first_player=3)


def test_iou_holder_who_cannot_pay_the_sweepstakes_fee_is_out_and_places_no_marker() -> None:
    s = table(players=3)
    s.apply({"type": "take_iou"}, 0)
    s.ledger.transfer("seat1", "bank", 100)
    s.iou[1] = True  # B holds an IOU and has nothing left
    sweep_by_doubles(s)
    assert s.out[1] and s.marker_queue == [0, 2]


def test_an_iou_is_taken_and_repaid_at_any_time_not_only_on_ones_own_turn() -> None:
    """The IOU rules: a player short of money may borrow whenever he needs to, and may repay the
    Bank (with the $20 interest) whenever he likes, not only on his own turn."""
    s = table(players=3)
    assert s.actors() == [0, 1, 2]  # A is on turn; B and C may borrow
    assert s.legal_actions(1) == [{"type": "take_iou"}]
    s.apply({"type": "take_iou"}, 1)  # during A's turn
    assert cash(s, 1) == 300 and s.view()["players"][1]["iou"]
    s.apply({"type": "roll"}, 0)
    assert s.is_chance() and s.actors() == [0, 1, 2]  # the dice are rolling: still any time
    s.apply({"type": "repay_iou"}, 1)
    assert cash(s, 1) == 80 and not s.view()["players"][1]["iou"]
    assert s.is_chance()  # the roll still comes
    s.apply({"type": "dice", "faces": [1, 2]})
    assert s.ledger.is_balanced()


def test_off_turn_seats_may_only_borrow_or_repay() -> None:
    s = table(players=3)
    refused(s, {"type": "roll"}, 1, "may not act now")
    refused(s, {"type": "repay_iou"}, 2, "no IOU to repay")
    s.apply({"type": "take_iou"}, 2)
    refused(s, {"type": "take_iou"}, 2, "only one at a time")
    s.apply({"type": "roll"}, 0)
    refused(s, {"type": "roll_again"}, 0, "chance move")
