"""Feeding the reference engine a tape of dice: the same chance outcomes a kernel reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gamenight.bots import make_bot
from gamenight.engine import State

# (state, tape, position) -> (chance action, dice used)
ToAction = Callable[[State, np.ndarray, int], tuple[dict[str, Any], int]]


def engine_on_tape(state: State, tape: np.ndarray, to_action: ToAction) -> tuple[State, int]:
    """Play ``state`` to the end: chance from the tape, every seat by the game's sensible bot."""
    bots = [make_bot(state.game.id, "sensible", seed=s) for s in range(state.players)]
    pos = 0
    while not state.is_terminal():
        if state.is_chance():
            action, used = to_action(state, tape, pos)
            pos += used
            state.apply(action)
        else:
            seat = state.actors()[0]
            state.apply(bots[seat].act(state, seat), seat)
    return state, pos


def shake_dice(state: State, tape: np.ndarray, pos: int) -> tuple[dict[str, Any], int]:
    """Shake's next chance move from the tape: six shake dice (below ``scoring_faces`` scores)
    or the colored dice of everyone rolling, a die showing ``value + 1``."""
    if state.phase == "shake":  # type: ignore[attr-defined]
        k = state.game.options.scoring_faces  # type: ignore[attr-defined]
        return {"type": "shake", "faces": [10 if v < k else 0 for v in tape[pos : pos + 6]]}, 6
    n = state.players if state.phase == "roll" else len(state.contenders)  # type: ignore[attr-defined]
    return {"type": "dice", "faces": [int(v) + 1 for v in tape[pos : pos + n]]}, n


def chance_from_tape(state: State, tape: np.ndarray, to_action: ToAction) -> list[int]:
    """Make ``state`` draw its chance moves from the tape from now on, for any play loop that
    calls ``state.play_chance()``; the returned one-item list counts the dice read."""
    used = [0]

    def play_chance() -> None:
        action, n = to_action(state, tape, used[0])
        used[0] += n
        state.apply(action)

    state.play_chance = play_chance  # type: ignore[method-assign]
    return used


# --- Gambler: the draws as the kernel reads them, and tables of the project's making ---------
def gambler_draw(state: Any, tape: np.ndarray, pos: int) -> tuple[dict[str, Any], int]:
    """The engine's chance move read from the tape, as the kernel reads it."""
    kind, v = state.chance, int(tape[pos])
    if kind in ("order", "move", "again"):
        return {"type": "dice", "faces": [v % 6 + 1, int(tape[pos + 1]) % 6 + 1]}, 2
    if kind in ("shaker", "race_die"):
        return {"type": "die", "face": v % 6 + 1}, 1
    if kind == "ticket":
        deck = sorted(state.ticket_deck)
        return {"type": "ticket", "ticket": list(deck[v % len(deck)])}, 1
    if kind == "horse":
        left = state._horses_left()
        return {"type": "horse", "horse": left[v % len(left)]}, 1
    unseen = state.fortune_unseen
    return {"type": "fortune", "card": unseen[v % len(unseen)]}, 1


def space(name: str, kind: str, amount: int | None = None) -> dict[str, Any]:
    return {"name": name, "kind": kind, **({"amount": amount} if amount else {})}


# A harsh table of the project's making: bills everywhere, so IOUs run dry and players go out.
HARSH_BOARD = {"space": [
    space("Start", "start"), space("Fortune", "fortune"), space("Tax", "pay", 90),
    space("Sweepstakes", "sweepstakes"), space("Fine", "pay", 150), space("Lottery", "lottery"),
    space("Rent", "pay", 120), space("Races", "races"), space("Fortune", "fortune"),
    space("Bill", "pay", 110), space("Gift", "collect", 40), space("Daily", "daily_double"),
    space("Dues", "pay", 130), space("Fortune", "fortune"),
]}  # fmt: skip
HARSH_CARDS = {"card": [
    {"text": "a", "effect": "pay_each", "amount": 70},
    {"text": "b", "effect": "collect_from_each", "amount": 80},
    {"text": "c", "effect": "go_to", "to": "lottery"},
    {"text": "d", "effect": "advance", "amount": 7},
    {"text": "e", "effect": "pay", "amount": 120},
    {"text": "f", "effect": "collect", "amount": 150},
    {"text": "g", "effect": "lottery"},
    {"text": "h", "effect": "horse_race"},
    {"text": "i", "effect": "sweepstakes"},
    {"text": "j", "effect": "go_to", "to": "start"},
]}  # fmt: skip


EVENTS_BOARD = {"space": [
    space("Start", "start"), space("Races", "races"), space("Lottery", "lottery"),
    space("Daily", "daily_double"), space("Sweepstakes", "sweepstakes"), space("Fee", "pay", 30),
    space("Races", "races"), space("Fortune", "fortune"),
]}  # fmt: skip


def tapes(seed: int, count: int, length: int) -> np.ndarray:
    """``count`` tapes of ``length`` dice (0-5), reproducible from ``seed``."""
    return np.random.default_rng(seed).integers(0, 6, size=(count, length), dtype=np.int8)


class TapeRandom:
    """The realtime table's reaction draws, and the cards, read from a tape's three rows:
    uniforms (``random``, ``choice``, card draws), standard normals (``gauss``) and standard
    exponentials (``expovariate``), turned into the asked law as Python's ``random`` does."""

    def __init__(self, tape: np.ndarray) -> None:
        self.tape = tape
        self.used = [0, 0, 0]

    def _next(self, row: int) -> float:
        v = float(self.tape[row, self.used[row]])
        self.used[row] += 1
        return v

    def random(self) -> float:
        return self._next(0)

    def choice(self, seq: list[Any]) -> Any:
        return seq[int(self.random() * len(seq))]

    def gauss(self, mu: float, sigma: float) -> float:
        return mu + self._next(1) * sigma

    def expovariate(self, lambd: float) -> float:
        return self._next(2) / lambd


def realtime_on_tape(state: Any, tape: np.ndarray, levels: list[str],
                     max_events: int | None = None) -> tuple[Any, list[int]]:  # fmt: skip
    """Play ``state`` at the realtime table, a bot of ``levels[s]`` in each seat, as the
    simulator does, with every card and reaction draw taken from the tape; (state, row use)."""
    from gamenight.realtime import RealtimeTable

    rand = TapeRandom(tape)

    def sample_chance() -> dict[str, Any]:
        action = state._sample_chance(rand)  # the engine's own card draw, on the tape's double
        state.apply(action)
        return dict(action)

    state.sample_chance = sample_chance
    table = RealtimeTable(state, dict(enumerate(levels)), seed=0)
    table.rng = rand  # type: ignore[assignment]
    table.run() if max_events is None else table.run(max_events=max_events)
    return state, rand.used


def realtime_tapes(seed: int, length: int) -> Any:
    """Endless tapes for ``realtime_on_tape``: rows of uniforms, normals and exponentials."""
    g = np.random.default_rng(seed)
    while True:
        yield np.stack(
            [g.random(length), g.standard_normal(length), g.standard_exponential(length)]
        )
