"""Targeted tests of the engine's guards: seats, action shapes, copies, records, chance after
replay, public records, replay memory and the one-way registry (issue 11, sections 1, 2, 4)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

import gamenight
from gamenight import BadOption, BadRecord, IllegalAction, MalformedAction, NotYourTurn, State
from gamenight.engine import record as record_module
from gamenight.engine.chance import ChanceStream
from gamenight.engine.errors import describe
from gamenight.games.gambler import BadGameData, data_options
from gamenight.games.gambler.data import MAX_FILE_BYTES

GAMES = gamenight.list_games()
HUGE = 10**5000  # str() of it raises ValueError
DEEP: list = []
for _ in range(100_000):
    DEEP = [DEEP]


def players(game_id: str) -> int:
    return gamenight.engine.game_class(game_id).min_players


def playing(game_id: str, seed: int = 1, moves: int = 40) -> State:
    """A game a few moves in, stopped where a player acts if one comes."""
    # random Slap runs far past 3,000 moves; a short flip cap keeps these games brief
    short = {"max_flips": 1000} if game_id in ("snap", "slap-the-elephant") else {}
    game = gamenight.new_game(game_id, players=max(players(game_id), 2), **short)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        step(state, rng)
    return state


def step(state: State, rng: random.Random) -> None:
    if state.is_chance():
        state.sample_chance()
    else:
        seat = rng.choice(state.actors())
        state.apply(rng.choice(state.legal_actions(seat)), seat)


def frozen(state: State) -> str:
    return json.dumps([state.view(), state.record()], sort_keys=True)


# --- 1. seats ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    ("seat", "error"),
    [
        (-1, NotYourTurn),
        (99, NotYourTurn),
        ("0", MalformedAction),
        (1.0, MalformedAction),
        (True, MalformedAction),
        pytest.param(HUGE, NotYourTurn, id="huge-int"),
        ([0], MalformedAction),
    ],
)
def test_a_seat_is_an_int_at_the_table(game_id: str, seat: object, error: type) -> None:
    state = playing(game_id)
    before = frozen(state)
    with pytest.raises(error, match="seat"):
        state.legal_actions(seat)  # type: ignore[arg-type]
    with pytest.raises(error, match="seat"):
        state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(error, match="seat"):
        state.public_record(seat)  # type: ignore[arg-type]
    with pytest.raises(error, match="seat"):
        state.apply({"type": "flip"}, seat)  # type: ignore[arg-type]
    assert frozen(state) == before


def test_legal_actions_has_no_chance_seat() -> None:
    with pytest.raises(MalformedAction, match="seat"):
        playing("snap").legal_actions(None)  # type: ignore[arg-type]


# --- 2. action shapes -------------------------------------------------------------------------
@pytest.fixture
def casino() -> State:
    state = gamenight.new_game("snake-eyes-casino", players=2).new_state(seed=1)
    state.apply({"type": "accept"}, 0)
    return state


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "wager", "area": ["field"], "amount": 5}, "'area' must be a string"),
        ({"type": "wager", "area": {"a": 1}, "amount": 5}, "'area' must be a string"),
        ({"type": "wager", "area": "field", "amount": HUGE}, "a whole number of 16610 bits"),
        ({"type": "wager", "area": "field", "amount": 5.0}, "'amount'"),
        ({"type": "wager", "area": "field", "amount": True}, "'amount'"),
        ({"type": "wager", "area": "field", "amount": 5, "note": 1}, "no field 'note'"),
        ({"type": "remove", "area": "field", "all": True}, "no field 'all'"),
        ({"type": "done", "now": 1}, "no field 'now'"),
        ({"type": "decline", "x": 1}, "no field 'x'"),
        ({"type": "give_up", "x": 1}, "no field 'x'"),
        ({"type": "wager", "area": DEEP, "amount": 5}, "<list of 1 items>"),
        ({"type": DEEP}, "string 'type'"),
        ({"type": "wager", "area": "x" * 10**6, "amount": 5}, r"\(1000000 chars\)"),
        ({"type": "wager", "area": "field"}, "needs the field 'amount'"),
    ],
)
def test_casino_action_shapes_are_checked_first(casino: State, action: dict, words: str) -> None:
    before = frozen(casino)
    with pytest.raises(MalformedAction, match=words) as info:
        casino.apply(action, 1)
    assert len(str(info.value)) < 300
    assert frozen(casino) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_deep_nesting_and_huge_numbers_in_every_game(game_id: str) -> None:
    state = playing(game_id)
    before = frozen(state)
    for seat in (None, 0):
        for bad in (DEEP, {"type": DEEP}, {"type": "x", "v": DEEP}, {"type": 10**5000}):
            with pytest.raises(MalformedAction):
                state.apply(bad, seat)  # type: ignore[arg-type]
    assert frozen(state) == before


def test_describe_is_short_and_safe() -> None:
    assert describe(10**5000) == "<a whole number of 16610 bits>"
    assert describe(DEEP) == "[<list of 1 items>]"
    assert len(describe("y" * 10**6)) < 100
    assert describe({"a": [1, 2]}) == "{'a': <list of 2 items>}"


# --- 3. copies in and out ---------------------------------------------------------------------
def test_clearing_a_gambler_view_changes_nothing() -> None:
    state = playing("gambler", moves=60)
    before = frozen(state)
    view = state.view()
    for value in view.values():
        if isinstance(value, list | dict):
            value.clear()
    view["players"] = []
    assert frozen(state) == before


def test_the_record_does_not_keep_the_callers_dict() -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    throw = {"type": "dice", "faces": [3, 4]}
    state.apply(throw)
    throw["faces"][0] = 6
    throw["type"] = "changed"
    assert state.record()["moves"][0]["action"] == {"type": "dice", "faces": [3, 4]}


@pytest.mark.parametrize("game_id", GAMES)
def test_play_chance_is_sample_chance_without_the_copy(game_id: str) -> None:
    """The play loops' draw makes the same move as sample_chance, and refuses a player's turn
    with the state unchanged."""
    drawn, played = (playing(game_id, seed=5, moves=0) for _ in range(2))
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(400):
        if drawn.is_terminal():
            break
        if drawn.is_chance():
            handed = drawn.sample_chance()
            played.play_chance()
            assert handed == played.moves.actions[-1]
        else:
            step(drawn, rng_a)
            step(played, rng_b)
            if not played.is_chance():
                before = played.record()
                with pytest.raises(IllegalAction):
                    played.play_chance()
                assert played.record() == before
    assert played == drawn and played.record() == drawn.record()


def test_a_shake_handed_out_is_the_callers_to_change() -> None:
    """Drawn shakes are recorded as shared actions: what sample_chance hands out is a copy."""
    games = [gamenight.new_game("shake", players=2).new_state(seed=s) for s in (1, 2)]
    for state in games:
        while not state.is_chance() or state.phase != "shake":
            if state.is_chance():
                state.sample_chance()
            else:
                seat = state.actors()[0]
                state.apply({"type": "shake"}, seat)
    first = games[0].sample_chance()
    kept = games[0].record()["moves"][-1]["action"]
    first["faces"][:] = [7] * 6
    first["type"] = "changed"
    assert games[0].record()["moves"][-1]["action"] == kept
    games[1].sample_chance()
    assert all(f in (0, 10) for f in games[1].moves.actions[-1]["faces"])


def test_chance_outcomes_are_copies() -> None:
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    state.chance_outcomes()[0][0]["faces"].append(7)
    assert all(len(a["faces"]) == 2 for a, _ in state.chance_outcomes())


# --- 4. records -------------------------------------------------------------------------------
def long_record(game_id: str = "snake-eyes") -> dict:
    return json.loads(json.dumps(playing(game_id, moves=30).record()))


@pytest.mark.parametrize(
    ("mangle", "index"),
    [
        (lambda r: r["moves"][3].update(seat="0"), 3),
        (lambda r: r["moves"][4].update(seat=True), 4),
        (lambda r: r["moves"][5]["action"].update(faces=[1, "2"]), 5),
        (lambda r: r["moves"][6]["action"].update(faces=[1, 2.0]), 6),
        (lambda r: r["moves"][7]["action"].update(extra=None), 7),
        (lambda r: r["moves"].__setitem__(8, [None, {}]), 8),
        (lambda r: r["moves"][9].update(action=DEEP), 9),
        (lambda r: r["moves"][10]["action"].update(faces=[10**5000, 1]), 10),
        (lambda r: r["moves"][2]["action"].update(faces=[9, 1]), 2),
    ],
)
def test_a_bad_move_in_a_record_names_its_index(mangle, index: int) -> None:
    rec = long_record()
    mangle(rec)
    with pytest.raises(BadRecord, match=f"move {index}") as info:
        gamenight.replay(rec)
    assert info.value.index == index and len(str(info.value)) < 400


@pytest.mark.parametrize(
    ("mangle", "words"),
    [
        (lambda r: r.update(game=["snap"]), "'game'"),
        (lambda r: r.update(game="chess"), "unknown game 'chess'"),
        (lambda r: r.update(seed="7"), "'seed'"),
        (lambda r: r.update(seed=2**64), "seed"),
        (lambda r: r.update(options=[]), "'options'"),
        (lambda r: r["options"].update(players=10**5000), "players"),
        (lambda r: r["options"].update(starting_chips=10**12), "starting_chips"),
        (lambda r: r.update(moves={}), "'moves'"),
        (lambda r: r.update(format=2), "'format'"),
        (lambda r: r.update(public=True), "public record cannot be replayed"),
        (lambda r: r.update(truncated=True), "truncated=True; its moves do not"),
        (lambda r: r.update(truncated="yes"), "'truncated'"),
    ],
)
def test_malformed_records_are_bad_records(mangle, words: str) -> None:
    rec = long_record()
    mangle(rec)
    with pytest.raises(BadRecord, match=words):
        gamenight.replay(rec)


@pytest.mark.parametrize(
    ("game_id", "option", "value"),
    [
        ("snake-eyes-casino", "bankroll", 10**10),
        ("snake-eyes-casino", "table_max", 10**10),
        ("snake-eyes-casino", "max_rolls", 10**8),
        ("snap", "max_flips", 10**7),
        ("shake", "rounds", 101),
        ("gambler", "max_turns", 10**6),
        ("snake-eyes", "starting_chips", 10**7),
    ],
)
def test_every_option_has_an_upper_bound(game_id: str, option: str, value: int) -> None:
    with pytest.raises(BadOption, match=option):
        gamenight.new_game(game_id, **{option: value})


def opened_files(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every file a data loader opens, with the bytes read from it (files are opened through
    ``Path.open``): a bound is shown by what was read, not by how long it took."""
    seen: list[tuple[str, int]] = []
    real_open = Path.open

    class Counted:
        def __init__(self, f: Any) -> None:
            self.f = f

        def __enter__(self) -> Counted:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def read(self, n: int = -1) -> bytes:
            data = self.f.read(n)
            seen[-1] = (seen[-1][0], seen[-1][1] + len(data))
            return data

    def counted_open(path: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append((str(path), 0))
        return Counted(real_open(path, *args, **kwargs))

    monkeypatch.setattr(Path, "open", counted_open)
    return seen


def test_a_record_cannot_name_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = long_record("gambler")
    rec["options"]["board_file"] = "/dev/zero"
    opened = opened_files(monkeypatch)
    with pytest.raises(BadRecord, match="board_file"):
        gamenight.replay(rec)
    assert opened == []  # refused, not read


def test_gambler_board_travels_in_the_record(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        '[[space]]\nname="Start"\nkind="start"\n[[space]]\nname="Gift"\nkind="collect"\n'
        'amount=5\n[[space]]\nname="Fortune"\nkind="fortune"\n'
        '[[space]]\nname="Sweep"\nkind="sweepstakes"\n[[space]]\nname="Lotto"\nkind="lottery"\n'
        '[[space]]\nname="Race"\nkind="races"\n'
    )
    game = gamenight.new_game("gambler", players=2, first_player=0, **data_options(board=path))
    state = game.new_state(seed=4)
    for _ in range(20):
        step(state, random.Random(1))
    rec = json.loads(json.dumps(state.record()))
    path.unlink()  # the record holds the board itself
    names = [s["name"] for s in rec["options"]["board"]["space"]]
    assert names == ["Start", "Gift", "Fortune", "Sweep", "Lotto", "Race"]
    assert gamenight.replay(rec) == state


@pytest.mark.parametrize(
    ("board", "words"),
    [
        ({"space": [{"name": "Start", "kind": "start"}] * 101}, "space"),
        ({"space": [{"name": "S" * 61, "kind": "start"}, {"name": "x", "kind": "fortune"}]}, "60"),
        ({"space": [{"name": "Start", "kind": "start", "amount": 10**5000}]}, "board"),
        ({"space": "/dev/zero"}, "board"),
    ],
)
def test_embedded_board_is_checked_and_bounded(board: dict, words: str) -> None:
    with pytest.raises(BadOption, match=words) as info:
        gamenight.new_game("gambler", board=board)
    assert len(str(info.value)) < 400


def test_data_files_are_read_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    opened = opened_files(monkeypatch)
    with pytest.raises(BadGameData, match="bigger than"):
        data_options(board="/dev/zero")
    assert opened == [("/dev/zero", MAX_FILE_BYTES + 1)]  # one byte past the bound, no more


def test_replay_input_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = long_record()
    monkeypatch.setattr(record_module, "MAX_MOVES", 10)
    with pytest.raises(BadRecord, match="at most 10 moves"):
        gamenight.replay(rec)
    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 100)
    with pytest.raises(BadRecord, match="at most 100 bytes"):
        gamenight.replay(json.dumps(rec))
    monkeypatch.undo()
    for text in ("[" * 100_000, "1" * 5000, '{"moves": [}'):
        with pytest.raises(BadRecord, match="not JSON"):
            gamenight.replay(text)


