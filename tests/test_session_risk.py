"""A player's strategy at the casino table: the exact chain against independent chains and
closed forms, the kernel against the chain (same dice, and in its intervals), the progressions,
hostile strategies, and the command line (risk first, refusals naming the flag)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("numba")

from gamenight.analysis import session_chain as chain  # noqa: E402
from gamenight.analysis.kernels import sessions as kernel  # noqa: E402
from gamenight.analysis.session_risk import answer, monte_carlo  # noqa: E402
from gamenight.analysis.stats import wilson  # noqa: E402
from gamenight.analysis.strategy import Bet, StrategyError, next_stake, strategy  # noqa: E402
from gamenight.cli import app  # noqa: E402

runner = CliRunner()
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}
FIELD = {2: 3, 12: 2, 3: 1, 4: 1, 9: 1, 10: 1, 11: 1}  # option-1, the default


def field_ruin(bankroll: int, rolls: int) -> float:
    """An independent chain: the purse after each roll of one chip on the Field, 0 absorbing."""
    top = bankroll + 3 * rolls + 1
    d = np.zeros(top)
    d[bankroll] = 1.0
    for _ in range(rolls):
        n = np.zeros(top)
        n[0] = d[0]
        for total, ways in WAYS.items():
            shift = FIELD.get(total, -1)
            src = d[1 : top - 3]
            n[1 + shift : top - 3 + shift] += src * ways / 36
        d = n
    return float(d[0])


def test_field_ruin_matches_an_independent_chain_to_1e_9_counting_the_last_roll() -> None:
    """The issue's figures: 11.5638 % over 100 rolls from 20 chips; 80.3815, 40.0974 and
    3.6057 % over 1,000 rolls from 20, 50 and 100 (going broke on the last roll is ruin)."""
    for bankroll, rolls, said in ((20, 100, "11.5638"), (20, 1000, "80.3815"),
                                  (50, 1000, "40.0974"), (100, 1000, "3.6057")):  # fmt: skip
        s = strategy(bankroll=bankroll, bets=[{"wager": "field", "amount": 1}], rolls=rolls)
        got = answer(s, {"table_min": 1})
        assert got["method"] == "exact"
        assert abs(got["risk_of_ruin"] - field_ruin(bankroll, rolls)) < 1e-9
        assert f"{100 * got['risk_of_ruin']:.4f}" == said
        law = got["final_chips"]["distribution"]
        assert sum(p for _, p in law) == pytest.approx(1.0, abs=1e-12)
        assert dict(law)[0] == pytest.approx(got["risk_of_ruin"], abs=1e-12)


def test_place_six_to_a_goal_is_the_gamblers_ruin_closed_form() -> None:
    """One chip on the 6 until it wins (even money, 5 ways against 6) is a gambler's ruin:
    from 20 to 40 the goal comes with (1 - r^20) / (1 - r^40), r = 6/5."""
    s = strategy(bankroll=20, goal=40, bets=[{"wager": "place6", "amount": 1}])
    got = answer(s, {"table_min": 1})
    r = 6 / 5
    assert abs(got["goal_reached"] - (1 - r**20) / (1 - r**40)) < 1e-9
    assert abs(got["risk_of_ruin"] + got["goal_reached"] - 1) < 1e-9
    # expected rolls: the gambler's-ruin duration in decisions, each taking 36/11 rolls
    p, q = 5 / 11, 6 / 11
    decisions = 20 / (q - p) - 40 / (q - p) * (1 - r**20) / (1 - r**40)
    assert abs(got["expected_rolls"] - decisions * 36 / 11) < 1e-7


def test_a_long_roll_limit_reaches_the_fundamental_matrix_answer() -> None:
    """The issue's question (place 6, hard 6, craps 2 at 33:1, 20 chips to 40): the chain
    without a roll limit and the one pushed over 3,000 rolls give the same figures."""
    bets = [{"wager": w, "amount": 1} for w in ("place6", "hard6", "craps2")]
    table = {"table_min": 1, "payouts": {"craps2": "33:1"}}
    solved = answer(strategy(bankroll=20, goal=40, bets=bets), table)
    pushed = answer(strategy(bankroll=20, goal=40, bets=bets, rolls=3000), table)
    assert pushed["survived"] < 1e-12
    for key in ("risk_of_ruin", "goal_reached", "expected_rolls"):
        assert abs(solved[key] - pushed[key]) < 1e-9, key
    assert 0.3 < solved["goal_reached"] < 0.45


STRATEGIES = {
    "field": dict(bankroll=20, bets=[{"wager": "field", "amount": 1}], rolls=100),
    "numbers to a goal": dict(
        bankroll=30, goal=60, stop_loss=20, rolls=300,
        bets=[{"wager": w, "amount": 1} for w in ("num5", "num6", "num8")],
    ),
    "press and craps": dict(
        bankroll=40, goal=80,
        bets=[{"wager": "place6", "amount": 2, "progression": "press", "step": 2, "cap": 8},
              {"wager": "craps2", "amount": 1}],
    ),
    "martingale": dict(
        bankroll=60, goal=90, rolls=400,
        bets=[{"wager": "any7", "amount": 1, "progression": "martingale", "cap": 16}],
    ),
    "paroli hardways": dict(
        bankroll=30, rolls=150,
        bets=[{"wager": "hard8", "amount": 1, "progression": "paroli", "wins": 2},
              {"wager": "hard10", "amount": 1, "progression": "regress", "floor": 1}],
    ),
    "dalembert": dict(
        bankroll=25, goal=50, rolls=500,
        bets=[{"wager": "field", "amount": 1, "progression": "dalembert", "cap": 5}],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", STRATEGIES)
def test_the_kernel_and_the_chain_agree_on_every_strategy(name: str) -> None:
    """The Monte Carlo's intervals (99.9 %, a fixed seed) hold the exact figures."""
    s = strategy(**STRATEGIES[name])
    t = chain.table_for(s, {"table_min": 1})
    exact = chain.solve(s, t)
    mc = monte_carlo(s, t, sessions=40_000, seed=7)
    n = mc["sessions"]
    for key in ("risk_of_ruin", "goal_reached", "stop_loss_hit", "survived"):
        lo, hi = wilson(round(mc[key] * n), n, z=3.29)
        assert lo - 1e-12 <= exact[key] <= hi + 1e-12, (key, exact[key], lo, hi)
    lo, hi = mc["intervals"]["expected_rolls"]
    half = (hi - lo) / 2 * 3.29 / 1.96
    assert abs(exact["expected_rolls"] - mc["expected_rolls"]) <= half


