"""Fixed action catalogues and observation vectors for learning agents, one pair per game.

An agent picks an index into its game's catalogue; the mask marks the entries that
``legal_actions(seat)`` lists now. Observations are built from ``view(seat)`` alone, so an agent
sees exactly what a player in that seat may see. Seats are rotated: index 0 is always "me".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamenight.engine import Game
from gamenight.games.casino_wagers import WAGER_IDS
from gamenight.games.gambler import odds as gambler_odds
from gamenight.games.snap.deck import PICTURES

Action = dict[str, Any]
WAIT: Action = {"type": "wait"}  # no decision now: the agent lets the table go on
WAIT_INDEX = 0  # every catalogue's first entry
THROW: Action = {"type": "throw"}  # Snake Eyes: the thrower throws (the engine's chance move)
CARDS: tuple[str, ...] = tuple(PICTURES)
# caps of the figures no rule bounds (observations are clipped there; see docs/rl.md)
POINTS_CAP = 4.0  # Shake: 4,000 points in hand, and 4,000 plus 100 a round in a total
BANKROLL_CAP = 10.0  # the casino table: ten times the starting bankroll
CASH_CAP = 10.0  # Gambler: $10,000


def action_key(action: Action) -> tuple[tuple[str, Any], ...]:
    """One canonical, hashable form per action, so equal actions find the same entry."""
    return tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in action.items()))


@dataclass(frozen=True)
class Encoding:
    """A game's catalogue of actions and its observation builder."""

    actions: tuple[Action, ...]
    size: int  # length of the observation vector
    observe: Callable[[dict[str, Any], int], np.ndarray]
    high: np.ndarray  # each feature's largest value (every feature is 0 or more)

    def __post_init__(self) -> None:
        if self.actions[0] != WAIT:  # an agent with no decision plays entry WAIT_INDEX
            raise ValueError("a catalogue of actions starts with wait")
        if self.high.shape != (self.size,):
            raise ValueError(f"high has {self.high.shape} entries for {self.size} features")

    def index(self) -> dict[tuple[tuple[str, Any], ...], int]:
        return {action_key(a): i for i, a in enumerate(self.actions)}


def _rotate(items: Sequence[Any], seat: int) -> list[Any]:
    """Seat order starting at ``seat``: me first, then the seats to my left."""
    return [items[(seat + k) % len(items)] for k in range(len(items))]


def _onehot(value: Any, choices: Sequence[Any]) -> list[float]:
    return [1.0 if value == c else 0.0 for c in choices]


def _me(seat_value: int | None, seat: int, players: int) -> list[float]:
    """Which seat, relative to me, a seat-valued field names (all zero for none)."""
    rel = None if seat_value is None else (seat_value - seat) % players
    return _onehot(rel, range(players))


def _vector(values: list[float]) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


def _bounds(size: int, caps: dict[int, float] | None = None) -> np.ndarray:
    """Every feature's upper bound: 1 (a share, a flag, a one-hot) unless ``caps`` says more."""
    high = np.ones(size, dtype=np.float32)
    for i, cap in (caps or {}).items():
        high[i] = cap
    return high


def _capped(
    observe: Callable[[dict[str, Any], int], np.ndarray], high: np.ndarray
) -> Callable[[dict[str, Any], int], np.ndarray]:
    """``observe`` clipped at ``high``: figures the rules leave unbounded (a Shake total, a
    bankroll, Gambler cash) stop at a cap no ordinary game reaches, so the space is a finite box."""

    def clipped(view: dict[str, Any], seat: int) -> np.ndarray:
        return np.minimum(observe(view, seat), high)

    return clipped


# --- Snake Eyes: no choices; the thrower's one action is to throw --------------------------------
def _snake_eyes(game: Game) -> Encoding:
    n = game.players
    chips = float(game.options.starting_chips * n)  # type: ignore[attr-defined]
    phases = ("first-player", "play", "over")

    def observe(view: dict[str, Any], seat: int) -> np.ndarray:
        out = _onehot(view["phase"], phases) + [view["kitty"] / chips, view["chances_left"] / 3]
        out += _me(view["thrower"], seat, n)
        throw = view["last_throw"] or [0, 0]
        out += [throw[0] / 6, throw[1] / 6]
        for p in _rotate(view["players"], seat):
            up = set(p["face_up"])
            out += [p["chips"] / chips] + [1.0 if k in up else 0.0 for k in range(2, 13)]
        return _vector(out)

    size = 7 + n + n * 12
    return Encoding((WAIT, THROW), size, observe, _bounds(size))


# --- Shake ------------------------------------------------------------------------------------
def _shake(game: Game) -> Encoding:
    n = game.players
    rounds = game.options.rounds  # type: ignore[attr-defined]
    seats = range(n)
    orders = [
        {"type": "order", "seats": list(p)}
        for k in range(2, n + 1)
        for subset in itertools.combinations(seats, k)
        for p in itertools.permutations(subset)
    ]
    actions = (WAIT, {"type": "take"}, {"type": "shake"}, {"type": "stop"}, *orders)
    phases = ("roll", "choose", "shake", "shaken", "order-roll", "order", "final-roll", "over")
    scale = 1000.0

    def observe(view: dict[str, Any], seat: int) -> np.ndarray:
        out = _onehot(view["phase"], phases)
        out += [view["round"] / (rounds + 1), float(view["all_shake_round"])]
        out += _me(view["to_act"], seat, n) + _me(view["shaker"], seat, n)
        out += [view["shake_points"] / scale, float(view["crap_out_probability"])]
        rolled = (view["rolled_points"] or [])[:n]
        rolled += [0] * (n - len(rolled))
        for p, points in zip(_rotate(view["players"], seat), _rotate(rolled, seat), strict=True):
            out += [p["total"] / scale, (points or 0) / 60, p["crap_outs"] / rounds]
        return _vector(out)

    size = len(phases) + 2 + 2 * n + 2 + 3 * n
    seat0 = len(phases) + 2 + 2 * n + 2  # the first seat's block: total, die, crap-outs
    caps = {seat0 - 2: POINTS_CAP}  # points in hand / 1000
    for k in range(n):
        caps[seat0 + 3 * k] = POINTS_CAP + rounds / 10  # a total / 1000
        caps[seat0 + 3 * k + 2] = (rounds + 1) / rounds  # crap-outs, the All Shake's too
    high = _bounds(size, caps)
    return Encoding(actions, size, _capped(observe, high), high)


