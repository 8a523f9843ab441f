"""Hostile input at every entry point of every registered game (beside the conformance suite).

Hypothesis throws generated garbage (every JSON type, deep nesting, huge numbers, bad seats,
unknown fields, non-JSON Python objects, aliasing) at new_game, new_state, legal_actions, apply,
view, public_record, replay and the real-time table. Each must raise a typed GamenightError
with a short message and leave the full view and record exactly as they were.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamenight
from gamenight import GamenightError, State
from gamenight.realtime import RealtimeTable

GAMES = gamenight.list_games()
SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


def _deep_list(n: int) -> list[Any]:
    x: list[Any] = []
    for _ in range(n):
        x = [x]
    return x


def _deep_dict(n: int) -> dict[str, Any]:
    x: dict[str, Any] = {}
    for _ in range(n):
        x = {"type": x}
    return x


def pick(values: list[Any]) -> st.SearchStrategy[Any]:
    """sampled_from without printing the values (repr of these would fail or flood)."""

    def item(i: int) -> Any:
        return values[i]

    return st.integers(0, len(values) - 1).map(item)


HUGE = [10**5000, -(10**5000), 2**64, -(2**63) - 1, 10**400]
DEEP = [_deep_list(100_000), _deep_dict(100_000)]
LONG = "x" * 100_000
JUNK = [object(), {1, 2}, (1, 2), b"dice", 1j, float("nan"), float("inf"), ...]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | pick(HUGE)
    | st.floats()
    | st.text(max_size=20)
    | pick([LONG])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=10,
)
garbage = json_values | pick(DEEP) | pick(JUNK)


# --- positions to attack: random play to several depths, for every game ------------------------
@cache
def positions(game_id: str) -> tuple[State, ...]:
    cls = gamenight.engine.game_class(game_id)
    out = []
    for seed, players in ((1, cls.min_players), (2, min(cls.max_players, 4))):
        rng = random.Random(seed)
        state = gamenight.new_game(game_id, players=players).new_state(seed=seed)
        for step in range(400):
            wanted = step in (0, 1, 3, 10, 30, 120, 399) or (step > 10 and not state.is_chance())
            if wanted and len(out) < 8 * (1 + (players != cls.min_players)):
                out.append(state.clone())
            if state.is_terminal():
                out.append(state.clone())
                break
            advance(state, rng)
    return tuple(out)


def advance(state: State, rng: random.Random) -> None:
    if state.is_chance():
        state.sample_chance()
    else:
        seat = rng.choice(state.actors())
        state.apply(rng.choice(state.legal_actions(seat)), seat)


def snapshot(state: State) -> tuple[str, str, int]:
    return (
        json.dumps(state.view(), sort_keys=True),
        json.dumps(state.record(), sort_keys=True),
        state.chance_draws,
    )


def refused(call: Any, *args: Any, **kwargs: Any) -> GamenightError:
    """``call`` must raise a typed error with a short message; returns it."""
    with pytest.raises(GamenightError) as info:
        call(*args, **kwargs)
    assert len(str(info.value)) < 1000, str(info.value)[:200]
    return info.value


def templates(state: State) -> list[tuple[dict[str, Any], int | None]]:
    """Well-formed actions of this position, with the seat that would send them."""
    out: list[tuple[dict[str, Any], int | None]] = []
    if state.is_chance():
        out += [(a, None) for a, _ in state.chance_outcomes()[:5]]
    for seat in state.actors():
        out += [(a, seat) for a in state.legal_actions(seat)[:5]]
    return out


def wrong_for(value: Any) -> st.SearchStrategy[Any]:
    """Values that cannot stand where ``value`` stands in a well-formed action."""
    if type(value) is int:
        return garbage.filter(lambda x: type(x) is not int) | pick(HUGE)
    if type(value) is str:
        return garbage.filter(lambda x: type(x) is not str) | pick([LONG])
    if type(value) is list:
        return (
            garbage.filter(lambda x: type(x) is not list)
            | st.builds(lambda g: [*value, g], garbage.filter(lambda x: type(x) is not int))
            | st.just(list(range(1000)))
            | pick(DEEP[:1])
        )
    return garbage.filter(lambda x: type(x) is not type(value))


@st.composite
def bad_move(draw: st.DrawFn, state: State) -> tuple[Any, Any]:
    """A move that no game may accept here: its shape is wrong, whatever the rules say."""
    tpl = templates(state)
    kind = draw(st.sampled_from(["not an object", "bad type", "unknown type", "extra", "wrong"]))
    seat = draw(st.sampled_from([None, *range(state.players)]))
    if kind == "not an object":
        return draw(garbage.filter(lambda x: type(x) is not dict)), seat
    if kind == "bad type":
        return {"type": draw(garbage.filter(lambda x: type(x) is not str))}, seat
    if kind == "unknown type":
        known = {*state._player_types.types, *state._chance_types.types}
        name = draw(st.text(max_size=12).filter(lambda t: t not in known))
        return {"type": name}, seat
    action, seat = draw(st.sampled_from(tpl)) if tpl else ({"type": "flip"}, 0)
    action = copy.deepcopy(action)
    fields = [k for k in action if k != "type"]
    if kind == "extra" or not fields:
        key = draw(st.text(max_size=8).filter(lambda k: k not in action))
        action[key] = draw(garbage)
    else:
        name = draw(st.sampled_from(fields))
        action[name] = draw(wrong_for(action[name]))
    return action, seat


bad_seats = (
    st.integers().filter(lambda s: not 0 <= s < 2)
    | st.booleans()
    | st.floats()
    | st.text(max_size=5)
    | pick(HUGE)
    | pick(JUNK)
    | st.lists(st.integers(0, 3), max_size=2)
)


def out_of_table(seat: Any, state: State) -> bool:
    return not (type(seat) is int and 0 <= seat < state.players)


# --- apply, legal_actions, view, public_record -------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_apply_refuses_malformed_moves(game_id: str, data: st.DataObject) -> None:
    """Wrong shapes anywhere: a typed error naming it, the full view and record unchanged."""
    state = data.draw(st.sampled_from(positions(game_id)), label="position")
    action, seat = data.draw(bad_move(state), label="move")
    before = snapshot(state)
    refused(state.apply, action, seat)
    assert snapshot(state) == before


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_bad_seats_are_refused_at_every_entry(game_id: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(positions(game_id)), label="position")
    seat = data.draw(bad_seats.filter(lambda s: out_of_table(s, state)), label="seat")
    before = snapshot(state)
    refused(state.legal_actions, seat)
    refused(state.view, seat)
    refused(state.public_record, seat)
    for action, _ in templates(state)[:3]:
        refused(state.apply, action, seat)
    assert snapshot(state) == before


# --- aliasing: nothing handed in or out is a live reference into the state ---------------------
def scramble(value: Any) -> None:
    """Change every container inside ``value`` in place."""
    if type(value) is dict:
        for v in list(value.values()):
            scramble(v)
        value["type"] = "scrambled"
        value["extra"] = [1]
        for k in list(value):
            if k not in ("type", "extra"):
                value[k] = None
    elif type(value) is list:
        for v in value:
            scramble(v)
        value.append(99)
        value.reverse()
    elif type(value) is tuple:
        for v in value:
            scramble(v)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_outputs_are_copies(game_id: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(positions(game_id)), label="position")
    before = snapshot(state)
    viewer = data.draw(st.sampled_from([None, *range(state.players)]), label="viewer")
    scramble(state.view(viewer))
    scramble(state.record())
    scramble(state.public_record(viewer))
    for seat in range(state.players):
        scramble(state.legal_actions(seat))
    if state.is_chance():
        scramble(state.chance_outcomes())
    assert snapshot(state) == before


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_the_callers_action_is_not_kept(game_id: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(positions(game_id)), label="position").clone()
    if state.is_terminal():
        return
    action, seat = data.draw(st.sampled_from(templates(state)), label="move")
    state.apply(action, seat)
    after = snapshot(state)
    scramble(action)
    assert snapshot(state) == after
    if state.is_chance():
        scramble(state.sample_chance())
        assert gamenight.replay(state.record()) == state


# --- new_game, new_state -------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_new_game_options_garbage(game_id: str, data: st.DataObject) -> None:
    known = list(gamenight.engine.game_class(game_id).Options.model_fields)
    name = data.draw(st.sampled_from(known) | st.text(max_size=10), label="option")
    value = data.draw(garbage, label="value")
    try:
        game = gamenight.new_game(game_id, **{name: value})
    except GamenightError as e:
        assert len(str(e)) < 1000
        return
    assert name in known  # an unknown option is always refused
    game.new_state(seed=1)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(seed=garbage | st.integers(min_value=2**64) | st.integers(max_value=-1))
def test_new_state_seed_garbage(game_id: str, seed: Any) -> None:
    game = gamenight.new_game(game_id)
    if seed is None or (type(seed) is int and 0 <= seed < 2**64):
        game.new_state(seed=seed)
    else:
        refused(game.new_state, seed=seed)


@pytest.mark.parametrize("game_id", GAMES)
def test_huge_option_values_are_refused(game_id: str) -> None:
    """Every whole-number option has an upper bound, and a huge one is named, not printed."""
    fields = gamenight.engine.game_class(game_id).Options.model_fields
    for name, field in fields.items():
        if field.annotation in (int, int | None):
            e = refused(gamenight.new_game, game_id, **{name: 10**5000})
            assert name in str(e)


# --- replay ---------------------------------------------------------------------------------------
@cache
def record_text(game_id: str) -> str:
    return json.dumps(positions(game_id)[-1].record())


@st.composite
def mangled_record(draw: st.DrawFn, game_id: str) -> Any:
    """The record of a real game with one node anywhere replaced by garbage."""
    rec = json.loads(record_text(game_id))
    node, key = rec, None
    parent: Any = None
    for _ in range(draw(st.integers(1, 5))):
        if type(node) is dict and node:
            parent, key = node, draw(st.sampled_from(sorted(node)))
        elif type(node) is list and node:
            parent, key = node, draw(st.integers(0, len(node) - 1))
        else:
            break
        node = parent[key]
    if parent is None:
        return draw(garbage)
    if draw(st.booleans()):
        parent[key] = draw(wrong_for(node) if node is not None else garbage)
    elif type(parent) is dict:
        parent[draw(st.text(max_size=6).filter(lambda k: k not in parent))] = draw(garbage)
    else:
        parent.insert(key, draw(garbage))
    return rec


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_replay_of_mangled_records(game_id: str, data: st.DataObject) -> None:
    rec = data.draw(mangled_record(game_id), label="record")
    try:
        state = gamenight.replay(rec)
    except gamenight.BadRecord as e:
        assert len(str(e)) < 1000
        return
    assert isinstance(state, State)  # the garbage happened to be legal (a different seed, ...)


@SETTINGS
@given(text=st.text(max_size=50) | st.binary(max_size=50) | pick(["[" * 100_000, "1" * 5000]))
def test_replay_of_garbage_text(text: str | bytes) -> None:
    refused(gamenight.replay, text)


# --- the real-time table --------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["snap", "slap-the-elephant"])
@SETTINGS
@given(data=st.data())
def test_realtime_table_refuses_garbage(game_id: str, data: st.DataObject) -> None:
    state = gamenight.new_game(game_id, players=2).new_state(seed=3)
    table = RealtimeTable(state, {1: "normal"}, seed=1)
    table.advance(2000)
    before = snapshot(state)
    queued = len(table._queue)
    if data.draw(st.booleans(), label="bad seat"):
        seat = data.draw(bad_seats.filter(lambda s: out_of_table(s, state)), label="seat")
        refused(table.press, seat, {"type": "flip"})
    else:
        action, _ = data.draw(bad_move(state), label="move")
        refused(table.press, 0, action)
    assert snapshot(state) == before and len(table._queue) == queued
