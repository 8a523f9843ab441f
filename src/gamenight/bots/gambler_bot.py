"""A sensible Gambler player that decides with the exact Shaker odds."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from gamenight.engine import State
from gamenight.games.gambler import odds
from gamenight.games.gambler.state import GamblerState
from gamenight.games.gambler.table import (
    DOUBLES_PRIZE,
    IOU_INTEREST,
    IOU_LOAN,
    LOTTERY_PRIZE,
    TICKET_PRICE,
)

CUSHION = 100  # cash kept after repaying an IOU, so the next fee does not force a new one
# The odds never change during a game: each space's expected prize, and the best of them.
EXPECTED = {space: odds.win_probability(space) * odds.prize(space) for space in odds.SPACES}
BEST_SPACE = max(EXPECTED.values())
# Each space's place among the distinct expected prizes (equal prizes share a place): the same
# choice as comparing the exact Fractions, without doing it at every Sweepstakes.
RANK = {space: sorted(set(EXPECTED.values())).index(e) for space, e in EXPECTED.items()}
ROLL_AGAIN = Fraction(DOUBLES_PRIZE, 6) >= BEST_SPACE  # a second roll beats any Sweepstakes
TICKET_VALUE = odds.ticket_value(1, 2, LOTTERY_PRIZE)


class GamblerBot:
    """Best free Sweepstakes space by expected prize; tickets while they pay; IOUs repaid early."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> dict[str, Any]:
        if not isinstance(state, GamblerState):
            raise TypeError("GamblerBot plays gambler only")
        legal = state.legal_actions(seat)
        types = {a["type"]: a for a in legal}
        cash = state.ledger[state.purse[seat]]  # public: every view shows each player's cash
        if "repay_iou" in types and cash >= IOU_LOAN + IOU_INTEREST + CUSHION:
            return types["repay_iou"]
        if "claim_start" in types:
            return types["claim_start"]
        if "buy_ticket" in types and self.ticket_pays(cash):
            return types["buy_ticket"]
        if "roll_again" in types:
            return types["roll_again"] if ROLL_AGAIN else types["sweepstakes"]
        markers = [a for a in legal if a["type"] == "marker"]
        if markers:
            return max(markers, key=lambda a: RANK[a["space"]])
        for kind in ("roll", "end_turn"):
            if kind in types:
                return types[kind]
        return self.rng.choice(legal)

    @staticmethod
    def ticket_pays(cash: int) -> bool:
        """A ticket is worth its expected Lottery prize; buy while that beats the price."""
        return TICKET_VALUE > TICKET_PRICE and cash >= TICKET_PRICE + 60
