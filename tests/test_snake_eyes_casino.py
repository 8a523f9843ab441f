"""The casino table: procedure of section 5, irregularities of section 6, bad input, ledger."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine import BadOption, IllegalAction
from gamenight.games.snake_eyes_casino import CasinoState


def table(players: int = 3, **opts) -> CasinoState:
    state = gamenight.new_game("snake-eyes-casino", players=players, **opts).new_state(seed=1)
    assert isinstance(state, CasinoState)
    return state


def roll(state: CasinoState, a: int, b: int) -> None:
    """The shooter rolls (if a player shoots); the dice come in (and a live dealer settles)."""
    if state.phase == "betting":
        state.apply({"type": "roll"}, state.shooter)
    state.apply({"type": "dice", "faces": [a, b]})
    if state.live:
        state.apply({"type": "settle"})


def chips(state: CasinoState) -> int:
    return state.ledger.total()


def snapshot(state: CasinoState) -> tuple:
    return (state.view(), dict(state.ledger.balances), len(state.moves))


def test_dice_are_offered_clockwise_from_the_dealers_left() -> None:
    s = table()
    assert s.actors() == [0]
    s.apply({"type": "decline"}, 0)
    assert s.actors() == [1]
    s.apply({"type": "accept", "dice": [2, 4]}, 1)
    assert s.shooter == 1 and s.phase == "betting"
    assert "takes the dice and throws dice 3 and 5 of the 5" in s.events()[-1]
    assert s.view()["active_pair"] == [2, 4]


def test_only_a_player_with_a_wager_may_shoot() -> None:
    s = table()
    s.apply({"type": "accept", "dice": [0, 1]}, 0)
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="5.4"):
        s.apply({"type": "roll"}, 0)
    assert snapshot(s) == before


def test_done_at_the_wrong_moment_says_why_in_words() -> None:
    """A hot-seat shooter pressing d (done betting) read 'A has nothing to be done with now'."""
    s = table()
    with pytest.raises(IllegalAction, match="no betting is open now"):
        s.apply({"type": "done"}, 0)  # the dice are still being offered
    s.apply({"type": "accept", "dice": [0, 1]}, 0)
    s.apply({"type": "wager", "area": "hard4", "amount": 5}, 0)
    s.apply({"type": "done"}, 1)
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="A is the shooter: roll once the bets are down"):
        s.apply({"type": "done"}, 0)
    with pytest.raises(IllegalAction, match="B is already done betting"):
        s.apply({"type": "done"}, 1)
    assert snapshot(s) == before


def test_only_a_hardway_total_is_called_hard() -> None:
    """'A rolls 12 hard' read as a hardway win; rule 4.1(a): the "Hardways" are "a hard 4, hard 6,
    hard 8 or hard 10", so a pair of ones or sixes is just 2 or 12."""
    s = table()
    s.apply({"type": "accept", "dice": [0, 1]}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 5}, 0)
    roll(s, 6, 6)
    assert s.events()[-1].startswith("A rolls 12;")
    s.apply({"type": "wager", "area": "field", "amount": 5}, 0)  # a one-roll wager: again
    roll(s, 3, 3)
    assert s.events()[-1].startswith("A rolls 6 hard")


def test_losing_wagers_are_taken_winners_paid_and_left_up() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    roll(s, 3, 3)  # hard 6 pays 9:1 and stays up; field loses on 6
    assert s.ledger["seat0"] == 1000 - 20 + 90
    assert s.wagers_of(0) == {"hard6": 10}
    assert s.results == [6] and s.shooter == 0


def test_seven_out_passes_the_dice_to_the_next_player_with_a_wager() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num8", "amount": 10}, 2)
    roll(s, 3, 4)
    assert "7 Out" in " ".join(s.events())
    # seat 0 lost num6 and seat 2 lost num8: nobody has a wager, so play starts afresh
    # from the old shooter's left (project decision) and closes if everyone declines
    assert s.actors() == [1]
    s.apply({"type": "decline"}, 1)
    s.apply({"type": "decline"}, 2)
    s.apply({"type": "decline"}, 0)
    assert s.is_terminal()


def test_give_up_dice_skips_players_without_a_wager() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num5", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num5", "amount": 10}, 2)
    roll(s, 2, 2)
    s.apply({"type": "give_up"}, 0)
    assert s.actors() == [2]