@pytest.mark.parametrize("name", STRATEGIES)
def test_the_kernel_plays_the_chains_steps_on_the_same_dice(name: str) -> None:
    """Session by session on given dice, the kernel ends where a replay of the chain's own
    place/settle/ending steps ends: same end, same roll, same chips."""
    s = strategy(**STRATEGIES[name])
    t = chain.table_for(s, {"table_min": 1})
    codes, bets, bankroll, goal, floor, rolls = kernel.arrays(s, t.codes, t.lo, t.hi)
    rng = np.random.default_rng(11)
    k = len(s.bets)
    for _ in range(200):
        limit = min(rolls, 3000)
        tape = rng.integers(0, 6, size=2 * limit).astype(np.int8)
        got = kernel.session(codes, bets, bankroll, goal, floor, limit, np.zeros(1, np.uint64),
                             tape, np.zeros(1, np.int64), np.empty(k, np.int64),
                             np.empty(k, np.int64), np.empty(k, np.bool_),
                             np.zeros(0, np.int64))  # fmt: skip
        state, end, played = chain.start(s), None, 0
        while played < limit and end is None:
            a, b = tape[2 * played], tape[2 * played + 1]
            state = chain.settle(s, t, chain.place(state), t.codes[a * 6 + b])
            played += 1
            end = chain.ending(s, state)
        names = {None: "survived" if s.rolls else "unfinished", **{e: e for e in kernel.ENDS}}
        if got[0] == kernel.UNFINISHED and s.rolls is None:  # the tape's end, not a real one
            names[None] = "unfinished"
        assert (kernel.ENDS[got[0]], got[1], got[2]) == (names[end], played, chain.chips(state))


