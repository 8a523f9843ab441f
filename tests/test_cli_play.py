"""``gamenight play`` and ``replay``: every option works or is refused by name; seeds repeat.

The table is built for real and only its ``run`` is replaced, so each test sees exactly the
app a player would get.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamenight
from gamenight.catalogue import GAMES
from gamenight.cli import app
from gamenight.tui.base import NEW_GAME, TableApp

runner = CliRunner()
EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    apps: list[TableApp] = []
    monkeypatch.setattr(TableApp, "run", lambda self: apps.append(self))
    return apps


def test_n_at_the_end_deals_a_new_game_with_the_same_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """n at the end of a game (run returns NEW_GAME) deals another: a new seed, the same seats,
    options and bot strategy, and each game's own line to play it again."""
    tables: list[TableApp] = []

    def run(self: TableApp) -> str | None:
        tables.append(self)
        return NEW_GAME if len(tables) < 3 else None

    monkeypatch.setattr(TableApp, "run", run)
    table = tmp_path / "t.json"
    table.write_text(json.dumps({"players": 3, "max_rolls": 20}))
    args = ["play", "snake-eyes-casino", "--table", str(table), "--bots", "2", "--seed", "5"]
    result = runner.invoke(app, [*args, "--strategy", "field"])
    assert result.exit_code == 0, result.output
    assert len(tables) == 3
    assert tables[0].seed == 5 and len({t.seed for t in tables}) == 3
    for t in tables:
        assert t.seat_kinds == ["human", "bot", "bot"]
        assert t.state.players == 3 and t.state.game.options_dict()["max_rolls"] == 20
        assert [b.strategy for b in t.bots.values()] == ["field", "field"]  # type: ignore[attr-defined]
        assert f"--seed {t.seed} " in result.output.replace("\n", " ")
        assert t.save_path.name == f"gamenight-snake-eyes-casino-seed{t.seed}.json"


def test_the_catalogue_agrees_with_the_registry() -> None:
    assert list(GAMES) == gamenight.list_games()
    for gid, (title, _) in GAMES.items():
        assert gamenight.engine.game_class(gid).title == title


@pytest.mark.parametrize(
    ("game", "players", "bots", "humans"),
    [
        ("snake-eyes", 4, 3, ["human", "bot", "bot", "bot"]),
        ("shake", 3, 1, ["human", "human", "bot"]),
        ("gambler", 4, 2, ["human", "human", "bot", "bot"]),
        ("snake-eyes-casino", 3, 2, ["human", "bot", "bot"]),
        ("snap", 3, 2, ["human", "bot", "bot"]),
        ("slap-the-elephant", 4, 3, ["human", "bot", "bot", "bot"]),
    ],
)
def test_bots_seat_bots_in_every_game(
    started: list[TableApp], game: str, players: int, bots: int, humans: list[str]
) -> None:
    args = ["play", game, "--players", str(players), "--bots", str(bots), "--seed", "3"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (table,) = started
    assert table.seat_kinds == humans and table.seed == 3
    assert table.state.players == players


def test_without_bots_you_play_against_bots_in_every_other_seat(
    started: list[TableApp],
) -> None:
    assert runner.invoke(app, ["play", "gambler", "--players", "3"]).exit_code == 0
    assert started[0].seat_kinds == ["human", "bot", "bot"]


def test_a_table_file_seats_its_players_unless_players_is_given(
    started: list[TableApp], tmp_path: Path
) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"players": 3, "max_rolls": 20}))
    args = ["play", "snake-eyes-casino", "--table", str(table)]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, [*args, "--players", "2"]).exit_code == 0
    assert [t.state.players for t in started] == [3, 2]
    assert started[0].seat_kinds == ["human", "bot", "bot"]