# --- Snake Eyes casino table --------------------------------------------------------------------
def _casino(game: Game) -> Encoding:
    n = game.players
    opts = game.options
    lo, hi, bankroll = opts.table_min, opts.table_max, opts.bankroll  # type: ignore[attr-defined]
    actions = (
        WAIT,
        *({"type": "wager", "area": w, "amount": lo} for w in WAGER_IDS),
        *({"type": "remove", "area": w} for w in WAGER_IDS),
        *({"type": "reduce", "area": w, "amount": lo} for w in WAGER_IDS),
        {"type": "accept", "dice": [0, 1]},
        {"type": "decline"},
        {"type": "done"},
        {"type": "roll"},
        {"type": "give_up"},
    )
    phases = ("offer", "betting", "rolling", "entered", "closed")
    areas = {w: i for i, w in enumerate(WAGER_IDS)}

    def observe(view: dict[str, Any], seat: int) -> np.ndarray:
        out = _onehot(view["phase"], phases) + _me(view["shooter"], seat, n)
        out += _me(view["offered_to"], seat, n)
        out += [b / bankroll for b in _rotate(view["bankrolls"], seat)]
        mine = [0.0] * len(areas)
        others = [0.0] * len(areas)
        for w in view["layout"]:
            (mine if w["seat"] == seat else others)[areas[w["area"]]] += w["amount"] / hi
        lit = set(view["lit"])
        return _vector(out + mine + others + [1.0 if w in lit else 0.0 for w in WAGER_IDS])

    size = len(phases) + 3 * n + 3 * len(areas)
    rolls = len(phases) + 2 * n  # the bankrolls, then my chips, then the others'
    caps = {rolls + k: BANKROLL_CAP for k in range(n)}
    caps |= {rolls + n + len(areas) + i: float(max(n - 1, 1)) for i in range(len(areas))}
    high = _bounds(size, caps)
    return Encoding(actions, size, _capped(observe, high), high)


# --- Snap and Slap the Elephant -----------------------------------------------------------------
def _cards(game: Game, calls: tuple[str, ...]) -> Encoding:
    n = game.players
    actions = (WAIT, {"type": "flip"}, *({"type": c} for c in calls))
    phases = ("deal", "play", "over")

    def observe(view: dict[str, Any], seat: int) -> np.ndarray:
        out = _onehot(view["phase"], phases) + _me(view["turn"], seat, n)
        center = view["center"]
        out += [len(center) / 52] + _onehot(center[-1] if center else None, CARDS)
        for p, out_flag in zip(
            _rotate(view["players"], seat), _rotate(view["out"], seat), strict=True
        ):
            top = p["face_up"][-1] if p["face_up"] else None
            out += [p["pack"] / 52, len(p["face_up"]) / 52, float(out_flag)]
            out += _onehot(top, CARDS)
        return _vector(out)

    size = len(phases) + n + 1 + len(CARDS) + n * (3 + len(CARDS))
    return Encoding(actions, size, observe, _bounds(size))


# --- Gambler ------------------------------------------------------------------------------------
def _gambler(game: Game) -> Encoding:
    n = game.players
    spaces = gambler_odds.SPACES
    simple = ("buy_ticket", "roll", "take_iou", "repay_iou", "claim_start", "end_turn")
    actions = (
        WAIT,
        *({"type": t} for t in simple),
        {"type": "roll_again"},
        {"type": "sweepstakes"},
        *({"type": "marker", "space": s} for s in spaces),
    )
    phases = ("order", "turn", "doubles", "marker", "claim", "over")

    def observe(view: dict[str, Any], seat: int) -> np.ndarray:
        board = len(view["board"])
        out = _onehot(view["phase"], phases) + _me(view["current"], seat, n)
        out += [float(view["start_due"]), view["tickets_left"] / 10]
        out += [1.0 if s in view["markers"] else 0.0 for s in spaces]
        for p in _rotate(view["players"], seat):
            out += [p["cash"] / 1000, p["position"] / board, float(p["iou"]), float(p["out"])]
            out += [len(p["tickets"]) / 10]
        return _vector(out)

    size = len(phases) + n + 2 + len(spaces) + 5 * n
    seat0 = len(phases) + n + 2 + len(spaces)  # cash / 1000 opens each seat's block of five
    high = _bounds(size, {seat0 + 5 * k: CASH_CAP for k in range(n)})
    return Encoding(actions, size, _capped(observe, high), high)


BUILDERS: dict[str, Callable[[Game], Encoding]] = {
    "snake-eyes": _snake_eyes,
    "shake": _shake,
    "snake-eyes-casino": _casino,
    "snap": lambda g: _cards(g, ("snap",)),
    "slap-the-elephant": lambda g: _cards(g, ("slap", "snap_fingers")),
    "gambler": _gambler,
}


def encoding(game: Game) -> Encoding:
    """The catalogue and observation builder of ``game`` (its options fix the sizes)."""
    return BUILDERS[game.id](game)
