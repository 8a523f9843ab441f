"""The ``gamenight`` command: play, simulate, replay and list games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

import gamenight
from gamenight.engine import GamenightError

app = typer.Typer(
    help="Play, simulate and analyse classic dice and card games.", no_args_is_help=True
)
console = Console()
err_console = Console(stderr=True)


def fail(e: Exception) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {e}")
    return typer.Exit(code=2)


def casino_settings(game: str, table_file: Path | None) -> dict[str, Any]:
    """The table settings a ``--table`` file gives (casino only), or none."""
    if table_file is None:
        return {}
    if game != "snake-eyes-casino":
        raise fail(ValueError("--table holds settings of snake-eyes-casino tables"))
    from gamenight.games.snake_eyes_casino import table_settings

    try:
        return table_settings(table_file.read_text())
    except (OSError, GamenightError) as e:
        raise fail(e) from None


TableFile = Annotated[
    Path | None,
    typer.Option("--table", help="casino: a JSON file of table settings", dir_okay=False),
]


@app.command("list")
def list_games() -> None:
    """List the games gamenight knows."""
    for gid in gamenight.list_games():
        console.print(f"{gid:20} {gamenight.engine.game_class(gid).title}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a JSON game record", exists=True, dir_okay=False)],
    as_json: Annotated[bool, typer.Option("--json", help="print the final view as JSON")] = False,
) -> None:
    """Rebuild a game from its record and show where it ended."""
    try:
        state = gamenight.replay(file)
    except GamenightError as e:
        raise fail(e) from None
    if as_json:
        print(
            json.dumps(
                {
                    "view": state.view(),
                    "moves": len(state.moves),
                    "terminal": state.is_terminal(),
                    "winner": state.winner(),
                }
            )
        )
        return
    for line in state.events()[-20:]:
        console.print(line)
    console.print(
        f"[bold]{len(state.moves)} moves; "
        f"{'game over' if state.is_terminal() else 'game in progress'}; "
        f"winner: {state.winner() if state.winner() is not None else '-'}"
    )


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game id, see `gamenight list`")],
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 1000,
    players: Annotated[int, typer.Option(min=1)] = 2,
    seed: Annotated[int, typer.Option(help="the same seed gives the same figures")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    table_file: TableFile = None,
) -> None:
    """Play many bot games and print wins by seat, game length and the game's own figures."""
    from gamenight.analysis.simulate import simulate as run

    settings = {k: v for k, v in casino_settings(game, table_file).items() if k != "players"}
    try:
        gamenight.new_game(game, players=players, **settings)
        if as_json:
            sim = run(game, games, players, seed, **settings)
        else:
            with Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err_console,
            ) as bar:
                task = bar.add_task(f"{game}, {players} players", total=games)
                sim = run(
                    game, games, players, seed, on_game=lambda _: bar.advance(task), **settings
                )
    except GamenightError as e:
        raise fail(e) from None
    out = sim.to_json()
    edges = None
    if game == "snake-eyes-casino":
        # The casino's question: does each wager's observed edge match the exact one?
        from gamenight.analysis.casino_sim import edge_table, observed_edges

        edges = observed_edges(games=games, players=players, seed=seed, **settings)
        out["house_edges"] = [r.to_json() for r in edges]
    if as_json:
        print(json.dumps(out))
        return
    wins = Table(title=f"{game}: {games} games, {players} players, seed {seed}")
    wins.add_column("seat")
    wins.add_column("wins", justify="right")
    wins.add_column("share", justify="right")
    for s, w in enumerate(out["wins_by_seat"]):
        wins.add_row(chr(65 + s), str(w), f"{w / games:.1%}")
    console.print(wins)
    figs = Table(title="figures per game")
    for col in ("figure", "mean", "min", "p50", "p99", "max"):
        figs.add_column(col, justify="right" if col != "figure" else "left")
    for k, v in out.items():
        if isinstance(v, dict) and "mean" in v:
            figs.add_row(k, *(f"{v[c]:.2f}" for c in ("mean", "min", "p50", "p99", "max")))
    console.print(figs)
    if edges is not None:
        console.print(edge_table(edges))


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game id, see `gamenight list`")],
    players: Annotated[int, typer.Option(min=1, help="seats at the table")] = 2,
    bots: Annotated[int, typer.Option(min=0, help="how many seats (the last) are bots")] = 1,
    seed: Annotated[int | None, typer.Option(help="the same seed deals the same game")] = None,
    save: Annotated[Path | None, typer.Option(help="where the w key saves the record")] = None,
    delay: Annotated[float, typer.Option(min=0, help="seconds a bot waits before it acts")] = 0.6,
    live: Annotated[
        bool, typer.Option("--live", help="casino: the dealer screen, entering physical dice")
    ] = False,
    table_file: TableFile = None,
    strategy: Annotated[
        str, typer.Option(help="casino: how the bots bet (see gamenight.bots.casino_bot)")
    ] = "benchmark",
) -> None:
    """Play at the terminal: the first seats are humans taking turns, the rest bots."""
    from gamenight.bots.casino_bot import STRATEGIES
    from gamenight.tui.app import GameApp

    if bots > players:
        raise fail(ValueError(f"--bots {bots} is more than --players {players}"))
    if game != "snake-eyes-casino" and live:
        raise fail(ValueError("--live is a setting of snake-eyes-casino tables"))
    if strategy not in STRATEGIES:
        raise fail(ValueError(f"--strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}"))
    settings = casino_settings(game, table_file)
    options: dict[str, object] = {**settings, "players": players}
    if live:
        options["live"] = True
    try:
        g = gamenight.new_game(game, **options)
    except GamenightError as e:
        raise fail(e) from None
    humans = players - bots
    if game in ("snap", "slap-the-elephant"):
        # Real-time calling games have their own clocked table: you are seat A, bots the rest.
        from gamenight.tui.snap import run

        run(game, players, "normal")
    elif game == "snake-eyes-casino":
        from gamenight.tui.casino import CasinoApp

        seated = {s: strategy for s in range(humans, players)}
        CasinoApp(bots=seated, seed=seed or 0, **g.options_dict()).run()
    elif game == "gambler":
        from gamenight.tui.gambler import GamblerApp

        GamblerApp(g.new_state(seed), seat=0, seed=seed or 0).run()
    else:
        seats = ["human"] * humans + ["bot"] * bots
        GameApp(g, seats, seed, bot_delay=delay, save_path=save).run()


