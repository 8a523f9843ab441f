"""simulate on kernels: repeatable whatever the threads or batches, Ctrl-C, Ray, plots, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

from gamenight.analysis import ray_backend  # noqa: E402
from gamenight.analysis import runner as sim  # noqa: E402
from gamenight.cli import app  # noqa: E402

cli = CliRunner()


def test_figures_depend_on_seed_and_games_only_not_threads_or_batches() -> None:
    import numba

    opts = {"players": 3, "starting_chips": 50, "ante": 2, "first_player": None}
    games = 3 * sim.CHUNK + 17
    one = sim.kernel_batch("snake-eyes", opts, 9, games, 0, 4)
    split = sim.kernel_batch("snake-eyes", opts, 9, games, 0, 1)
    for first in (1, 2, 3):
        split.merge(sim.kernel_batch("snake-eyes", opts, 9, games, first, 1))
    assert one == split and one.games == games
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = sim.run("snake-eyes", games, seed=9, players=3)
    finally:
        numba.set_num_threads(threads)
    assert single.tally == sim.run("snake-eyes", games, seed=9, players=3).tally == one
    assert sim.run("snake-eyes", games, seed=10, players=3).tally != one


def test_ctrl_c_keeps_the_games_played_so_far() -> None:
    seen: list[int] = []

    def interrupt(done: int) -> None:
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    result = sim.run("shake", 10**9, seed=1, progress=interrupt, players=2)
    assert result.interrupted and result.tally.games == seen[-1] > 0
    assert sum(result.tally.wins) + result.tally.no_winner == result.tally.games


def test_reference_and_kernel_agree_in_distribution() -> None:
    ref = sim.run("snake-eyes", 300, seed=2, engine="reference", players=2).tally
    fast = sim.run("snake-eyes", 100_000, seed=2, players=2).tally
    lo, hi = ref.figures["throws"].ci()
    assert lo - 3 <= fast.figures["throws"].mean <= hi + 3


def test_cli_simulate_json_names_engine_and_intervals(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["simulate", "shake", "--games", "5000", "--players", "3", "--json"]
    out = json.loads(cli.invoke(app, args).stdout)
    assert out["engine"] == "kernel" and out["games"] == 5000 and not out["interrupted"]
    assert sum(out["wins_by_seat"]) + out["no_single_winner"] == 5000
    for share in out["win_share"]:
        assert share["ci95"][0] < share["share"] < share["ci95"][1]
    lo, hi = out["top_score"]["ci95"]
    assert lo < out["top_score"]["mean"] < hi
    ref = cli.invoke(app, [*args[:3], "20", *args[4:], "--engine", "reference"])
    assert json.loads(ref.stdout)["engine"] == "reference"
    bad = cli.invoke(app, ["simulate", "shake", "--engine", "warp"])
    assert bad.exit_code == 2 and "kernel or reference" in bad.output
    from gamenight.analysis import kernels

    monkeypatch.delitem(kernels.MODULES, "gambler")  # as if it had no kernel
    none = cli.invoke(app, ["simulate", "gambler", "--engine", "kernel"])
    assert none.exit_code == 2 and "--engine reference" in none.output


def test_cli_simulate_a_calling_game_plays_it_in_simulated_real_time() -> None:
    result = cli.invoke(app, ["simulate", "snap", "--games", "4", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "wins" in result.stdout and "flips" in result.stdout
    assert "simulated real time" in result.stdout


def test_cli_simulate_casino_reports_net_chips_not_wins() -> None:
    args = ["simulate", "snake-eyes-casino", "--games", "3", "--strategy", "field"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "strategy field: net" in result.stdout and "mean net" in result.stdout
    assert "wins" not in result.stdout
    out = json.loads(cli.invoke(app, [*args, "--json"]).stdout)
    assert out["strategy"] == "field" and "net_A" in out and "house_edges" in out
    bad = cli.invoke(app, ["simulate", "snake-eyes-casino", "--strategy", "martingale"])
    assert bad.exit_code == 2 and "choose one of" in bad.output


def test_cli_plot_draws_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need the 'plot' extra")
    path = tmp_path / "run.png"
    result = cli.invoke(app, ["simulate", "snake-eyes", "--games", "20000", "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_ray_backend_merges_to_exactly_the_local_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    games = 5 * sim.CHUNK + 3  # 6 tasks of one chunk, at most 2 in flight on 2 CPUs
    monkeypatch.setattr(ray_backend, "IN_FLIGHT_PER_CPU", 1)
    in_flight: list[int] = []
    real_wait = ray.wait

    def wait(pending: list[Any], **kw: Any) -> Any:
        in_flight.append(len(pending))
        return real_wait(pending, **kw)

    monkeypatch.setattr(ray, "wait", wait)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        far = sim.run("shake", games, seed=4, backend="ray", players=2)
    finally:
        ray.shutdown()
    near = sim.run("shake", games, seed=4, players=2)
    assert far.backend == "ray" and far.tally == near.tally
    assert len(in_flight) == 6 and max(in_flight) == 2  # submitted as others finish


def test_casino_plot_adds_bankroll_paths_that_start_at_the_buy_in(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need the 'plot' extra")
    from gamenight.analysis.kernels.casino import bankroll_paths

    opts = {**sim.run("snake-eyes-casino", 1, players=1, bankroll=50).options}
    opts["strategy"] = "hardways"
    paths = bankroll_paths(opts, 300, seed=1)
    assert paths.shape == (300, opts["max_rolls"] + 1) and (paths[:, 0] == 50).all()
    assert (paths[:, -1] != 50).any() and (paths >= 0).all()
    path = tmp_path / "casino.png"
    args = ["simulate", "snake-eyes-casino", "--games", "500", "--strategy", "numbers"]
    result = cli.invoke(app, [*args, "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.stat().st_size > 20_000


def test_casino_plot_draws_the_bankroll_paths_of_the_runs_own_seed(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need the 'plot' extra")
    import dataclasses

    from gamenight.analysis.plots import plot_run

    run = sim.run("snake-eyes-casino", 200, seed=1, players=1, strategy="field")
    drawn = []
    for seed in (1, 1, 2):  # the same tally: only the paths can differ
        path = tmp_path / f"casino-{len(drawn)}.png"
        plot_run(dataclasses.replace(run, seed=seed), path)
        drawn.append(path.read_bytes())
    assert drawn[0] == drawn[1] and drawn[0] != drawn[2]


def test_json_names_the_seed_and_options_that_run_it_again() -> None:
    args = ["simulate", "gambler", "--games", "3000", "--seed", "9", "--players", "3", "--json"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)
    assert first["seed"] == 9 and first["options"]["players"] == 3
    again = sim.run("gambler", 3000, seed=first["seed"], **first["options"])
    assert again.to_json() == first


@pytest.mark.parametrize("name", ["easy", "normal", "expert"])
def test_kernel_reaction_times_have_the_engines_law(name: str) -> None:
    """The kernel draws reactions from its own stream (Box-Muller, -log(1 - u)); the games on
    tapes check everything else, this checks that law against ``reaction_ms`` (two-sample
    Kolmogorov-Smirnov distance under its 0.1 % critical value)."""
    import random

    import numpy as np

    from gamenight.analysis.kernels import race
    from gamenight.realtime.reaction import FLOOR_MS, LEVELS, reaction_ms

    lv = LEVELS[name]
    table = np.array([[lv.mu, lv.sigma, lv.tau, lv.false_rate]])
    n = 20_000
    ours = np.sort(race.reaction_times(np.uint64(7), n, table, FLOOR_MS))
    rng = random.Random(7)
    theirs = np.sort([reaction_ms(lv, rng) for _ in range(n)])
    grid = np.concatenate([ours, theirs])
    gap = np.abs(np.searchsorted(ours, grid, "right") - np.searchsorted(theirs, grid, "right"))
    assert gap.max() / n < 1.95 * (2 / n) ** 0.5
    assert ours.min() >= FLOOR_MS


@pytest.mark.parametrize("game", ["snap", "slap-the-elephant"])
def test_calling_game_kernels_report_like_the_reference(game: str) -> None:
    """The same figures as the reference engine, a flip-capped game counted apart (not as a
    win), and the same figures whatever the threads."""
    import numba

    ref = sim.run(game, 3, seed=1, engine="reference", players=3, max_flips=40).tally
    fast = sim.run(game, 2000, seed=1, players=3, max_flips=40).tally
    assert set(fast.figures) == set(ref.figures)
    assert fast.truncated == fast.figures["stopped"].total > 0
    assert fast.truncated + fast.no_winner + sum(fast.wins) == fast.games
    assert fast.figures["flips"].quantile(1.0) <= 40
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = sim.run(game, 2 * sim.CHUNK + 5, seed=4, players=4).tally
    finally:
        numba.set_num_threads(threads)
    assert single == sim.run(game, 2 * sim.CHUNK + 5, seed=4, players=4).tally
    assert single.truncated == 0 and sum(single.wins) == single.games


def test_slap_kernel_and_reference_agree_in_distribution() -> None:
    """Whole games from each side's own randomness: the means of 50 reference games
    hold the kernel's means of 40,000 (the tapes check the rules; this, the streams)."""
    ref = sim.run("slap-the-elephant", 50, seed=3, engine="reference", players=2).tally
    fast = sim.run("slap-the-elephant", 40_000, seed=3, players=2).tally
    for name in ("flips", "calls", "false_calls"):
        lo, hi = ref.figures[name].ci(z=3.3)
        assert lo <= fast.figures[name].mean <= hi, name


