"""``gamenight play --resume``: a game saved with s mid-game plays on, with the same dice.

The quit dialog told friends "to keep it, press s to save the record first", but nothing could
play a saved record on: ``replay`` only summarises it. The table is built for real and only its
``run`` is replaced, so each test sees exactly the app a player would get.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamenight
from gamenight.bots import make_bot
from gamenight.cli import app
from gamenight.engine import State
from gamenight.tui.base import TableApp

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    apps: list[TableApp] = []
    monkeypatch.setattr(TableApp, "run", lambda self: apps.append(self))
    return apps


def played(game: str, moves: int, seed: int = 5, **options: object) -> State:
    """A game ``moves`` moves in (bots choose), stopped at a chance move when it can be."""
    state = gamenight.new_game(game, **options).new_state(seed=seed)
    bots = [make_bot(game, seed=s) for s in range(state.players)]
    while len(state.moves) < moves or not state.is_chance():
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(bots[seat].act(state, seat), seat)
        assert not state.is_terminal()
    return state


def saved(tmp_path: Path, state: State, name: str = "saved.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(state.record()))
    return path


@pytest.mark.parametrize(
    ("game", "options"),
    [("shake", {"players": 6}), ("snake-eyes", {"players": 3}), ("gambler", {"players": 4})],
)
def test_a_saved_game_plays_on_where_it_stopped_with_the_same_dice(
    started: list[TableApp], tmp_path: Path, game: str, options: dict[str, object]
) -> None:
    original = played(game, 40, **options)
    path = saved(tmp_path, original)
    humans = original.players - 1 if game != "gambler" else 2
    bots = original.players - humans
    result = runner.invoke(app, ["play", game, "--bots", str(bots), "--resume", str(path)])
    assert result.exit_code == 0, result.output
    (table,) = started
    assert table.state == original and table.seed == original.seed
    assert table.seat_kinds == ["human"] * humans + ["bot"] * bots
    # the next throw is the one the uninterrupted game would have made
    table.state.sample_chance()
    original.sample_chance()
    assert table.state.moves.actions[-1] == original.moves.actions[-1]
    assert table.state.view() == original.view()
    # s offers the same file, and replaces it without asking (this table's own save)
    assert table.save_path == path and path.resolve() in table.written
    assert f"--resume {path}" in result.output.replace("\n", "")


def test_a_live_casino_session_resumes_at_the_dealer_screen(
    started: list[TableApp], tmp_path: Path
) -> None:
    state = gamenight.new_game("snake-eyes-casino", players=3, live=True).new_state(seed=9)
    state.apply({"type": "accept"}, 0)
    state.apply({"type": "wager", "area": "hard4", "amount": 10}, 1)
    path = saved(tmp_path, state)
    result = runner.invoke(app, ["play", "snake-eyes-casino", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    (table,) = started
    assert table.live and table.seat_kinds == ["human"] * 3  # type: ignore[attr-defined]
    assert table.state == state and table.state.bets[1] == {"hard4": 10}


def test_what_cannot_be_resumed_is_refused_by_name(started: list[TableApp], tmp_path: Path) -> None:
    path = saved(tmp_path, played("shake", 10, players=3))
    over = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    bots = [make_bot("snake-eyes", seed=s) for s in range(2)]
    while not over.is_terminal():
        if over.is_chance():
            over.sample_chance()
        else:
            over.apply(bots[over.actors()[0]].act(over, over.actors()[0]), over.actors()[0])
    finished = saved(tmp_path, over, "over.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    cases = [
        (["play", "snake-eyes", "--resume", str(path)], "is a game of shake, not snake-eyes"),
        (["play", "shake", "--resume", str(path), "--seed", "3"], "--seed"),
        (["play", "shake", "--resume", str(path), "--players", "4"], "--players"),
        (["play", "snake-eyes", "--resume", str(finished)], "is over"),
        (["play", "shake", "--resume", str(broken)], "broken.json"),
        (["play", "shake", "--resume", str(tmp_path / "gone.json")], "no such file"),
        (["play", "snap", "--resume", str(path)], "real time"),
        (["play", "shake", "--resume", str(path), "--bots", "4"], "--bots"),
    ]
    for args, words in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output.replace("\n", " "), (args, result.output)
    assert started == []


def test_a_game_saved_and_left_unfinished_says_how_to_play_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """After s and q mid-game the only line printed was how to play the game again from the
    start; the saved game's own command was nowhere."""
    path = tmp_path / "night.json"

    def run(self: TableApp) -> None:
        if self.state.is_chance():
            self.state.sample_chance()  # the first throw, then s
        assert self.save_to(path)

    monkeypatch.setattr(TableApp, "run", run)
    result = runner.invoke(app, ["play", "shake", "--players", "3", "--bots", "1", "--seed", "2"])
    assert result.exit_code == 0, result.output
    said = result.output.replace("\n", "")
    assert f"gamenight play shake --bots 1 --resume {path} plays on from the last save" in said
    resumed = runner.invoke(app, ["play", "shake", "--bots", "1", "--resume", str(path)])
    assert resumed.exit_code == 0, resumed.output
    assert "1 move read from" in resumed.output