@app.command("simulate-realtime")
def simulate_realtime_cmd(
    game: Annotated[str, typer.Argument(help="snap or slap-the-elephant")] = "snap",
    levels: Annotated[
        str, typer.Option(help="one bot level per seat, comma separated: easy, normal, expert")
    ] = "easy,normal,expert",
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 200,
    seed: Annotated[int, typer.Option(help="the same seed gives the same figures")] = 0,
    max_flips: Annotated[int, typer.Option(min=1, help="flips after which a game stops")] = 1000,
) -> None:
    """Bots with human-like reaction times play a calling game in simulated time."""
    from gamenight.realtime import simulate_realtime

    try:
        out = simulate_realtime(game, levels.split(","), games, seed, max_flips)
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    print(json.dumps(out))


@app.command("snap-table")
def snap_table(
    game: Annotated[str, typer.Argument(help="snap or slap-the-elephant")] = "snap",
    players: Annotated[int, typer.Option(min=2, max=8)] = 3,
    level: Annotated[str, typer.Option(help="bot level: easy, normal, expert")] = "normal",
) -> None:
    """Play a calling game in real time against bots in the terminal (you are seat A)."""
    from gamenight.realtime.reaction import level as check_level
    from gamenight.tui.snap import run

    if game not in ("snap", "slap-the-elephant"):
        raise fail(ValueError(f"snap-table plays snap or slap-the-elephant, not {game!r}"))
    try:
        check_level(level)
        gamenight.new_game(game, players=players)
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    run(game, players, level)


@app.command()
def odds(
    game: Annotated[str, typer.Argument(help="game id; exact odds exist for snake-eyes-casino")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    table_file: Annotated[
        Path | None,
        typer.Option("--table", help="a JSON file of table settings", exists=True, dir_okay=False),
    ] = None,
) -> None:
    """Exact odds (fractions, never sampled) of every wager under every payout option."""
    from gamenight.analysis.casino_odds import odds_report, print_odds

    try:
        report = odds_report(game, table_file.read_text() if table_file else None)
    except (GamenightError, ValueError) as e:
        raise fail(e) from None
    if as_json:
        print(json.dumps(report))
    else:
        print_odds(report, console)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: your network)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
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
) -> None:
    """Serve every game online: tables, seats and bots over HTTP and WebSockets."""
    from gamenight.server.app import Settings
    from gamenight.server.serve import run

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
        )
    )


if __name__ == "__main__":
    app()
