"""One suite over every registered game: what the protocol promises, checked by random play."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamenight
from gamenight import IllegalAction, State

GAMES = gamenight.list_games()
MAX_MOVES = 20_000


def player_counts(game_id: str) -> list[int]:
    cls = gamenight.engine.game_class(game_id)
    return list(range(cls.min_players, cls.max_players + 1))


def chips(state: State) -> None:
    ledger = getattr(state, "ledger", None)
    if ledger is not None:
        assert ledger.is_balanced(), ledger.balances


def wrong_moves(state: State, rng: random.Random) -> list[tuple[dict, int | None]]:
    """Moves that must be refused here: malformed ones, and legal ones from the wrong seat."""
    seat = rng.randrange(state.players)
    bad: list[tuple[dict, int | None]] = [({"type": "no-such-move"}, seat), ({"faces": []}, None)]
    actors = state.actors()
    idle = [s for s in range(state.players) if s not in actors]
    if actors and idle:
        for action in state.legal_actions(actors[0])[:2]:
            if action not in [a for s in idle for a in state.legal_actions(s)]:
                bad.append((action, idle[0]))
    if not state.is_chance():
        bad.append(({"type": "dice", "faces": [1, 1]}, None))
    return bad


def random_play(state: State, rng: random.Random, probe_every: int = 7) -> State:
    """Play to the end at random, checking the invariants along the way."""
    for step in range(MAX_MOVES):
        assert state.next_actor() == (state.actors() or [None])[0]
        if state.is_terminal():
            assert not state.is_chance(), "a finished game is not a chance node (play_out asks)"
            return state
        chips(state)
        if step % probe_every == 0:
            before = json.dumps(state.view(), sort_keys=True)
            n_moves = len(state.moves)
            if not type(state).VIEW_BY_SEAT:  # the game says every seat sees one picture
                assert all(json.dumps(state.view(s), sort_keys=True) == before
                           for s in range(state.players))  # fmt: skip
            for action, seat in wrong_moves(state, rng):
                with pytest.raises(IllegalAction):
                    state.apply(action, seat)
                assert json.dumps(state.view(), sort_keys=True) == before
                assert len(state.moves) == n_moves
        if state.is_chance():
            outcomes = state.chance_outcomes()
            if step % probe_every == 0:
                assert sum(p for _, p in outcomes) == 1
                assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            action, _ = rng.choice(outcomes)
            state.apply(action, None)
        else:
            actors = state.actors()
            assert actors, "a non-chance, non-terminal state must have someone to act"
            seat = rng.choice(actors)
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} may act but has no legal action"
            state.apply(rng.choice(legal), seat)
    raise AssertionError(f"{state.game.id}: random play did not end in {MAX_MOVES} moves")


@pytest.mark.parametrize("game_id", GAMES)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_play_ends_replays_and_conserves(game_id: str, seed: int, data) -> None:
    """Random play ends; record -> replay is equal; illegal moves change nothing; chips balance."""
    players = data.draw(st.sampled_from(player_counts(game_id)), label="players")
    rng = random.Random(seed)
    # random play's tail in Slap the Elephant runs to tens of thousands of moves; a short cap
    # keeps this property test quick and makes it cover truncated games too
    short: dict[str, int] = {}
    if game_id in ("snap", "slap-the-elephant"):
        short = {"max_flips": 2_000}
    elif game_id == "snake-eyes-casino":  # random wagers and removals between rolls: at 8
        short = {"max_rolls": 50}  # players 100 rolls took ~17,000 moves, near MAX_MOVES
    game = gamenight.new_game(game_id, players=players, **short)
    state = game.new_state(seed=rng.randrange(2**32))
    random_play(state, rng)
    assert state.is_terminal()
    chips(state)
    returns = state.returns()
    assert len(returns) == players
    record = json.loads(json.dumps(state.record()))
    again = gamenight.replay(record)
    assert again == state
    assert again.events() == state.events()
    for seat in [None, *range(players)]:
        json.dumps(state.view(seat))
    with pytest.raises(IllegalAction):
        state.apply({"type": "anything"}, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_sample_chance_is_seeded(game_id: str) -> None:
    """The same seed draws the same game; the state's own RNG feeds only sample_chance."""

    def run(seed: int) -> list:
        state = gamenight.new_game(game_id, players=player_counts(game_id)[0]).new_state(seed)
        rng = random.Random(5)
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance():
                state.sample_chance()
            else:
                seat = state.actors()[0]
                state.apply(rng.choice(state.legal_actions(seat)), seat)
        return state.record()["moves"]

    assert run(3) == run(3)
    assert run(3) != run(4) or run(3) != run(5)  # two short games may draw the same dice


@pytest.mark.parametrize("game_id", GAMES)
def test_sampled_chance_is_one_of_the_outcomes(game_id: str) -> None:
    state = gamenight.new_game(game_id, players=player_counts(game_id)[0]).new_state(seed=9)
    rng = random.Random(1)
    for _ in range(200):
        if state.is_terminal():
            break
        if state.is_chance():
            outcomes = [a for a, _ in state.chance_outcomes()]
            probe = state.clone()
            assert probe.sample_chance() in outcomes
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_is_independent(game_id: str) -> None:
    state = gamenight.new_game(game_id, players=player_counts(game_id)[0]).new_state(seed=2)
    copy = state.clone()
    assert copy == state
    if state.is_chance():
        copy.sample_chance()
    else:
        seat = copy.actors()[0]
        copy.apply(copy.legal_actions(seat)[0], seat)
    assert copy != state
    assert len(state.moves) == 0
