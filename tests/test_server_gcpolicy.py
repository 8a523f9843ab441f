"""The server's collection policy: full collections freeze their survivors; reclaim frees
cyclic garbage among frozen objects."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from gamenight.server import gcpolicy


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def policy() -> Iterator[None]:
    gcpolicy.install()
    try:
        yield
    finally:
        gcpolicy.uninstall()


def test_a_full_collection_freezes_its_survivors(policy: None) -> None:
    kept = Node()
    gc.collect()
    assert gc.get_freeze_count() > 0
    assert all(o is not kept for o in gc.get_objects())  # frozen: no longer walked


def test_a_middle_collection_freezes_its_survivors_and_a_young_one_does_not(
    policy: None,
) -> None:
    gc.unfreeze()
    gc.collect(0)
    assert gc.get_freeze_count() == 0
    kept = Node()
    gc.collect(1)
    assert gc.get_freeze_count() > 0
    assert all(o is not kept for o in gc.get_objects())


def test_reclaim_frees_a_cycle_that_was_frozen(policy: None) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect()  # both survive (still referenced) and are frozen
    del a, b
    gc.collect()  # frozen objects are not walked: the cycle stays
    assert gone() is not None
    gcpolicy.reclaim()
    assert gone() is None


def test_installing_twice_adds_one_callback(policy: None) -> None:
    gcpolicy.install()
    assert gc.callbacks.count(gcpolicy._freeze_survivors) == 1


def test_the_middle_generation_is_collected_more_often_while_installed() -> None:
    before = gc.get_threshold()
    gcpolicy.install()
    try:
        assert gc.get_threshold()[1] == gcpolicy.MIDDLE_EVERY
    finally:
        gcpolicy.uninstall()
    assert gc.get_threshold() == before