# --- 5. chance after replay -------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("k", [0, 1, 7, 60, 250])
def test_a_replayed_game_draws_what_the_original_would(game_id: str, k: int) -> None:
    """Play k random moves, replay the record, then both play on with the same choices: every
    chance draw for the rest of the game is the same."""
    original = playing(game_id, seed=k + 3, moves=k)
    again = gamenight.replay(json.dumps(original.record()))
    assert again.chance_draws == original.chance_draws
    rng_a, rng_b = random.Random(k), random.Random(k)
    for _ in range(3000):
        if original.is_terminal():
            break
        step(original, rng_a)
        step(again, rng_b)
    assert original.is_terminal() and again == original
    assert again.record() == original.record()


def test_the_stream_jumps_to_any_draw() -> None:
    """Draw i depends on (seed, i) only: a late draw needs no earlier one."""
    walked = ChanceStream(key=42, width=3)
    for i in range(600):
        walked.at(i)
    jumped = ChanceStream(key=42, width=3).at(10**9)
    values = [jumped.random() for _ in range(3)]
    assert values == [walked.at(10**9).random() for _ in range(1)] + values[1:]
    walked.at(10**9)
    assert [walked.random() for _ in range(3)] == values
    assert all(0.0 <= v < 1.0 for v in values) and len(set(values)) == 3
    with pytest.raises(StopIteration):
        jumped.random()  # the draw's slot is used up: sample_chance then takes the overflow
    assert ChanceStream(42).overflow(7).random() == ChanceStream(42).overflow(7).random()


