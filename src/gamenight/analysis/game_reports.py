"""Shake's and Snake Eyes' report pages, from the same exact figures ``odds --json`` prints."""

from __future__ import annotations

from typing import Any

from .html_page import axes, cell, figure, page, section, table


def shake(report: dict[str, Any]) -> str:
    """Crap-out chances, values, stop points (a reachable total beside the break-even), the
    win-optimal policy and its win chances."""
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
        ],
    )


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
