"""The casino table's numbers, measured against issue 30's targets in one run.

1. exact ruin and goal figures against independent chains and a closed form (target 1e-9);
2. the kernel's Monte Carlo 95 % interval holds the exact figure for every strategy tested;
3. `gamenight report snake-eyes-casino` with 10^7 simulated rolls on one core (target < 30 s);
4. a strategy in the kernel against crapssim with the same bets and rolls, one core each
   (target at least 1,000x).
Run: python benchmarks/strategy_numbers.py [ROLLS_FOR_CRAPSSIM]  (needs the bench extra).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from gamenight.analysis import session_chain as chain  # noqa: E402
from gamenight.analysis.kernels import sessions as kernel  # noqa: E402
from gamenight.analysis.session_risk import monte_carlo  # noqa: E402
from gamenight.analysis.strategy import strategy  # noqa: E402
from test_session_risk import STRATEGIES, field_ruin  # noqa: E402

ONE_UNIT = {"table_min": 1}


def exact_against_independent() -> float:
    worst = 0.0
    for bankroll, rolls in ((20, 100), (20, 1000), (50, 1000), (100, 1000)):
        s = strategy(bankroll=bankroll, bets=[{"wager": "field", "amount": 1}], rolls=rolls)
        got = chain.solve(s, chain.table_for(s, ONE_UNIT))["risk_of_ruin"]
        diff = abs(got - field_ruin(bankroll, rolls))
        print(f"  field, {bankroll} chips, {rolls} rolls: ruin {got:.6%}  |diff| {diff:.1e}")
        worst = max(worst, diff)
    s = strategy(bankroll=20, goal=40, bets=[{"wager": "place6", "amount": 1}])
    got = chain.solve(s, chain.table_for(s, ONE_UNIT))["goal_reached"]
    r = 6 / 5
    diff = abs(got - (1 - r**20) / (1 - r**40))
    print(f"  place 6, 20 chips to 40: goal {got:.6%} against the gambler's-ruin closed form "
          f"|diff| {diff:.1e}")  # fmt: skip
    return max(worst, diff)


def intervals_hold(sessions: int = 200_000) -> bool:
    cases = dict(STRATEGIES)
    cases["issue: place 6, hard 6, craps 2 to a goal"] = dict(
        bankroll=20,
        goal=40,
        bets=[{"wager": w, "amount": 1} for w in ("place6", "hard6", "craps2")],
    )
    ok = True
    for name, fields in cases.items():
        s = strategy(**fields)
        t = chain.table_for(s, ONE_UNIT)
        exact = chain.solve(s, t)
        mc = monte_carlo(s, t, sessions, seed=1)
        for key in ("risk_of_ruin", "goal_reached", "expected_rolls"):
            lo, hi = mc["intervals"][key]
            inside = lo - 1e-12 <= exact[key] <= hi + 1e-12
            ok &= inside
            print(f"  {name:42} {key:14} exact {exact[key]:10.6f}  MC [{lo:.6f}, {hi:.6f}] "
                  f"{'yes' if inside else 'NO'}")  # fmt: skip
    return ok


def report_seconds() -> float:
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as d:
        cmd = ["taskset", "-c", "0", sys.executable, "-m", "gamenight.cli", "report",
               "snake-eyes-casino", "--rolls", str(10**7), "--out", f"{d}/r.html"]  # fmt: skip
        subprocess.run(cmd, env=env, check=True, capture_output=True)  # compiles, caches
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        return time.perf_counter() - start


def kernel_against_crapssim(rolls: int) -> float:
    from casino_speed import crapssim_table

    numba.set_num_threads(1)
    bets = [{"wager": w, "amount": a} for w, a in
            (("hard6", 5), ("hard8", 5), ("field", 5), ("place6", 6), ("place8", 6))]  # fmt: skip
    s = strategy(bankroll=10**9, bets=bets, rolls=1000)
    t = chain.table_for(s, {"table_min": 5})
    kernel.simulate(s, t.codes, t.lo, t.hi, 100)  # compiled before the clock starts
    sessions = 20_000
    start = time.perf_counter()
    out = kernel.simulate(s, t.codes, t.lo, t.hi, sessions)
    ours = int(out[1].sum()) / (time.perf_counter() - start)
    table = crapssim_table()
    start = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    theirs = table.dice.n_rolls / (time.perf_counter() - start)
    print(f"  kernel (one thread): {ours:14,.0f} rolls/s  ({sessions:,} sessions of 1,000 rolls)")
    print(f"  crapssim:            {theirs:14,.0f} rolls/s  ({table.dice.n_rolls:,} rolls)")
    return ours / theirs


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    print("1. exact chain against independent ones")
    worst = exact_against_independent()
    print(f"   largest difference {worst:.1e} (target 1e-9): {'met' if worst < 1e-9 else 'MISSED'}")
    print("2. Monte Carlo 95 % intervals (200,000 sessions, seed 1) against the exact figures")
    ok = intervals_hold()
    print(f"   every interval holds its exact figure: {'met' if ok else 'MISSED'}")
    print("3. report with 10^7 rolls on one core")
    secs = report_seconds()
    print(f"   {secs:.1f} s (target < 30 s): {'met' if secs < 30 else 'MISSED'}")
    print("4. the benchmark strategy (hard 6, hard 8, field, place 6, place 8)")
    ratio = kernel_against_crapssim(rolls)
    print(f"   ratio {ratio:,.0f}x (target >= 1,000x): {'met' if ratio >= 1000 else 'MISSED'}")


if __name__ == "__main__":
    main()