@pytest.mark.parametrize("n", [36, 2**31 + 1])  # 2**31 + 1: about half the halves are redrawn
def test_bulk_fill_draws_exactly_what_one_pair_at_a_time_draws(n: int) -> None:
    import numpy as np
    from numba import njit

    from gamenight.bots.playouts.rng import fill_pairs, pair

    @njit
    def one_at_a_time(s: np.uint64, count: int, n: np.uint64, reject: np.uint64) -> tuple:
        out = np.empty(count, dtype=np.int64)
        for i in range(0, count, 2):
            s, out[i], out[i + 1] = pair(s, n, reject)
        return s, out

    reject = np.uint64(2**32 % n)
    state = np.array([12345], dtype=np.uint64)
    buf = np.empty(512, dtype=np.int64)
    s = np.uint64(12345)
    for _ in range(3):  # consecutive fills carry on the one stream
        fill_pairs(state, buf, np.uint64(n), reject)
        s, want = one_at_a_time(np.uint64(s), buf.size, np.uint64(n), reject)  # uint64 again
        assert buf.tolist() == want.tolist() and state[0] == s
    assert buf.min() >= 0 and buf.max() < n


def test_snake_eyes_stream_throws_are_uniform_over_the_36_outcomes() -> None:
    import numpy as np

    from gamenight.analysis.kernels.snake_eyes import REJECT36, THROWS
    from gamenight.bots.playouts.rng import fill_pairs

    state = np.array([7], dtype=np.uint64)
    buf = np.empty(36_000, dtype=np.uint8)
    fill_pairs(state, buf, THROWS, REJECT36)
    counts = np.bincount(buf, minlength=36)
    chi2 = float(((counts - 1000) ** 2 / 1000).sum())
    assert counts.size == 36 and chi2 < 66.6  # 35 degrees of freedom: p = 0.001