@pytest.mark.parametrize("seats", ['"[red]3"', "true", "2.0", "null"])
def test_a_table_file_with_a_player_count_that_is_no_number_is_named(
    started: list[TableApp], tmp_path: Path, seats: str
) -> None:
    """'players': "3" in a hand-written table file was a TypeError traceback (bots > players)."""
    table = tmp_path / "table.json"
    table.write_text(f'{{"players": {seats}}}')
    for command in (["play", "snake-eyes-casino", "--live"], ["simulate", "snake-eyes-casino"]):
        result = runner.invoke(app, [*command, "--table", str(table)])
        assert result.exit_code == 2, result.output
        assert "'players' must be a whole number" in result.output
        assert "Traceback" not in result.output
    assert not started


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["play", "shake", "--strategy", "hardways"], "--strategy"),
        (["play", "gambler", "--strategy", "field"], "--strategy"),
        (["play", "snake-eyes", "--level", "easy"], "--level"),
        (["play", "snap", "--delay", "1"], "--delay"),
        (["play", "snap", "--players", "3", "--bots", "1"], "--bots"),
        (["play", "snake-eyes", "--live"], "--live"),
        (["play", "snake-eyes-casino", "--strategy", "martingale"], "--strategy"),
        (["play", "snake-eyes-casino", "--live", "--bots", "1"], "--bots"),
        (["play", "snap", "--level", "godlike"], "--level"),
        (["play", "shake", "--table", "examples/table.json"], "--table"),
        (["play", "shake", "--players", "2", "--bots", "3"], "--bots"),
        # the engine takes seeds 0 .. 2**64 - 1: these were a traceback from inside the table
        (["play", "snake-eyes", "--seed", "-5"], "--seed"),
        (["play", "gambler", "--seed", str(2**64)], "--seed"),
        (["play", "snap", "--seed", "-1"], "--seed"),
        (["play", "snap", "--bot", "search"], "--bot"),
        (["play", "snake-eyes-casino", "--bot", "search"], "--bot"),
        (["play", "gambler", "--bot", "clever"], "--bot"),
        (["play", "shake", "--players", "3", "--bot", "optimal"], "--bot"),
        (["play", "shake", "--bot", "mcts-999s"], "--bot"),
    ],
)
def test_options_a_game_cannot_use_are_refused_by_name(
    started: list[TableApp], args: list[str], named: str
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert named in result.output
    assert not started


@pytest.mark.parametrize("game", list(GAMES))
def test_a_missing_seed_is_random_and_printed(started: list[TableApp], game: str) -> None:
    seeds = []
    for _ in range(2):
        result = runner.invoke(app, ["play", game, "--players", "2", "--bots", "1"])
        assert result.exit_code == 0, result.output
        printed = re.search(r"--seed (\d+)", result.output)
        assert printed, result.output
        seeds.append(int(printed.group(1)))
    assert [t.seed for t in started] == seeds
    assert seeds[0] != seeds[1]  # two games in a row are not the same game
    assert started[0].state.record()["seed"] == seeds[0]


def test_the_printed_seed_deals_the_same_game_again(started: list[TableApp]) -> None:
    runner.invoke(app, ["play", "snake-eyes-casino", "--players", "1", "--bots", "0"])
    seed = started[0].seed
    runner.invoke(app, ["play", "snake-eyes-casino", "--players", "1", "--bots", "0",
                        "--seed", str(seed)])  # fmt: skip
    a, b = (t.state for t in started)
    for state in (a, b):
        state.apply({"type": "wager", "area": "field", "amount": 5}, 0)
        state.apply({"type": "accept"}, 0)
        state.apply({"type": "roll"}, 0)
        state.sample_chance()
    assert a.results == b.results


@pytest.mark.parametrize(
    "options",
    [
        ["snake-eyes-casino", "--live", "--table", str(EXAMPLES / "table.json")],
        ["snake-eyes-casino", "--players", "2", "--strategy", "field"],
        ["snap", "--level", "expert"],
        ["shake", "--bot", "search"],
    ],
)
def test_the_printed_command_plays_the_same_table_again(
    started: list[TableApp], options: list[str]
) -> None:
    """It left out --live, --table, --strategy and --level: 'again' was another game."""
    first = runner.invoke(app, ["play", *options])
    assert first.exit_code == 0, first.output
    again = re.search(r"again with (gamenight play .*)", first.output)
    assert again, first.output
    second = runner.invoke(app, shlex.split(again.group(1))[1:])
    assert second.exit_code == 0, second.output
    a, b = started
    assert a.state.record() == b.state.record()  # game, options and seed
    assert type(a) is type(b) and a.seat_kinds == b.seat_kinds
    assert getattr(a, "level", None) == getattr(b, "level", None)
    bots_a, bots_b = (getattr(t, "bots", {}) for t in (a, b))
    strategy = [getattr(bot, "strategy", None) for bot in bots_a.values()]
    assert strategy == [getattr(bot, "strategy", None) for bot in bots_b.values()]
    assert [type(bot) for bot in bots_a.values()] == [type(bot) for bot in bots_b.values()]


@pytest.mark.parametrize(
    ("game", "bot", "thinks"),
    [("shake", "search", True), ("gambler", "mcts-0.5s", True), ("shake", "optimal", False),
     ("snake-eyes", "random", False)],
)  # fmt: skip
def test_bot_seats_the_bots_of_that_kind(
    started: list[TableApp], game: str, bot: str, thinks: bool
) -> None:
    """--bot: the kind of every bot seat, the search bot (thinking off the screen's thread)
    included; the default stays the sensible bot."""
    result = runner.invoke(app, ["play", game, "--players", "2", "--bot", bot, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"--bot {bot}" in result.output  # in the command that plays the table again
    bots = started[0].bots  # type: ignore[attr-defined]
    assert list(bots) == [1] and getattr(bots[1], "thinks", False) is thinks
    if bot.startswith("mcts-"):
        assert bots[1].seconds == 0.5
    assert runner.invoke(app, ["play", game, "--players", "2"]).exit_code == 0
    assert not getattr(started[1].bots[1], "thinks", False)  # type: ignore[attr-defined]


def test_casino_strategy_live_and_the_example_table(started: list[TableApp]) -> None:
    args = ["play", "snake-eyes-casino", "--players", "3", "--bots", "2", "--strategy", "hardways"]
    assert runner.invoke(app, args).exit_code == 0
    bots = started[0].bots  # type: ignore[attr-defined]
    assert {s: b.strategy for s, b in bots.items()} == {1: "hardways", 2: "hardways"}
    table = str(EXAMPLES / "table.json")
    result = runner.invoke(app, ["play", "snake-eyes-casino", "--live", "--table", table])
    assert result.exit_code == 0, result.output
    live = started[1]
    # the example file's three players, every seat a person at the real table
    assert live.live and live.seat_kinds == ["human"] * 3  # type: ignore[attr-defined]
    assert live.state.pays["hard6"] == "8:1"  # from the example file


def test_user_text_in_errors_is_never_read_as_markup(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "no[red]such[/red]game"])
    assert result.exit_code == 2 and "no[red]such[/red]game" in result.output
    missing = tmp_path / "[bold]table.json"
    result = runner.invoke(app, ["play", "snake-eyes-casino", "--table", str(missing)])
    assert result.exit_code == 2 and "[bold]table.json" in result.output
    assert "no such file" in result.output
    bad = tmp_path / "odd [x].json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "odd [x].json" in result.output


def test_replay_names_the_winner_and_summarises(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(EXAMPLES / "saved-game.json")])
    assert result.exit_code == 0, result.output
    assert "Snake Eyes" in result.output and "standings" in result.output
    assert "A won after 51 moves" in result.output
    as_json = runner.invoke(app, ["replay", str(EXAMPLES / "saved-game.json"), "--json"])
    out = json.loads(as_json.stdout)
    assert out["winner"] == 0 and out["winner_name"] == "A" and out["terminal"]
    assert [r["name"] for r in out["standings"]] == ["A", "B", "C"]
    chips = [r["chips"] for r in out["standings"]]
    assert sum(chips) == 150  # every chip accounted for: 3 players x 50


def test_replay_of_a_casino_session_names_the_biggest_bankroll(tmp_path: Path) -> None:
    state = gamenight.new_game("snake-eyes-casino", players=2, max_rolls=3).new_state(seed=1)
    from gamenight.bots.casino_bot import CasinoBot

    bots = [CasinoBot(strategy="field"), CasinoBot(strategy="numbers")]
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
        else:
            seat = state.actors()[0]
            state.apply(bots[seat].act(state, seat), seat)
    path = tmp_path / "casino.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "bankroll" in result.output and "biggest bankroll" in result.output


def test_replay_of_a_session_in_progress_counts_the_chips_on_the_layout(tmp_path: Path) -> None:
    """Standings showed A at 990 after a 10-chip wager, as if the chips were lost."""
    state = gamenight.new_game("snake-eyes-casino", players=2).new_state(seed=1)
    state.apply({"type": "wager", "area": "hard6", "amount": 10}, 0)
    path = tmp_path / "casino.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["standings"]
    assert [(r["bankroll"], r["on layout"]) for r in rows] == [(990, 10), (1000, 0)]
    shown = runner.invoke(app, ["replay", str(path)]).output
    assert "on layout" in shown


@pytest.mark.parametrize("delay", ["nan", "inf", "1e308", "-1"])
def test_a_delay_that_is_no_number_of_seconds_is_refused(delay: str, started: list) -> None:
    """--delay inf opened a table whose bots never moved; nan slipped past the range check."""
    result = runner.invoke(app, ["play", "snake-eyes", "--delay", delay])
    assert result.exit_code == 2 and "--delay" in result.output and not started, result.output
