"""Observed house edge per wager from bot play, beside the exact one and its tolerance.

Bots on the ``every_area`` strategy keep one table-minimum unit on every area, so each wager's
decisions are independent draws of the same law; the tolerance is a multiple of the standard
error that law gives for the mean result of that many decisions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamenight.analysis.casino_odds import P_ROLL, ROLLS, wager_odds
from gamenight.analysis.simulate import play_out
from gamenight.bots.casino_bot import CasinoBot
from gamenight.engine import new_game
from gamenight.games.casino_wagers import WAGERS, settle
from gamenight.games.snake_eyes_casino import CasinoState


@dataclass(frozen=True)
class EdgeRow:
    wager: str
    pays: str
    decisions: int
    observed: float
    exact: Fraction
    tolerance: float  # z standard errors of the mean over ``decisions``

    @property
    def ok(self) -> bool:
        """The observed edge lies within the tolerance of the exact one."""
        return abs(self.observed - float(self.exact)) <= self.tolerance

    def to_json(self) -> dict[str, Any]:
        return {
            "wager": self.wager,
            "pays": self.pays,
            "decisions": self.decisions,
            "observed_house_edge": self.observed,
            "exact_house_edge": str(self.exact),
            "tolerance": self.tolerance,
            "within_tolerance": self.ok,
        }


def decision_sd(wager: str, pays: str) -> float:
    """Standard deviation of the house's result per unit and per decision (exact law)."""
    outcomes: list[tuple[Fraction, int]] = []
    for faces in ROLLS:
        result, n = settle(WAGERS[wager], pays, faces)
        if result != "stay":
            outcomes.append((P_ROLL, -n if result == "win" else 1))
    decided = sum((p for p, _ in outcomes), Fraction(0))
    mean = sum((p * x for p, x in outcomes), Fraction(0)) / decided
    var = sum((p * (x - mean) ** 2 for p, x in outcomes), Fraction(0)) / decided
    return math.sqrt(var)


def observed_edges(
    games: int = 20, players: int = 2, seed: int = 0, z: float = 4.0, **options: Any
) -> list[EdgeRow]:
    """Play ``games`` sessions with every-area bots and pool each wager's figures."""
    opts = {"bankroll": 10**7, "max_rolls": 500, **options}
    game = new_game("snake-eyes-casino", players=players, **opts)
    unit = game.options.table_min  # type: ignore[attr-defined]
    totals: dict[str, int] = {}
    pays: dict[str, str] = {}
    for g in range(games):
        state = game.new_state(seed=seed * 100_003 + g)
        assert isinstance(state, CasinoState)
        bots = [CasinoBot(seed=g * 31 + s) for s in range(players)]
        play_out(state, bots)  # type: ignore[arg-type]
        pays = state.pays
        for w in WAGERS:
            totals[f"handle_{w}"] = totals.get(f"handle_{w}", 0) + state.handle[w]
            totals[f"house_{w}"] = totals.get(f"house_{w}", 0) + state.house_net[w]
    return edges_from_figures(totals, unit, pays, z, seats=players)


def edge_table(rows: list[EdgeRow], seats: int = 1) -> Any:
    """The comparison as a Rich table: observed and exact edge, tolerance, agreement."""
    from rich.table import Table

    caption = "house edge: the house's result per chip decided; tolerance: 4 standard errors"
    if seats > 1:
        caption += (
            f"; decisions: all {seats} seats', copies of one another (they bet alike on the "
            "same dice), so the tolerance counts one seat's"
        )
    t = Table(
        title="Snake Eyes casino: observed vs exact house edge (4 SE tolerance)",
        caption=caption,
    )
    for col in ("wager", "pays", "decisions", "observed", "exact", "tolerance", "ok"):
        t.add_column(col, justify="left" if col in ("wager", "pays") else "right")
    for r in rows:
        t.add_row(
            r.wager, r.pays, str(r.decisions), f"{r.observed:.4f}",
            f"{float(r.exact):.4f} ({r.exact})", f"±{r.tolerance:.4f}", "yes" if r.ok else "NO",
        )  # fmt: skip
    return t


def main() -> None:
    """``python -m gamenight.analysis.casino_sim``: the comparison as a Rich table."""
    from rich.console import Console

    Console().print(edge_table(observed_edges(games=10, players=2, seed=0, max_rolls=2000)))


if __name__ == "__main__":
    main()


def edges_from_figures(
    totals: dict[str, int], unit: int, pays: dict[str, str], z: float = 4.0, seats: int = 1
) -> list[EdgeRow]:
    """Edge rows from pooled ``handle_<wager>`` and ``house_<wager>`` totals of a run.

    Every seat bets the same way on the same dice, so the ``seats`` seats' decisions are copies
    of one seat's: the standard error counts one seat's decisions, not all of them."""
    rows = []
    for w in WAGERS:
        handle = totals.get(f"handle_{w}", 0)
        if not handle:
            continue
        n = handle // unit
        exact = wager_odds(WAGERS[w], pays[w]).house_edge
        tol = z * decision_sd(w, pays[w]) / math.sqrt(max(n / seats, 1))
        rows.append(EdgeRow(w, pays[w], n, totals[f"house_{w}"] / handle, exact, tol))
    return rows
