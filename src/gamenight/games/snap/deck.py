"""The one 52-card box both games share: 13 picture groups of 4 (the project's own pictures).

Copies within a group are indistinguishable in play, so a card is just its group's name; the
deal and every reshuffle draw a group with probability (copies left) / (cards left).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

COPIES = 4
ELEPHANT = "elephant"
MOUSE = "mouse"  # the mouse snapping his fingers

# name -> little text picture (our own design, one line each so a terminal can draw them)
PICTURES: dict[str, str] = {
    ELEPHANT: "(°o°)~~",
    MOUSE: "<:3 )~*snap*",
    "kite": "<>~~",
    "teapot": "c[_]>",
    "anchor": "_|_J",
    "rocket": "=>>>",
    "cactus": "\\|/|",
    "umbrella": "/^\\|",
    "owl": "{o,o}",
    "bicycle": "o-/o",
    "lantern": "[*]",
    "fish": "><>",
    "crown": "\\/\\/",
}
GROUPS: tuple[str, ...] = tuple(PICTURES)
DECK_SIZE = len(GROUPS) * COPIES


def full_deck() -> Counter[str]:
    """All 52 cards as counts by group."""
    return Counter({g: COPIES for g in GROUPS})


def draw_outcomes(pool: Counter[str], kind: str) -> list[tuple[dict[str, object], Fraction]]:
    """Chance outcomes of drawing one card at random from ``pool`` (a card-by-card shuffle)."""
    total = sum(pool.values())
    return [
        ({"type": kind, "card": g}, Fraction(n, total)) for g, n in sorted(pool.items()) if n > 0
    ]


def picture(card: str) -> str:
    return PICTURES[card]
