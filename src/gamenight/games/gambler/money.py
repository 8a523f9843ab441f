"""Gambler's money: IOUs taken and repaid, payments the rules force, and who is out."""

from __future__ import annotations

from typing import Any

from .table import BANK, IOU_INTEREST, IOU_LOAN, GamblerTable


class GamblerMoney(GamblerTable):
    """Money moves through the ledger; a player with an IOU and no cash left is out."""

    def _may_borrow_or_repay(self, seat: int) -> bool:
        """IOUs are taken "at any time" and repaid "at any time" by any player still in."""
        if self.out[seat]:
            return False
        return not self.iou[seat] or self.ledger[self.purse[seat]] >= IOU_LOAN + IOU_INTEREST

    def _iou_actions(self, seat: int) -> list[dict[str, Any]]:
        if not self._may_borrow_or_repay(seat):
            return []
        return [{"type": "repay_iou" if self.iou[seat] else "take_iou"}]

    def _charge(self, seat: int, amount: int, why: str, to: str = BANK) -> None:
        """A payment the rules force: an IOU is taken if needed; a holder who runs dry is out."""
        purse = self.purse[seat]
        if self.ledger[purse] < amount and not self.iou[seat]:
            self.iou[seat] = True
            self.ious_taken += 1
            self.ledger.transfer(BANK, purse, IOU_LOAN)
            self.log("{} must take out an IOU to pay", self.seat_name(seat))
        paid = self.ledger.pay_what_you_can(purse, to, amount)
        self.log("{} pays ${} ({})", self.seat_name(seat), paid, why)
        self._knock_out(seat)

    def _knock_out(self, seat: int) -> None:
        """An IOU holder whose cash reaches $0 has lost all the borrowed money: out."""
        if self.iou[seat] and not self.out[seat] and self.ledger[self.purse[seat]] == 0:
            self.out[seat] = True
            self.ticket_deck += self.tickets[seat]
            self.tickets[seat] = []
            self.marker_queue = [s for s in self.marker_queue if s != seat]
            self.log("{} has lost all the borrowed money and is out", self.seat_name(seat))

    def _alive(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    def _net_worth(self, seat: int) -> int:
        return self.ledger[self.purse[seat]] - (IOU_LOAN + IOU_INTEREST) * self.iou[seat]