def test_progressions_move_the_stake_as_their_names_say() -> None:
    def run(bet: Bet, results: str) -> list[int]:
        stake, streak, out = bet.amount, 0, []
        for r in results:
            stake, streak = next_stake(bet, stake, streak, r == "w", 5, 100)
            out.append(stake)
        return out

    assert run(Bet(wager="field", amount=5, progression="martingale"), "lllllw") == [
        10,
        20,
        40,
        80,
        5,
        5,
    ]  # 160 is over the table maximum of 100: the progression starts again
    assert run(Bet(wager="field", amount=5, progression="paroli"), "wwwwl") == [10, 20, 5, 10, 5]
    assert run(Bet(wager="field", amount=5, progression="dalembert"), "llwww") == [
        10,
        15,
        10,
        5,
        5,
    ]
    assert run(Bet(wager="num6", amount=6, progression="press", step=6, cap=18), "wwwl") == [
        12,
        18,
        18,
        6,
    ]
    assert run(Bet(wager="num6", amount=30, progression="regress", step=12), "wwwl") == [
        18,
        6,
        5,
        30,
    ]
    assert run(Bet(wager="num6", amount=30), "wl") == [30, 30]


@pytest.mark.parametrize(
    ("fields", "names"),
    [
        ({"bankroll": 20, "rolls": 10, "bets": [{"wager": "feld", "amount": 1}]}, "bets[0]"),
        ({"bankroll": 20, "rolls": 10, "bets": [{"wager": "field", "amount": 0}]},
         "bets[0].amount"),
        ({"bankroll": 20, "rolls": 10, "bets": [{"wager": "field", "amount": 1, "pace": 2}]},
         "bets[0].pace"),
        ({"bankroll": 20, "rolls": 10,
          "bets": [{"wager": "field", "amount": 1, "progression": "fibonacci"}]},
         "bets[0].progression"),
        ({"bankroll": 20, "rolls": 10, "bets": []}, "bets"),
        ({"bankroll": "20", "rolls": 10, "bets": [{"wager": "field", "amount": 1}]}, "bankroll"),
        ({"bankroll": 20, "goal": 10, "bets": [{"wager": "field", "amount": 1}]}, "goal"),
        ({"bankroll": 20, "bets": [{"wager": "field", "amount": 1}]}, "rolls"),
        ({"bankroll": 20, "rolls": 5, "bets": [{"wager": "field", "amount": 1},
                                              {"wager": "field", "amount": 2}]}, "bets[1]"),
    ],
)  # fmt: skip
def test_a_hostile_strategy_gets_an_error_naming_its_field(fields: dict, names: str) -> None:
    with pytest.raises(StrategyError) as e:
        strategy(**fields)
    assert e.value.field == names, str(e.value)


def cli(*args: str) -> object:
    return runner.invoke(app, ["odds", "snake-eyes-casino", *args])


def test_odds_gives_the_risk_first_and_says_how_it_was_worked_out() -> None:
    out = cli("--bet", "field=1", "--bankroll", "20", "--rolls", "100")
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("risk of ruin 11.5638%") and "exact" in lines[0]
    text = " ".join(out.stdout.split())
    assert "the last one included" in text and "house edge" not in text


def test_odds_json_and_simulate_agree_on_a_strategy_file(tmp_path: Path) -> None:
    f = tmp_path / "press.toml"
    f.write_text(
        'bankroll = 40\ngoal = 80\n[[bets]]\nwager = "place6"\namount = 2\n'
        'progression = "press"\ncap = 8\n[[bets]]\nwager = "craps2"\namount = 1\n'
    )
    exact = json.loads(cli("--strategy-file", str(f), "--json").stdout)["risk"]
    assert exact["method"] == "exact" and exact["settings"]["goal"] == 80
    sim = runner.invoke(
        app,
        [
            "simulate",
            "snake-eyes-casino",
            "--strategy-file",
            str(f),
            "--games",
            "40000",
            "--json",
            "--option",
            "table_min=1",
        ],  # fmt: skip
    )
    assert sim.exit_code == 0, sim.output
    mc = json.loads(sim.stdout)
    assert mc["method"] == "monte-carlo" and mc["sessions"] == 40_000
    lo, hi = wilson(round(mc["goal_reached"] * 40_000), 40_000, z=3.29)
    assert lo <= exact["goal_reached"] <= hi


