"""The casino table's options: seats, bankroll, limits, payouts, dice, session length, table files.

A table file (JSON) is read as options here; ``new_game`` validates them like any others.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, field_validator

from gamenight.engine import Options
from gamenight.engine.errors import GamenightError, describe

from .casino_wagers import WAGER_IDS, WAGERS, default_payouts

MAX_CHIPS = 10**9  # bound of bankrolls, limits and wagers: a record cannot ask for more
MAX_ROLLS = 10**7  # bound of a session's length


class CasinoOptions(Options):
    players: int = Field(default=3, description="1 to 8 player seats; the dealer is extra")
    bankroll: int = Field(default=1000, ge=1, le=MAX_CHIPS, description="chips each seat buys in")
    table_min: int = Field(default=5, ge=1, le=MAX_CHIPS, description="smallest wager on one area")
    table_max: int = Field(default=500, ge=1, le=MAX_CHIPS, description="largest wager on one area")
    payouts: dict[str, str] = Field(
        default_factory=default_payouts, description="payout option per wager (rule 4.9)"
    )
    dice: int = Field(default=5, ge=2, le=5, description="dice on the table (rule 1.1)")
    winners_stay_up: bool = Field(default=True, description="winning multi-roll wagers stay up")
    max_rolls: int = Field(
        default=100, ge=1, le=MAX_ROLLS, description="the session ends after this many"
    )
    live: bool = Field(
        default=False,
        description="live table: the dealer enters each result, then settles it (rule 6.8)",
    )

    @field_validator("payouts")
    @classmethod
    def _allowed(cls, payouts: dict[str, str]) -> dict[str, str]:
        """Each payout one rule 4.9 lists for its wager (errors then name 'payouts')."""
        for wid, pays in payouts.items():
            if wid not in WAGERS:
                known = ", ".join(WAGER_IDS)
                raise ValueError(f"unknown wager {describe(wid)} (known: {known})")
            if pays not in WAGERS[wid].pays:
                allowed = ", ".join(WAGERS[wid].pays)
                raise ValueError(f"{wid} cannot pay {describe(pays)}; rule 4.9 allows {allowed}")
        return payouts

    def clash(self) -> str | None:
        """The limits contradicting each other, in words naming both keys (a default said so)."""
        if self.table_min <= self.table_max:
            return None

        def said(key: str) -> str:
            default = "" if key in self.model_fields_set else ", the default"
            return f"{key} ({getattr(self, key)}{default})"

        return f"{said('table_min')} is more than {said('table_max')}"


def table_settings(text: str) -> dict[str, Any]:
    """A table file (JSON options: payouts, limits, ...) as options for ``new_game``, which
    validates them; text that is not a JSON object is refused here."""
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as e:
        raise GamenightError(f"the table file is not JSON: {e}") from None
    except RecursionError:
        raise GamenightError("the table file is nested too deeply to be table settings") from None
    except ValueError:  # a number of thousands of digits (Python's int conversion limit)
        raise GamenightError("the table file holds a number too long to be a setting") from None
    if not isinstance(settings, dict):
        raise GamenightError("the table file must hold a JSON object of table settings")
    seats = settings.get("players", 1)
    if type(seats) is not int:  # the CLI counts bots from it before new_game checks it
        raise GamenightError(f"'players' must be a whole number of seats; got {describe(seats)}")
    return settings
