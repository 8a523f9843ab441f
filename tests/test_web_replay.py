"""The replay frames behind the browser's replay viewer (gamenight.server.replay)."""

from __future__ import annotations

import random

import pytest

import gamenight

replay = pytest.importorskip("gamenight.server.replay", reason="the server needs fastapi")


def played(game: str, seed: int, **options: object) -> gamenight.engine.State:
    state = gamenight.new_game(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance():
            state.sample_chance()
            continue
        seat = state.actors()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize("game", ["snake-eyes", "shake", "gambler", "snap"])
def test_one_frame_per_move_ending_at_the_seats_view(game: str) -> None:
    state = played(game, seed=3, players=3)
    frames = replay.replay_frames(state, 1)
    assert [f["move"] for f in frames] == list(range(len(state.moves) + 1))
    assert frames[-1]["view"] == state.view(1)
    # the events of all frames, in order, are the game's whole log
    assert [e for f in frames for e in f["events"]] == state.events()


def test_a_long_game_is_thinned_but_keeps_its_last_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = played("snap", seed=5, players=4)
    monkeypatch.setattr(replay, "MAX_FRAMES", 10)
    frames = replay.replay_frames(state, None)
    assert len(state.moves) > 20
    assert len(frames) <= 12
    assert frames[-1]["move"] == len(state.moves)
    assert frames[-1]["view"] == state.view(None)
    assert [e for f in frames for e in f["events"]] == state.events()  # no line lost
