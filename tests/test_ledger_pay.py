"""pay_what_you_can moves what the payer holds, never more, and refuses what transfer refuses."""

from __future__ import annotations

import pytest

from gamenight.engine.errors import IllegalAction
from gamenight.engine.ledger import Ledger


def ledger() -> Ledger:
    return Ledger({"a": 5, "b": 0, "bank": 0}, may_go_negative=["bank"])


def test_pays_in_full_when_the_purse_holds_enough() -> None:
    book = ledger()
    assert book.pay_what_you_can("a", "b", 3) == 3
    assert book.balances == {"a": 2, "b": 3, "bank": 0}


def test_pays_only_what_the_purse_holds() -> None:
    book = ledger()
    assert book.pay_what_you_can("a", "b", 9) == 5
    assert book.balances == {"a": 0, "b": 5, "bank": 0}
    assert book.pay_what_you_can("a", "b", 1) == 0
    assert book.is_balanced()


def test_a_purse_that_may_go_negative_pays_in_full() -> None:
    book = ledger()
    assert book.pay_what_you_can("bank", "b", 7) == 7
    assert book.balances["bank"] == -7 and book.is_balanced()


@pytest.mark.parametrize(("src", "dst", "amount"), [("a", "b", -1), ("a", "nobody", 1)])
def test_refuses_what_transfer_refuses_and_changes_nothing(src: str, dst: str, amount: int) -> None:
    book = ledger()
    with pytest.raises(IllegalAction):
        book.pay_what_you_can(src, dst, amount)
    assert book.balances == ledger().balances
