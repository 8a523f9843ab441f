"""Simulated house edges agree with the exact ones within a binomial-style tolerance."""

from __future__ import annotations

from gamenight.analysis.casino_sim import decision_sd, observed_edges


def test_observed_house_edge_matches_exact_within_tolerance() -> None:
    rows = observed_edges(games=4, players=2, seed=7, max_rolls=1500)
    for r in rows:
        assert r.decisions > 300, r
        assert abs(r.observed - float(r.exact)) <= r.tolerance, r.to_json()


def test_tolerance_is_not_vacuous() -> None:
    # an even-money wager has sd close to 1, so 4 sd over 10,000 decisions is about 0.04
    assert 0.9 < decision_sd("num6", "1:1") <= 1.0
    rows = observed_edges(games=1, players=1, seed=1, max_rolls=400)
    assert all(r.tolerance < 1.5 for r in rows if r.wager.startswith("num"))