@pytest.mark.parametrize("width", [1, 6])
def test_each_draw_reads_its_own_philox_doubles(width: int) -> None:
    """Slot j of draw i is raw output i * width + j of Philox keyed (seed, 0), its top 53 bits
    over 2**53, whatever block sizes the stream generates them in: records stay replayable."""
    import numpy as np

    seed = 2**64 - 5
    raw = np.random.Philox(key=seed).random_raw(3000 * width)  # key (seed, 0), counter 0
    expected = ((raw >> np.uint64(11)) * (1.0 / 2**53)).tolist()
    walked = ChanceStream(key=seed, width=width)
    for i in [*range(3000), 2999, 5, 700]:  # across block edges, then back
        walked.at(i)
        assert [walked.random() for _ in range(width)] == expected[i * width : (i + 1) * width]
    jumped = ChanceStream(key=seed, width=width).at(1234)
    assert jumped.random() == expected[1234 * width]


def test_a_game_without_a_seed_still_replays_exactly() -> None:
    state = gamenight.new_game("snake-eyes", players=3).new_state()
    for _ in range(5):
        state.sample_chance()
    again = gamenight.replay(state.record())
    assert again.sample_chance() == state.sample_chance()


# --- 6. public records ------------------------------------------------------------------------
def cards_in_view(view: dict) -> set[str]:
    seen = set(view["center"])
    for p in view["players"]:
        seen |= set(p["face_up"])
    return seen


