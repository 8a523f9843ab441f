"""The Shake kernel's ten-shakes step stands for exactly the ten shakes it skips."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

from gamenight.analysis.kernels import shake  # noqa: E402
from gamenight.bots.playouts.rng import NO_TAPE  # noqa: E402


@pytest.mark.parametrize("units", [0, 120, 160, 185])
def test_ten_shakes_at_once_are_the_same_ten_shakes_one_by_one(units: int) -> None:
    hits_of, pos, stop = shake.hits_table(3), np.zeros(1, dtype=np.int64), 192
    took_some = refused_some = 0
    for counter in np.random.default_rng(units).integers(0, 2**63, size=2000, dtype=np.uint64):
        c, hand, spare, goes_on = counter, units, -1, True
        for _ in range(10):  # as the shaker's loop: a crap-out or a hand at ``stop`` ends it
            hits, c, spare = shake._shake(3, hits_of, np.uint64(c), spare, NO_TAPE, pos)
            hand += hits
            if hits == 0 or hand >= stop:
                goes_on = False
                break
        took, after_counter, after_hand = shake._ten_shakes(counter, units, stop)
        assert took == goes_on
        if took:  # the same draw used up, the same hand
            assert (after_counter, after_hand, spare) == (c, hand, -1)
            took_some += 1
        else:  # nothing taken: the caller shakes one at a time from the same draw
            assert (after_counter, after_hand) == (counter, units)
            refused_some += 1
    assert refused_some > 0 and (took_some > 0 or units + 10 >= stop)
