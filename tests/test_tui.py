"""The terminal table, driven headless through Textual's Pilot with no bot delay."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import gamenight
from gamenight.engine import Game, IllegalAction, Options, State
from gamenight.engine.ledger import Ledger
from gamenight.tui.app import ConfirmQuit, GameApp
from gamenight.tui.shake import ShakeTable
from gamenight.tui.snake_eyes import SnakeEyesTable
from gamenight.tui.tables import Table, table_for


def snake_app(tmp_path: Path, seats: list[str], seed: int = 7) -> GameApp:
    game = gamenight.new_game("snake-eyes", players=len(seats))
    return GameApp(game, seats, seed, bot_delay=0, save_path=tmp_path / "rec.json")


async def test_whole_snake_eyes_game_through_key_presses(tmp_path: Path) -> None:
    app = snake_app(tmp_path, ["human", "bot", "bot"])
    async with app.run_test() as pilot:
        presses = 0
        while not app.state.is_terminal() and presses < 3000:
            await pilot.pause()
            if app.waiting_throw is not None:
                assert app.waiting_throw == 0  # only the human seat waits for a key
                await pilot.press("space")
                presses += 1
        assert app.state.is_terminal()
        assert presses > 0
        human_throws = sum(1 for line in app.state.events() if line.startswith("A throws"))
        assert human_throws == presses
        assert "Game over" in str(app.query_one("#status").render())


async def test_bots_throw_by_themselves(tmp_path: Path) -> None:
    app = snake_app(tmp_path, ["bot", "bot"])
    async with app.run_test() as pilot:
        for _ in range(400):
            if app.state.is_terminal():
                break
            await pilot.pause()
        assert app.state.is_terminal()


# Options that keep each game short at the table; games not named here play with their defaults.
SHORT: dict[str, dict[str, Any]] = {"shake": {"rounds": 1}}


@pytest.mark.parametrize("game_id", gamenight.list_games())
async def test_every_game_plays_to_the_end_with_bots_only(game_id: str) -> None:
    """Covers each registered game through the protocol alone, with its own table picture."""
    cls = gamenight.engine.game_class(game_id)
    game = gamenight.new_game(game_id, players=cls.min_players, **SHORT.get(game_id, {}))
    app = GameApp(game, ["bot"] * game.players, 3, bot_delay=0)
    async with app.run_test() as pilot:
        for _ in range(5000):
            if app.state.is_terminal():
                break
            await pilot.pause()
        assert app.state.is_terminal()
        assert "Game over" in str(app.query_one("#status").render())


async def test_quitting_mid_game_asks_first(tmp_path: Path) -> None:
    app = snake_app(tmp_path, ["human", "human"])
    async with app.run_test() as pilot:
        await pilot.press("space")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit)
        assert app.is_running
        moves = len(app.state.moves)
        await pilot.press("space")  # still playing
        assert len(app.state.moves) == moves + 1
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
async def test_ctrl_c_and_ctrl_q_ask_first_mid_game_and_quit_when_pressed_again(
    tmp_path: Path, key: str
) -> None:
    """Textual's ctrl+q quit at once and lost the game; ctrl+c only said "press ctrl+q"."""
    app = snake_app(tmp_path, ["human", "human"])
    async with app.run_test() as pilot:
        await pilot.press("space")
        await pilot.press("question_mark")  # even over the help dialog
        await pilot.press(key)
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert app.is_running and len(app.state.moves) == 1
        await pilot.press(key, key)
        await pilot.pause()
        assert not app.is_running


async def test_ctrl_c_quits_at_once_before_the_first_move(tmp_path: Path) -> None:
    app = snake_app(tmp_path, ["human", "human"])
    async with app.run_test() as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running


async def test_saved_record_replays_equal(tmp_path: Path) -> None:
    app = snake_app(tmp_path, ["human", "bot"])
    async with app.run_test() as pilot:
        for _ in range(6):
            await pilot.press("space")
        await pilot.press("s")  # the dialog offers the --save path; enter saves there
        await pilot.press("enter")
        await pilot.pause()
        rec = json.loads((tmp_path / "rec.json").read_text())
        assert len(rec["moves"]) >= 6
        assert gamenight.replay(rec) == app.state


