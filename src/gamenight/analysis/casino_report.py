"""The casino table's math report: every wager under one table's options, exact, then
confirmed by simulation, with ruin curves and bankroll paths (``gamenight report``)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from gamenight.games.casino_wagers import WAGERS, settle

from .casino_odds import P_ROLL, ROLLS, wager_odds
from .casino_sim import decision_sd
from .html_page import axes, cell, figure, page, section, table
from .session_chain import solve, table_for
from .strategy import strategy

Z95 = 1.959963984540054
RUIN_UNITS = 20  # the ruin curves' buy-in, in units of one wager


def figures(wager: str, pays: str) -> dict[str, Any]:
    """One wager's exact figures per unit: the odds (as ``odds --json`` gives them) and the
    spread, hit frequency and element of risk a math report adds."""
    odds = wager_odds(WAGERS[wager], pays).to_json()
    hit = sum((P_ROLL for f in ROLLS if settle(WAGERS[wager], pays, f)[0] == "win"), Fraction(0))
    outcomes: dict[str, Fraction] = {}
    for f in ROLLS:
        result, n = settle(WAGERS[wager], pays, f)
        key = f"wins {n} to 1" if result == "win" else "loses" if result == "lose" else "stays up"
        outcomes[key] = outcomes.get(key, Fraction(0)) + P_ROLL
    return {
        **odds,
        "sd": decision_sd(wager, pays),
        "hit_per_roll": str(hit),
        # no wager here pushes, so every decision is action: the element of risk (loss per
        # unit of action) is the house edge per decision
        "element_of_risk": odds["house_edge"],
        "outcomes_per_roll": {k: str(v) for k, v in outcomes.items()},
    }


def _pct(x: Fraction | float) -> str:
    return f"{float(x):.4%}"


def build(settings: dict[str, Any], rolls: int = 10**7, seed: int = 0) -> str:
    """The report page for a table's settings (a table file's JSON object)."""
    from gamenight.engine import new_game

    from .kernels.edges import decisions
    from .kernels.sessions import paths

    game: Any = new_game("snake-eyes-casino", **settings)
    opts, pays = game.options, game.pays
    rows, outcome_rows, sim_rows = [], [], []
    ids = list(pays)
    data = {w: figures(w, pays[w]) for w in ids}
    for w in ids:
        d = data[w]
        rows.append([
            cell(WAGERS[w].name, wager=w), cell(pays[w], wager=w, key="pays", exact=pays[w]),
            *(cell(_pct(Fraction(d[k])), wager=w, key=k, exact=d[k])
              for k in ("win", "lose", "house_edge", "house_edge_per_roll")),
            cell(f"{d['sd']:.4f}", wager=w, key="sd", exact=repr(d["sd"])),
            cell(_pct(Fraction(d["hit_per_roll"])), wager=w, key="hit_per_roll",
                 exact=d["hit_per_roll"]),
            cell(_pct(Fraction(d["element_of_risk"])), wager=w, key="element_of_risk",
                 exact=d["element_of_risk"]),
        ])  # fmt: skip
        for what, p in d["outcomes_per_roll"].items():
            shown = f"{p} ({_pct(Fraction(p))})"
            outcome_rows.append(
                [cell(w, wager=w), cell(what), cell(shown, wager=w, key=what, exact=p)]
            )
    codes = np.array([[row[w] for w in ids] for row in game.codes], dtype=np.int64)
    n, s1, s2 = decisions(codes, rolls, seed)
    for i, w in enumerate(ids):
        exact = float(Fraction(data[w]["house_edge"]))
        mean = float(s1[i] / n[i])
        half = Z95 * math.sqrt(max(s2[i] / n[i] - mean * mean, 0.0) / n[i])
        ok = abs(mean - exact) <= half
        sim_rows.append([
            cell(w, wager=w), cell(f"{int(n[i]):,}", wager=w, key="decisions", exact=int(n[i])),
            cell(_pct(mean), wager=w, key="observed", exact=repr(mean)),
            cell(f"±{half:.4%}", wager=w, key="half_width", exact=repr(half)),
            cell(_pct(exact), wager=w, key="exact", exact=data[w]["house_edge"]),
            cell("yes" if ok else "NO", wager=w, key="within", exact=str(ok).lower()),
        ])  # fmt: skip
    fig, ax = axes(
        f"Chance of ruin by roll: {RUIN_UNITS} units, one unit on one wager (exact)", "roll",
        "chance of ruin so far",
    )  # fmt: skip
    for w in ids:
        s = strategy(bankroll=RUIN_UNITS, bets=[{"wager": w, "amount": 1}], rolls=opts.max_rolls)
        curve = solve(s, table_for(s, {"payouts": settings.get("payouts", {}), "table_min": 1}))
        ax.plot(range(1, opts.max_rolls + 1), curve["ruin_by_roll"], label=w, lw=1)
    ax.legend(fontsize=7, ncol=3)
    ruin = figure(fig, "ruin curves")
    fig, ax = axes(f"Bankroll paths: {RUIN_UNITS} units on the Field, 20 sessions", "roll",
                   "units")  # fmt: skip
    field = strategy(bankroll=RUIN_UNITS, bets=[{"wager": "field", "amount": 1}],
                     rolls=opts.max_rolls)  # fmt: skip
    tf = table_for(field, {"payouts": settings.get("payouts", {}), "table_min": 1})
    for p in paths(field, tf.codes, tf.lo, tf.hi, 20, seed):
        ax.plot(p, lw=0.8, alpha=0.7)
    walk = figure(fig, "bankroll paths")
    rules = [
        [cell(k), cell(str(v), key=k, exact=str(v))]
        for k, v in opts.model_dump().items()
        if k not in ("payouts", "live")
    ] + [[cell(f"payout of {w}"), cell(pays[w], key=f"payout_{w}", exact=pays[w])] for w in ids]
    head = [
        "wager",
        "pays",
        "win / decision",
        "lose / decision",
        "house edge / decision",
        "house edge / roll",
        "SD / decision",
        "hit frequency / roll",
        "element of risk",
    ]
    return page(
        "Snake Eyes casino: the table's math report",
        "Exact figures are worked from the 36 equally likely rolls with fractions; each cell "
        "carries its exact value in data-exact. Edges are the player's expected loss per unit.",
        [
            section("The table's rules", table("settings", ["rule", "value"], rules, "rules")),
            section(
                "Every wager",
                table("per unit wagered", head, rows, "wagers"),
                note="SD: the spread of one decision's result per unit. Hit frequency: the "
                "chance a roll wins the wager. No wager pushes, so the element of risk "
                "equals the house edge per decision.",
            ),  # fmt: skip
            section(
                "Each outcome's chance per roll",
                table(
                    "outcomes", ["wager", "outcome", "chance per roll"], outcome_rows, "outcomes"
                ),
            ),  # fmt: skip
            section(
                f"Simulation of {rolls:,} rolls",
                table(
                    "observed edge against the exact one, 95 % interval",
                    ["wager", "decisions", "observed edge", "95 % half-width", "exact", "within"],
                    sim_rows,
                    "simulation",
                ),
                note=f"Every wager up at one unit on every roll, seed {seed}.",
            ),  # fmt: skip
            section("Ruin curves", ruin, note="ruin counted after every roll, the last included"),
            section("Bankroll paths", walk),
        ],
    )