def test_dealer_rolls_when_nobody_takes_the_dice_until_wagers_are_decided() -> None:
    s = table(players=2)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard8", "amount": 10}, 0)
    s.apply({"type": "give_up"}, 0)  # seat 1 has no wager, and the old shooter is not asked
    assert s.is_chance() and s.dealer_rolls
    roll(s, 1, 2)
    assert s.dealer_rolls and s.wagers_of(0) == {"hard8": 10}
    roll(s, 5, 3)  # easy 8: hard8 loses, layout empty -> dice offered from the dealer's left
    assert not s.dealer_rolls and s.actors() == [0] and not s.has_wagers()


def test_shooter_who_lost_every_wager_may_wager_again_and_go_on() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    roll(s, 3, 3)
    assert s.shooter == 0 and not s.wagers_of(0)
    s.apply({"type": "wager", "area": "any7", "amount": 5}, 0)
    roll(s, 3, 4)
    assert s.ledger["seat0"] == 1000 - 10 + 20


def test_void_roll_settles_nothing_and_logs_its_reason() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "any7", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    s.apply({"type": "void", "reason": "a die left the table (6.3(a))"})
    assert s.wagers_of(0) == {"any7": 10} and s.results == [] and s.phase == "betting"
    assert "a die left the table" in s.events()[-1]


def test_amend_a_wrongly_entered_result_before_settlement() -> None:
    s = table(live=True)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "any7", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    s.apply({"type": "dice", "faces": [3, 3]})
    assert s.view()["lit"] == ["hard6", "hardway_combo", "num6"]
    s.apply({"type": "amend", "faces": [3, 4]})
    assert s.view()["pending_wins"] == {"A": 40}
    s.apply({"type": "settle"})
    assert s.ledger["seat0"] == 1000 + 40 and s.results == [7]


def test_results_display_keeps_the_last_twenty_totals() -> None:
    s = table(max_rolls=500)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard10", "amount": 5}, 0)
    for i in range(25):
        roll(s, 1, 1 + i % 2)  # 2s and 3s: the hard 10 stays up
    assert len(s.results) == 20 and s.results[-1] == 2


def test_mixed_payout_table() -> None:
    s = table(payouts={"hard6": "8:1", "field": "option-2"})
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard6", "amount": 10}, 0)
    roll(s, 3, 3)
    assert s.ledger["seat0"] == 1000 - 10 + 80


# --- bad input: a clear error and nothing changes ---------------------------------------------
@pytest.fixture
def betting() -> CasinoState:
    s = table(table_min=5, table_max=100, bankroll=50, live=True)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    return s


@pytest.mark.parametrize(
    ("action", "seat", "match"),
    [
        ({"type": "wager", "area": "num6", "amount": 4}, 0, "under the table minimum"),
        ({"type": "wager", "area": "num6", "amount": 101}, 1, "over the table maximum"),
        ({"type": "wager", "area": "pass_line", "amount": 10}, 0, "unknown wager area"),
        ({"type": "wager", "area": "num6", "amount": 10}, 7, "no seat"),
        ({"type": "wager", "area": "num6", "amount": 45}, 0, "has 40 chips"),
        ({"type": "wager", "area": "num6", "amount": "ten"}, 0, "positive whole number"),
        ({"type": "remove", "area": "num6"}, 0, "no num6 wager"),
        ({"type": "roll"}, 1, "not the shooter"),
        ({"type": "amend", "faces": [1, 1]}, None, "a player is to act"),
    ],
)
def test_bad_input_changes_nothing(betting: CasinoState, action, seat, match) -> None:
    before = snapshot(betting)
    with pytest.raises(IllegalAction, match=match):
        betting.apply(action, seat)
    assert snapshot(betting) == before


def test_dice_entered_while_players_bet_name_who_is_to_act(betting: CasinoState) -> None:
    """A dealer typed `dice 3 3` at a live table before the shooter rolled and read only
    "a player is to act", not which player the table waits for."""
    before = snapshot(betting)
    with pytest.raises(IllegalAction, match=r"a player is to act \(B, C, A\)"):
        betting.apply({"type": "dice", "faces": [3, 3]})
    assert snapshot(betting) == before


