"""Where a move lands: Start, the spaces, Fortune cards, and the Sweepstakes, Lottery and Races.

Each event ends the turn when it is settled, or waits for the chance moves (the Shaker's dice,
the horse cards and die, a Fortune card) that settle it.
"""

from __future__ import annotations

from . import odds
from .table import BANK, LOTTERY_PRIZE, RACE_FEE, RACE_PRIZE, START_PAY, SWEEP_FEE
from .turns import GamblerTurns


class GamblerSpaces(GamblerTurns):
    """Moving round the track and the events the spaces and Fortune cards call."""

    def _move(self, steps: int) -> None:
        cur, n = self.current, len(self.space)
        new = self.position[cur] + steps
        if new >= n:
            self._pass_start(cur)
        self.position[cur] = new % n
        self._land()

    def _pass_start(self, seat: int) -> None:
        if self.game.options.auto_claim_start:
            self.ledger.transfer(BANK, self.purse[seat], START_PAY)
            self.log("{} reaches Start and collects ${}", self.seat_name(seat), START_PAY)
        else:
            self.start_due += 1  # "each time" a player passes Start (a Fortune card may add one)
            self.log(
                "{} reaches Start: ${} may be claimed before the next roll",
                self.seat_name(seat),
                START_PAY,
            )

    def _land(self) -> None:
        cur, name = self.current, self.seat_name(self.current)
        sp = self.space[self.position[cur]]
        self.log("{} lands on {}", name, sp.name)
        if sp.kind == "collect":
            self.ledger.transfer(BANK, self.purse[cur], sp.amount or 0)
            self.log("{} collects ${}", name, sp.amount)
        elif sp.kind == "pay":
            self._charge(cur, sp.amount or 0, sp.name)
        elif sp.kind == "fortune":
            self._draw_fortune()
            return
        elif sp.kind == "sweepstakes":
            self._sweepstakes(cur)
            return
        elif sp.kind == "lottery":
            self._lottery()
            return
        elif sp.kind in ("races", "daily_double"):
            self._horse_race()
            return
        self._end_turn()

    def _draw_fortune(self) -> None:
        if self.fortune_unseen:
            self.chance = "fortune"
        else:
            self._fortune(self.fortune_known.pop(0))

    def _fortune(self, index: int) -> None:
        card, cur = self.cards[index], self.current
        self.fortune_known.append(index)  # back to the bottom of the deck
        self.last_card = card.text
        self.log('{} reads a Fortune card: "{}"', self.seat_name(cur), card.text)
        amount = card.amount or 0
        others = [s for s in self._alive() if s != cur]
        if card.effect == "collect":
            self.ledger.transfer(BANK, self.purse[cur], amount)
        elif card.effect == "pay":
            self._charge(cur, amount, "Fortune")
        elif card.effect == "collect_from_each":
            for s in others:
                self._charge(s, amount, "Fortune", to=self.purse[cur])
        elif card.effect == "pay_each":
            for s in others:
                self._charge(cur, amount, "Fortune", to=self.purse[s])
        elif card.effect == "advance":
            self._move(amount)
            return
        elif card.effect == "go_to":
            n, pos = len(self.space), self.position[cur]
            steps = next(k for k in range(1, n + 1) if self.space[(pos + k) % n].kind == card.to)
            self._move(steps)
            return
        elif card.effect == "sweepstakes":
            self._sweepstakes(cur)
            return
        elif card.effect == "lottery":
            self._lottery()
            return
        elif card.effect == "horse_race":
            self._horse_race()
            return
        if self.out[cur]:
            self._next_turn()
        else:
            self._end_turn()

    def _shake(self, purpose: str) -> None:
        self.shaker, self.shaker_for, self.chance = [], purpose, "shaker"

    def _sweepstakes(self, caller: int) -> None:
        self.counts["sweepstakes"] += 1
        self.event_seat, self.markers = caller, {}
        players = self._from_caller(caller)
        for s in players:
            self._charge(s, SWEEP_FEE, "Sweepstakes entry")
        self.marker_queue = [s for s in players if not self.out[s]]
        self.phase = "marker"
        if not self.marker_queue:
            self._shake("sweepstakes")

    def _settle_sweepstakes(self) -> None:
        dice = self.shaker
        self.log("the Shaker shows {}", "-".join(map(str, dice)))
        for space, seat in sorted(self.markers.items(), key=lambda kv: odds.SPACES.index(kv[0])):
            if odds.wins(space, dice):
                self.ledger.transfer(BANK, self.purse[seat], odds.prize(space))
                self.log("{} wins ${} on {}", self.seat_name(seat), odds.prize(space), space)
        self.markers = {}
        self._end_turn()

    def _lottery(self) -> None:
        if not any(self.tickets):
            self.log("nobody holds a lottery ticket: no Lottery")
            self._end_turn()
            return
        self.counts["lotteries"] += 1
        self._shake("lottery")

    def _settle_lottery(self) -> None:
        dice = self.shaker
        self.log("Lottery: the Shaker shows {}", "-".join(map(str, dice)))
        for seat in range(self.players):
            for a, b in self.tickets[seat]:
                if a in dice and b in dice:
                    self.ledger.transfer(BANK, self.purse[seat], LOTTERY_PRIZE)
                    self.log(
                        "{}'s ticket {}-{} wins ${}", self.seat_name(seat), a, b, LOTTERY_PRIZE
                    )
            self.ticket_deck += self.tickets[seat]
            self.tickets[seat] = []
        self.log("all tickets go back and are reshuffled")
        self._end_turn()

    def _horse_race(self) -> None:
        self.counts["horse_races"] += 1
        self.event_seat = self.current
        for s in self._from_caller(self.current):
            self._charge(s, RACE_FEE, "Horse Race entry")
        self.horse_queue, self.horse_cards = self._from_caller(self.current), {}
        self.chance = "horse" if self.horse_queue else "race_die"

    def _horses_left(self) -> list[int]:
        dealt = set(self.horse_cards.values())
        return [h for h in self.game.data.horses.horses if h not in dealt]

    def _settle_race(self, face: int) -> None:
        self.log("the horse die shows {}", face)
        for seat, horse in self.horse_cards.items():
            if horse == face:
                self.ledger.transfer(BANK, self.purse[seat], RACE_PRIZE)
                self.log("{} holds horse {} and wins ${}", self.seat_name(seat), face, RACE_PRIZE)
                break
        else:
            self.log("nobody holds horse {}: the bank keeps the fees", face)
        self.horse_cards = {}
        self._end_turn()