@pytest.mark.parametrize("game_id", ["snap", "slap-the-elephant"])
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_a_public_card_record_shows_no_hidden_card(game_id: str, viewer: int | None) -> None:
    state = gamenight.new_game(game_id, players=2).new_state(seed=5)
    rng = random.Random(5)
    shown_after: list[set[str]] = []  # cards each move left in view of the seat
    while not state.is_terminal() and len(shown_after) < 600:
        step(state, rng)
        shown_after.append(cards_in_view(state.view(viewer)))
    public = state.public_record(viewer)
    assert "seed" not in public and public["public"] is True
    assert len(public["moves"]) == len(shown_after)
    for i, move in enumerate(public["moves"]):
        card = move["action"].get("card")
        assert card is None or card in shown_after[i], f"move {i} shows a hidden card"
    full = state.record()
    assert any("card" in m["action"] for m in full["moves"])  # the full record has them
    assert not any("card" in m["action"] for m in public["moves"])
    with pytest.raises(BadRecord, match="public record cannot be replayed"):
        gamenight.replay(public)


def test_a_public_gambler_record_shows_only_what_was_shown() -> None:
    state = gamenight.new_game("gambler", players=3).new_state(seed=8)
    rng = random.Random(8)
    views = []
    for _ in range(800):
        if state.is_terminal():
            break
        step(state, rng)
        views.append(state.view(1))
    public = state.public_record(1)
    assert "seed" not in public
    cards = state.game.data.fortune.card
    checked = 0
    for i, move in enumerate(public["moves"]):
        a = move["action"]
        if a["type"] == "fortune":
            assert views[i]["last_card"] == cards[a["card"]].text
            checked += 1
        elif a["type"] == "ticket":
            held = [t for p in views[i]["players"] for t in p["tickets"]]
            assert a["ticket"] in held
            checked += 1
        elif a["type"] == "horse":
            assert a["horse"] in views[i]["horse_cards"].values() or i + 1 == len(views)
    assert checked > 0