def test_touching_a_losing_wager_is_refused(betting: CasinoState) -> None:
    betting.apply({"type": "roll"}, 0)
    betting.apply({"type": "dice", "faces": [3, 4]})
    before = snapshot(betting)
    with pytest.raises(IllegalAction, match="4.8"):
        betting.apply({"type": "remove", "area": "field"}, 0)
    assert snapshot(betting) == before


def test_amending_after_settlement_is_refused(betting: CasinoState) -> None:
    roll(betting, 1, 1)
    before = snapshot(betting)
    with pytest.raises(IllegalAction, match="a player is to act"):
        betting.apply({"type": "amend", "faces": [1, 1]})
    assert snapshot(betting) == before
    betting.apply({"type": "wager", "area": "any7", "amount": 5}, 0)
    betting.apply({"type": "roll"}, 0)  # the dice are in the air: nothing entered yet
    before = snapshot(betting)
    with pytest.raises(IllegalAction, match="6.8"):
        betting.apply({"type": "amend", "faces": [1, 1]})
    assert snapshot(betting) == before


def test_bad_table_settings_are_named() -> None:
    with pytest.raises(BadOption, match="rule 4.9 allows"):
        gamenight.new_game("snake-eyes-casino", payouts={"hard6": "10:1"})
    with pytest.raises(BadOption, match="table_min"):
        gamenight.new_game("snake-eyes-casino", table_min=50, table_max=10)


# --- the ledger under random play ---------------------------------------------------------------
@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_chips_are_conserved_at_every_step(seed: int, data) -> None:
    s = table(players=3, bankroll=60, max_rolls=30, live=data.draw(st.booleans()))
    start = chips(s)
    for _ in range(400):
        if s.is_terminal():
            break
        if s.is_chance():
            if s.phase == "entered" and data.draw(st.booleans()):
                s.apply({"type": "amend", "faces": [data.draw(st.integers(1, 6)), 2]})
            s.sample_chance()
        else:
            seat = s.actors()[0] if s.phase == "offer" else data.draw(st.sampled_from(s.actors()))
            acts = s.legal_actions(seat)
            if acts:
                s.apply(data.draw(st.sampled_from(acts)), seat)
        layout = sum(sum(held.values()) for held in s.bets)
        assert s.ledger["layout"] == layout
        bankrolls = sum(s.ledger[p] for p in s.purse)
        assert bankrolls + layout + s.ledger["bank"] == start
        assert all(s.ledger[p] >= 0 for p in s.purse)
    replayed = gamenight.replay(s.record())
    assert replayed == s


# --- drawn dice and the live table ---------------------------------------------------------------
def test_drawn_dice_settle_at_once_and_only_a_live_dealer_amends() -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    assert [a for a, _ in s.chance_outcomes()] == [
        {"type": "dice", "faces": [a, b]} for a in range(1, 7) for b in range(1, 7)
    ]
    s.apply({"type": "dice", "faces": [5, 6]})
    assert s.ledger["seat0"] == 1000 + 10 and s.results == [11] and s.entered is None
    assert s.events()[-1] == "A rolls 11; A wins 10 on the Field (1:1)"
    assert s.view()["last_dice"] == [5, 6]
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    for action in ({"type": "amend", "faces": [1, 1]}, {"type": "settle"}):
        before = snapshot(s)
        with pytest.raises(IllegalAction, match="option live"):
            s.apply(action)
        assert snapshot(s) == before


def test_a_live_table_shows_the_result_before_any_chip_moves() -> None:
    s = table(live=True)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard8", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    s.apply({"type": "dice", "faces": [4, 4]})
    assert s.phase == "entered" and s.chance_outcomes() == [({"type": "settle"}, 1)]
    assert s.ledger["seat0"] == 990 and s.view()["pending_wins"] == {"A": 90}
    s.apply({"type": "settle"})
    assert s.ledger["seat0"] == 990 + 90 and s.wagers_of(0) == {"hard8": 10}


def test_a_seat_that_said_done_can_take_the_dice_and_shoot() -> None:
    s = table(players=2)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num8", "amount": 10}, 1)
    s.apply({"type": "done"}, 1)
    s.apply({"type": "give_up"}, 0)
    s.apply({"type": "accept"}, 1)
    assert s.actors() == [0, 1]  # a fresh betting round: seat 0, then the shooter
    s.apply({"type": "roll"}, 1)
    assert s.is_chance()


