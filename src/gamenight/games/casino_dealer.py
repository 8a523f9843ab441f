"""The casino table's dealer procedure: a roll entered, settled on the layout, the dice passed.

The table's fields are set here too (bankrolls, the layout, who shoots, the offer queue); the
state (``snake_eyes_casino``) checks each move and calls this procedure to carry it out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.engine import State
from gamenight.engine.ledger import Ledger

from .casino_wagers import LOSE, MULTI_ROLL, SPOKEN, STAY, WAGER_IDS

if TYPE_CHECKING:
    from .snake_eyes_casino import SnakeEyesCasino

RESULTS_SHOWN = 20  # the game results display of rule 3.4(b)


def roll_index(a: int, b: int) -> int:
    """The roll's row in the settlement table: (a, b) -> (a - 1) * 6 + b - 1."""
    return a * 6 + b - 7


# A roll and everything it decided are logged as one event whose format is built from these
# pieces, with strings and numbers as arguments: a long session's log stays cheap to hold.
_LOSES = "; {} loses {} on {}"
_WINS = "; {} wins {} on {} ({}:1)"


class CasinoDealer(State):
    """The table's fields and the dealer's side: entering, settling, voiding, passing the dice."""

    game: SnakeEyesCasino

    def __init__(self, game: SnakeEyesCasino, seed: int | None = None) -> None:
        super().__init__(game, seed)
        opts = game.options
        n = game.players
        self.pays = game.pays
        self.live = opts.live
        self.max_rolls = opts.max_rolls
        # the table limits, read by every wager's check (an options field costs more to read)
        self.table_min, self.table_max = opts.table_min, opts.table_max
        self.names = [self.seat_name(s) for s in range(n)]
        self.purse = [f"seat{s}" for s in range(n)]
        self.ledger = Ledger(
            {**{p: opts.bankroll for p in self.purse}, "layout": 0, "bank": 0},
            may_go_negative=("bank",),
        )
        self.bets: list[dict[str, int]] = [{} for _ in range(n)]  # per seat: area -> chips
        self.phase = "offer"  # offer | betting | rolling | entered (live only) | closed
        self.shooter: int | None = None  # None while the dealer rolls (rule 5.9(d))
        self.dealer_rolls = False
        self.offer_queue: list[int] = list(range(n))  # from the dealer's left
        self.offer_needs_wager = False  # rule 5.9: only players with a wager are offered the dice
        self.undecided: set[tuple[int, str]] = set()  # (seat, area) the dealer rolls out (5.9(d))
        # while seat s shoots: the other seats from the dealer's left, then the shooter
        self.betting_order = [[*(o for o in range(n) if o != s), s] for s in range(n)]
        self.entered: list[int] | None = None
        self.pulled: list[tuple[int, str, int]] = []  # (seat, area, chips) taken down since entry
        self.ready: set[int] = set()  # players who said they are done betting for this roll
        self.results: list[int] = []
        self.rolls = 0
        self.voids = 0
        self.handle = dict.fromkeys(WAGER_IDS, 0)  # chips decided per wager
        self.house_net = dict.fromkeys(WAGER_IDS, 0)  # house result per wager
        self.last_dice: list[int] | None = None  # the faces of the last settled roll
        self.active_pair = (0, 1)  # the two of the table's dice the shooter throws
        self.log("the dice are offered to {} first", self.names[0])

    def _enter(self, faces: list[int]) -> None:
        """A result in: a live table shows it until the dealer settles; a drawn one settles."""
        if self.live:
            self.entered = list(faces)
            self.phase = "entered"
            self.log("result entered: {} + {} = {}", faces[0], faces[1], faces[0] + faces[1])
        else:
            self._settle(faces[0], faces[1])

    def _restore_pulled(self) -> None:
        """Rules 4.8 and 6.9: a take-down allowed under a wrongly entered result is undone once
        the corrected dice decide that wager; the chips are still in the purse (nobody may wager
        while a result is entered), so they go back on the layout to be settled."""
        codes = self.game.codes[roll_index(*self.entered)]  # type: ignore[misc]
        kept = []
        for seat, area, amount in self.pulled:
            if codes[area] == STAY:
                kept.append((seat, area, amount))
                continue
            self.ledger.transfer(self.purse[seat], "layout", amount)
            held = self.bets[seat]
            held[area] = held.get(area, 0) + amount
            self.log(
                "the corrected dice decide {}'s wager on {}: the {} taken down go back on it",
                self.names[seat],
                SPOKEN[area],
                amount,
            )
        self.pulled = kept

    def _void(self, reason: str) -> None:
        self.entered = None
        self.pulled = []
        self.voids += 1
        self.phase = "rolling" if self.dealer_rolls else "betting"
        self.log("No roll: {} (the roll is void and settles nothing)", reason)

    def _settle(self, a: int, b: int) -> None:
        """Rules 4.1, 4.2 and 4.8: losers to the bank, winners paid, the roll on the display.

        The roll and what it decided for every seat go into the log as one event."""
        self.entered = None
        self.last_dice = [a, b]
        total = a + b
        self.rolls += 1
        if self.ready:
            self.ready = set()
        results = self.results
        results.append(total)
        if len(results) > RESULTS_SHOWN:
            del results[0]
        shooter = self.shooter
        fmt = ["{} rolls {}{}"]
        args: list[object] = [
            "the dealer" if shooter is None else self.names[shooter],
            total,
            " hard" if a == b and total in (4, 6, 8, 10) else "",  # rule 4.1(a): the hardway totals
        ]
        if any(self.bets):
            self._pay(roll_index(a, b), fmt, args)
        self.log("".join(fmt), *args)
        self._after_roll(total, roll_index(a, b))

    def _pay(self, roll: int, fmt: list[str], args: list[object]) -> None:
        """Settle every wager on the layout against roll number ``roll`` (see ``roll_index``),
        adding each decided wager to the roll's event (``fmt`` and ``args``).

        As a dealer sweeps the layout: each seat's losers go to the bank in one move, its wins
        come from the bank in one move, and decided one-roll stakes come back with them."""
        codes = self.game.codes[roll]
        handle, house = self.handle, self.house_net
        stay_up = self.game.options.winners_stay_up
        transfer = self.ledger.transfer
        for seat, held in enumerate(self.bets):
            if not held:
                continue
            name = self.names[seat]
            lost = won = back = 0
            gone = []
            for area, amount in held.items():
                n = codes[area]
                if n < 0:  # STAY: not decided by this roll
                    continue
                handle[area] += amount
                if n == LOSE:
                    lost += amount
                    house[area] += amount
                    gone.append(area)
                    fmt.append(_LOSES)
                    args += (name, amount, SPOKEN[area])
                    continue
                won += amount * n
                house[area] -= amount * n
                fmt.append(_WINS)
                args += (name, amount * n, SPOKEN[area], n)
                if not stay_up or area not in MULTI_ROLL:
                    back += amount
                    gone.append(area)
            for area in gone:
                del held[area]
            purse = self.purse[seat]
            if lost:
                transfer("layout", "bank", lost)
            if won:
                transfer("bank", purse, won)
            if back:
                transfer("layout", purse, back)

    def _after_roll(self, total: int, roll: int) -> None:
        if self.rolls >= self.max_rolls:
            self.phase = "closed"
            self.log("the session ends after {} rolls", self.rolls)
            return
        if self.dealer_rolls:
            codes = self.game.codes[roll]
            self.undecided = {(s, w) for s, w in self.undecided if codes[w] == STAY}
            if total == 7 or not self.undecided:
                self._dealer_done()
            else:
                self.phase = "rolling"
            return
        if total == 7:
            shooter = self.shooter or 0
            self.log("7 Out: {} loses the dice", self.names[shooter])
            self._pass_dice(shooter)
        else:
            self.phase = "betting"

    def _pass_dice(self, seat: int) -> None:
        """Rule 5.9: the dice go round the *other* players who have a wager, from the left;
        whether a player has one is checked as the dice reach him (5.9(a), (b)).

        After a 7 Out the layout is empty, so nobody qualifies; play then starts afresh from
        the next seat as at rule 5.3, everyone included (a project decision)."""
        self.shooter = None
        n = self.players
        order = [(seat + i) % n for i in range(1, n + 1)]
        self.offer_needs_wager = any(self.bets)
        self.offer_queue = order[:-1] if self.offer_needs_wager else order
        self._next_offer()

    def _dealer_done(self) -> None:
        """Rule 5.9(d) is met: the dice are offered afresh from the dealer's left."""
        self.dealer_rolls = False
        self.undecided = set()
        self.offer_queue = list(range(self.players))
        self.offer_needs_wager = False
        self._next_offer()

    def _next_offer(self) -> None:
        queue, bets = self.offer_queue, self.bets
        if self.offer_needs_wager:
            while queue and not bets[queue[0]]:
                queue.pop(0)
        if queue:
            self.phase = "offer"
            self.log("the dice are offered to {}", self.names[queue[0]])
        elif any(bets):
            self.phase, self.dealer_rolls, self.shooter = "rolling", True, None
            self.undecided = {(s, w) for s, held in enumerate(bets) for w in held}
            self.log("nobody takes the dice: the dealer rolls until every wager is decided")
        else:
            self.phase = "closed"
            self.log("nobody takes the dice and the layout is empty: the table closes")
