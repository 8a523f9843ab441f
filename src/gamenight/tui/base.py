"""What every terminal table shares: one key map, the help, save and quit dialogs, the title.

Every table answers ``?`` (help: every key and the rules summary), ``s`` (save the record),
``q`` (quit, asking first while a game is in progress) and, once the game is over, ``n`` (a new
game at the same table: ``run`` returns ``NEW_GAME``). Bots and dice wait while any dialog is
open: ``paused`` says so, and ``schedule`` re-arms a move that comes due during a dialog.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static
from textual.worker import Worker, WorkerState

from .rules_help import rules_for

HUMAN, BOT = "human", "bot"
MIN_SIZE = (80, 24)  # every table fits this; below it panels cut names and figures
NEW_GAME = "new game"  # what a table's run returns when the player asks for another deal

DIALOG_CSS = """
ConfirmQuit, HelpScreen, SaveScreen { align: center middle; }
#dialog { width: 76; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
          border: thick $accent; background: $surface; }
#help-body { height: auto; max-height: 18; }
#buttons { height: auto; margin-top: 1; }
#buttons Button { margin-right: 2; }
"""


class ConfirmQuit(ModalScreen[bool]):
    """Asks before throwing away a game in progress."""

    BINDINGS = [("y", "answer(True)", "yes"), ("n,escape", "answer(False)", "no")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("The game is not over. Quit anyway?  (y / n)")
            yield Label("To keep it, answer n and press s to save the record first.")
            with Horizontal(id="buttons"):
                yield Button("Quit (y)", variant="error", id="yes")
                yield Button("Keep playing (n)", variant="primary", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    """Every key of this table, then the rules in a few lines."""

    BINDINGS = [("escape,question_mark,q,enter", "close", "close")]

    def __init__(self, title: str, keys: Sequence[tuple[str, str]], rules: str) -> None:
        super().__init__()
        self.heading, self.keys, self.rules = title, list(keys), rules

    def compose(self) -> ComposeResult:
        grid = RichTable.grid(padding=(0, 2))
        grid.add_column(style="bold cyan", no_wrap=True)
        grid.add_column()
        for key, what in self.keys:
            grid.add_row(key, what)
        with Vertical(id="dialog"):
            yield Label(Text(f"{self.heading}: keys and rules", style="bold"))
            with VerticalScroll(id="help-body"):
                yield Static(grid)
                flowing = " ".join(self.rules.split())  # the dialog wraps it to its own width
                yield Static(Text("\n" + flowing, style="italic"))
            yield Label(Text("escape or ? closes this help", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """Asks where to save the record, suggesting the last path; asks again before replacing a
    file this table did not write (a typo must not overwrite another game or a table file)."""

    BINDINGS = [("escape", "cancel", "cancel")]

    def __init__(self, path: Path, written: set[Path] | None = None) -> None:
        super().__init__()
        self.path = path
        self.written = written or set()
        self.warned = ""  # the path already warned about: enter again replaces it

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Save the game record to (enter saves, escape cancels):")
            yield Input(value=str(self.path), id="save-path")
            yield Static("", id="save-warning")  # a Static wraps a long path; a Label cuts it

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # the path is this dialog's answer, not a command for the table below
        value = event.value.strip()
        path = Path(value).expanduser()
        if value and value != self.warned and path.is_file() and path.resolve() not in self.written:
            self.warned = value
            warning = f"{path} already exists: enter again replaces it, or change the name"
            self.query_one("#save-warning", Static).update(Text(warning, style="bold red"))
            return
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def seats_text(kinds: Sequence[str]) -> str:
    """Who sits where, short enough for a title: 'A you · B-D bots', 'A B humans · C bot'."""
    groups: list[tuple[str, list[int]]] = []
    for s, k in enumerate(kinds):
        if groups and groups[-1][0] == k:
            groups[-1][1].append(s)
        else:
            groups.append((k, [s]))
    lone = kinds.count(HUMAN) == 1
    parts = []
    for kind, seats in groups:
        letters = [chr(65 + s) for s in seats]
        who = (
            letters[0]
            if len(seats) == 1
            else (f"{letters[0]}-{letters[-1]}" if len(seats) > 2 else " ".join(letters))
        )
        if kind == HUMAN:
            word = "you" if lone else ("human" if len(seats) == 1 else "humans")
        else:
            word = "bot" if len(seats) == 1 else "bots"
        parts.append(f"{who} {word}")
    return " · ".join(parts)


class TableApp(App[str | None]):
    """Base of every table: set ``state``, ``game_title``, ``seat_kinds`` and ``seed``."""

    BINDINGS = [
        Binding("question_mark", "help", "help"),
        Binding("s", "save", "save"),
        Binding("q", "quit_game", "quit"),
        # Textual's own ctrl+q quit at once, losing a game in progress, and its ctrl+c only
        # said "press ctrl+q": both ask first like q, and pressed again they quit.
        Binding("ctrl+c,ctrl+q", "interrupt", "quit", show=False, priority=True),
        # Only once the game is over; until then n is the table's own (the casino's "pass dice",
        # a listed choice): the binding steps aside and the key goes on to it.
        Binding("n", "new_game", "new game", priority=True),
    ]
    CSS = DIALOG_CSS
    #: the keys this table adds, for the help dialog: (key, what it does)
    TABLE_KEYS: tuple[tuple[str, str], ...] = ()

    state: Any
    game_id: str = ""
    game_title: str = ""
    seat_kinds: list[str]
    seed: int | None = None
    save_path: Path
    bot_delay: float = 0.6
    written: set[Path]  # files this table saved: saving there again replaces them unasked
    ended = False  # the end is on screen (and n in the footer)
    # a thinking bot's move in the making: the table and its move count when asked, and where
    # the move goes (``decide``)
    thoughts: dict[Worker[Any], tuple[Any, int, Callable[[dict[str, Any]], None]]]
    too_small = False  # the terminal is below MIN_SIZE (and the player was told)

    def table_title(self) -> str:
        seed = "random seed" if self.seed is None else f"seed {self.seed}"
        return f"{self.game_title} · {seats_text(self.seat_kinds)} · {seed}"

    def __init__(self) -> None:
        super().__init__()
        self.written = set()
        self.thoughts = {}

    def on_mount(self) -> None:
        self.title = self.table_title()

    def on_resize(self, event: events.Resize) -> None:
        """Below 80x24 panels cut off names and figures: say so, once each time it shrinks."""
        small = event.size.width < MIN_SIZE[0] or event.size.height < MIN_SIZE[1]
        if small and not self.too_small:
            w, h = MIN_SIZE
            self.notify(f"this table needs {w}x{h}: some names and figures are cut off",
                        severity="warning", timeout=8)  # fmt: skip
        self.too_small = small

    # --- dialogs -------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        """A dialog is open: bots, dice and clocks wait."""
        return isinstance(self.screen, ModalScreen)

    def key_help(self) -> list[tuple[str, str]]:
        return [
            *self.TABLE_KEYS,
            ("?", "this help"),
            ("s", self.save_help()),
            ("q", "quit (asks first while the game is on; so do ctrl+c and ctrl+q)"),
            ("n", "once the game is over: a new game with the same players and options"),
        ]

    def save_help(self) -> str:
        """What a saved record is good for: a turn-based game plays on from it another night."""
        from gamenight.engine.game import is_realtime

        said = "save the game record (a JSON file that `gamenight replay` reads"
        if is_realtime(self.game_id):
            return said + ")"
        return said + f"; `gamenight play {self.game_id} --resume FILE` plays on from it)"

    def action_help(self) -> None:
        if not self.paused:
            self.push_screen(HelpScreen(self.game_title, self.key_help(), rules_for(self.game_id)))

    def action_save(self) -> None:
        if self.paused:
            return

        def chosen(path: str | None) -> None:
            if path:
                self.save_to(Path(path).expanduser())

        self.push_screen(SaveScreen(self.save_path, self.written), chosen)

    def save_to(self, path: Path) -> bool:
        """Write the record; a path that cannot be written is a message, and the game goes on."""
        try:
            path.write_text(json.dumps(self.state.record(), indent=1))
        except OSError as e:
            why = e.strerror or type(e).__name__
            self.notify(escape(f"could not save to {path}: {why}"), severity="error", timeout=8)
            return False
        self.save_path = path
        self.written.add(path.resolve())
        self.notify(escape(f"record saved to {path}"))
        return True

    def game_over(self) -> bool:
        return bool(self.state.is_terminal())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The new-game key is live (and in the footer) only once the game is over."""
        if action == "new_game":
            return self.game_over() and not self.paused
        return True

    def action_new_game(self) -> None:
        if not self.game_over() or self.paused:
            raise SkipAction()
        self.exit(NEW_GAME)

    def game_ended(self) -> None:
        """A table calls this when it shows the end: the footer now offers a new game."""
        if not self.ended:
            self.ended = True
            self.refresh_bindings()

    def action_quit_game(self) -> None:
        if self.paused:
            return
        if self.game_over() or not self.state.moves:
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmQuit(), answered)

    def action_interrupt(self) -> None:
        """Ctrl-C or Ctrl-Q: quit, asking first while a game is on; a second press quits."""
        if isinstance(self.screen, ConfirmQuit) or self.game_over() or not self.state.moves:
            self.exit()
            return
        while isinstance(self.screen, ModalScreen):  # help or save open: the question replaces it
            self.pop_screen()
        self.action_quit_game()

    # --- bots on a timer -----------------------------------------------------------------------
    def decide(self, bot: Any, seat: int, then: Callable[[dict[str, Any]], None]) -> None:
        """Ask ``bot`` for ``seat``'s move and hand it to ``then``. A bot that thinks (the search
        bot, up to seconds a move) does so in a worker thread on a copy of the table, so keys
        and the screen stay live; its move is dropped if the table moved on meanwhile."""
        if not getattr(bot, "thinks", False):
            then(bot.act(self.state, seat))
            return
        worker = self.run_worker(
            partial(bot.act, self.state.clone(), seat), thread=True, group="bots"
        )
        self.thoughts[worker] = (self.state, len(self.state.moves), then)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A thought landed: its move is played if the table is still where it was asked, once
        no dialog is open."""
        if event.state != WorkerState.SUCCESS:
            if event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
                self.thoughts.pop(event.worker, None)
            return
        asked = self.thoughts.pop(event.worker, None)
        if asked is None:
            return
        state, moves, then = asked
        action = event.worker.result

        def land() -> None:
            if action is not None and self.state is state and len(state.moves) == moves:
                then(action)

        if self.paused:  # a dialog is open: the move waits for it, as every bot move does
            self.schedule(land)
        else:
            land()

    def schedule(self, move: Callable[[], None]) -> None:
        """Run ``move`` after the bot delay; while a dialog is open it waits and tries again."""

        def due() -> None:
            if not self.is_running:
                return
            if self.paused:
                self.set_timer(max(self.bot_delay, 0.1), due)
                return
            move()

        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, due)
        else:
            self.call_later(due)
