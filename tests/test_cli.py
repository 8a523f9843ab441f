"""The command line, run for real through Typer's runner."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import gamenight
from gamenight.cli import app

runner = CliRunner()


def test_list_names_every_game() -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0
    for gid in gamenight.list_games():
        assert gid in result.stdout


def test_list_keeps_each_description_in_its_column_at_80_columns() -> None:
    """The first command a newcomer runs wrapped four of six descriptions back to column 0."""
    result = runner.invoke(app, ["list"], env={"COLUMNS": "80"})
    ids = tuple(gamenight.list_games())
    for line in result.stdout.splitlines():
        assert len(line) <= 80 and (not line.strip() or line.startswith((*ids, " ", "play one"))), (
            line
        )


def test_replay_rebuilds_a_saved_game(tmp_path: Path) -> None:
    state = gamenight.new_game("snake-eyes", players=3).new_state(seed=7)
    while not state.is_terminal():
        state.sample_chance()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["view"] == state.view() and out["winner"] == state.winner()


def test_replay_of_a_game_under_way_shows_no_result_yet(tmp_path: Path) -> None:
    """A record saved with s after two throws showed every seat's result as 0.0 beside its 48
    chips, as if everyone had broken even."""
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=3)
    for _ in range(4):
        state.sample_chance()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    out = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert [row["result"] for row in out["standings"]] == [None, None]
    text = runner.invoke(app, ["replay", str(path)]).stdout
    assert "0.0" not in text and "in progress" in text


def test_replay_of_a_bad_record_names_the_move(tmp_path: Path) -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=7)
    for _ in range(5):
        state.sample_chance()
    record = state.record()
    record["moves"][3]["action"] = {"type": "dice", "faces": [7, 7]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "move 3" in result.output


def test_simulate_json_has_the_promised_fields() -> None:
    result = runner.invoke(
        app, ["simulate", "snake-eyes", "--games", "60", "--players", "3", "--seed", "5", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"] == 60
    assert len(out["wins_by_seat"]) == 3 and sum(out["wins_by_seat"]) == 60
    assert set(out["throws"]) >= {"mean", "p50", "p99"}
    assert out["throws"]["p50"] <= out["throws"]["p99"]
    again = runner.invoke(
        app, ["simulate", "snake-eyes", "--games", "60", "--players", "3", "--seed", "5", "--json"]
    )
    assert again.stdout == result.stdout, "a seed makes a simulation repeatable"


def test_simulate_rejects_a_bad_player_count() -> None:
    result = runner.invoke(app, ["simulate", "snake-eyes", "--players", "12", "--json"])
    assert result.exit_code == 2
    assert "players" in result.output


def test_simulate_casino_shows_observed_beside_exact_house_edge() -> None:
    result = runner.invoke(
        app, ["simulate", "snake-eyes-casino", "--games", "3", "--players", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = {r["wager"]: r for r in json.loads(result.stdout)["house_edges"]}
    assert set(rows) >= {"hard4", "field", "any7", "num6"}
    assert rows["any7"]["exact_house_edge"] == "1/6"
    assert all(r["decisions"] > 0 for r in rows.values())


def test_play_refuses_casino_settings_for_other_games_and_bad_table_files(tmp_path: Path) -> None:
    wrong = runner.invoke(app, ["play", "shake", "--live"])
    assert wrong.exit_code == 2 and "snake-eyes-casino tables" in wrong.output
    wrong = runner.invoke(app, ["play", "snake-eyes-casino", "--strategy", "martingale"])
    assert wrong.exit_code == 2 and "choose one of every_area" in wrong.output
    table = tmp_path / "table.json"
    table.write_text("[1, 2]")
    bad = runner.invoke(app, ["play", "snake-eyes-casino", "--table", str(table)])
    assert bad.exit_code == 2 and "JSON object of table settings" in bad.output
    table.write_text(json.dumps({"payouts": {"hard6": "10:1"}}))
    bad = runner.invoke(app, ["play", "snake-eyes-casino", "--live", "--table", str(table)])
    assert bad.exit_code == 2 and "rule 4.9 allows" in bad.output


def test_simulate_a_casino_table_from_its_settings_file(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"payouts": {"hard6": "8:1"}, "table_min": 10}))
    args = ["simulate", "snake-eyes-casino", "--games", "2", "--json", "--table", str(table)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    edges = {row["wager"]: row for row in json.loads(result.stdout)["house_edges"]}
    assert edges["hard6"]["pays"] == "8:1" and edges["hard6"]["exact_house_edge"] == "2/11"
    wrong = runner.invoke(app, ["simulate", "snake-eyes", "--table", str(table)])
    assert wrong.exit_code == 2 and "snake-eyes-casino tables" in wrong.output


def one_line_error(result: Any, *words: str) -> None:
    """Exit 2, one error line naming the problem, and no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for word in words:
        assert word in result.output, result.output


