"""One ledger through which every chip or dollar moves.

Purses are named ("seat0", "kitty", "bank", ...). Only purses allowed to go negative (a bank that
creates money, the world outside a casino table) may do so, which keeps one invariant simple:
the sum of all purses never changes. The ledger keeps balances only: the game's record is the
audit trail, since replaying it moves every chip again, and its event log says why each moved.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalAction


class InsufficientFunds(IllegalAction):
    """A transfer bigger than what the paying purse holds."""


class Ledger:
    __slots__ = ("balances", "may_go_negative", "_total")

    def __init__(self, balances: dict[str, int], may_go_negative: Iterable[str] = ()) -> None:
        self.balances = dict(balances)
        self.may_go_negative = frozenset(may_go_negative)
        self._total = sum(self.balances.values())

    def __getitem__(self, purse: str) -> int:
        return self.balances[purse]

    def can_pay(self, purse: str, amount: int) -> bool:
        return purse in self.may_go_negative or self.balances[purse] >= amount

    def transfer(self, src: str, dst: str, amount: int) -> int:
        """Move ``amount`` from ``src`` to ``dst``; returns the amount moved."""
        if amount < 0:
            raise IllegalAction(f"cannot transfer a negative amount ({amount})")
        balances = self.balances
        have = balances.get(src)
        if have is None or dst not in balances:
            raise IllegalAction(f"unknown purse in transfer {src!r} -> {dst!r}")
        if have < amount and src not in self.may_go_negative:
            raise InsufficientFunds(f"{src} holds {have}, cannot pay {amount}")
        balances[src] = have - amount
        balances[dst] += amount
        return amount

    def pay_what_you_can(self, src: str, dst: str, amount: int) -> int:
        """Transfer up to ``amount``, as much as ``src`` holds; returns what was paid."""
        balances = self.balances
        have = balances[src]
        if amount < 0 or dst not in balances:
            return self.transfer(src, dst, amount)  # raises, naming the problem
        paid = amount if have >= amount or src in self.may_go_negative else max(have, 0)
        balances[src] = have - paid  # what transfer() does, without checking again
        balances[dst] += paid
        return paid

    def open_purse(self, name: str) -> None:
        self.balances.setdefault(name, 0)

    def total(self) -> int:
        return sum(self.balances.values())

    def is_balanced(self) -> bool:
        """Conservation: the grand total is what it was at the start, and no purse is overdrawn."""
        return self.total() == self._total and all(
            v >= 0 for k, v in self.balances.items() if k not in self.may_go_negative
        )

    def copy(self) -> Ledger:
        new = Ledger.__new__(Ledger)
        new.balances = dict(self.balances)
        new.may_go_negative = self.may_go_negative
        new._total = self._total
        return new
