"""Gambler playouts from any engine state, compiled: the rest of the game, every seat played by
the sensible bot, many times over, for a search bot's rollouts.

The engine state (``games.gambler.state``) is read into the arrays of the Gambler kernel
(``kernels.gambler``) and the game goes on from exactly there with the kernel's own moves. What
the kernel never meets in a game of its own bots is settled here first: the throw for first
player half done, a bought ticket not yet drawn, a Horse Race half dealt, a Shaker with some dice
shown, Sweepstakes markers on any spaces (a person or another bot may have placed them).

Common random numbers keyed by turn: playout ``i`` of a call with ``seed`` has the key
``k_i`` = output ``i`` of the SplitMix64 stream seeded with ``seed``; game turn ``t`` (the
engine's ``turns``: 0 for the throw for first player, then 1, 2, ...) draws its chance outcomes
in order from the SplitMix64 stream seeded with output ``t`` of the stream seeded with ``k_i``
(outputs counted from 0, as ``rng.output``), except the lottery tickets bought at the start of
the turn, drawn in order from that stream's output 2**32 on, so that buying one or not leaves
the turn's dice as they were. So two states one decision apart, played out with the same seed,
meet the same dice and cards in every later turn as far as the game lets them, and the spread
of their difference is smaller than that of two independent runs.

A tape (``playout_tape``) is read as ``kernels.gambler`` reads one: a whole number per draw,
in the engine's order (the rest of a Shaker die by die, each horse dealt, then the die).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from numba import njit

from gamenight.engine.errors import GamenightError, describe
from gamenight.games.gambler import GamblerState, odds
from gamenight.games.gambler.table import MAX_TICKETS

from .gambler_game import (
    AGAIN,
    BY_LIMIT,
    CASH,
    CLAIM,
    DECK,
    DECK_N,
    DOUBLES,
    FOR_LOTTERY,
    FOR_SWEEP,
    FORTUNE,
    FRESH,
    HCARD,
    HELD,
    HORSE,
    HQ,
    HQLEN,
    IOU,
    KNOWN,
    KNOWN_N,
    MARKER,
    MAY_BUY,
    MOVE,
    N_CARDS,
    N_HORSES,
    NHELD,
    NONE,
    ORDER,
    OUT,
    OVER,
    PA,
    PB,
    PILE,
    PLAYERS,
    POSN,
    PREF,
    PRIZE,
    QLEN,
    QUEUE,
    REPAY_MIN,
    SEATS,
    SHAKER_FOR,
    SHAKER_SPACES,
    SHAPE,
    START_DUE,
    STATE_SIZE,
    TAKEN,
    THEN_END,
    TURN,
    UNSEEN,
    UNSEEN_N,
    WINNER,
    _begin_turn,
    _below,
    _deal_race,
    _draw_ticket,
    _follow,
    _gain,
    _knock_out,
    _next_turn,
    _player,
    _seat,
    _settle_shaker,
    _settled,
    _taped,
    _two_dice,
    kernel_args,
    run,
    wins,
)
from .rng import NO_REFCOUNT, output, turn_stream

MAX_PLAYOUTS = 10_000_000  # one call's playouts: its result is (n, players) float64

# Past the kernel's game state, what a game begun elsewhere may leave half done: the owner of
# each Sweepstakes space (-1: free), the Shaker's dice shown and how many, the horses dealt, the
# throws for first player made.
MARK_AT = STATE_SIZE
FACES = MARK_AT + SHAKER_SPACES
SHOWN = FACES + 6
DEALT = SHOWN + 1
THROWN = DEALT + 1
WORK_SIZE = THROWN + 1

# Where a playout starts: ``start`` holds the phase, the pending chance move (the kernel's),
# the player on turn, the turns so far, and what is settled before the kernel's loop takes over.
AT_PHASE, AT_CHANCE, AT_CUR, AT_TURNS, AT_ENTRY = range(5)
GO, THROWING, TICKET_DUE, RACING, SHAKING, MARKING = range(6)
PHASES = {"order": ORDER, "turn": TURN, "doubles": DOUBLES, "marker": MARKER, "claim": CLAIM,
          "over": OVER}  # fmt: skip
CHANCES = {None: (NONE, GO), "move": (MOVE, GO), "again": (AGAIN, GO), "fortune": (FORTUNE, GO),
           "order": (NONE, THROWING), "ticket": (NONE, TICKET_DUE), "horse": (NONE, RACING),
           "race_die": (NONE, RACING), "shaker": (NONE, SHAKING)}  # fmt: skip


class Unsupported(GamenightError, ValueError):
    """A Gambler state these playouts cannot start from (the caller plays it out in Python)."""


# --- the compiled playout ----------------------------------------------------------------------
@njit(cache=True, inline="always", **NO_REFCOUNT)
def _after(s: np.ndarray, d: np.ndarray, phase: int, chance: int, cur: int,
           turns: int) -> tuple[int, int, int, int]:  # fmt: skip
    """The engine's checks after every move: the end of the game, a player out on their own
    turn passing it on. Returns (phase, pending chance move, player on turn, turns)."""
    if phase != OVER:
        phase, chance = _settled(s, d[PLAYERS], phase, chance, cur)
    if phase in (TURN, DOUBLES, CLAIM) and chance == NONE and s[OUT + cur]:
        s[START_DUE] = 0
        phase, cur, turns = _next_turn(s, d, cur, turns)
    return phase, chance, cur, turns


@njit(cache=True, **NO_REFCOUNT)
def _throw_for_first(s: np.ndarray, rng: Any, r: np.ndarray, tape: np.ndarray,
                     at: np.ndarray) -> tuple[int, Any]:  # fmt: skip
    """The throw for first player where it stands: the contenders in ``HQ``, the totals of the
    first ``THROWN`` in ``HCARD``; ties throw again. Returns (first player, ``rng``)."""
    m, i = s[HQLEN], s[THROWN]
    while True:
        for k in range(i, m):
            rng, a, b = _two_dice(rng, r, tape, at)
            s[HCARD + k] = a + b
        best = 0
        for k in range(m):
            best = max(best, s[HCARD + k])
        left = 0
        for k in range(m):
            if s[HCARD + k] == best:
                s[HQ + left] = s[HQ + k]
                left += 1
        if left == 1:
            return s[HQ], rng
        m, i = left, 0


@njit(cache=True, **NO_REFCOUNT)
def _place_markers(s: np.ndarray, d: np.ndarray, cur: int, turns: int, rng: Any, r: np.ndarray,
                   tape: np.ndarray, at: np.ndarray) -> tuple[int, int, Any]:  # fmt: skip
    """The Sweepstakes' markers still to place, each seat's bot in the queue's order: it repays
    an IOU or claims Start first when it would, else takes the best free space (whatever spaces
    are taken). Returns (phase, turns, ``rng``): the phase is OVER if a move ended the game."""
    phase = MARKER
    while s[QLEN] > 0:
        seat = _seat(s[QUEUE])
        if (s[IOU + seat] and s[CASH + seat] >= d[REPAY_MIN]) or (s[START_DUE] and seat == cur):
            _, _, rng = _player(s, d, MARKER, cur, rng, r, tape, at)  # that repayment or claim
        else:
            for i in range(SHAKER_SPACES):
                space = d[PREF + i]
                if s[MARK_AT + space] < 0:
                    s[MARK_AT + space] = seat
                    break
            s[QLEN] -= 1
            for i in range(SEATS - 1):
                s[QUEUE + i] = s[QUEUE + i + 1]
            _knock_out(s, seat)
        phase, _, cur, turns = _after(s, d, phase, NONE, cur, turns)
        if phase == OVER:
            return phase, turns, rng
    s[SHAKER_FOR] = FOR_SWEEP
    return phase, turns, rng


@njit(cache=True, **NO_REFCOUNT)
def _shake_rest(s: np.ndarray, d: np.ndarray, rng: Any, r: np.ndarray, tape: np.ndarray,
                at: np.ndarray) -> Any:  # fmt: skip
    """The Shaker's dice not yet shown, then its Lottery or its Sweepstakes (markers on any
    spaces) settled."""
    shown = s[SHOWN]
    throw, place = 0, 1
    for i in range(shown):
        throw += place * (s[FACES + i] - 1)
        place *= 6
    if _taped(tape):  # die by die, as the engine throws them
        for _ in range(shown, 6):
            rng, v = _below(rng, r, tape, at, 6)
            throw += place * v
            place *= 6
    else:
        rng, v = _below(rng, r, tape, at, 6 ** (6 - shown))
        throw += place * v
    if s[SHAKER_FOR] == FOR_LOTTERY:
        _settle_shaker(s, d, throw)
        return rng
    for i in range(6):
        s[FACES + i] = throw % 6 + 1
        throw //= 6
    for space in range(SHAKER_SPACES):
        owner = s[MARK_AT + space]
        if owner >= 0 and wins(d[SHAPE + space], d[PA + space], d[PB + space], s, FACES):
            _gain(s, owner, d[PRIZE + space])
    return rng


@njit(cache=True, **NO_REFCOUNT)
def _playout(d: np.ndarray, s: np.ndarray, start: np.ndarray, rng: Any, r: np.ndarray,
             tape: np.ndarray, at: np.ndarray) -> tuple[int, Any]:  # fmt: skip
    """One playout of the state loaded in ``s``: what is half done is settled, then the kernel's
    game runs to the end. Returns (the winner, -1 for none; ``rng``)."""
    phase, chance, cur = start[AT_PHASE], start[AT_CHANCE], start[AT_CUR]
    turns, entry = start[AT_TURNS], start[AT_ENTRY]
    if entry == THROWING:
        first, rng = _throw_for_first(s, rng, r, tape, at)
        phase, cur, turns = _begin_turn(s, first, turns)
    elif entry == TICKET_DUE:
        rng, k = _draw_ticket(s, rng, r, tape, at)
        s[HELD + MAX_TICKETS * cur + s[NHELD + cur]] = k
        s[NHELD + cur] += 1
        _knock_out(s, cur)
        phase, chance, cur, turns = _after(s, d, phase, NONE, cur, turns)
    elif entry == RACING:
        rng = _deal_race(s, d, s[DEALT], rng, r, tape, at)
        phase, chance, cur, turns = _follow(s, d, THEN_END, phase, cur, turns)
        phase, chance, cur, turns = _after(s, d, phase, chance, cur, turns)
    elif entry in (SHAKING, MARKING):
        if entry == MARKING:
            phase, turns, rng = _place_markers(s, d, cur, turns, rng, r, tape, at)
        if phase != OVER:
            rng = _shake_rest(s, d, rng, r, tape, at)
            phase, chance, cur, turns = _follow(s, d, THEN_END, phase, cur, turns)
            phase, chance, cur, turns = _after(s, d, phase, chance, cur, turns)
    return run(d, s, phase, chance, cur, turns, 0, rng, r, tape, at)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _copy(d: np.ndarray, s0: np.ndarray, s: np.ndarray) -> None:
    """A playout's start: the parts of ``s0`` a game may read before it writes them (the
    Fortune cards and the ticket pile as long as the data's, not the kernel's room for them)."""
    cards = d[N_CARDS]
    for i in range(UNSEEN + cards):
        s[i] = s0[i]
    for i in range(KNOWN, KNOWN + cards):
        s[i] = s0[i]
    for i in range(PILE, PILE + d[FRESH + DECK_N]):
        s[i] = s0[i]
    for i in range(STATE_SIZE, WORK_SIZE):
        s[i] = s0[i]


@njit(cache=True, nogil=True, error_model="numpy")
def _playouts(d: np.ndarray, s0: np.ndarray, start: np.ndarray, n: int, seed: Any,
              out: np.ndarray) -> None:  # fmt: skip
    """``n`` playouts of the state in ``s0`` into ``out`` (zeros on entry), each on its own
    keyed streams (the module's docstring)."""
    s = np.empty_like(s0)
    r = np.empty(3, dtype=np.uint64)  # the playout's key, the turn served, its tickets' place
    at = np.zeros(1, dtype=np.int64)
    no_tape = np.zeros(0, dtype=np.int8)
    for i in range(n):
        _copy(d, s0, s)
        r[0] = output(seed, np.uint64(i))
        r[1] = np.uint64(0xFFFFFFFFFFFFFFFF)  # no turn yet: the first call keys one
        rng = turn_stream(np.uint64(0), r, start[AT_TURNS])
        w, rng = _playout(d, s, start, rng, r, no_tape, at)
        if w >= 0:
            out[i, w] = 1.0


# --- from the engine ---------------------------------------------------------------------------
_TABLES: weakref.WeakKeyDictionary[Any, np.ndarray] = weakref.WeakKeyDictionary()


def _table(state: GamblerState) -> np.ndarray:
    """The kernel's table and bot for the state's game, built once per game."""
    game = state.game
    d = _TABLES.get(game)
    if d is None:
        if game.players > SEATS:
            raise Unsupported(f"the kernel seats {SEATS} players at most, not {game.players}")
        try:
            d = kernel_args(game.options_dict())
        except ValueError as e:  # data past the kernel's limits
            raise Unsupported(str(e)) from None
        _TABLES[game] = d
    return d


def load(state: GamblerState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The state in the kernel's arrays: (table ``d``, game ``s``, where it starts)."""
    if not isinstance(state, GamblerState):
        game = getattr(getattr(state, "game", None), "id", None)
        what = f"a {game!r} state" if isinstance(game, str) else describe(state)
        raise TypeError(f"Gambler playouts need a Gambler state, not {what}")
    d = _table(state)
    if state.phase not in PHASES:
        raise Unsupported(f"the kernel knows no Gambler phase {state.phase!r}")
    if state.chance not in CHANCES:
        raise Unsupported(f"the kernel knows no Gambler chance move {state.chance!r}")
    chance, entry = CHANCES[state.chance]
    if state.phase == "marker" and state.chance is None:
        entry = MARKING
    s = np.zeros(WORK_SIZE, dtype=np.int64)
    n, game = state.players, state.game
    for seat in range(n):
        s[CASH + seat] = state.ledger[state.purse[seat]]
        s[POSN + seat] = state.position[seat]
        s[IOU + seat] = state.iou[seat]
        s[OUT + seat] = state.out[seat]
    kinds = sorted({(a, b) for a, b in game.data.tickets.tickets})  # as kernels.gambler numbers
    kind = {t: i for i, t in enumerate(kinds)}
    for seat, held in enumerate(state.tickets):
        s[NHELD + seat] = len(held)
        for i, t in enumerate(held):
            s[HELD + MAX_TICKETS * seat + i] = kind[t]
    pile = [kind[t] for t in state.ticket_deck]
    s[PILE : PILE + len(pile)] = pile
    s[DECK : DECK + len(kinds)] = np.bincount(np.array(pile, dtype=np.int64), minlength=len(kinds))
    s[DECK_N] = len(pile)
    unseen, known = state.fortune_unseen, state.fortune_known
    s[UNSEEN : UNSEEN + len(unseen)] = unseen  # a tape reads them in this order, as the engine
    s[UNSEEN_N] = len(unseen)
    s[KNOWN : KNOWN + len(known)] = known  # the head of the deck's known part first
    s[KNOWN_N] = len(known)
    s[START_DUE], s[MAY_BUY] = state.start_due, state.may_buy
    s[QUEUE : QUEUE + len(state.marker_queue)] = state.marker_queue
    s[QLEN] = len(state.marker_queue)
    s[MARK_AT : MARK_AT + SHAKER_SPACES] = -1
    for space, seat in state.markers.items():
        s[MARK_AT + odds.SPACES.index(space)] = seat
    if state.chance == "shaker":  # (what the last Shaker was for, and its dice, stay till the next)
        s[SHAKER_FOR] = FOR_LOTTERY if state.shaker_for == "lottery" else FOR_SWEEP
        s[FACES : FACES + len(state.shaker)] = state.shaker
        s[SHOWN] = len(state.shaker)
    if state.chance == "order":  # the contenders, and the throws made so far
        s[HQ : HQ + len(state.contenders)] = state.contenders
        s[HQLEN] = len(state.contenders)
        s[HCARD : HCARD + len(state.order_throws)] = list(state.order_throws.values())
        s[THROWN] = len(state.order_throws)
    else:  # a Horse Race: those dealt first, in the order dealt, then those waiting
        dealt = list(state.horse_cards.items())
        racing = [seat for seat, _ in dealt] + list(state.horse_queue)
        s[HQ : HQ + len(racing)] = racing
        s[HQLEN] = len(racing)
        horses = list(d[HORSE : HORSE + d[N_HORSES]])
        for i, (_, horse) in enumerate(dealt):
            s[HCARD + i] = horse
            s[TAKEN + horses.index(horse)] = 1
        s[DEALT] = len(dealt)
    winner = state.winner()
    s[WINNER] = -1 if winner is None else winner
    s[BY_LIMIT] = state.by_limit
    start = np.array([PHASES[state.phase], chance, state.current, state.turns, entry])
    return d, s, start.astype(np.int64)


def _count(n: object) -> int:
    if type(n) is not int:
        raise TypeError(f"n must be a whole number of playouts, not {describe(n)}")
    if not 1 <= n <= MAX_PLAYOUTS:
        raise ValueError(f"n must be from 1 to {MAX_PLAYOUTS:,}, not {describe(n)}")
    return n


def _seed(seed: object) -> np.uint64:
    if type(seed) is not int:
        raise TypeError(f"seed must be a whole number from 0 to 2**64 - 1, not {describe(seed)}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, not {describe(seed)}")
    return np.uint64(seed)


def playouts(state: GamblerState, n: int, seed: int) -> np.ndarray:
    """Returns (n, players) float64: row i is the engine's returns (state.returns() at the end)
    of playout i of ``state`` to the end of the game, every seat played by the sensible bot."""
    count, key = _count(n), _seed(seed)
    d, s, start = load(state)
    out = np.zeros((count, state.players), dtype=np.float64)
    _playouts(d, s, start, count, key, out)
    return out


def playout_tape(state: GamblerState, tape: np.ndarray) -> tuple[list[float], int]:
    """One playout on given chance outcomes, read in the engine's order as gambler.py's tape is.
    Returns (the returns, draws used); an IndexError if the tape runs out first."""
    tape = np.asarray(tape)
    if tape.ndim != 1 or tape.dtype.kind not in "iu":
        raise TypeError(f"a tape is a 1-D array of whole numbers, not {tape.dtype} {tape.shape}")
    d, s, start = load(state)
    at = np.zeros(1, dtype=np.int64)
    r = np.zeros(1, dtype=np.uint64)  # no stream: every draw is the tape's
    w, _ = _playout(d, s, start, 0, r, np.ascontiguousarray(tape, dtype=np.int64), at)
    return [1.0 if seat == w else 0.0 for seat in range(state.players)], int(at[0])
