"""Risk of ruin and expected session length at the casino table, exactly (one player).

The player buys in with a bankroll, bets a strategy (``bots.casino_bot``) one table minimum a
wager, re-placing each wager as soon as it is decided, while the purse allows; the session ends
when the purse cannot cover a wager and nothing is left on the layout (ruin), or at the roll
limit. A Markov chain over the purse (in table minimums) and the multi-roll wagers still up.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def risk_of_ruin(strategy: str, bankroll: int, unit: int, rolls: int,
                 **table: Any) -> dict[str, Any]:  # fmt: skip
    """Chance of ruin before ``rolls`` rolls and the expected number of rolls played."""
    from gamenight.analysis.kernels.casino import tables
    from gamenight.analysis.kernels.exact import casino_ruin
    from gamenight.engine import new_game

    opts: Any = new_game(
        "snake-eyes-casino", players=1, bankroll=bankroll, table_min=unit, max_rolls=rolls,
        **table,
    ).options  # fmt: skip
    codes, multi = tables(opts.model_dump(), strategy)
    bits = np.zeros(multi.size, dtype=np.int64)
    k = 0
    for i in range(multi.size):
        if multi[i]:
            bits[i] = 1 << k
            k += 1
    units = bankroll // unit
    if units > codes.shape[1] * rolls:  # one unit an area a roll at most: it cannot run out
        ruin, length = 0.0, float(rolls)  # (the chain's answer; its arrays grow with units)
    else:
        ruin, length = casino_ruin(units, rolls, codes, bits, opts.winners_stay_up)
    return {
        "strategy": strategy,
        "bankroll": bankroll,
        "unit": unit,
        "max_rolls": rolls,
        "risk_of_ruin": float(ruin),
        "expected_rolls": float(length),
    }
