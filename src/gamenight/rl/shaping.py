"""Shaped rewards: each game's measure of how a seat is doing, paid out as it changes.

With ``shaped_rewards=True`` an environment pays every seat, at every step, the change in its
*standing*: a figure read from ``view(seat)`` that is 0 before the first move and equals the
seat's return once the game is over. The rewards of a whole game therefore still add up to its
return (the shaping is potential-based: it adds no new goal, it only pays sooner); docs/rl.md
names each game's standing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamenight.engine import Game, State

View = dict[str, Any]


def _chips(game: Game) -> Callable[[View, int], float]:
    start = game.options.starting_chips  # type: ignore[attr-defined]
    return lambda view, seat: float(view["players"][seat]["chips"] - start)


def _bankroll(game: Game) -> Callable[[View, int], float]:
    start = game.options.bankroll  # type: ignore[attr-defined]
    return lambda view, seat: float(view["bankrolls"][seat] - start)


def _lead(game: Game) -> Callable[[View, int], float]:
    """Shake: my total's lead over the best other total, per thousand points."""

    def lead(view: View, seat: int) -> float:
        totals = [p["total"] for p in view["players"]]
        return (totals[seat] - max(t for s, t in enumerate(totals) if s != seat)) / 1000

    return lead


def _cards(game: Game) -> Callable[[View, int], float]:
    """Snap and Slap: my share of the cards above an even share, out of 1."""
    n = game.players

    def share(view: View, seat: int) -> float:
        held = [p["pack"] + len(p["face_up"]) for p in view["players"]]
        total = sum(held) + len(view["center"])
        return held[seat] / total - 1 / n if total else 0.0

    return share


def _cash(game: Game) -> Callable[[View, int], float]:
    """Gambler: my cash above the table's average, per $10,000."""

    def cash(view: View, seat: int) -> float:
        purses = [p["cash"] for p in view["players"]]
        return (purses[seat] - sum(purses) / len(purses)) / 10_000

    return cash


STANDINGS: dict[str, Callable[[Game], Callable[[View, int], float]]] = {
    "snake-eyes": _chips,
    "snake-eyes-casino": _bankroll,
    "shake": _lead,
    "snap": _cards,
    "slap-the-elephant": _cards,
    "gambler": _cash,
}


class Shaper:
    """Every seat's standing, remembered between steps: ``pay(state)`` returns the changes."""

    def __init__(self, game: Game) -> None:
        self.standing = STANDINGS[game.id](game)
        self.last = [0.0] * game.players

    def reset(self) -> None:
        self.last = [0.0] * len(self.last)

    def pay(self, state: State) -> list[float]:
        if state.is_terminal():
            now = [float(r) for r in state.returns()]
        else:
            now = [self.standing(state.view(s), s) for s in range(len(self.last))]
        paid = [a - b for a, b in zip(now, self.last, strict=True)]
        self.last = now
        return paid
