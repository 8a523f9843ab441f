"""Exact odds of every Snake Eyes (casino) wager, with fractions, never by sampling.

Everything is read from the wager table and the 36 equally likely rolls of two dice, so the
figures can never drift from what the settlement function does at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from gamenight.games.casino_wagers import HARD_TOTALS, WAGERS, Wager, settle

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
P_ROLL = Fraction(1, 36)


@dataclass(frozen=True)
class WagerOdds:
    """Odds of one wager under one payout option."""

    wager: str
    pays: str
    win: Fraction  # probability of winning, given the wager is decided
    lose: Fraction
    house_edge: Fraction  # expected loss per unit wagered, per decision (positive: house wins)
    house_edge_per_roll: Fraction  # the same per roll the wager stays up

    def to_json(self) -> dict[str, Any]:
        return {
            "wager": self.wager,
            "pays": self.pays,
            "win": str(self.win),
            "lose": str(self.lose),
            "house_edge": str(self.house_edge),
            "house_edge_per_roll": str(self.house_edge_per_roll),
            "single_roll": WAGERS[self.wager].single_roll,
        }


def wager_odds(wager: Wager, pays: str) -> WagerOdds:
    """Condition each of the 36 rolls on the wager being decided (a multi-roll wager that
    stays up simply waits for the next roll, so the decision law is the one-roll law restricted
    to deciding rolls)."""
    win = lose = ev = Fraction(0)
    for faces in ROLLS:
        result, n = settle(wager, pays, faces)
        if result == "win":
            win += P_ROLL
            ev += P_ROLL * n
        elif result == "lose":
            lose += P_ROLL
            ev -= P_ROLL
    decided = win + lose
    return WagerOdds(
        wager=wager.id,
        pays=pays,
        win=win / decided,
        lose=lose / decided,
        house_edge=-ev / decided,
        house_edge_per_roll=-ev,
    )


def all_odds() -> list[WagerOdds]:
    """Every wager under every payout option rule 4.9 allows."""
    return [wager_odds(w, p) for w in WAGERS.values() for p in w.pays]


def table_odds(payouts: dict[str, str]) -> list[WagerOdds]:
    """The odds one table offers: each wager under the option its settings chose."""
    return [wager_odds(WAGERS[w], p) for w, p in payouts.items()]


@cache
def _combo_alive_win(alive: frozenset[int]) -> Fraction:
    """P(win) of the Hardway Combo read the other way: each number stays alive until it is
    rolled easy; a hard roll of any live number wins; a 7 (or no number left) loses."""
    if not alive:
        return Fraction(0)
    p_hard = sum((P_ROLL for t in alive), Fraction(0))
    easy = {t: P_ROLL * (t - 2 if t <= 7 else 12 - t) for t in alive}  # easy ways of t
    p_seven = 6 * P_ROLL
    decided = p_hard + sum(easy.values()) + p_seven
    total = p_hard + sum((easy[t] * _combo_alive_win(alive - {t}) for t in alive), Fraction(0))
    return total / decided


def combo_other_reading(pays: int = 4) -> dict[str, str]:
    """Why DECISIONS.md settles the Hardway Combo on the first 4, 6, 8, 10 or 7: the other
    reading hands the player an edge no casino would offer."""
    win = _combo_alive_win(frozenset(HARD_TOTALS))
    edge = (1 - win) - win * pays
    return {
        "wager": "hardway_combo (other reading: numbers stay alive until rolled easy)",
        "pays": f"{pays}:1",
        "win": str(win),
        "lose": str(1 - win),
        "house_edge": str(edge),
    }


def odds_report(game_id: str, table_json: str | None = None) -> dict[str, Any]:
    """The JSON the ``odds`` command prints: every option, then one table's settings if given.

    ``table_json`` holds the game's options (``payouts``, ``table_min``, ...), validated the same
    way a new table validates them.
    """
    from gamenight.engine import GamenightError, new_game
    from gamenight.games.casino_options import table_settings

    if game_id != "snake-eyes-casino":
        raise GamenightError(f"exact odds are computed for snake-eyes-casino only, not {game_id!r}")
    report: dict[str, Any] = {
        "wagers": [o.to_json() for o in all_odds()],
        "notes": [combo_other_reading()],
    }
    if table_json is not None:
        game = new_game(game_id, **table_settings(table_json))
        pays = game.pays  # type: ignore[attr-defined]
        report["table"] = {
            "settings": game.options_dict(),
            "wagers": [o.to_json() for o in table_odds(pays)],
        }
    return report


def print_odds(report: dict[str, Any], console: Any) -> None:
    """Rich tables of a report, with each edge also as a percentage."""
    from rich.table import Table

    def show(title: str, rows: list[dict[str, Any]]) -> None:
        t = Table(title=title)
        for col in ("wager", "pays", "win", "lose", "house edge", "per roll"):
            t.add_column(col, justify="left" if col in ("wager", "pays") else "right")
        for r in rows:
            e, pr = Fraction(r["house_edge"]), Fraction(r["house_edge_per_roll"])
            edge = f"{r['house_edge']} ({float(e):.2%})"
            per_roll = f"{r['house_edge_per_roll']} ({float(pr):.2%})"
            t.add_row(r["wager"], r["pays"], r["win"], r["lose"], edge, per_roll)
        console.print(t)

    show("Snake Eyes casino: every wager under every payout of rule 4.9", report["wagers"])
    console.print(
        "[dim]win, lose: chances once the wager is decided; house edge: the player's expected "
        "loss per chip wagered, per decision; per roll: the same per roll the wager is up "
        "(a one-roll wager: the same figure)[/]"
    )
    for n in report["notes"]:
        edge = Fraction(n["house_edge"])
        console.print(f"[dim]{n['wager']} at {n['pays']}: house edge {float(edge):.2%}[/]")
    if "table" in report:
        show("this table's settings", report["table"]["wagers"])