def test_a_chain_too_big_goes_to_monte_carlo_and_says_why() -> None:
    out = cli("--bet", "field=5:martingale", "--bankroll", "1000", "--rolls", "2000",
              "--sessions", "2000", "--json")  # fmt: skip
    risk = json.loads(out.stdout)["risk"]
    assert risk["method"] == "monte-carlo" and "states" in risk["why_monte_carlo"]
    lo, hi = risk["intervals"]["risk_of_ruin"]
    assert lo <= risk["risk_of_ruin"] <= hi
    refused = cli("--bet", "field=5:martingale", "--bankroll", "1000", "--rolls", "2000",
                  "--method", "exact")  # fmt: skip
    assert refused.exit_code == 2 and "--method: exact" in refused.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--bet", "field=600"], "--bet field=600: 600 chips is outside the table's limits"),
        (["--bet", "feld=6"], "--bet feld=6: unknown wager 'feld'"),
        (["--bet", "field"], "--bet: 'field': write WAGER=CHIPS"),
        (["--bet", "field=6", "--goal", "10"], "--goal: 10 chips is not above the bankroll"),
        (["--strategy", "field", "--unit", "600"], "--unit: 600 chips a wager is over the table"),
        (["--bet", "field=6", "--unit", "6"], "--unit: the stake of each --strategy wager"),
        (["--strategy", "field", "--bet", "field=6"], "--bet: give one of --strategy"),
        (["--goal", "100"], "--goal: sets a session's risk"),
        (["--bet", "field=1", "--method", "foo"], "--method: 'foo': choose auto, exact"),
    ],
)
def test_every_refusal_names_the_flag_typed(args: list[str], says: str) -> None:
    out = cli(*args)
    assert out.exit_code == 2 and says in " ".join(out.stderr.split()), out.stderr


def test_a_hostile_strategy_file_is_refused_naming_the_file_and_field(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    for text, says in (
        ("bankroll = 5\n[[bets]]\nwager = 'field'\namount = 1\nspeed = 3\n", "bets[0].speed"),
        ("bankroll = [1, 2]\n", "bankroll"),
        ("bankroll = \n", "not TOML"),
        ("[" * 100_000, "strategy file"),
    ):
        f.write_text(text)
        out = cli("--strategy-file", str(f))
        assert out.exit_code == 2 and f"--strategy-file {f}" in out.stderr, out.stderr
        assert says in out.stderr and "Traceback" not in out.output


def test_monte_carlo_figures_do_not_depend_on_how_the_run_is_cut() -> None:
    s = strategy(bankroll=20, bets=[{"wager": "field", "amount": 1}], rolls=100)
    t = chain.table_for(s, {"table_min": 1})
    a = kernel.simulate(s, t.codes, t.lo, t.hi, 5000, seed=3)
    assert np.array_equal(a, kernel.simulate(s, t.codes, t.lo, t.hi, 5000, seed=3))
    assert not np.array_equal(a, kernel.simulate(s, t.codes, t.lo, t.hi, 5000, seed=4))
    assert math.isclose(a[1].mean(), monte_carlo(s, t, 5000, seed=3)["expected_rolls"])


def test_simulate_refuses_what_a_players_sessions_cannot_use(tmp_path: Path) -> None:
    for extra, flag in ((["--plot", str(tmp_path / "p.png")], "--plot"),
                        (["--strategy", "field"], "--strategy"),
                        (["--engine", "reference"], "--engine")):  # fmt: skip
        out = runner.invoke(app, ["simulate", "snake-eyes-casino", "--bet", "field=1", *extra])
        assert out.exit_code == 2 and out.stderr.startswith(f"error: {flag}:"), out.stderr
    out = runner.invoke(app, ["simulate", "shake", "--bet", "field=1"])
    assert out.exit_code == 2 and "--bet: shake has no wagers" in out.stderr