def test_record_formats_are_documented() -> None:
    text = (Path(__file__).parent.parent / "docs" / "records.md").read_text()
    for word in ('"format"', '"seed"', '"public"', '"viewer"', "MAX_MOVES", "MAX_RECORD_BYTES"):
        assert word in text


def test_the_documented_records_are_what_the_engine_writes() -> None:
    """docs/records.md's full record replays and is what seed 7 writes (its example once put a
    casino wager into a Snake Eyes record, which replay refuses); the public one parses."""
    text = (Path(__file__).parent.parent / "docs" / "records.md").read_text()
    full, public = (json.loads(b.split("```")[0]) for b in text.split("```json")[1:3])
    again = gamenight.replay(full)
    assert again.record() == full
    state = gamenight.new_game(full["game"], **full["options"]).new_state(seed=full["seed"])
    while state.is_chance():
        state.sample_chance()
    state.apply(full["moves"][-1]["action"], full["moves"][-1]["seat"])
    assert state.record() == full
    assert public["public"] is True and "seed" not in public


# --- 7. replay memory -------------------------------------------------------------------------
def test_replay_keeps_one_copy_of_each_action() -> None:
    """A replayed Snake Eyes game holds at most 36 throw actions, however long it is."""
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=2)
    while not state.is_terminal():
        state.sample_chance()
    again = gamenight.replay(json.dumps(state.record()))
    assert len(again.moves) == len(state.moves) > 36
    assert len({id(a) for a in again.moves.actions}) <= 36


# --- 8. the registry points down ---------------------------------------------------------------
def test_the_engine_never_imports_the_games() -> None:
    engine = Path(gamenight.__file__).parent / "engine"
    for module in engine.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith("gamenight.games"), f"{module.name} imports {name}"
                assert not name.startswith(("..games", "gamenight.cli")), module.name


def test_a_game_written_with_public_hooks_is_guarded() -> None:
    """A third-party game that writes ``legal_actions``/``view`` still gets the seat guard."""

    class Solo(State):
        def is_terminal(self) -> bool:
            return False

        def is_chance(self) -> bool:
            return False

        def _chance_outcomes(self) -> list:
            return []

        def actors(self) -> list[int]:
            return [0]

        def legal_actions(self, seat: int) -> list[dict]:
            return [{"type": "pass"}]

        def _check(self, action: dict, seat: int | None) -> None:
            pass

        def _do(self, action: dict, seat: int | None) -> None:
            pass

        def view(self, seat: int | None = None) -> dict:
            return {"seat": seat}

        def winner(self) -> int | None:
            return None

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    state = Solo(gamenight.new_game("snap"), seed=1)
    assert state.legal_actions(1) == [{"type": "pass"}] and state.view(1) == {"seat": 1}
    with pytest.raises(NotYourTurn):
        state.legal_actions(5)
    with pytest.raises(MalformedAction):
        state.view(True)  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        state.apply({"type": "pass", "deep": DEEP}, 0)
    with pytest.raises(TypeError, match="overrides State.apply"):
        type("Bad", (Solo,), {"apply": lambda self, a, s=None: None})
