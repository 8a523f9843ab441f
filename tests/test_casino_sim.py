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


def test_edge_table_says_its_tolerance_counts_one_seat_of_the_decisions_shown() -> None:
    """With 3 seats the decisions column counts every seat's copy of each decision while the
    tolerance is worked out from one seat's: the table said neither, so a reader checking
    the tolerance from the decisions shown got one too narrow by a factor of sqrt(3)."""
    from rich.console import Console

    from gamenight.analysis.casino_sim import edge_table, edges_from_figures

    totals = {"handle_num6": 5 * 3000, "house_num6": 5 * 300}
    rows = edges_from_figures(totals, 5, {"num6": "1:1"}, seats=3)
    console = Console(width=200, record=True)
    console.print(edge_table(rows, 3))
    text = console.export_text()
    assert "decisions: all 3 seats', copies of one another" in text
    assert "the tolerance counts one seat's" in text
    console = Console(width=200, record=True)
    console.print(edge_table(rows))
    assert "copies" not in console.export_text()


def test_edge_rows_in_json_say_whether_they_agree_as_the_text_does() -> None:
    """The text's ok column (yes / NO) had no counterpart in --json."""
    from gamenight.analysis.casino_sim import edges_from_figures

    totals = {"handle_num6": 5 * 3000, "house_num6": 5 * 273, "handle_any7": 5 * 3000,
              "house_any7": 5 * 3000}  # fmt: skip
    pays = {"num6": "1:1", "any7": "4:1"}
    rows = {r.wager: r.to_json() for r in edges_from_figures(totals, 5, pays)}
    assert rows["num6"]["within_tolerance"] is True  # 0.091 against 1/11
    assert rows["any7"]["within_tolerance"] is False  # the house won every decision