def test_local_batches_give_every_thread_the_same_number_of_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numba

    counts: list[int] = []
    real = sim.kernel_batch

    def spy(game_id: str, options: dict, seed: int, games: int, first: int, count: int) -> Any:
        counts.append(count)
        return real(game_id, options, seed, games, first, count)

    monkeypatch.setattr(sim, "kernel_batch", spy)
    # the batches are cut for the thread count numba reports; pretend two, since a run pinned
    # to one core (taskset) lets numba start only one thread and set_num_threads(2) refuses
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    sim.run("shake", 41 * sim.CHUNK - 5, seed=3, players=2)
    assert sum(counts) == 41 and all(c % 2 == 0 for c in counts[:-1])


def test_a_real_ctrl_c_inside_a_kernel_keeps_the_games_played_so_far() -> None:
    """A SIGINT that lands while Numba runs a batch surfaces as a SystemError caused by the
    KeyboardInterrupt: it must stop the run like any Ctrl-C, not end it with a traceback."""
    import os
    import signal
    import threading
    import time

    seen: list[int] = []
    sent, delivered = [0], [0]

    def on_sigint(signum: int, frame: Any) -> None:  # Python's own handler, counted
        delivered[0] += 1
        signal.default_int_handler(signum, frame)

    def interrupt_soon(done: int) -> None:
        seen.append(done)
        # one signal at a time, landing while the next batch runs; another only when the last
        # was delivered yet the run went on: CPython drops a KeyboardInterrupt raised inside a
        # gc callback (Hypothesis installs one) as "Exception ignored", and a person presses again
        if sent[0] == delivered[0]:
            sent[0] += 1
            threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        elif time.monotonic() > give_up:  # a generous deadline: a busy machine is slow
            raise RuntimeError("the interrupt never arrived")

    give_up = time.monotonic() + 120
    old = signal.signal(signal.SIGINT, on_sigint)
    try:
        result = sim.run("shake", 10**9, seed=1, progress=interrupt_soon, players=2)
    finally:
        signal.signal(signal.SIGINT, old)
    assert result.interrupted and result.tally.games >= seen[0] > 0
    assert sum(result.tally.wins) + result.tally.no_winner == result.tally.games