def test_simulate_refuses_a_plot_path_it_cannot_write_before_playing(tmp_path: Path) -> None:
    where = tmp_path / "no such dir" / "run.png"
    result = runner.invoke(app, ["simulate", "snake-eyes", "--games", "5", "--plot", str(where)])
    one_line_error(result, "--plot", "no such directory")
    assert "games/s" not in result.output  # refused before the run, not after it


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "snake-eyes", "--games", "5"],
        ["tournament", "shake", "--bots", "random,sensible", "--games", "1"],
    ],
)
def test_a_plot_without_matplotlib_is_refused_before_playing(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newcomer with the base install asked for --plot: the whole run was played, then it
    ended in an error and no chart (and the tournament's figures were never printed)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    result = runner.invoke(app, [*command, "--plot", str(tmp_path / "run.png")])
    one_line_error(result, "--plot", "pip install -e '.[plot]'")
    assert "games/s" not in result.output and "win share" not in result.output


def test_a_deeply_nested_table_file_is_refused_with_its_name(tmp_path: Path) -> None:
    table = tmp_path / "deep.json"
    table.write_text('{"payouts": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for cmd in (["simulate", "snake-eyes-casino", "--games", "2"], ["odds", "snake-eyes-casino"]):
        one_line_error(runner.invoke(app, [*cmd, "--table", str(table)]), "deep.json", "nested")


def test_odds_names_a_table_file_it_cannot_read(tmp_path: Path) -> None:
    table = tmp_path / "binary.json"
    table.write_bytes(b"\xff\xfe\x00")
    one_line_error(runner.invoke(app, ["odds", "snake-eyes-casino", "--table", str(table)]),
                   "--table", "binary.json")  # fmt: skip


def test_simulate_refuses_a_negative_seed_naming_the_option() -> None:
    one_line_error(runner.invoke(app, ["simulate", "snake-eyes", "--seed", "-1"]), "--seed")


def test_options_a_game_cannot_use_are_refused_not_ignored() -> None:
    result = runner.invoke(app, ["simulate", "shake", "--games", "2", "--strategy", "hardways"])
    one_line_error(result, "--strategy")
    for option, value in (("--strategy", "field"), ("--bankroll", "50"), ("--unit", "2"),
                          ("--rolls", "9")):  # fmt: skip
        one_line_error(runner.invoke(app, ["odds", "shake", option, value]), option)
    for option in ("--bankroll", "--unit", "--rolls"):  # a risk of ruin needs a strategy
        one_line_error(runner.invoke(app, ["odds", "snake-eyes-casino", option, "9"]), option)


def test_reference_casino_edges_come_from_the_sessions_just_played() -> None:
    """Observed house edges pool the run's own wagers, on either engine: not a separate run of
    every-area bots the user never asked for."""
    args = ["simulate", "snake-eyes-casino", "--games", "30", "--strategy", "numbers", "--json"]
    for engine in ("reference", "kernel"):
        out = json.loads(runner.invoke(app, [*args, "--engine", engine]).stdout)
        rows = {r["wager"]: r for r in out["house_edges"]}
        assert set(rows) == {"num5", "num6", "num8"}, engine
        for w, r in rows.items():
            assert r["decisions"] == round(out[f"handle_{w}"]["mean"] * 30) // 5


def test_seats_betting_alike_do_not_narrow_the_edge_tolerance() -> None:
    """Every seat makes the same wagers on the same dice: eight seats' decisions are eight copies
    of one seat's, so the tolerance must be one seat's, or right edges are flagged wrong."""
    rows = {}
    for players in ("1", "8"):
        args = ["simulate", "snake-eyes-casino", "--games", "200", "--players", players]
        out = json.loads(runner.invoke(app, [*args, "--seed", "4", "--json"]).stdout)
        rows[players] = {r["wager"]: r for r in out["house_edges"]}
    for w, one in rows["1"].items():
        eight = rows["8"][w]
        assert eight["decisions"] == 8 * one["decisions"]
        assert eight["observed_house_edge"] == one["observed_house_edge"]
        assert abs(eight["tolerance"] - one["tolerance"]) < 1e-12, w


def test_simulate_refuses_an_absurd_number_of_games() -> None:
    """10**30 games would run for ever (and a Ray run would queue 10**24 tasks first)."""
    one_line_error(runner.invoke(app, ["simulate", "snake-eyes", "--games", str(10**30)]),
                   "--games")  # fmt: skip


def test_simulate_refuses_bad_options_before_drawing_its_progress_bar() -> None:
    """The error is the one line printed: no empty '0/10' bar of a run that never started."""
    for bad in (["snake-eyes", "--players", "1"], ["nosuchgame"], ["shake", "--engine", "warp"],
                ["shake", "--backend", "spark"]):  # fmt: skip
        result = runner.invoke(app, ["simulate", *bad, "--games", "10"])
        one_line_error(result, "error:")
        assert "0/10" not in result.output and len(result.output.splitlines()) == 1, bad


def test_win_share_and_its_interval_are_both_percentages() -> None:
    result = runner.invoke(app, ["simulate", "snake-eyes", "--games", "400", "--seed", "3"])
    row = next(line for line in result.stdout.splitlines() if line.startswith("│ A "))
    share, interval = [cell.strip() for cell in row.split("│")[3:5]]
    low, high = (float(x.rstrip("%")) for x in interval.split(" – "))
    assert share.endswith("%") and interval.count("%") == 2
    assert low < float(share.rstrip("%")) < high


def test_simulate_seats_the_players_the_table_file_names(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"players": 3, "max_rolls": 20}))
    args = ["simulate", "snake-eyes-casino", "--games", "5", "--json", "--table", str(table)]
    assert json.loads(runner.invoke(app, args).stdout)["players"] == 3
    assert json.loads(runner.invoke(app, [*args, "--players", "2"]).stdout)["players"] == 2


def test_simulate_realtime_refuses_a_turn_based_game() -> None:
    for game in ("shake", "gambler", "nosuchgame"):
        result = runner.invoke(app, ["simulate-realtime", game, "--games", "2"])
        one_line_error(result, "snap or slap-the-elephant", game)


def test_simulate_address_without_ray_is_refused() -> None:
    args = ["simulate", "snake-eyes", "--games", "5", "--address", "10.0.0.1:6379"]
    one_line_error(runner.invoke(app, args), "--address", "--backend ray")


@pytest.mark.parametrize(
    "option",
    [
        ["--port", "70000"],  # was served on 70000 - 65536 = 4464 while it printed :70000
        ["--port", "-1"],
        ["--idle-minutes", "-1"],
        ["--rate-limit", "0"],
        ["--http-rate-limit", "-2"],
        ["--http-rate-limit", "nan"],
        ["--idle-minutes", "nan"],
    ],
)
def test_serve_refuses_an_out_of_range_number_before_serving(
    option: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamenight.server.serve

    monkeypatch.setattr(gamenight.server.serve, "run", lambda settings: pytest.fail("served"))
    result = runner.invoke(app, ["serve", *option])
    assert result.exit_code == 2 and option[0] in result.output, result.output


@pytest.mark.parametrize("url", ["foo://bar", "not a url"])
def test_serve_names_a_database_url_it_cannot_read(url: str) -> None:
    """It was a 40-line traceback ending in SQLAlchemy's NoSuchModuleError."""
    import socket

    with socket.socket() as free:  # a port nobody holds: 8000 may be another server's
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    result = runner.invoke(app, ["serve", "--port", port, "--database-url", url])
    one_line_error(result, "--database-url", url)


@pytest.mark.parametrize("command", ["play", "simulate", "odds"])
def test_help_lists_every_betting_strategy(command: str) -> None:
    """simulate --help said "(see gamenight.bots.casino_bot; every_area)" and play's ended in
    "..." and never said its default: a reader could not find one_roll at all."""
    from gamenight.bots.casino_bot import STRATEGIES

    result = runner.invoke(app, [command, "--help"])
    said = re.search(r"--strategy(.*?)\n  --", result.output, re.S)
    assert said, result.output
    for name in STRATEGIES:
        assert re.search(rf"\b{name}\b", said.group(1)), (name, said.group(1))


def test_every_option_of_every_command_says_what_it_is() -> None:
    """snap-table --help showed --players with no words at all."""
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                assert param.help, f"{name} {param.opts[0]} has no help text"


def test_options_without_a_fixed_default_say_what_they_default_to() -> None:
    """tournament --players said only "seats at each table": a reader of the README's
    `tournament gambler --bots random,sensible` could not tell it plays four seats."""
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        for param in command.params:
            if param.name == "players" and param.default is None:
                assert "default" in (param.help or ""), f"{name} --players: {param.help}"


def test_serve_on_a_port_in_use_says_so_before_claiming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second `gamenight serve` printed "serving on http://127.0.0.1:8000" (the first one's
    address) and then failed in a JSON log line."""
    import socket

    import gamenight.server.serve

    monkeypatch.setattr(gamenight.server.serve, "run", lambda settings: pytest.fail("served"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    one_line_error(result, f"--port {port}", "in use", "another gamenight serve")
    assert "serving on" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        # (a URL no server can open: a serve that took the cap would stop, not listen)
        ["serve", "--database-url", "nodb://x", "--ws-per-client", "-1"],
        ["serve", "--database-url", "nodb://x", "--tables-per-client", "-5"],
        ["simulate-realtime", "snap", "--seed", "-1"],
        ["tournament", "shake", "--seed", "-1"],
    ],
)
def test_negative_counts_and_seeds_are_refused_by_name(args: list[str]) -> None:
    """A negative cap or seed is a typo, refused before anything starts (a seed like every other
    command's, 0 or more)."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert args[-2] in result.output
