"""The analysis commands: ``simulate``, ``simulate-realtime``, ``odds`` and ``tournament``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

import gamenight
from gamenight.engine import GamenightError

from .common import (
    MAX_GAMES,
    STRATEGY_NAMES,
    BarColumn,
    MofNCompleteColumn,
    Progress,
    Table,
    TableFile,
    TextColumn,
    TimeRemainingColumn,
    casino_settings,
    console,
    err_console,
    fail,
    game_options,
    read_text,
    realtime,
    refuse,
    refuse_any,
    writable_plot,
)
from .sessions import BetFlag, Goal, StopLoss, StrategyFile

# gamenight.bots.factory.HELP, written out: importing the bots loads NumPy, too slow for --help
# (tests/test_ratings.py checks that the two agree)
BOT_HELP = (
    "random; sensible (each game's rule-of-thumb bot); optimal (exact, 2-player shake only); "
    "mcts (Monte Carlo search, at most 1 s a move); mcts-N (N playouts a move); "
    "mcts-Ts (T seconds a move, at most 60, e.g. mcts-1s or mcts-0.2s)"
)


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
        str | None,
        typer.Option(
            help="ray: the cluster's address (default: start Ray locally); a cluster with token "
            "authentication needs RAY_AUTH_MODE=token and its token (RAY_AUTH_TOKEN, "
            "RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token)"
        ),
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
    bet: BetFlag = None,
    strategy_file: StrategyFile = None,
    goal: Goal = None,
    stop_loss: StopLoss = None,
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
    if bet or strategy_file is not None or goal is not None or stop_loss is not None:
        if not casino:
            raise refuse("--bet", f"{game} has no wagers (snake-eyes-casino has)")
        one = "one player's sessions play in the local kernel"
        refuse_any({"--strategy": strategy, "--plot": plot, "--address": address}, one)
        if backend != "local" or engine not in ("auto", "kernel"):
            raise refuse("--backend" if backend != "local" else "--engine", one)
        return _sessions(settings, bet, strategy_file, goal, stop_loss, games, seed, as_json)
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
        raise fail(_typed(e, given, table_file)) from None
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


def _echo(value: Any, most: int = 40) -> str:
    """A typed value said back, cut short: a hostile 100,000-character value is not repeated."""
    text = json.dumps(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def _typed(e: Exception, given: dict[str, Any], table_file: Path | None) -> str:
    """A refused option named as the user typed it: ``--option KEY=VALUE`` or the table file
    (an option checked against another, such as table_min above table_max, names both)."""
    from gamenight.engine.errors import BadOption

    if not isinstance(e, BadOption):
        return str(e)
    named = getattr(e, "options", (e.option,))  # ClashingOptions names every key it involves
    typed = [k for k in given if k in named] or (list(given) if e.option == "options" else [])
    if typed:
        flags = ", ".join(f"--option {k}={_echo(given[k])}" for k in typed)
        return f"{flags}: {e.problem}"
    return f"--table {table_file}: {e}" if table_file is not None else str(e)


def _sessions(settings: dict[str, Any], bet: list[str] | None, file: Path | None,
              goal: int | None, stop_loss: int | None, games: int, seed: int,
              as_json: bool) -> None:  # fmt: skip
    """One player's strategy played ``games`` sessions in the kernel: the Monte Carlo twin of
    ``odds --bet``, with the same figures and 95 % intervals."""
    from . import sessions

    given = {"goal": goal, "stop_loss": stop_loss}
    s = sessions.build(None, bet, file, given, None, settings)
    rules = {k: v for k, v in settings.items() if k in ("payouts", "table_max")}
    rules["table_min"] = settings.get("table_min", 1)
    how = (None, bet, file, given, None)
    risk = sessions.run(s, rules, "monte-carlo", games, seed, how)
    print(json.dumps(risk)) if as_json else sessions.show(risk)


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
            min=1, max=10**7, help="casino: rolls at most (the --table file's max_rolls; 100)"
        ),
    ] = None,
    bet: BetFlag = None,
    strategy_file: StrategyFile = None,
    goal: Goal = None,
    stop_loss: StopLoss = None,
    method: Annotated[
        str,
        typer.Option(help="casino risk: exact, monte-carlo, or auto (exact where it fits)"),
    ] = "auto",
    sessions_n: Annotated[
        int, typer.Option("--sessions", min=100, max=10**9, help="casino risk: sessions played")
    ] = 200_000,
    seed: Annotated[int, typer.Option(min=0, help="casino risk: the Monte Carlo's seed")] = 0,
) -> None:
    """Exact figures, never sampled: Markov chains, dynamic programmes, exact fractions."""
    report: dict[str, Any]
    if game in ("snake-eyes", "shake", "gambler"):
        if table_file is not None:
            raise fail(ValueError("--table holds settings of snake-eyes-casino tables"))
        given = {"--strategy": strategy, "--bankroll": bankroll, "--unit": unit, "--rolls": rolls,
                 "--bet": bet or None, "--strategy-file": strategy_file, "--goal": goal,
                 "--stop-loss": stop_loss}  # fmt: skip
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

    stops: dict[str, int | None] = {
        "bankroll": bankroll,
        "goal": goal,
        "stop_loss": stop_loss,
        "rolls": rolls,
    }
    if method not in ("auto", "exact", "monte-carlo"):
        raise refuse("--method", f"{method!r}: choose auto, exact or monte-carlo")
    if strategy is None and not bet and strategy_file is None:
        flags = {"--bankroll": bankroll, "--unit": unit, "--rolls": rolls, "--goal": goal,
                 "--stop-loss": stop_loss}  # fmt: skip
        refuse_any(flags, "sets a session's risk: name a --strategy, --bet or --strategy-file")
    text = read_text(table_file, "--table") if table_file else None
    try:
        report = odds_report(game, text)
    except (GamenightError, ValueError) as e:
        raise fail(f"--table {table_file}: {e}" if text is not None else e) from None
    if strategy is not None or bet or strategy_file is not None:
        from gamenight.games.casino_options import table_settings

        from . import sessions

        table = table_settings(text) if text else {}  # valid: odds_report read it
        if unit is not None and strategy is None:
            raise refuse("--unit", "the stake of each --strategy wager; --bet names its own")
        top = table.get("table_max", 500)
        if unit is not None and unit > top:
            raise refuse("--unit", f"{unit} chips a wager is over the table maximum of {top}")
        how = (strategy, bet, strategy_file, stops, unit)
        s = sessions.build(strategy, bet, strategy_file, stops, unit, table)
        rules = {k: v for k, v in table.items() if k in ("payouts", "table_max")}
        # --unit sets the minimum, as it always has; with no table file a stake of 1 chip is fine
        rules["table_min"] = unit or table.get("table_min", 1)
        try:
            # a long chain runs for a minute or more: say what it is doing and how to stop it
            typer.echo(f"working out the risk of ruin of {s.describe()} (Ctrl-C stops)",
                       err=True)  # fmt: skip
            report["risk"] = sessions.run(s, rules, method, sessions_n, seed, how)
        except (KeyboardInterrupt, SystemError) as e:  # Numba wraps a Ctrl-C in a SystemError
            from gamenight.analysis.runner import is_ctrl_c

            if not is_ctrl_c(e):
                raise
            typer.echo("interrupted: a figure half worked out is no figure, so none is printed")
            raise typer.Exit(130) from None
    if as_json:
        print(json.dumps(report))
    elif "risk" in report:  # the one answer asked for, not the 27-row table before it
        sessions.show(report["risk"])
    else:
        print_odds(report, console)


def tournament(
    game: Annotated[str, typer.Argument(help="game id (see `gamenight list`)")],
    bots: Annotated[
        str, typer.Option(help=f"bots, by commas: {BOT_HELP}")
    ] = "random,sensible,mcts",
    games: Annotated[int, typer.Option(help="deals each seating plays (shared by all)")] = 20,
    players: Annotated[
        int | None, typer.Option(help="seats at each table (default: the game's own, e.g. 4)")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="seed of the shared deals")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    plot: Annotated[Path | None, typer.Option(help="save a chart (PNG) here")] = None,
) -> None:
    """Round-robin bots with rotated seats on shared deals; rate them by every game played."""
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
    for col in ("bot", "games", "win share (95 %)", "mean return", "rating (Elo, 95 %)"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in (r.summary() for r in result.records):
        table.add_row(
            escape(row["bot"]),
            str(row["games"]),
            f"{row['win_share']:.1%} ({row['win_share_low']:.1%}–{row['win_share_high']:.1%})",
            f"{row['mean_return']:+.2f} ± {row['mean_return_ci']:.2f}",
            f"{row['rating']:.0f} ({row['rating_low']:.0f}–{row['rating_high']:.0f})",
        )
    console.print(table)
    console.print(pairwise_table(result.pairwise()))


def pairwise_table(pairs: dict[str, dict[str, dict[str, float]]]) -> Table:
    """How often each row bot beat each column bot, seat against seat, with 95 % intervals."""
    table = Table(title="head to head: the row bot's share against the column bot (95 %)")
    table.add_column("bot")
    for col in pairs:
        table.add_column(escape(col), justify="right")
    for row, cells in pairs.items():
        shown = [
            f"{c['share']:.1%} ({c['low']:.1%}–{c['high']:.1%})" if col in cells else "·"
            for col in pairs
            for c in [cells.get(col, {})]
        ]
        table.add_row(escape(row), *shown)
    return table
