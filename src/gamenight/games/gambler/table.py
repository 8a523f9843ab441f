"""The Gambler table: its fixed amounts, and the fields every part of the state reads.

The state is built in layers, each a concern that may call the ones below it: the table
(this), money and IOUs (``money``), turn flow (``turns``), the spaces a move lands on with
their Sweepstakes, Lottery and Horse Races (``spaces``), and the protocol (``state``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

from gamenight.engine import State
from gamenight.engine.chance import dice_outcomes
from gamenight.engine.draw import Law
from gamenight.engine.ledger import Ledger

if TYPE_CHECKING:
    from .state import Gambler

START_CASH = 100  # one $50, two $20, one $10 (denominations are display only)
TARGET = 1000
TICKET_PRICE, MAX_TICKETS, LOTTERY_PRIZE = 10, 3, 50
SWEEP_FEE, RACE_FEE, RACE_PRIZE = 10, 20, 80
DOUBLES_PRIZE, START_PAY = 500, 100
IOU_LOAN, IOU_INTEREST = 200, 20
REPAY = IOU_LOAN + IOU_INTEREST
BANK = "bank"
DIE = [({"type": "die", "face": f}, Fraction(1, 6)) for f in range(1, 7)]
TWO_DICE_LAW, DIE_LAW = Law(dice_outcomes(2)), Law(DIE)


class GamblerTable(State):
    """Purses, track, decks and the phase: the fields, set up before the first move."""

    game: Gambler

    def __init__(self, game: Gambler, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n = game.players
        self.space = game.data.board.space
        self.cards = game.data.fortune.card
        self.purse = [f"seat{i}" for i in range(n)]
        self.ledger = Ledger({**{p: 0 for p in self.purse}, BANK: 0}, may_go_negative=[BANK])
        for p in self.purse:
            self.ledger.transfer(BANK, p, START_CASH)
        self.position = [0] * n
        self.iou = [False] * n
        self.out = [False] * n
        self.tickets: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.ticket_deck: list[tuple[int, int]] = [(a, b) for a, b in game.data.tickets.tickets]
        self.fortune_unseen = list(range(len(self.cards)))  # on top, order not yet drawn
        self.fortune_known: list[int] = []  # returned to the bottom, in order
        self.current = 0
        self.phase = "order"  # order turn doubles marker claim over
        self.chance: str | None = None  # what the pending chance move is for
        self.may_buy = False
        self.start_due = 0  # passes of Start this turn whose $100 is not yet claimed
        self.contenders = list(range(n))
        self.order_throws: dict[int, int] = {}
        self.markers: dict[str, int] = {}
        self.marker_queue: list[int] = []
        self.shaker: list[int] = []
        self.shaker_for = ""
        self.event_seat = 0  # who called the Sweepstakes / Lottery / Horse Race
        self.horse_queue: list[int] = []
        self.horse_cards: dict[int, int] = {}
        self.last_roll: list[int] | None = None
        self.last_card: str | None = None
        self._winner: int | None = None
        self.turns = 0
        self.ious_taken = 0
        self.by_limit = False
        self.counts = Counter[str]()