def test_a_table_can_return_winning_multi_roll_wagers_with_their_win() -> None:
    s = table(winners_stay_up=False)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num8", "amount": 10}, 0)
    roll(s, 2, 4)  # 6 pays 1:1 and comes down with its stake; the 8 stays up, undecided
    assert s.ledger["seat0"] == 1000 - 20 + 10 + 10 and s.wagers_of(0) == {"num8": 10}
    assert s.ledger["layout"] == 10


# --- rules 4.7, 5.7(b) and 5.9 in detail ----------------------------------------------------
def test_a_wager_can_be_taken_down_while_the_dealer_rolls_out_the_layout() -> None:
    """Rule 4.7: "A player may, at any time, remove or reduce any wager ... before the Active
    Dice ... come to rest", also while the dealer rolls under rule 5.9(d)."""
    s = table(players=2)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard8", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "give_up"}, 0)
    assert s.is_chance() and s.dealer_rolls and s.actors() == [0]
    assert {"type": "remove", "area": "hard8"} in s.legal_actions(0)
    s.apply({"type": "remove", "area": "hard8"}, 0)
    s.apply({"type": "reduce", "area": "num6", "amount": 5}, 0)
    assert s.wagers_of(0) == {"num6": 5} and s.ledger["seat0"] == 995
    roll(s, 1, 2)
    assert s.dealer_rolls and s.wagers_of(0) == {"num6": 5}
    with pytest.raises(IllegalAction, match="4.4"):
        s.apply({"type": "wager", "area": "field", "amount": 5}, 1)


def test_the_dealer_rolls_until_every_wager_is_decided_not_until_the_layout_is_empty() -> None:
    """Rule 5.9(d): the dealer rolls "until a result has been determined or a 7 Out is Rolled";
    winners that stay up (rule 4.7) do not keep him rolling."""
    s = table(players=2)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "hard8", "amount": 10}, 0)
    s.apply({"type": "give_up"}, 0)
    roll(s, 3, 3)  # num6 wins and stays up; hard8 still undecided
    assert s.dealer_rolls and s.is_chance()
    roll(s, 4, 4)  # hard8 wins: every wager the dealer rolled for is decided
    assert not s.dealer_rolls and s.phase == "offer" and s.actors() == [0]
    assert s.wagers_of(0) == {"num6": 10, "hard8": 10}


def test_dice_offer_eligibility_is_checked_as_the_dice_reach_each_player() -> None:
    """Rule 5.9(a), (b): the dice go to the next players "who have placed a wager", judged at
    each offer: a wager taken down meanwhile loses the offer, one placed meanwhile wins it."""
    s = table(players=4)
    s.apply({"type": "accept"}, 0)
    for seat in (0, 1, 2):
        s.apply({"type": "wager", "area": "num8", "amount": 5}, seat)
    s.apply({"type": "give_up"}, 0)
    assert s.actors() == [1]
    s.apply({"type": "remove", "area": "num8"}, 2)  # C no longer qualifies
    s.apply({"type": "wager", "area": "num5", "amount": 5}, 3)  # D now does
    s.apply({"type": "decline"}, 1)
    assert s.actors() == [3]
    s.apply({"type": "remove", "area": "num5"}, 3)  # the offered player takes his wager down
    assert s.is_chance() and s.dealer_rolls  # nobody left qualifies: the dealer rolls


def test_the_dealer_can_make_the_shooter_give_up_the_dice() -> None:
    """Rule 5.7(b): the dealer "may require the Shooter to relinquish the Active Dice"."""
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": 10}, 2)
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="reason"):
        s.apply({"type": "force_give_up"})
    with pytest.raises(IllegalAction, match="unknown action type 'force_give_up' for a player"):
        s.apply({"type": "force_give_up", "reason": "delay"}, 0)  # a dealer's move, not a seat's
    assert snapshot(s) == before
    s.apply({"type": "force_give_up", "reason": "unreasonable delay"})
    assert s.shooter is None and s.actors() == [2]
    assert "the dealer takes the dice from A: unreasonable delay" in s.events()[-2]
    with pytest.raises(IllegalAction, match="5.7"):
        s.apply({"type": "force_give_up", "reason": "again"})


