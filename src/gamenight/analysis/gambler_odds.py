"""Exact Gambler figures: each Sweepstakes space, a lottery ticket, a horse race, the doubles
choice. Fractions over the equally likely throws (``games.gambler.odds``), never sampled."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamenight.games.gambler import odds
from gamenight.games.gambler.table import (
    DOUBLES_PRIZE,
    LOTTERY_PRIZE,
    RACE_FEE,
    RACE_PRIZE,
    SWEEP_FEE,
    TICKET_PRICE,
)

HORSES = 6  # one horse card per face of the die the lander throws


def _money(x: Fraction) -> dict[str, Any]:
    return {"exact": str(x), "dollars": round(float(x), 2)}


def report() -> dict[str, Any]:
    """The figures as JSON-ready data: exact fractions as strings beside rounded dollars."""
    spaces = [
        {
            "space": space,
            "win": str(p := odds.win_probability(space)),
            "probability": float(p),
            "prize": odds.prize(space),
            "expected_prize": _money(p * odds.prize(space)),
            "expected_net": _money(p * odds.prize(space) - SWEEP_FEE),
        }
        for space in odds.SPACES
    ]
    best = max(odds.SPACES, key=lambda s: odds.win_probability(s) * odds.prize(s))
    ticket = odds.ticket_probability(1, 2)  # every ticket holds two different numbers
    return {
        "game": "gambler",
        "sweepstakes": {"entry_fee": SWEEP_FEE, "spaces": spaces, "best_space": best},
        "lottery_ticket": {
            "price": TICKET_PRICE,
            "prize": LOTTERY_PRIZE,
            "win": str(ticket),
            "probability": float(ticket),
            "expected_prize_per_lottery": _money(ticket * LOTTERY_PRIZE),
        },
        "horse_race": {
            "entry_fee": RACE_FEE,
            "prize": RACE_PRIZE,
            "win": str(Fraction(1, HORSES)),
            "expected_net": _money(Fraction(RACE_PRIZE, HORSES) - RACE_FEE),
        },
        "doubles": {
            "roll_again_win": str(Fraction(1, 6)),
            "roll_again_worth": _money(Fraction(DOUBLES_PRIZE, 6)),
            "sweepstakes_worth_to_caller": _money(
                odds.win_probability(best) * odds.prize(best) - SWEEP_FEE
            ),
        },
    }
