"""Gambler's turn flow: the throw for first player, turns passing on, and the end of the game."""

from __future__ import annotations

from .money import GamblerMoney
from .table import TARGET


class GamblerTurns(GamblerMoney):
    """Whose turn it is, how it passes on, and when the game is won."""

    def _order_throw(self, total: int) -> None:
        seat = self.contenders[len(self.order_throws)]
        self.order_throws[seat] = total
        self.log("{} throws {} for first player", self.seat_name(seat), total)
        if len(self.order_throws) < len(self.contenders):
            self.chance = "order"
            return
        best = max(self.order_throws.values())
        self.contenders = [s for s, t in self.order_throws.items() if t == best]
        self.order_throws = {}
        if len(self.contenders) == 1:
            self._begin_turn(self.contenders[0])
        else:
            self.log("tie at {}: they throw again", best)
            self.chance = "order"

    def _begin_turn(self, seat: int) -> None:
        self.turns += 1
        self.current, self.phase, self.may_buy, self.last_roll = seat, "turn", True, None
        self.log("{}'s turn", self.seat_name(seat))

    def _end_turn(self) -> None:
        """The turn is over; an unclaimed Start payment waits for a claim before the next roll."""
        if self.start_due and not self.out[self.current]:
            self.phase = "claim"
        else:
            self.start_due = 0
            self._next_turn()

    def _next_turn(self) -> None:
        if self.phase == "over":
            return
        if self.turns >= self.game.options.max_turns:
            self.by_limit = self.truncated = True
            self._finish(max(self._alive(), key=self._net_worth))
            return
        seat = self.current
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if not self.out[seat]:
                break
        self._begin_turn(seat)

    def _from_caller(self, caller: int) -> list[int]:
        return [
            (caller + k) % self.players
            for k in range(self.players)
            if not self.out[(caller + k) % self.players]
        ]

    def _check_end(self) -> None:
        out, iou, cash, purse = self.out, self.iou, self.ledger.balances, self.purse
        rich = [
            s for s in range(self.players) if not out[s] and not iou[s] and cash[purse[s]] >= TARGET
        ]
        if rich:
            order = self._from_caller(self.current)
            self._finish(max(rich, key=lambda s: (self.ledger[self.purse[s]], -order.index(s))))
        elif out.count(False) == 1:
            self._finish(out.index(False))

    def _finish(self, seat: int) -> None:
        self._winner, self.phase, self.chance = seat, "over", None
        why = "after the turn limit, richest" if self.by_limit else "wins"
        self.log("{} {} with ${}", self.seat_name(seat), why, self.ledger[self.purse[seat]])