def test_a_wager_comes_down_while_the_dice_are_in_the_air_not_once_they_decide_it() -> None:
    """Rule 4.7: until the dice that decide a wager come to rest; rule 4.8 for losers."""
    s = table(live=True)
    s.apply({"type": "accept"}, 0)
    for area in ("hard8", "field", "any7"):
        s.apply({"type": "wager", "area": area, "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    assert s.is_chance() and {"type": "remove", "area": "any7"} in s.legal_actions(0)
    s.apply({"type": "remove", "area": "any7"}, 0)  # in the air
    s.apply({"type": "dice", "faces": [1, 2]})  # at rest: field wins, hard8 stays undecided
    assert s.legal_actions(0) == [
        {"type": "remove", "area": "hard8"},
        {"type": "reduce", "area": "hard8", "amount": 5},
    ]
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="4.7"):
        s.apply({"type": "remove", "area": "field"}, 0)
    assert snapshot(s) == before
    s.apply({"type": "reduce", "area": "hard8", "amount": 5}, 0)
    s.apply({"type": "settle"})
    assert s.wagers_of(0) == {"hard8": 5} and s.ledger["seat0"] == 1000 - 5 + 10


@pytest.mark.parametrize(("held", "step"), [(5, 5), (7, 2), (10, 5), (40, 5)])
def test_legal_actions_list_a_reduce_whenever_one_is_legal(held: int, step: int) -> None:
    s = table()
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "num6", "amount": held}, 0)
    reduces = [a for a in s.legal_actions(0) if a["type"] == "reduce"]
    assert reduces == [{"type": "reduce", "area": "num6", "amount": step}]
    s.apply(reduces[0], 0)
    assert s.wagers_of(0) == ({"num6": held - step} if held > step else {})


def test_an_amended_result_undoes_a_take_down_of_a_wager_the_true_dice_decided() -> None:
    """Rule 4.8: "No player shall handle, alter or withdraw any losing wager." Rule 6.9: wagers
    are "taken and paid according to the result shown on the dice". A player who took a Hard 8
    down after a wrong entry of 1 + 2 had withdrawn a loser once the dealer amends to the 7 the
    dice showed (rule 6.8): the take-down is undone and the wager lost; one the corrected dice
    leave undecided stays down."""
    s = table(live=True)
    s.apply({"type": "accept"}, 0)
    for area in ("hard8", "num6", "num5"):
        s.apply({"type": "wager", "area": area, "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    s.apply({"type": "dice", "faces": [1, 2]})  # entered wrongly: the dice show 3 + 4
    s.apply({"type": "remove", "area": "hard8"}, 0)
    s.apply({"type": "reduce", "area": "num6", "amount": 5}, 0)
    s.apply({"type": "amend", "faces": [3, 4]})
    assert s.wagers_of(0) == {"hard8": 10, "num6": 10, "num5": 10}
    assert "wager on Hard 8: the 10 taken down go back on it" in " ".join(s.events()[-3:])
    s.apply({"type": "settle"})
    assert s.ledger["seat0"] == 1000 - 30 and not s.has_wagers()
    assert chips(s) == 3000  # nothing made or lost on the way


def test_an_amend_undoes_a_take_down_only_once_the_corrected_dice_decide_it() -> None:
    """Rule 4.7: a wager the dice at rest do not decide may still come down; rule 6.9: one they
    do decide is paid "according to the result shown on the dice", a winner too."""
    s = table(live=True)
    s.apply({"type": "accept"}, 0)
    s.apply({"type": "wager", "area": "hard8", "amount": 10}, 0)
    s.apply({"type": "wager", "area": "field", "amount": 10}, 0)
    s.apply({"type": "roll"}, 0)
    s.apply({"type": "dice", "faces": [1, 2]})
    s.apply({"type": "remove", "area": "hard8"}, 0)
    s.apply({"type": "amend", "faces": [2, 3]})  # a 5: the Hard 8 is still undecided
    assert s.wagers_of(0) == {"field": 10}
    s.apply({"type": "amend", "faces": [4, 4]})  # no: a hard 8, which wins it
    assert s.wagers_of(0) == {"hard8": 10, "field": 10}
    s.apply({"type": "settle"})
    assert s.ledger["seat0"] == 1000 - 20 + 90 and s.wagers_of(0) == {"hard8": 10}
