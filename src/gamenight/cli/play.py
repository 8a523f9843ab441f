"""``gamenight play`` and ``gamenight snap-table``: a game at the terminal, new or resumed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

import gamenight
from gamenight.engine import GamenightError

from .common import (
    MAX_SEED,
    STRATEGY_NAMES,
    TableFile,
    casino_settings,
    console,
    fail,
    read_text,
    realtime,
    refuse,
    refuse_any,
)


def play(
    game: Annotated[str, typer.Argument(help="game id, see `gamenight list`")],
    players: Annotated[
        int | None,
        typer.Option(min=1, help="seats at the table (default: the --table file's, else 2)"),
    ] = None,
    bots: Annotated[
        int | None,
        typer.Option(min=0, help="how many seats (the last) are bots; default: all but yours"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, max=MAX_SEED, help="the same seed deals the same game; default: random"
        ),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="where the s key offers to save")] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            min=0, max=3600, help="seconds a bot waits before it acts (turn-based games; 0.6)"
        ),
    ] = None,
    live: Annotated[
        bool, typer.Option("--live", help="casino: the dealer screen, entering physical dice")
    ] = False,
    table_file: TableFile = None,
    strategy: Annotated[
        str | None,
        typer.Option(help=f"casino: how the bots bet: {STRATEGY_NAMES} (benchmark)"),
    ] = None,
    level: Annotated[
        str | None, typer.Option(help="snap, slap-the-elephant: bot level easy/normal/expert")
    ] = None,
    bot: Annotated[
        str | None,
        typer.Option(
            help="shake, snake-eyes, gambler: the bots' kind: sensible (the default), random, "
            "optimal (2-player shake), search (thinks up to 1 s a move), mcts-Ts (T seconds)"
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="a record saved with s mid-game: play on from where it stopped"),
    ] = None,
) -> None:
    """Play at the terminal: the first seats are humans taking turns, the rest bots."""
    import secrets
    import shlex

    try:
        gamenight.engine.game_class(game)  # an unknown game is named before any option
    except GamenightError as e:
        raise fail(e) from None
    resumed = None
    if resume is not None:
        resumed = resumed_state(game, resume, players, seed, table_file, live)
    if resumed is not None:  # the record holds the seats, seed and options of its game
        players, seed = resumed.players, resumed.seed
        live = bool(resumed.game.options_dict().get("live", False))
    settings = casino_settings(game, table_file)
    players = settings.get("players", 2) if players is None else players
    if bots is None:  # you against bots; a live table's seats are the people at it
        bots = 0 if live else players - 1
    if bots > players:
        raise refuse("--bots", f"{bots} is more than --players {players}")
    humans = players - bots
    casino = game == "snake-eyes-casino"
    if live and not casino:
        raise refuse("--live", "a setting of snake-eyes-casino tables only")
    if strategy is not None and not casino:
        raise refuse("--strategy", f"{game} has no betting strategies (snake-eyes-casino has)")
    if level is not None and not realtime(game):
        raise refuse(
            "--level", "bot levels belong to the real-time games (snap, slap-the-elephant)"
        )
    if delay is not None and delay != delay:  # nan passes every range check
        raise refuse("--delay", "a number of seconds, 0 to 3600")
    if delay is not None and realtime(game):
        raise refuse("--delay", f"{game} bots react in real time; choose their speed with --level")
    if realtime(game) and humans != 1:
        raise refuse("--bots", f"{game} seats one player at the keyboard: use --bots {players - 1}")
    if casino and live and bots:
        raise refuse("--bots", "a live table's seats are the players at the real table: --bots 0")
    if casino:
        from gamenight.bots.casino_bot import STRATEGIES

        if strategy is not None and strategy not in STRATEGIES:
            raise refuse("--strategy", f"{strategy!r}: choose one of {', '.join(STRATEGIES)}")
    if level is not None:
        from gamenight.realtime.reaction import level as check_level

        try:
            check_level(level)
        except (GamenightError, ValueError) as e:
            raise refuse("--level", str(e)) from None
    kind = bot_kind(game, bot, players)
    options: dict[str, object] = {**settings, "players": players}
    if live:
        options["live"] = True
    try:
        g = resumed.game if resumed is not None else gamenight.new_game(game, **options)
    except GamenightError as e:
        named = getattr(e, "options", (getattr(e, "option", None),))
        in_file = table_file is not None and any(k in settings for k in named)
        raise fail(f"--table {table_file}: {e}" if in_file else e) from None
    pace = 0.6 if delay is None else delay
    seats = ["human"] * humans + ["bot"] * bots

    def table(deal: int, save_path: Path, state: Any = None) -> Any:
        """The app for one deal (its seed) at this table, or for ``state`` (a resumed game)."""
        if realtime(game):
            from gamenight.tui.snap import SnapApp

            return SnapApp(game, players, level or "normal", seed=deal, save_path=save_path)
        if casino:
            from gamenight.tui.casino import CasinoApp

            return CasinoApp(
                game=g, seats=seats, seed=deal, strategy=strategy or "benchmark",
                bot_delay=pace, save_path=save_path, state=state,
            )  # fmt: skip
        if game == "gambler":
            from gamenight.tui.gambler import GamblerApp

            return GamblerApp(state or g.new_state(deal), seats=seats, seed=deal, bot_delay=pace,
                              save_path=save_path, bot=kind)  # fmt: skip
        from gamenight.tui.app import GameApp

        return GameApp(g, seats, deal, bot_delay=pace, save_path=save_path, state=state, bot=kind)

    from gamenight.tui.base import NEW_GAME

    seed = secrets.randbelow(1_000_000) if seed is None else seed
    while True:  # n at the end of a game deals another with the same players and options
        again = " ".join(
            [f"gamenight play {game} --players {players} --bots {bots} --seed {seed}"]
            + (["--live"] if live else [])
            + ([f"--table {shlex.quote(str(table_file))}"] if table_file else [])
            + ([f"--strategy {strategy}"] if strategy else [])
            + ([f"--level {level}"] if level else [])
            + ([f"--bot {bot}"] if bot else [])
        )  # every option that changes the game, or "again" would deal a different one
        keep = f" --bot {bot}" if bot else ""  # the same bots when a saved game plays on
        if resumed is not None and resume is not None:  # s saves back to the same file
            n = len(resumed.moves)
            hint = f"{n} move{'' if n == 1 else 's'} read from {resume}: playing on"
            console.print(escape(hint), soft_wrap=True)
            board = table(seed, save or resume, resumed)
            if save is None:
                board.written.add(resume.resolve())  # the table's own file: s replaces it
            result = board.run()
            saved = shlex.quote(str(board.save_path))  # where s last saved (or would save)
            again = f"gamenight play {game} --bots {bots}{keep} --resume {saved}"
            console.print(f"[bold]{escape(again)}[/] plays on from the last save", soft_wrap=True)
            resumed = None
            if result != NEW_GAME:
                return
            seed = secrets.randbelow(1_000_000)
            continue
        # soft wrap: the terminal folds the line, so a copied command has no newline inside it
        hint = f"seed {seed}: play this game again with [bold]{escape(again)}[/]"
        console.print(hint, soft_wrap=True)
        board = table(seed, save or Path(f"gamenight-{game}-seed{seed}.json"))
        result = board.run()
        done = f"seed {seed}: [bold]{escape(again)}[/] plays this game again"
        console.print(done, soft_wrap=True)
        if board.written and not board.game_over() and not realtime(game):  # saved, unfinished
            saved = shlex.quote(str(board.save_path))
            on = f"gamenight play {game} --bots {bots}{keep} --resume {saved}"
            console.print(f"[bold]{escape(on)}[/] plays on from the last save", soft_wrap=True)
        if result != NEW_GAME:
            return
        seed = secrets.randbelow(1_000_000)


def bot_kind(game: str, bot: str | None, players: int) -> str:
    """The bot kind ``--bot`` names (``search`` is the search bot at 1 s a move), checked
    against the game and its seats; the race games and the casino choose bots otherwise."""
    if bot is None:
        return "sensible"
    if realtime(game):
        raise refuse("--bot", f"{game} bots race by a reaction level: choose it with --level")
    if game == "snake-eyes-casino":
        raise refuse("--bot", "casino bots bet by a --strategy")
    from gamenight.bots import make_bot  # here: NumPy is no cost of starting the command

    kind = "mcts" if bot == "search" else bot
    try:
        make_bot(game, kind, seed=0, players=players)
    except ValueError as e:
        raise refuse("--bot", f"{e} (search: mcts at 1 s a move)") from None
    return kind


def resumed_state(
    game: str,
    path: Path,
    players: int | None,
    seed: int | None,
    table_file: Path | None,
    live: bool,
) -> Any:
    """The game a saved record stopped in, checked to be ``game`` and still in progress."""
    if realtime(game):
        raise refuse("--resume", f"{game} is played in real time: a record replays, not resumes")
    refuse_any(
        {"--players": players, "--seed": seed, "--table": table_file, "--live": live or None},
        f"the record {path} sets the players, seed and options of its game",
    )
    try:
        state = gamenight.replay(read_text(path, "--resume"))
    except GamenightError as e:
        raise fail(f"--resume {path}: {e}") from None
    if state.game.id != game:
        raise refuse("--resume", f"{path} is a game of {state.game.id}, not {game}")
    if state.is_terminal():
        raise refuse("--resume", f"the game in {path} is over; gamenight replay shows how it went")
    return state


def snap_table(
    game: Annotated[str, typer.Argument(help="snap or slap-the-elephant")] = "snap",
    players: Annotated[int, typer.Option(min=2, max=8, help="seats at the table, yours too")] = 3,
    level: Annotated[str, typer.Option(help="bot level: easy, normal, expert")] = "normal",
) -> None:
    """Play a calling game in real time against bots in the terminal (you are seat A)."""
    from gamenight.realtime.reaction import level as check_level
    from gamenight.tui.snap import run

    if not realtime(game):
        raise fail(ValueError(f"snap-table plays snap or slap-the-elephant, not {game!r}"))
    try:
        check_level(level)
        gamenight.new_game(game, players=players)
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    run(game, players, level)
