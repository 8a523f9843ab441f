"""Shake's and Snake Eyes' report pages, from the same exact figures ``odds --json`` prints."""

from __future__ import annotations

from typing import Any

import numpy as np

from .html_page import axes, cell, figure, page, section, table


def shake(report: dict[str, Any], length: dict[str, Any]) -> str:
    """Crap-out chances, values, stop points (a reachable total beside the break-even), the
    win-optimal policy and its win chances, and how long a turn and a game last."""
    rows, fig_ax = [], axes("Value of holding points: shake once more or stop", "points in hand",
                            "expected final points")  # fmt: skip
    fig, ax = fig_ax
    for k, r in report["scoring_faces"].items():
        rows.append([
            cell(k, faces=k),
            cell(f"{r['crap_out_chance']} ({r['crap_out_probability']:.4%})", faces=k,
                 key="crap_out_chance", exact=r["crap_out_chance"]),
            cell(f"{r['ev_of_shaking']:.2f}", faces=k, key="ev_of_shaking",
                 exact=repr(r["ev_of_shaking"])),
            cell(f"{r['ev_stop_from_points']:,}", faces=k, key="ev_stop_from_points",
                 exact=r["ev_stop_from_points"]),
            cell(f"{r['ev_stop_at_points']:,.1f}", faces=k, key="ev_stop_at_points",
                 exact=repr(r["ev_stop_at_points"])),
        ])  # fmt: skip
        if int(k) <= 3:
            pts = [h["points"] for h in r["in_hand"]]
            ax.plot(pts, [h["ev_one_more_shake"] for h in r["in_hand"]], label=f"{k}: shake")
            ax.plot(pts, pts, color="grey", lw=0.8)
    ax.legend(fontsize=8)
    policy = report["win_policy"]
    leads = list(next(iter(policy["stop_regions_by_round_and_lead"].values())))
    stops = [
        [cell(rnd), *(cell(", ".join(f"{a}-{b}" for a, b in regions[lead]) or "never",
                           round=rnd, lead=lead, key="stop") for lead in leads)]
        for rnd, regions in policy["stop_regions_by_round_and_lead"].items()
    ]  # fmt: skip
    wins = [
        [cell(rnd), *(cell(f"{p[lead]:.4f}", round=rnd, lead=lead, key="win", exact=repr(p[lead]))
                      for lead in leads)]
        for rnd, p in policy["win_chance_by_lead_before_round"].items()
    ]  # fmt: skip
    head = ["scoring faces", "crap out", "EV of shaking", "stop at (a reachable total)",
            "break-even"]  # fmt: skip
    return page(
        "Shake: the exact numbers",
        "Worked out by dynamic programming over every throw; the stop point is the fewest "
        "points a player can hold (they come in tens) at which one more shake no longer pays.",
        [
            section(
                "One shaker alone",
                table("values", head, rows, "values"),
                figure(fig, "value of shaking"),
            ),  # fmt: skip
            section(
                "Two players, win-optimal: where the shaker stops",
                table("stop regions by round and lead", ["round", *leads], stops, "stops"),
            ),
            section(
                "Win chance by lead before each round",
                table("win chances", ["round", *leads], wins, "wins"),
            ),
            *shake_length(length),
        ],
    )


def shake_length(length: dict[str, Any]) -> list[str]:
    """The exact law of one shaking turn's shakes, and a whole game's from the kernel."""
    t, g = length["turn"], length["game"]
    turn_rows = [[cell(k), cell(str(t[k]), scope="turn", key=k, exact=t[k])]
                 for k in ("p50", "p90", "p99")]  # fmt: skip
    turn_rows.insert(0, [cell("mean"), cell(f"{t['mean']:.4f}", scope="turn", key="mean",
                                            exact=repr(t["mean"]))])  # fmt: skip
    fig, ax = axes(f"Shakes in one turn stopping at {t['stop_at_points']:,} (exact law)",
                   "shakes", "chance")  # fmt: skip
    ax.bar(range(len(t["pmf"])), t["pmf"], width=1.0)
    lo, hi = g["ci95"]
    game_rows = [[cell("mean"), cell(f"{g['mean']:.2f} ({lo:.2f} to {hi:.2f})", scope="game",
                                     key="mean", exact=repr(g["mean"]), lo=repr(lo),
                                     hi=repr(hi))]]  # fmt: skip
    for q in ("p50", "p90", "p99"):
        a, b = g[f"{q}_ci95"]
        game_rows.append([cell(q), cell(f"{g[q]} ({a} to {b})", scope="game", key=q,
                                        exact=g[q], lo=a, hi=b)])  # fmt: skip
    fig2, ax2 = axes(f"Shakes in a two-player game (Monte Carlo, {g['games']:,} games)",
                     "shakes", "share of games")  # fmt: skip
    shakes = [int(v) for v in g["pmf"]]
    share = np.zeros(shakes[-1] - shakes[0] + 1)
    share[np.array(shakes) - shakes[0]] = list(g["pmf"].values())
    ax2.stairs(share, np.arange(shakes[0], shakes[-1] + 2) - 0.5, fill=True)  # one path, small
    return [
        section(
            "Game length: one shaking turn",
            table("shakes in a turn", ["figure", "shakes"], turn_rows, "turn-length"),
            figure(fig, "shakes in a turn"),
            note=f"Exact: a chain over the points in hand, {t['scoring_faces']} scoring faces, "
            f"the turn stopping at {t['stop_at_points']:,} points or at a crap-out. "
            "A quantile is the fewest shakes by which the turn has ended with that chance.",
        ),
        section(
            "Game length: a whole game",
            table(
                "shakes in a game", ["figure", "shakes (95 % interval)"], game_rows, "game-length"
            ),  # fmt: skip
            figure(fig2, "shakes in a game"),
            note=f"Monte Carlo, not exact: {g['games']:,} games (seed {g['seed']}) of two "
            "sensible bots in the compiled kernel; they stop at the turn's point in the ten "
            "rounds, and in the All Shake round shake on while behind, which depends on the "
            "lead, so no exact law is given. Intervals: Student's t for the mean, order "
            "statistics for the quantiles.",
        ),
    ]


def snake_eyes(report: dict[str, Any]) -> str:
    """The one-player game length's law, its quantiles and the two-player mean."""
    t = report["one_player_throws_to_clear"]
    keys = ("mean", "sd", "min", "p50", "p90", "p99")
    rows = [[cell(k), cell(f"{t[k]:,.4f}" if isinstance(t[k], float) else str(t[k]), key=k,
                           exact=repr(t[k]))] for k in keys]  # fmt: skip
    rows.append(
        [cell("mean, exact"), cell(t["mean_exact"], key="mean_exact", exact=t["mean_exact"])]
    )
    rows.append([cell("two players: mean throws"),
                 cell(f"{report['two_player_mean_throws']:.4f}", key="two_player_mean_throws",
                      exact=repr(report["two_player_mean_throws"]))])  # fmt: skip
    fig, ax = axes("Throws one player needs to clear the board (exact law)", "throws", "chance")
    pmf = t["pmf"]
    ax.bar(range(len(pmf)), pmf, width=1.0)
    return page(
        "Snake Eyes: the exact numbers",
        "Worked out by a Markov chain over the cards still up; no sampling.",
        [
            section(
                "Game length",
                table("throws to clear", ["figure", "value"], rows, "length"),
                figure(fig, "game length distribution"),
            ),  # fmt: skip
        ],
    )