def test_the_length_histogram_shows_each_games_own_length() -> None:
    """Rolls for the casino, flips for Snap, turns for Gambler: every game has 'moves' (bots'
    actions, wagers included), so it comes last."""
    from gamenight.analysis.plots import grouped, length_of

    want = {"snake-eyes": "throws", "snake-eyes-casino": "rolls", "snap": "flips",
            "gambler": "turns", "shake": "shakes"}  # fmt: skip
    for game, length in want.items():
        assert length_of(sim.run(game, 2, seed=1, players=2).tally) == length, game
    assert grouped({3: 1, 4: 2, 9: 5}) == ([3, 4, 9], [1, 2, 5], 1)
    xs, ns, width = grouped({v: 1 for v in range(100, 1300)})
    assert width == 20 and len(xs) == 60 and sum(ns) == 1200 and xs[0] == 100


@pytest.mark.parametrize("strategy", ["hardways", "every_area"])
def test_both_engines_name_the_same_casino_figures(strategy: str) -> None:
    """A researcher compares the two engines' JSON key by key: wagers a strategy never places
    and the live table's voids are zeros on the kernel too, not missing."""
    runs = [
        sim.run("snake-eyes-casino", 40, engine=e, players=2, strategy=strategy)
        for e in ("kernel", "reference")
    ]
    kernel, reference = (set(r.tally.figures) for r in runs)
    assert kernel == reference
    assert runs[0].tally.figures["voids"].total == 0