# --- a tiny game with real choices, to drive action keys through the generic table ----------
class PileState(State):
    """Take 1 or 2 chips from a pile of 5; whoever takes the last one wins."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.ledger = Ledger({"pile": 5})
        self.pile, self.turn, self._winner = 5, 0, None

    def is_terminal(self) -> bool:
        return self._winner is not None

    def is_chance(self) -> bool:
        return False

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        return []

    def actors(self) -> list[int]:
        return [] if self.is_terminal() else [self.turn]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "take", "n": n} for n in (1, 2) if n <= self.pile]

    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        if seat != self.turn or action not in self.legal_actions(self.turn):
            raise IllegalAction("not a legal take")

    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        self.pile -= action["n"]
        self.log("{} takes {}.", self.seat_name(self.turn), action["n"])
        if self.pile == 0:
            self._winner = self.turn
        self.turn = 1 - self.turn

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {"pile": self.pile, "to_act": self.turn, "winner": self._winner, "seen_by": seat}

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        return [1.0 if self._winner == s else 0.0 for s in range(2)]


class Pile(Game):
    id = "test-pile"
    title = "Pile"
    Options = Options

    def new_state(self, seed: int | None = None) -> PileState:
        return PileState(self, seed)


async def test_action_keys_for_humans_in_hot_seat() -> None:
    app = GameApp(Pile(), ["human", "human"], 0, bot_delay=0)
    async with app.run_test() as pilot:
        assert set(app.keymap) == {"1", "2"}
        assert "take 2" in str(app.query_one("#keys").render())
        await pilot.press("2")  # A takes 2
        await pilot.press("2")  # B takes 2
        await pilot.press("1")  # A takes the last
        assert app.state.is_terminal() and app.state.winner() == 0
        assert app.state.events() == ["A takes 2.", "B takes 2.", "A takes 1."]
        assert app.viewer is None  # hot-seat humans share the screen: the whole table


async def test_a_lone_human_sees_their_own_view() -> None:
    drawn: list[dict[str, Any]] = []

    class Spy(Table):
        def render(self, view: dict[str, Any], seat_names: list[str]) -> Any:
            drawn.append(view)
            return super().render(view, seat_names)

    app = GameApp(Pile(), ["bot", "human"], 0, bot_delay=0)
    app.table = Spy()
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
    assert drawn and all(v["seen_by"] == 1 for v in drawn)


def render_text(renderable: Any) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_seven_thrown_for_first_player_is_not_called_a_seven() -> None:
    """The red 'seven' (2 chips to the kitty) showed under a throw for the first player."""
    state = gamenight.new_game("snake-eyes", players=2).new_state(seed=1)
    state.apply({"type": "dice", "faces": [3, 4]})
    assert state.view()["phase"] == "first-player"
    text = render_text(SnakeEyesTable().render(state.view(), ["A", "B"]))
    assert "last throw: 7" in text and "seven" not in text


def test_tables_are_chosen_by_game_id() -> None:
    assert isinstance(table_for("snake-eyes"), SnakeEyesTable)
    assert isinstance(table_for("shake"), ShakeTable)
    assert type(table_for("no-such-game")) is Table


def test_snake_eyes_table_shows_cards_kitty_and_thrower() -> None:
    state = gamenight.new_game("snake-eyes", players=2, first_player=1).new_state(seed=1)
    state.apply({"type": "dice", "faces": [2, 2]})
    text = render_text(SnakeEyesTable().render(state.view(), ["A", "B"]))
    assert "last throw: 4" in text
    assert "▶ B" in text  # the thrower is marked
    assert "▒▒" in text  # B's #4 is face down
    assert "kitty" in text and " 4\n" in text


SHAKE_VIEW: dict[str, Any] = {
    "game": "shake", "round": 2, "rounds": 3, "all_shake_round": False, "phase": "shaken",
    "to_act": 1, "rolled": [4, 2], "rolled_points": [40, 20], "choosing_order": [1],
    "shaker": 1, "shake_points": 30, "last_shake": [10, 0, 10, 0, 0, 10],
    "crap_out_chance": "1/64", "crap_out_probability": 1 / 64, "all_shake_order": [],
    "tied_slots": [], "roll_off": {"seats": [], "faces": None, "picker": None}, "winners": [],
    "players": [
        {"rounds": [50], "all_shake": None, "total": 50, "crap_outs": 0, "shakes": 0},
        {"rounds": [0], "all_shake": None, "total": 0, "crap_outs": 1, "shakes": 2},
    ],
}  # fmt: skip


def test_shake_table_shows_dice_pad_and_crap_out_odds() -> None:
    table = ShakeTable()
    text = render_text(table.render(SHAKE_VIEW, ["A", "B"]))
    assert "round 2/3" in text
    assert "1/64" in text and "1.6%" in text
    assert text.count(" 10 ") >= 3  # three scoring shake dice
    # and three blanks, there in words without colour (NO_COLOR drew them as spaces)
    assert "shake dice    10   --   10   --   --   10" in text
    assert "50" in text and "score pad" in text
    assert table.chance_holder({**SHAKE_VIEW, "phase": "shake"}) == 1
    assert table.chance_holder({**SHAKE_VIEW, "phase": "roll"}) is None
    assert table.label({"type": "order", "seats": [2, 0]}) == "order CA"
    assert table.label({"type": "stop"}) == "stop and keep the points"
    assert "40" in text  # A's colored 4 is worth 40


def test_generic_labels_and_dice_holder() -> None:
    t = Table()
    assert t.label({"type": "stop"}) == "stop"
    assert t.label({"type": "bet", "chips": 5}) == "bet 5"
    assert t.chance_holder({"thrower": 2}) == 2
    assert t.chance_holder({"thrower": None, "winner": 1}) is None


# --- gamenight play ----------------------------------------------------------------------------
def test_play_seats_humans_first_then_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gamenight.cli import app as cli

    started: list[GameApp] = []
    monkeypatch.setattr(GameApp, "run", lambda self: started.append(self))
    args = [
        "play",
        "snake-eyes",
        "--players",
        "3",
        "--bots",
        "2",
        "--seed",
        "5",
        "--save",
        "g.json",
        "--delay",
        "0",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (table,) = started
    assert table.seats == ["human", "bot", "bot"] and table.seed == 5
    assert table.save_path == Path("g.json") and table.bot_delay == 0


def test_play_refuses_more_bots_than_players_and_unknown_games() -> None:
    from typer.testing import CliRunner

    from gamenight.cli import app as cli

    too_many = CliRunner().invoke(cli, ["play", "snake-eyes", "--players", "2", "--bots", "3"])
    assert too_many.exit_code == 2 and "--bots: 3 is more than --players 2" in too_many.output
    unknown = CliRunner().invoke(cli, ["play", "no-such-game"])
    assert unknown.exit_code == 2 and "no-such-game" in unknown.output
