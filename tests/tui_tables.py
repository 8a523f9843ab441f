"""Every terminal table built the same way for the tests: you in seat A, bots elsewhere, 80x24."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

import gamenight
from gamenight.tui.app import GameApp
from gamenight.tui.base import TableApp
from gamenight.tui.casino import CasinoApp
from gamenight.tui.gambler import MARKER_KEYS, GamblerApp
from gamenight.tui.snap import SnapApp

SIZE = (80, 24)


class Clock:
    """A hand-moved clock for the real-time table."""

    def __init__(self) -> None:
        self.ms = 0.0

    def __call__(self) -> float:
        return self.ms


def snake_eyes(tmp: Path) -> TableApp:
    game = gamenight.new_game("snake-eyes", players=3)
    return GameApp(game, ["human", "bot", "bot"], 4, bot_delay=0, save_path=tmp / "g.json")


def shake(tmp: Path) -> TableApp:
    game = gamenight.new_game("shake", players=3, rounds=2)
    return GameApp(game, ["human", "bot", "bot"], 4, bot_delay=0, save_path=tmp / "g.json")


def gambler(tmp: Path) -> TableApp:
    state = gamenight.new_game("gambler", players=3, max_turns=12).new_state(4)
    return GamblerApp(state, seats=["human", "bot", "bot"], seed=4, bot_delay=0,
                      save_path=tmp / "g.json")  # fmt: skip


def casino(tmp: Path) -> TableApp:
    game = gamenight.new_game("snake-eyes-casino", players=3, max_rolls=6)
    return CasinoApp(game=game, seats=["human", "bot", "bot"], seed=4, bot_delay=0,
                     save_path=tmp / "g.json")  # fmt: skip


def snap(tmp: Path, game_id: str = "snap") -> TableApp:
    state = gamenight.new_game(game_id, players=3, max_flips=60).new_state(4)
    return SnapApp(state=state, seed=4, clock=Clock(), tick_s=None, save_path=tmp / "g.json")


def slap(tmp: Path) -> TableApp:
    return snap(tmp, "slap-the-elephant")


TABLES: dict[str, Callable[[Path], TableApp]] = {
    "snake-eyes": snake_eyes,
    "shake": shake,
    "gambler": gambler,
    "snake-eyes-casino": casino,
    "snap": snap,
    "slap-the-elephant": slap,
}


def human_key(app: TableApp) -> str | None:
    """The key a patient human in seat A presses now, or None when nothing is theirs to do."""
    st = app.state
    if st.is_terminal():
        return None
    if isinstance(app, GameApp):
        if app.waiting_throw is not None:
            return "space"
        return next(iter(app.keymap), None)
    if isinstance(app, GamblerApp):
        if app.human is None:
            return None
        legal = {a["type"]: a for a in st.legal_actions(0)}
        if "marker" in legal:
            free = {a["space"] for a in st.legal_actions(0) if a["type"] == "marker"}
            return next(k for k, space in MARKER_KEYS.items() if space in free)
        for key, kind in (("c", "claim_start"), ("r", "roll"), ("a", "roll_again"),
                          ("e", "end_turn"), ("p", "repay_iou"), ("i", "take_iou")):  # fmt: skip
            if kind in legal:
                return key
        return None
    if isinstance(app, CasinoApp):
        if app.acting != 0:
            return None
        legal = {a["type"] for a in st.legal_actions(0)}
        if "accept" in legal:
            return "a"
        if "roll" in legal:
            return "r"
        if st.shooter == 0 or not st.bets[0]:
            return "plus" if any(a["type"] == "wager" for a in st.legal_actions(0)) else "g"
        return "d" if "done" in legal else None
    return None


async def play_out(app: TableApp, pilot: Any, limit: int = 4000) -> int:
    """Play to the end: the human's keys when it is their turn, otherwise let bots and dice go."""
    presses = 0
    for _ in range(limit):
        if app.state.is_terminal():
            break
        if isinstance(app, SnapApp):
            if not app.table.auto_flip_humans:
                await pilot.press("a")  # your cards turn up by themselves
            app.clock.ms += 500  # type: ignore[attr-defined]
            app.tick()
            await pilot.pause()
            continue
        key = human_key(app)
        if key is None:
            await pilot.pause()
        else:
            await pilot.press(key)
            presses += 1
    return presses


def notices(app: Any) -> list[tuple[str, str]]:
    """Every notification the table gives from now on, as (severity, text), kept for good:
    Textual drops a notification after its timeout, which a busy machine can outlast between
    the notice and the test's look at it."""
    said: list[tuple[str, str]] = []
    real = app.notify

    def notify(message: Any, *args: Any, **kwargs: Any) -> None:
        said.append((kwargs.get("severity", "information"), str(message)))
        real(message, *args, **kwargs)

    app.notify = notify
    return said


def text_of(renderable: Any, width: int = 78) -> str:
    console = Console(width=width, record=True, color_system=None)
    with console.capture():
        console.print(renderable)
    return console.export_text()


def screen_text(app: TableApp) -> str:
    """What the terminal shows, as plain text (every widget's visible lines)."""
    lines = app.screen._compositor.render_update(full=True)  # noqa: SLF001
    console = Console(width=SIZE[0], height=SIZE[1], file=io.StringIO(), force_terminal=True,
                      record=True, legacy_windows=False, safe_box=False)  # fmt: skip
    console.print(lines)
    return console.export_text()
