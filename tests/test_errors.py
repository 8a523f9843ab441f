"""Bad input: a typed error that names the problem, and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gamenight
from gamenight import BadOption, BadRecord, IllegalAction, MalformedAction, UnknownGame


def test_unknown_game_names_it_and_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="'yahtzee'.*snake-eyes"):
        gamenight.new_game("yahtzee")


@pytest.mark.parametrize(
    ("options", "option", "words"),
    [
        ({"players": 9}, "players", "from 2 to 8"),
        ({"players": 1}, "players", "from 2 to 8"),
        ({"players": "four"}, "players", "integer"),
        ({"colour": "red"}, "colour", "unknown option"),
        ({"starting_chips": -5}, "starting_chips", "greater than"),
        ({"players": 3, "first_player": 3}, "first_player", "no seat 3"),
        ({"starting_chips": 2, "ante": 3}, "ante", "more than starting_chips"),
    ],
)
def test_bad_options_name_the_option(options: dict, option: str, words: str) -> None:
    with pytest.raises(BadOption) as info:
        gamenight.new_game("snake-eyes", **options)
    assert info.value.option == option
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("game", "options", "said"),
    [
        ("snake-eyes", {"starting_chips": 2, "ante": 5}, "ante 5 is more than starting_chips 2"),
        (
            "snake-eyes-casino",
            {"table_min": 600},
            "snake-eyes-casino: table_min (600) is more than table_max (500, the default)",
        ),
        ("snake-eyes-casino", {"payouts": {"hard6": "5:1"}}, "hard6 cannot pay '5:1'"),
    ],
)
def test_options_that_clash_are_named_in_plain_words(game: str, options: dict, said: str) -> None:
    """A newcomer read "option 'options': Value error, ante is more than starting_chips (got
    {'starting_chips': 2, 'ante': 5})": pydantic's prefix, the whole dict, and no figures."""
    with pytest.raises(BadOption) as info:
        gamenight.new_game(game, **options)
    text = str(info.value)
    assert said in text and "Value error" not in text and "(got {" not in text, text
    assert "'options'" not in text, "a clash names its options, not 'options'"
    assert info.value.option != "options"


@pytest.mark.parametrize("action", [None, [], "dice", {"faces": [1, 2]}, {"type": 7}])
def test_actions_that_are_not_action_objects(action: object) -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    with pytest.raises(MalformedAction):
        state.apply(action)  # type: ignore[arg-type]
    assert state.moves == []


@pytest.mark.parametrize("seat", [-1, 2, "A", 1.0])
def test_no_such_seat(seat: object) -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    with pytest.raises(IllegalAction):
        state.apply({"type": "dice", "faces": [1, 2]}, seat)  # type: ignore[arg-type]


def test_no_move_after_the_end() -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    while not state.is_terminal():
        state.sample_chance()
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "dice", "faces": [1, 2]})
    with pytest.raises(IllegalAction):
        state.sample_chance()


def finished_record() -> dict:
    state = gamenight.new_game("snake-eyes", players=3).new_state(seed=4)
    for _ in range(12):
        state.sample_chance()
    return state.record()


def test_drawing_chance_after_the_end_says_the_game_is_over() -> None:
    """A loop that kept calling sample_chance() past the end was told "a player is to act"."""
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    while not state.is_terminal():
        state.sample_chance()
    for draw in (state.sample_chance, state.play_chance, state.chance_outcomes):
        with pytest.raises(IllegalAction, match="the game is over"):
            draw()


def test_drawing_chance_while_a_player_is_to_act_names_the_player() -> None:
    state = gamenight.new_game("shake", players=2).new_state(seed=1)
    state.sample_chance()  # the colored dice: now the high die takes or shakes
    with pytest.raises(IllegalAction, match=r"a player is to act \([AB]\)"):
        state.sample_chance()


def test_record_with_an_illegal_move_names_its_index() -> None:
    record = finished_record()
    record["moves"][5]["action"]["faces"] = [9, 1]
    with pytest.raises(BadRecord, match="move 5") as info:
        gamenight.replay(record)
    assert info.value.index == 5


def test_record_with_a_move_by_a_seat_names_its_index() -> None:
    record = finished_record()
    record["moves"][7]["seat"] = 1
    with pytest.raises(BadRecord) as info:
        gamenight.replay(record)
    assert info.value.index == 7


@pytest.mark.parametrize(
    ("mangle", "words"),
    [
        (lambda r: r.pop("moves"), "moves"),
        (lambda r: r.update(game="chess"), "unknown game"),
        (lambda r: r["options"].update(players=99), "players"),
        (lambda r: r["moves"][2].update(seat="B"), "move 2"),
        (lambda r: r["moves"].insert(0, {"seat": None}), "move 0"),
        (lambda r: r.update(extra=True), "extra"),
    ],
)
def test_malformed_records(mangle, words: str) -> None:
    record = finished_record()
    mangle(record)
    with pytest.raises(BadRecord, match=words):
        gamenight.replay(record)


def test_a_json_file_that_is_not_a_record_is_called_so() -> None:
    """`gamenight replay examples/table.json` (the casino table file beside the saved game)
    said only "unknown field 'players'"."""
    table = json.loads((Path(__file__).parent.parent / "examples" / "table.json").read_text())
    with pytest.raises(BadRecord, match="not a game record"):
        gamenight.replay(table)


def test_a_file_name_given_as_text_gets_a_hint(tmp_path: Path) -> None:
    """replay("game.json") parsed the name as JSON and said only "not JSON: Expecting value"."""
    with pytest.raises(BadRecord, match="pass a pathlib.Path"):
        gamenight.replay("game.json")
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    (tmp_path / "game.json").write_text(json.dumps(state.record()))
    assert gamenight.replay(tmp_path / "game.json").record() == state.record()


def test_record_text_that_is_not_json() -> None:
    with pytest.raises(BadRecord, match="not JSON"):
        gamenight.replay("{moves: ")


def test_record_round_trips_as_json_text() -> None:
    record = finished_record()
    assert gamenight.replay(json.dumps(record)).record() == record
