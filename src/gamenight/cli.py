"""The ``gamenight`` command: play, simulate, replay and list games.

Heavy modules (the engine's validation library, the games, Textual) load inside the commands
that need them, so ``gamenight --help`` and ``gamenight list`` start at once.
"""

from __future__ import annotations

import errno
import importlib
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

import gamenight
from gamenight.engine import GamenightError


def _lazy(module: str, name: str) -> Any:
    """A stand-in for ``module.name`` that imports it on first call: tables and progress bars
    cost more to import than the whole of ``gamenight --help``."""

    def make(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return make


Progress = _lazy("rich.progress", "Progress")
BarColumn = _lazy("rich.progress", "BarColumn")
MofNCompleteColumn = _lazy("rich.progress", "MofNCompleteColumn")
TimeRemainingColumn = _lazy("rich.progress", "TimeRemainingColumn")
TextColumn = _lazy("rich.progress", "TextColumn")
Table = _lazy("rich.table", "Table")

app = typer.Typer(
    help="Play, simulate and analyse classic dice and card games.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: Typer's Rich help would import a Markdown parser
)
console = Console()
err_console = Console(stderr=True)


def fail(e: Exception | str) -> typer.Exit:
    """Print an error (its text escaped: a ``[`` in a name or path stays itself) and exit 2."""
    err_console.print(f"[bold red]error:[/] {escape(str(e))}", soft_wrap=True)
    return typer.Exit(code=2)


def read_text(path: Path, what: str) -> str:
    """A file's text, or an error naming the file and what went wrong."""
    try:
        return path.read_text()
    except IsADirectoryError:
        raise fail(f"{what} {path}: is a directory, not a file") from None
    except FileNotFoundError:
        raise fail(f"{what} {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"{what} {path}: {getattr(e, 'strerror', None) or e}") from None


# image formats matplotlib's Agg backend writes (analysis.plots); a name without one gets a PNG
PLOT_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")


def writable_plot(path: Path | None) -> None:
    """Refuse a --plot that cannot be drawn (no matplotlib, or a path that cannot be written)
    before the run, not after it: a long run must not end in an error instead of its chart."""
    if path is None:
        return
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:
        raise fail("--plot needs matplotlib: pip install -e '.[plot]'")
    if path.is_dir():
        raise fail(f"--plot {path}: is a directory, not a file")
    if not path.parent.is_dir():
        raise fail(f"--plot {path}: no such directory {path.parent}")
    kind = path.suffix.lower().removeprefix(".")
    if kind and kind not in PLOT_FORMATS:
        raise fail(f"--plot {path}: cannot draw a .{kind} file; name it .png (or one of "
                   f"{', '.join(PLOT_FORMATS[1:])})")  # fmt: skip


def game_options(given: list[str] | None) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as game options: a value that reads as JSON (a number,
    true, a list...) is that value, anything else a string; ``new_game`` then checks them."""
    options: dict[str, Any] = {}
    for pair in given or []:
        key, eq, text = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise refuse("--option", f"{pair!r}: write it as KEY=VALUE, e.g. rounds=5")
        if key in ("players", "strategy"):
            raise refuse("--option", f"{key}: give it as --{key}")
        try:
            options[key] = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
            options[key] = text
    return options


def casino_settings(game: str, table_file: Path | None) -> dict[str, Any]:
    """The table settings a ``--table`` file gives (casino only), or none."""
    if table_file is None:
        return {}
    if game != "snake-eyes-casino":
        raise fail(ValueError("--table holds settings of snake-eyes-casino tables"))
    from gamenight.games.casino_options import table_settings

    text = read_text(table_file, "--table")
    try:
        return table_settings(text)
    except GamenightError as e:
        raise fail(f"--table {table_file}: {e}") from None


MAX_SEED = 2**64 - 1  # the engine's (engine.chance.MAX_SEED), without importing it here
MAX_GAMES = 10**12  # weeks of a kernel's time; 10**30 would only hang (and fill Ray's queue)

# the casino bots' strategies (bots.casino_bot.STRATEGIES, named here so --help imports nothing)
STRATEGY_NAMES = "every_area, benchmark, hardways, numbers, field, one_roll"

TableFile = Annotated[
    Path | None,
    typer.Option("--table", help="casino: a JSON file of table settings", dir_okay=False),
]


@app.command("list")
def list_games() -> None:
    """List the games gamenight knows."""
    from rich.table import Table as Grid

    from gamenight.catalogue import GAMES

    grid = Grid.grid(padding=(0, 2))  # a narrow terminal wraps a line inside its own column
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_column(style="dim")
    for gid, (title, what) in GAMES.items():
        grid.add_row(gid, escape(title), escape(what))
    console.print(grid)
    console.print("\n[dim]play one:[/] gamenight play snake-eyes   [dim]at the table:[/] ? help")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a JSON game record (s saves one at the table)")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object for machines")
    ] = False,
    events: Annotated[int, typer.Option(min=0, help="how many of the last events to show")] = 12,
) -> None:
    """Rebuild a game from its record and say how it went: who won, the standings, the end."""
    from gamenight.replay_summary import summarise

    text = read_text(file, "record")
    try:
        state = gamenight.replay(text)
    except GamenightError as e:
        raise fail(f"{file}: {e}") from None
    summary = summarise(state)
    if as_json:
        print(json.dumps({**summary, "view": state.view()}))
        return
    console.print(
        f"[bold]{escape(summary['title'])}[/] ({escape(summary['game'])}), "
        f"{summary['players']} players, seed {summary['seed']}"
    )
    for line in state.events()[-events:] if events else []:
        console.print(f"  [dim]{escape(line)}[/]")
    standings = Table(title="standings", title_justify="left")
    for col in ("seat", *summary["figure_names"]):
        standings.add_column(col, justify="left" if col == "seat" else "right")
    for row in summary["standings"]:
        mark = " ★" if row["seat"] == summary["winner"] else ""
        figures = ("–" if row[f] is None else str(row[f]) for f in summary["figure_names"])
        standings.add_row(row["name"] + mark, *figures)
    console.print(standings)
    console.print(escape(summary["summary"]))


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game id, see `gamenight list`")],
    games: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="how many games (Ctrl-C stops early)")
    ] = 1000,
    players: Annotated[
        int | None, typer.Option(min=1, help="seats (default: the --table file's, else 2)")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="the same seed gives the same figures")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    table_file: TableFile = None,
    engine: Annotated[
        str, typer.Option(help="kernel (compiled, the default where a game has one) or reference")
    ] = "auto",
    backend: Annotated[str, typer.Option(help="local, or ray to spread batches over a cluster")] = (
        "local"
    ),
    address: Annotated[
        str | None, typer.Option(help="ray: the cluster's address (default: start Ray locally)")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="draw the length histogram and win shares (casino: net chips, bankroll paths) "
            "to this image: PNG unless it is named .svg, .pdf, .jpg ..."
        ),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(help=f"casino: how the bots bet: {STRATEGY_NAMES} (every_area)"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=VALUE",
            help="a game option, as the rules pages name them (repeat it): scoring_faces=1, "
            "rounds=5, starting_chips=20 ...",
        ),
    ] = None,
) -> None:
    """Play many bot games: win shares with 95 % intervals, game length, each game's figures.

    Statistics stream in constant memory; Ctrl-C stops and prints what was played so far."""
    from gamenight.analysis.kernels import available
    from gamenight.analysis.report import print_run
    from gamenight.analysis.runner import check, run

    settings = casino_settings(game, table_file)
    given = game_options(option)
    settings.update(given)  # an --option overrides the table file's setting of the same name
    in_file = settings.pop("players", 2)  # --players, when given, overrides the file's count
    players = in_file if players is None else players
    writable_plot(plot)
    if engine == "auto":
        engine = "kernel" if game in available() else "reference"
    casino = game == "snake-eyes-casino"
    if strategy is not None and not casino:
        raise refuse("--strategy", f"{game} has no betting strategies (snake-eyes-casino has)")
    if address is not None and backend != "ray":
        raise refuse("--address", "the address of a Ray cluster: give --backend ray with it")
    if casino:
        from gamenight.bots.casino_bot import STRATEGIES

        strategy = strategy or "every_area"
        if strategy not in STRATEGIES:
            raise fail(
                ValueError(f"--strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
            )
        settings["strategy"] = strategy
    try:
        table_opts = {k: v for k, v in settings.items() if k != "strategy"}
        check(game, engine, backend, players=players, **table_opts)  # before the bar is drawn
        if backend == "ray":
            from gamenight.analysis.ray_backend import probe_given

            probe_given(address)
        if as_json:
            result = run(game, games, seed, engine, backend, address, players=players, **settings)
        else:
            with Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=err_console,
            ) as bar:
                task = bar.add_task(f"{game}, {players} players ({engine})", total=games, rate="")
                t0 = time.perf_counter()

                def advance(done: int) -> None:
                    rate = done / max(time.perf_counter() - t0, 1e-9)
                    bar.update(task, completed=done, rate=f"{rate:,.0f} games/s")

                result = run(
                    game, games, seed, engine, backend, address, advance, players=players,
                    **settings,
                )  # fmt: skip
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    if result.stopped:  # the figures so far are printed all the same, then the exit says so
        err_console.print(f"[bold red]error:[/] {escape(result.stopped)}", soft_wrap=True)
    out = result.to_json()
    edges = None
    if casino and result.tally.games:
        # The casino's question: does each wager's observed edge match the exact one?
        from gamenight.analysis.casino_sim import edge_table, edges_from_figures

        # pooled from the very sessions just played, on either engine; after a Ctrl-C those are
        # whole sessions too, so their edges are as sound as a shorter run's
        table: Any = gamenight.new_game(game, players=players, **table_opts)
        totals = {k: f.total for k, f in result.tally.figures.items()}
        edges = edges_from_figures(totals, table.options.table_min, table.pays, seats=players)
        out["house_edges"] = [r.to_json() for r in edges]
    if casino:
        from gamenight.analysis.report import net_by_seat

        out["net_chips_by_seat"] = net_by_seat(result)  # the text's table, share ahead included
    # the figures first: a plot that cannot be drawn must not take the run's figures with it
    if as_json:
        print(json.dumps(out))
    else:
        print_run(result, console)
        if given:
            console.print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in given.items()))
        if edges is not None:
            console.print(edge_table(edges, players))
    if plot is not None:
        from gamenight.analysis.plots import plot_run

        try:
            plot_run(result, plot)
        except ImportError:
            raise fail(ValueError("--plot needs matplotlib: pip install -e '.[plot]'")) from None
        except OSError as e:
            raise fail(f"--plot {plot}: {e.strerror or e}") from None
        if not as_json:
            console.print(f"plot written to {plot}")
    if result.stopped:
        raise typer.Exit(code=1)


def realtime(game: str) -> bool:
    from gamenight.engine.game import is_realtime

    return is_realtime(game)


def refuse(option: str, why: str) -> typer.Exit:
    """An option this game cannot use: say so, naming it, rather than ignore it."""
    return fail(f"{option}: {why}")


def refuse_any(given: Mapping[str, object], why: str) -> None:
    """Refuse the first of these options that was given: it would do nothing here."""
    for option, value in given.items():
        if value is not None:
            raise refuse(option, why)


@app.command()
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
    options: dict[str, object] = {**settings, "players": players}
    if live:
        options["live"] = True
    try:
        g = resumed.game if resumed is not None else gamenight.new_game(game, **options)
    except GamenightError as e:
        raise fail(e) from None
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
                              save_path=save_path)  # fmt: skip
        from gamenight.tui.app import GameApp

        return GameApp(g, seats, deal, bot_delay=pace, save_path=save_path, state=state)

    from gamenight.tui.base import NEW_GAME

    seed = secrets.randbelow(1_000_000) if seed is None else seed
    while True:  # n at the end of a game deals another with the same players and options
        again = " ".join(
            [f"gamenight play {game} --players {players} --bots {bots} --seed {seed}"]
            + (["--live"] if live else [])
            + ([f"--table {shlex.quote(str(table_file))}"] if table_file else [])
            + ([f"--strategy {strategy}"] if strategy else [])
            + ([f"--level {level}"] if level else [])
        )  # every option that changes the game, or "again" would deal a different one
        if resumed is not None and resume is not None:  # s saves back to the same file
            n = len(resumed.moves)
            hint = f"{n} move{'' if n == 1 else 's'} read from {resume}: playing on"
            console.print(escape(hint), soft_wrap=True)
            board = table(seed, save or resume, resumed)
            if save is None:
                board.written.add(resume.resolve())  # the table's own file: s replaces it
            result = board.run()
            saved = shlex.quote(str(board.save_path))  # where s last saved (or would save)
            again = f"gamenight play {game} --bots {bots} --resume {saved}"
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
            on = f"gamenight play {game} --bots {bots} --resume {saved}"
            console.print(f"[bold]{escape(on)}[/] plays on from the last save", soft_wrap=True)
        if result != NEW_GAME:
            return
        seed = secrets.randbelow(1_000_000)


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


@app.command("simulate-realtime")
def simulate_realtime_cmd(
    game: Annotated[str, typer.Argument(help="snap or slap-the-elephant")] = "snap",
    levels: Annotated[
        str, typer.Option(help="one bot level per seat, comma separated: easy, normal, expert")
    ] = "easy,normal,expert",
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 200,
    seed: Annotated[int, typer.Option(min=0, help="the same seed gives the same figures")] = 0,
    max_flips: Annotated[
        int | None, typer.Option(min=1, help="flips after which a game stops (game default)")
    ] = None,
) -> None:
    """Bots with human-like reaction times play a calling game in simulated time."""
    from gamenight.realtime import simulate_realtime

    if not realtime(game):
        raise fail(f"simulate-realtime plays snap or slap-the-elephant, not {game!r}")
    try:
        out = simulate_realtime(game, levels.split(","), games, seed, max_flips)
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    print(json.dumps(out))


@app.command("snap-table")
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


@app.command()
def odds(
    game: Annotated[str, typer.Argument(help="snake-eyes, shake, gambler or snake-eyes-casino")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    table_file: Annotated[
        Path | None,
        typer.Option("--table", help="a JSON file of table settings", exists=True, dir_okay=False),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(help=f"casino: risk of ruin for one player betting one of {STRATEGY_NAMES}"),
    ] = None,
    bankroll: Annotated[
        int | None,
        typer.Option(min=1, help="casino: chips bought in (the --table file's bankroll; 1000)"),
    ] = None,
    unit: Annotated[
        int | None,
        typer.Option(min=1, help="casino: chips a wager (the --table file's table_min; 5)"),
    ] = None,
    rolls: Annotated[
        int | None,
        typer.Option(
            min=1, max=10_000, help="casino: rolls at most (the --table file's max_rolls; 100)"
        ),
    ] = None,
) -> None:
    """Exact figures, never sampled: Markov chains, dynamic programmes, exact fractions."""
    report: dict[str, Any]
    if game in ("snake-eyes", "shake", "gambler"):
        if table_file is not None:
            raise fail(ValueError("--table holds settings of snake-eyes-casino tables"))
        given = {"--strategy": strategy, "--bankroll": bankroll, "--unit": unit, "--rolls": rolls}
        refuse_any(given, "a setting of snake-eyes-casino risk of ruin only")
        from gamenight.analysis import odds_print

        try:
            if game == "snake-eyes":
                from gamenight.analysis.snake_eyes_odds import report as se_report

                report = se_report()
            elif game == "gambler":
                from gamenight.analysis.gambler_odds import report as gambler_report

                report = gambler_report()
            else:
                from gamenight.analysis.shake_odds import report as shake_report

                report = shake_report()
        except ImportError:
            need = "exact analysis needs Numba: pip install -e '.[kernels]'"
            raise fail(ValueError(need)) from None
        if as_json:
            print(json.dumps(report))
        elif game == "snake-eyes":
            odds_print.print_snake_eyes(report, console)
        elif game == "gambler":
            odds_print.print_gambler(report, console)
        else:
            odds_print.print_shake(report, console)
        return
    if game != "snake-eyes-casino":
        known = "snake-eyes, shake, gambler and snake-eyes-casino"
        raise fail(ValueError(f"exact odds are worked out for {known}, not {game!r}"))
    from gamenight.analysis.casino_odds import odds_report, print_odds

    if strategy is None:
        given = {"--bankroll": bankroll, "--unit": unit, "--rolls": rolls}
        refuse_any(given, "sets the risk of ruin of a --strategy: name one")
    text = read_text(table_file, "--table") if table_file else None
    try:
        report = odds_report(game, text)
    except (GamenightError, ValueError) as e:
        raise fail(f"--table {table_file}: {e}" if text is not None else e) from None
    if strategy is not None:
        from gamenight.analysis.casino_risk import risk_of_ruin
        from gamenight.bots.casino_bot import STRATEGIES
        from gamenight.games.casino_options import CasinoOptions, table_settings

        if strategy not in STRATEGIES:
            raise refuse("--strategy", f"{strategy!r}: choose one of {', '.join(STRATEGIES)}")
        table = table_settings(text) if text else {}  # valid: odds_report read it
        # the table's own buy-in, minimum and session length unless the options say otherwise
        bankroll = bankroll or table.get("bankroll", 1000)
        unit = unit or table.get("table_min", 5)
        rolls = rolls or table.get("max_rolls", 100)
        if rolls > 10_000:
            raise refuse("--rolls", f"the table's max_rolls {rolls} is over 10000: give --rolls")
        top = table.get("table_max", CasinoOptions.model_fields["table_max"].default)
        if unit > top:
            raise refuse("--unit", f"{unit} chips a wager is over the table maximum of {top}")
        table = {k: v for k, v in table.items() if k in ("payouts", "winners_stay_up", "table_max")}
        try:
            report["risk"] = risk_of_ruin(strategy, bankroll, unit, rolls, **table)
        except (GamenightError, ValueError) as e:
            raise fail(e) from None
        except (KeyboardInterrupt, SystemError) as e:  # Numba wraps a Ctrl-C in a SystemError
            from gamenight.analysis.runner import is_ctrl_c

            if not is_ctrl_c(e):
                raise
            typer.echo("interrupted: an exact figure is all or nothing, so none is printed")
            raise typer.Exit(130) from None
    if as_json:
        print(json.dumps(report))
        return
    print_odds(report, console)
    if "risk" in report:
        r = report["risk"]
        console.print(
            f"one player, {r['strategy']}, bankroll {bankroll} in units of {unit}, at most "
            f"{rolls} rolls: risk of ruin {r['risk_of_ruin']:.4%}, "
            f"expected rolls {r['expected_rolls']:.3f}"
        )


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there, asked before it says it serves there: a second
    ``gamenight serve`` printed the first one's address, then failed in a log line."""
    import socket

    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as e:
        return f"--host {host}: {getattr(e, 'strerror', None) or e}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(where)
        except OSError as e:
            hint = " (is another gamenight serve running?)" if e.errno == errno.EADDRINUSE else ""
            return f"--port {port}: {e.strerror} on {host}{hint}"
    return None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: your network)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL; default: SQLite file gamenight.db here"),
    ] = None,
    redis_url: Annotated[
        str | None, typer.Option(help="Redis URL: share tables between server processes")
    ] = None,
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="another web origin allowed to open WebSockets")
    ] = None,
    idle_minutes: Annotated[float, typer.Option(help="close tables idle this long")] = 360.0,
    rate_limit: Annotated[
        float, typer.Option(help="frames a second one WebSocket may send (bursts of twice that)")
    ] = 20.0,
    http_rate_limit: Annotated[
        float,
        typer.Option(min=0, help="API requests a second per client address (bursts of 5x); 0: off"),
    ] = 50.0,
    ws_per_client: Annotated[
        int, typer.Option(min=0, help="WebSockets one client address may hold open; 0: no cap")
    ] = 100,
    tables_per_client: Annotated[
        int,
        typer.Option(min=0, help="unfinished tables one client address may have made; 0: no cap"),
    ] = 50,
) -> None:
    """Serve every game online: tables, seats and bots over HTTP and WebSockets."""
    if not idle_minutes > 0:
        raise refuse("--idle-minutes", f"must be more than 0 (got {idle_minutes})")
    if not rate_limit > 0:
        raise refuse("--rate-limit", f"must be more than 0 (got {rate_limit})")
    if not http_rate_limit >= 0:  # nan passes Typer's range check
        raise refuse("--http-rate-limit", f"must be 0 (off) or more (got {http_rate_limit})")
    taken = cannot_listen(host, port)
    if taken:
        raise fail(taken)
    from sqlalchemy.exc import ArgumentError

    from gamenight.server.app import Settings
    from gamenight.server.preflight import StartupError
    from gamenight.server.serve import run

    try:
        run(
            Settings(
                database_url=database_url,
                redis_url=redis_url,
                host=host,
                port=port,
                allowed_origins=list(allow_origin or []),
                idle_minutes=idle_minutes,
                rate_per_second=rate_limit,
                rate_burst=2 * rate_limit,
                http_rate_per_second=http_rate_limit,
                http_rate_burst=5 * http_rate_limit,
                ws_per_client=ws_per_client,
                tables_per_client=tables_per_client,
            )
        )
    except ArgumentError as e:  # a URL SQLAlchemy cannot read, or a database it has no driver for
        raise fail(f"--database-url {database_url}: {e}") from None
    except StartupError as e:  # the database or Redis cannot be used: say which and why
        raise fail(e) from None


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="game id (see `gamenight list`)")],
    bots: Annotated[
        str, typer.Option(help="bots, by commas: random, sensible, optimal (shake), mcts, mcts-N")
    ] = "random,sensible,mcts",
    games: Annotated[int, typer.Option(help="deals each seating plays (shared by all)")] = 20,
    players: Annotated[
        int | None, typer.Option(help="seats at each table (default: the game's own, e.g. 4)")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="seed of the shared deals")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    plot: Annotated[Path | None, typer.Option(help="save a chart (PNG) here")] = None,
) -> None:
    """Round-robin bots with rotated seats on shared deals; rate them with OpenSkill."""
    from rich.markup import escape

    from gamenight.analysis import tournament as tour

    writable_plot(plot)
    bar: Any = None

    def advance(done: int, total: int) -> None:
        """A progress bar from the first game on (errors come before it), silent for --json."""
        nonlocal bar
        if as_json:
            return
        if bar is None:
            bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err_console,
                transient=True,
            )
            bar.start()
            bar.add_task(f"{game} tournament", total=total)
        bar.update(bar.task_ids[0], completed=done)

    try:
        result = tour.run_tournament(
            game, [b.strip() for b in bots.split(",")], games, players, seed, advance
        )
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    except ImportError as e:
        if not (e.name or "").startswith("openskill"):
            raise
        raise fail("tournament rates bots with OpenSkill: pip install -e '.[rl]'") from None
    finally:
        if bar is not None:
            bar.stop()
    if result.interrupted:
        played = sum(r.games for r in result.records) // result.players
        err_console.print(f"Interrupted: the ratings are from the {played} games played.")
    if plot is not None:
        try:
            tour.plot(result, str(plot))
        except (ImportError, OSError) as e:
            raise fail(ValueError(f"cannot draw {plot}: {e}")) from None
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    table = Table(title=f"{escape(game)}: {result.players} players, {games} deals per seating")
    for col in ("bot", "games", "win share (95 %)", "mean return", "rating"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in (r.summary() for r in result.records):
        table.add_row(
            escape(row["bot"]),
            str(row["games"]),
            f"{row['win_share']:.1%} ({row['win_share_low']:.1%}–{row['win_share_high']:.1%})",
            f"{row['mean_return']:+.2f} ± {row['mean_return_ci']:.2f}",
            f"{row['rating']:.1f} (μ {row['mu']:.1f}, σ {row['sigma']:.1f})",
        )
    console.print(table)


if __name__ == "__main__":  # after every command: one defined below this line would be missing
    app()
