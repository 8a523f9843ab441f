"""The twelve wagers of Snake Eyes (casino) as data, and the one function that settles them.

A wager is a row of a table, not a class: which totals win (and how much each pays under each
payout option of rule 4.9), which totals lose, and whether it is decided on one roll or may stay
up. ``settle`` reads a row against one roll of two dice. crapssim does the opposite (a class
per bet); keeping the rules as data lets the exact-odds tool, the layout and the tests read the
same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Hardness = Literal["hard", "easy", "any"]
Result = Literal["win", "lose", "stay"]

HARD_TOTALS = (4, 6, 8, 10)


@dataclass(frozen=True, slots=True)
class Wager:
    """One betting area: its win/lose totals and the payouts rule 4.9 allows for it."""

    id: str
    name: str
    single_roll: bool
    wins: tuple[tuple[int, Hardness], ...]
    loses: tuple[tuple[int, Hardness], ...]  # single-roll wagers lose on every other total
    pays: dict[str, dict[int, int]]  # option label -> winning total -> pays N to 1

    @property
    def default_pays(self) -> str:
        """Rule 4.9 lists the options; the first one listed is the table's default."""
        return next(iter(self.pays))


def _flat(total: int, n: int) -> dict[int, int]:
    return {total: n}


def _options(totals: tuple[int, ...], *ns: int) -> dict[str, dict[int, int]]:
    return {f"{n}:1": {t: n for t in totals} for n in ns}


def _hardway(total: int, *ns: int) -> Wager:
    return Wager(
        id=f"hard{total}",
        name=f"Hard {total}",
        single_roll=False,
        wins=((total, "hard"),),
        loses=((total, "easy"), (7, "any")),
        pays=_options((total,), *ns),
    )


def _number(total: int) -> Wager:
    return Wager(
        id=f"num{total}",
        name=str(total),
        single_roll=False,
        wins=((total, "any"),),
        loses=((7, "any"),),
        pays=_options((total,), 1),
    )


def _one_roll(wid: str, name: str, totals: tuple[int, ...], *ns: int) -> Wager:
    return Wager(
        id=wid,
        name=name,
        single_roll=True,
        wins=tuple((t, "any") for t in totals),
        loses=(),
        pays=_options(totals, *ns),
    )


_FIELD_EVENS = {3: 1, 4: 1, 9: 1, 10: 1, 11: 1}

WAGERS: dict[str, Wager] = {
    w.id: w
    for w in (
        _hardway(4, 7, 6),
        _hardway(6, 9, 8),
        _hardway(8, 9, 8),
        _hardway(10, 7, 6),
        Wager(
            id="hardway_combo",
            name="Hardway Combo",
            single_roll=False,
            wins=tuple((t, "hard") for t in HARD_TOTALS),
            loses=(*((t, "easy") for t in HARD_TOTALS), (7, "any")),
            pays=_options(HARD_TOTALS, 4),
        ),
        _number(5),
        _number(6),
        _number(8),
        Wager(
            id="field",
            name="Field",
            single_roll=True,
            wins=tuple((t, "any") for t in (2, 3, 4, 9, 10, 11, 12)),
            loses=(),
            pays={
                "option-1": {**_FIELD_EVENS, 12: 2, 2: 3},
                "option-2": {**_FIELD_EVENS, 12: 2, 2: 2},
                "option-3": {**_FIELD_EVENS, 12: 1, 2: 3},
            },
        ),
        _one_roll("any7", "Any 7", (7,), 4),
        _one_roll("ce_combo", "C&E Combo", (2, 3, 11, 12), 4),
        _one_roll("craps2", "Craps 2 (Snake Eyes)", (2,), 33, 32, 31, 30),
        _one_roll("craps3", "Craps 3", (3,), 15),
        _one_roll("craps12", "Craps 12", (12,), 33, 32, 31, 30),
        _one_roll("eleven", "11 in 1 Roll", (11,), 15),
    )
}

WAGER_IDS: tuple[str, ...] = tuple(WAGERS)
# each area as the log says it to players: "on the 6", "on Hard 8", "on the Field"
SPOKEN: dict[str, str] = {
    w.id: f"the {w.name}" if w.name[0].isdigit() or w.id in ("field", "hardway_combo") else w.name
    for w in WAGERS.values()
}
MULTI_ROLL: frozenset[str] = frozenset(w for w, x in WAGERS.items() if not x.single_roll)


def _matches(rows: tuple[tuple[int, Hardness], ...], total: int, hard: bool) -> bool:
    return any(t == total and (h == "any" or (h == "hard") == hard) for t, h in rows)


def settle(wager: Wager, pays: str, faces: tuple[int, int] | list[int]) -> tuple[Result, int]:
    """Decide ``wager`` on one roll: ("win", N) pays N to 1, ("lose", 0), or ("stay", 0).

    Rule 4.2: only the total of the two uppermost faces counts, plus whether they match (a
    hardway needs both dice alike). ``pays`` is the table's payout option for this wager.
    """
    a, b = faces
    total, hard = a + b, a == b
    if _matches(wager.wins, total, hard):
        return "win", wager.pays[pays][total]
    if wager.single_roll or _matches(wager.loses, total, hard):
        return "lose", 0
    return "stay", 0


def winning_areas(pays: dict[str, str], faces: tuple[int, int] | list[int]) -> list[str]:
    """Areas a live table lights up for a roll (rule 3.4(c)): every wager this roll wins."""
    return [w for w in WAGER_IDS if settle(WAGERS[w], pays[w], faces)[0] == "win"]


def default_payouts() -> dict[str, str]:
    return {w: x.default_pays for w, x in WAGERS.items()}


STAY, LOSE = -1, 0  # settlement codes; a code above 0 wins and pays that many to 1


def _settlement_rows() -> dict[tuple[str, str], tuple[int, ...]]:
    """``settle`` read once for all 36 rolls of every wager and payout option, as one code per
    roll (STAY, LOSE, or N for a win paying N to 1), so the table settles a roll by lookup.
    A roll (a, b) is index ``(a - 1) * 6 + b - 1``."""
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    codes: dict[str, int] = {"stay": STAY, "lose": LOSE}
    return {
        (w.id, p): tuple(n if r == "win" else codes[r] for r, n in (settle(w, p, f) for f in rolls))
        for w in WAGERS.values()
        for p in w.pays
    }


SETTLEMENT = _settlement_rows()