def test_cli_simulate_casino_keeps_the_edge_table_after_ctrl_c(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A casino run stopped by Ctrl-C printed the net chips but dropped the observed-vs-exact
    house edges, the figures the games team runs it for; the sessions played are whole."""
    import dataclasses

    real = sim.run

    def stopped(*args: Any, **kwargs: Any) -> sim.Run:
        return dataclasses.replace(real(*args, **kwargs), interrupted=True)

    monkeypatch.setattr(sim, "run", stopped)
    args = ["simulate", "snake-eyes-casino", "--games", "50", "--strategy", "numbers"]
    text = cli.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "interrupted" in text.stdout and "observed vs exact house edge" in text.stdout
    out = json.loads(cli.invoke(app, [*args, "--json"]).stdout)
    assert out["interrupted"]
    assert [r["wager"] for r in out["house_edges"]] == ["num5", "num6", "num8"]


def test_cli_simulate_casino_json_carries_the_net_chips_table() -> None:
    """The text's net-chips table (p1, share of sessions ahead) had no place in --json: a
    script reading the JSON could not get the share of players who leave ahead."""
    import re

    args = ["simulate", "snake-eyes-casino", "--games", "200", "--strategy", "numbers"]
    out = json.loads(cli.invoke(app, [*args, "--json"]).stdout)
    rows = out["net_chips_by_seat"]
    assert [r["seat"] for r in rows] == ["A", "B"]
    assert rows[0]["mean"] == out["net_A"]["mean"] and rows[0]["ci95"] == out["net_A"]["ci95"]
    text = cli.invoke(app, args).stdout
    line = next(ln for ln in text.splitlines() if ln.startswith("│ A "))
    cells = [c.strip() for c in line.strip("│").split("│")]
    assert cells[3:6] == [str(rows[0][k]) for k in ("p1", "p50", "p99")]
    assert cells[6] == f"{rows[0]['ahead_share']:.1%}" and re.fullmatch(r"[\d.]+%", cells[6])


def test_cli_plot_refuses_an_unknown_image_kind_before_the_run(tmp_path: Path) -> None:
    """--plot run.txt played every game, then matplotlib raised a traceback and the figures
    of the whole run were lost; --plot run (no suffix) said 'plot written to run' but wrote
    run.png."""
    pytest.importorskip("matplotlib", reason="plots need the 'plot' extra")
    bad = cli.invoke(
        app, ["simulate", "snake-eyes", "--games", "50", "--plot", str(tmp_path / "r.txt")]
    )
    assert bad.exit_code == 2 and "cannot draw a .txt file; name it .png" in bad.stderr
    assert "Traceback" not in bad.output and not list(tmp_path.iterdir())
    bare = tmp_path / "run"
    ok = cli.invoke(app, ["simulate", "snake-eyes", "--games", "50", "--plot", str(bare)])
    assert ok.exit_code == 0 and f"plot written to {bare}" in " ".join(ok.stdout.split())
    assert bare.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "run.svg"  # the help says a name picks the image kind: it does
    assert (
        cli.invoke(app, ["simulate", "snake-eyes", "--games", "50", "--plot", str(svg)]).exit_code
        == 0
    )
    assert svg.read_text().lstrip().startswith("<?xml")
    text = " ".join(cli.invoke(app, ["simulate", "--help"], terminal_width=200).stdout.split())
    assert "PNG unless it is named .svg, .pdf, .jpg" in text


def test_cli_simulate_prints_the_figures_before_a_plot_that_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plot that cannot be written (disk full, a file system gone read-only) ended the
    command before the figures were printed: a long run was lost to a picture."""
    pytest.importorskip("matplotlib", reason="plots need the 'plot' extra")
    from gamenight.analysis import plots

    def full(run: Any, path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "plot_run", full)
    args = ["simulate", "snake-eyes", "--games", "50", "--plot", str(tmp_path / "run.png")]
    text = cli.invoke(app, args)
    assert text.exit_code == 2 and "No space left on device" in text.stderr
    assert "figures per game" in text.stdout and "throws" in text.stdout
    out = json.loads(cli.invoke(app, [*args, "--json"]).stdout)
    assert out["games"] == 50


def test_cli_simulate_takes_game_options_and_the_figures_follow_them() -> None:
    """simulate had no way to set a game's options (Shake's scoring_faces, rounds...): a
    researcher could read `odds shake` for one scoring face but not simulate it."""
    from fractions import Fraction

    from gamenight.analysis.stats import wilson
    from gamenight.games.shake import crap_out_chance

    args = ["simulate", "shake", "--games", "3000", "--option", "scoring_faces=1"]
    out = json.loads(cli.invoke(app, [*args, "--option", "rounds=3", "--json"]).stdout)
    assert out["options"]["scoring_faces"] == 1 and out["options"]["rounds"] == 3
    lo, hi = wilson(out["crap_outs"]["mean"] * 3000, out["shakes"]["mean"] * 3000)
    assert crap_out_chance(1) == Fraction(15625, 46656) and lo <= 15625 / 46656 <= hi
    text = cli.invoke(app, [*args, "--games", "20"])
    assert "options: scoring_faces=1" in text.stdout
    for bad, says in (
        ("scoring_faces=0", "--option scoring_faces=0: Input should be greater than or equal to 1"),
        ("bogus=1", "--option bogus=1: unknown option (known: players, rounds"),
        ("rounds", "--option: 'rounds': write it as KEY=VALUE"),
        ("players=3", "--option: players: give it as --players"),
        ("rounds=" + "[" * 100_000, "Input should be a valid integer"),
    ):
        r = cli.invoke(app, ["simulate", "shake", "--games", "5", "--option", bad])
        assert r.exit_code == 2 and says in r.stderr, (bad, r.stderr[:300])
        assert len(r.stderr) < 400, "a hostile value is not said back whole"


def test_cli_simulate_casino_figures_say_what_bank_and_net_are() -> None:
    """The casino's figures sat under 'figures per game' with a bare 'bank' row: a session,
    and the house's net chips (the seats' nets with the sign turned), not its purse."""
    args = ["simulate", "snake-eyes-casino", "--games", "30", "--strategy", "field"]
    text = " ".join(cli.invoke(app, args, terminal_width=200).stdout.split())
    assert "figures per session: bank is the house's net chips, net_A... each seat's" in text
    out = json.loads(cli.invoke(app, [*args, "--json"]).stdout)
    assert out["bank"]["mean"] == pytest.approx(-out["net_A"]["mean"] - out["net_B"]["mean"])


def test_compiling_the_kernel_is_not_counted_as_playing_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first run after an install compiles the kernel (two minutes for Gambler) inside
    the timed run: 'gambler: 113 s, 3 games/s' for a kernel that plays 70 a second. One game
    is now played first, thrown away; its time is reported apart."""
    import time

    real = sim.warm_up

    def compiling(*args: Any) -> None:
        time.sleep(1.2)  # what compiling does to the first call of a kernel
        real(*args)

    monkeypatch.setattr(sim, "warm_up", compiling)
    result = sim.run("snake-eyes", 40, seed=1, players=2)
    assert result.warm_up >= 1.2 and result.tally.games == 40
    assert result.tally == sim.run("snake-eyes", 40, seed=1, players=2).tally  # figures unchanged
    from rich.console import Console

    from gamenight.analysis.report import print_run

    console = Console(width=200, record=True)
    print_run(result, console)
    assert "s before that compiling the kernel" in console.export_text()
