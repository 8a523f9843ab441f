"""Free text that strangers type into a game (a live dealer's reasons, a custom Gambler board's
names and card texts) reaches every player's event log and ``gamenight replay``'s terminal: it
must be printable. A newline would forge an event line ("A wins 999 chips"), an escape
sequence would clear or retitle the terminal that replays the record."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight import GamenightError
from gamenight.games.gambler.data import builtin_data

NOT_PRINTABLE = st.characters(
    categories=["Cc", "Cf", "Zl", "Zp", "Cs", "Co"]  # controls, formats (RTL override), ...
) | st.sampled_from(["\n", "\x1b", "\u202e", "\u200b", "\x00", "\x7f", "\u2028"])


@st.composite
def text_with_a_control(draw: st.DrawFn) -> str:
    before = draw(st.text(max_size=20).filter(str.isprintable))
    bad = draw(NOT_PRINTABLE)
    after = draw(st.text(max_size=20).filter(str.isprintable))
    return before + bad + after


def live_table_waiting_for_dice() -> Any:
    """A live casino table at the moment the dealer enters (or voids) a roll."""
    st_ = gamenight.new_game("snake-eyes-casino", players=2, live=True).new_state(seed=1)
    for _ in range(40):
        if st_.is_chance():
            return st_
        seat = st_.actors()[0]
        legal = st_.legal_actions(seat)
        pick = [a for a in legal if a["type"] in ("accept", "done", "roll")] or legal
        st_.apply(pick[0], seat)
    raise AssertionError("the dealer was never due")


def snapshot(state: Any) -> str:
    return json.dumps([state.view(), state.record(), state.events()], sort_keys=True)


@settings(max_examples=60, deadline=None)
@given(reason=text_with_a_control(), kind=st.sampled_from(["void", "force_give_up"]))
def test_a_dealers_reason_with_a_control_character_is_refused(reason: str, kind: str) -> None:
    state = live_table_waiting_for_dice()
    if kind == "force_give_up":  # between rolls: settle one first
        state.apply({"type": "dice", "faces": [2, 3]}, None)
        state.apply({"type": "settle"}, None)
    before = snapshot(state)
    with pytest.raises(GamenightError) as e:
        state.apply({"type": kind, "reason": reason}, None)
    assert "control character" in str(e.value) or "must be" in str(e.value)
    assert snapshot(state) == before


def test_a_record_whose_reason_drives_the_terminal_is_refused() -> None:
    """The record a user pastes into ``gamenight replay``: refused, naming the move."""
    state = live_table_waiting_for_dice()
    rec = state.record()
    n = len(rec["moves"])
    rec["moves"].append(
        {"seat": None, "action": {"type": "void", "reason": "\x1b[2J\x1b]0;pwned\x07\nA wins"}}
    )
    with pytest.raises(gamenight.BadRecord) as e:
        gamenight.replay(rec)
    assert e.value.index == n and "U+001B" in str(e.value)


def test_printable_reasons_still_void_the_roll() -> None:
    state = live_table_waiting_for_dice()
    state.apply({"type": "void", "reason": "die left the table — «bounced» ✋🏽"}, None)
    assert "bounced" in state.events()[-1]


@settings(max_examples=40, deadline=None)
@given(text=text_with_a_control(), where=st.sampled_from(["name", "design"]))
def test_a_custom_board_with_a_control_character_is_refused(text: str, where: str) -> None:
    board: dict[str, Any] = {
        "space": [{"name": "Start", "kind": "start"}, {"name": "Pay", "kind": "pay", "amount": 5}]
    }
    if where == "name":
        board["space"][1]["name"] = text
    else:
        board["design"] = text
    with pytest.raises(GamenightError) as e:
        gamenight.new_game("gambler", players=2, board=board)
    message = str(e.value)  # a lone surrogate is not even a string to pydantic
    assert "control character" in message or "unicode string" in message, message


def test_a_fortune_card_with_a_newline_is_refused() -> None:
    deck = {"card": [{"text": "Collect $5\nA wins the game", "effect": "collect", "amount": 5}]}
    with pytest.raises(GamenightError) as e:
        gamenight.new_game("gambler", players=2, fortune=deck)
    assert "U+000A" in str(e.value)


def test_the_shipped_gambler_data_still_loads() -> None:
    data = builtin_data()
    names = [s.name for s in data.board.space] + [c.text for c in data.fortune.card]
    assert names and all(unicodedata.category(ch)[0] != "C" for n in names for ch in n)
