"""Casino-table playouts in compiled code: a state played to the end of its session, many times.

The search bot tries a move on a copy of the table and then needs the rest of the session many
times over, every seat played by the sensible casino bot (``bots.casino_bot``, strategy
``every_area``: each missing wager at the table minimum while the purse pays for it, then
accept or decline the dice, roll or give them up, or say done). This module does that in Numba,
from any state of any table the engine can hold: whatever phase (the dice offered, wagers being
placed, the dealer rolling a layout out, a live dealer's entered result), the chips on the
layout as they are (any amounts), purses, the rolls left. It is its own copy of the rules
(``analysis`` is a floor above ``bots``); the tests hold it to the engine roll for roll.

Common random numbers: the dice of the session's roll number ``j`` (1 for its first roll) in
playout ``i`` of a call with seed ``s`` are the first unbiased pair drawn from a SplitMix64 stream
whose counter is ``h(h(h(s) ^ i) ^ j)``, ``h`` being SplitMix64's output function of a counter
(the counter plus the golden gamma, mixed), ``s`` taken modulo 2**64. Two states that differ by
one decision, played out with the same seed, so meet the same dice on every later roll of each
playout, however differently their sessions ran up to it: their difference has a small spread.
A roll already entered by a live dealer is settled as entered and draws nothing.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from numba import njit

from gamenight.engine import State
from gamenight.engine.errors import describe
from gamenight.games.casino_dealer import roll_index
from gamenight.games.casino_wagers import LOSE, MULTI_ROLL, STAY, WAGER_IDS
from gamenight.games.snake_eyes_casino import CasinoState, SnakeEyesCasino

from .rng import LOW32, REJECT, S32, SIX  # SplitMix64 and its dice, as every kernel draws
from .rng import NO_REFCOUNT as FAST  # the game code never allocates
from .rng import mix as _mix

MAX_PLAYOUTS = 10_000_000  # playouts in one call
AREAS = len(WAGER_IDS)
FULL = (1 << AREAS) - 1  # every area, as bits
OFFER, BETTING, ROLLING, ENTERED, CLOSED = range(5)
PHASES = dict(offer=OFFER, betting=BETTING, rolling=ROLLING, entered=ENTERED, closed=CLOSED)
# the start's scalars: phase, shooter (-1: none), dealer rolling, the offer queue (its head, its
# length, whether only seats with a wager qualify), seats done betting (bits), rolls, an entered
# result's two faces (0-5)
PHASE, SHOOTER, DEALER, QHEAD, QLEFT, NEEDS, READY, ROLLS, FACE_A, FACE_B = range(10)
SCALARS = 10
# a table's figures: table minimum, bankroll, session length
LO, BANKROLL, MAX_ROLLS = range(3)

MASK64 = 2**64 - 1


class Unsupported(ValueError):
    """A state this kernel cannot start from; the caller plays it out in Python instead."""


# --- dice ----------------------------------------------------------------------------------------
@njit(cache=True, inline="always", **FAST)
def _hash(x: Any) -> Any:
    """SplitMix64's output for counter ``x``: the keying of every roll's stream."""
    return _mix(x)[1]


@njit(cache=True, inline="always", **FAST)
def _dice(s: Any) -> tuple[int, int]:
    """Two unbiased dice (0-5) from the stream at counter ``s`` (Lemire's multiply, rejection)."""
    while True:
        s, z = _mix(s)
        m1 = (z >> S32) * SIX
        m2 = (z & LOW32) * SIX
        if (m1 & LOW32) >= REJECT and (m2 & LOW32) >= REJECT:
            return np.int64(m1 >> S32), np.int64(m2 >> S32)  # type: ignore[return-value]


# --- the table -----------------------------------------------------------------------------------
@njit(cache=True, inline="always", **FAST)
def _count(bits: int) -> int:
    """How many of the areas' bits are set."""
    bits = bits - (bits >> 1 & 0x5555)
    bits = (bits & 0x3333) + (bits >> 2 & 0x3333)
    bits = (bits + (bits >> 4)) & 0x0F0F
    return (bits + (bits >> 8)) & 0x1F


@njit(cache=True, inline="always", **FAST)
def _bet(s: int, lo: int, purse: np.ndarray, bets: np.ndarray, held: np.ndarray,
         flat: np.ndarray) -> None:  # fmt: skip
    """The bot's wagers: each area it has nothing on, in the layout's order, while it can pay.
    A seat with every area covered at the table minimum is ``flat`` (see ``_settle``)."""
    missing = FULL & ~held[s]
    if not missing:
        return
    k = _count(missing)
    if purse[s] >= lo * k:  # it pays for them all at once
        purse[s] -= lo * k
        held[s] = FULL
        if flat[s]:  # its stakes are all at the minimum already
            return
        flat[s] = True
        for w in range(AREAS):
            if missing >> w & 1:
                bets[s, w] = lo
            flat[s] &= bets[s, w] == lo
        return
    for w in range(AREAS):  # as far as its purse goes
        if missing >> w & 1:
            if purse[s] < lo:
                return
            purse[s] -= lo
            bets[s, w] = lo
            held[s] |= 1 << w


@njit(cache=True, inline="always", **FAST)
def _any(held: np.ndarray) -> bool:
    """Whether any seat has chips on the layout."""
    for s in range(held.shape[0]):  # noqa: SIM110 (no generators in Numba)
        if held[s]:
            return True
    return False


@njit(cache=True, **FAST)
def _next_offer(needs: int, head: int, left: int, held: np.ndarray,
                undec: np.ndarray) -> tuple[int, int, int, int]:  # fmt: skip
    """Rule 5.9: the dice to the queue's head (seats with no wager skipped when only those
    qualify); an empty queue leaves the dealer to roll the layout out, or closes an empty
    table. Returns (phase, dealer rolling, head, left)."""
    n = held.shape[0]
    if needs:
        while left and not held[head]:
            head, left = (head + 1) % n, left - 1
    if left:
        return OFFER, 0, head, left
    if _any(held):
        for s in range(n):
            undec[s] = held[s]
        return ROLLING, 1, head, left
    return CLOSED, 0, head, left


@njit(cache=True, inline="always", **FAST)
def _settle(roll: int, lo: int, codes: np.ndarray, rows: np.ndarray, back: np.ndarray,
            purse: np.ndarray, bets: np.ndarray, held: np.ndarray,
            flat: np.ndarray) -> None:  # fmt: skip
    """Rules 4.2 and 4.8: losers taken, winners paid; a winner comes down with its stake unless
    it is a multi-roll wager at a table where winners stay up. ``rows[roll]``: what the roll
    pays a seat with the table minimum on every area (in minimums), the areas that then come
    down (bits), and the areas it decides, -1 after the last. Only the areas in ``held`` are
    on the layout; ``bets`` of the others mean nothing."""
    for s in range(held.shape[0]):
        if not held[s]:
            continue
        if flat[s] and held[s] == FULL:  # the bot's own layout: one lookup
            purse[s] += lo * rows[roll, 0]
            held[s] = FULL & ~rows[roll, 1]
            continue
        for k in range(2, 2 + AREAS):
            w = rows[roll, k]
            if w < 0:
                break
            if not held[s] >> w & 1:
                continue
            code = codes[roll, w]
            if code != LOSE:
                amount = bets[s, w]
                purse[s] += amount * code
                if not back[w]:
                    continue
                purse[s] += amount
            held[s] &= ~(1 << w)


@njit(cache=True, nogil=True, **FAST)
def run(start: np.ndarray, purse0: np.ndarray, bets0: np.ndarray, undec0: np.ndarray,
        figures: np.ndarray, codes: np.ndarray, decided: np.ndarray, rows: np.ndarray,
        back: np.ndarray, seed: Any, taped: bool, tape: np.ndarray, out: np.ndarray,
        purse: np.ndarray, bets: np.ndarray, held: np.ndarray, flat: np.ndarray,
        undec: np.ndarray) -> int:  # fmt: skip
    """``out.shape[0]`` playouts of the state (``start``, purses, bets, the dealer's undecided
    wagers as bits), each seat's net chips at the end in ``out``. Dice come from the keyed
    streams of ``seed`` or, if ``taped``, from ``tape`` in order (then the dice read are
    returned, or -1 if it ran out). ``purse`` to ``undec``: scratch, one row a seat."""
    n = purse.shape[0]
    lo, bankroll, max_rolls = figures[LO], figures[BANKROLL], figures[MAX_ROLLS]
    key = _hash(seed)
    used = 0
    for i in range(out.shape[0]):
        mine = _hash(key ^ np.uint64(i))
        for s in range(n):
            purse[s] = purse0[s]
            undec[s] = undec0[s]
            held[s] = 0
            flat[s] = True
            for w in range(AREAS):
                bets[s, w] = bets0[s, w]
                if bets0[s, w]:
                    held[s] |= 1 << w
                    flat[s] &= bets0[s, w] == lo
            if flat[s]:
                bets[s, :] = lo
        phase, shooter, dealer = start[PHASE], start[SHOOTER], start[DEALER]
        head, left, needs, ready = start[QHEAD], start[QLEFT], start[NEEDS], start[READY]
        rolls, a, b = start[ROLLS], start[FACE_A], start[FACE_B]
        while phase != CLOSED:
            if phase == OFFER:  # the offered seat bets, then takes the dice if it has a wager
                s = head
                _bet(s, lo, purse, bets, held, flat)
                if held[s]:
                    shooter, phase, ready = s, BETTING, 0
                else:
                    phase, dealer, head, left = _next_offer(needs, (s + 1) % n, left - 1, held,
                                                            undec)  # fmt: skip
                continue
            if phase == BETTING:  # the others not yet done bet and are done; then the shooter
                for s in range(n):
                    if s != shooter and not ready >> s & 1:
                        _bet(s, lo, purse, bets, held, flat)
                _bet(shooter, lo, purse, bets, held, flat)
                if held[shooter]:
                    phase = ROLLING
                else:  # gives up the dice: round the others with a wager, else everyone
                    needs = 1 if _any(held) else 0
                    phase, dealer, head, left = _next_offer(
                        needs, (shooter + 1) % n, n - needs, held, undec
                    )
                    shooter = -1
                continue
            if phase == ROLLING:
                if taped:
                    if used + 2 > tape.size:
                        return -1
                    a, b = tape[used], tape[used + 1]
                    used += 2
                else:
                    a, b = _dice(_hash(mine ^ np.uint64(rolls + 1)))
            roll = a * 6 + b
            _settle(roll, lo, codes, rows, back, purse, bets, held, flat)
            rolls += 1
            ready = 0
            seven = a + b == 5
            if rolls >= max_rolls:
                phase = CLOSED
            elif dealer:  # rule 5.9(d): until every wager is decided or a 7
                rest = 0
                for s in range(n):
                    undec[s] &= ~decided[roll]
                    rest |= undec[s]
                phase = ROLLING
                if seven or not rest:  # done: the dice offered afresh from seat 0
                    undec[:] = 0
                    needs = 0
                    phase, dealer, head, left = _next_offer(0, 0, n, held, undec)
            elif seven:  # 7 Out: the dice round the others with a wager, else everyone
                needs = 1 if _any(held) else 0
                phase, dealer, head, left = _next_offer(
                    needs, (max(shooter, 0) + 1) % n, n - needs, held, undec
                )
                shooter = -1
            else:
                phase = BETTING
        for s in range(n):
            net = purse[s] - bankroll
            for w in range(AREAS):
                if held[s] >> w & 1:
                    net += bets[s, w]
            out[i, s] = net
    return used


# --- from the engine's state ----------------------------------------------------------------------
_TABLES: weakref.WeakKeyDictionary[SnakeEyesCasino, tuple[np.ndarray, ...]] = (
    weakref.WeakKeyDictionary()
)


def _table(game: SnakeEyesCasino) -> tuple[np.ndarray, ...]:
    """A game's figures, settlement codes [roll, area], the areas each roll decides (bits), the
    rows ``_settle`` reads, and which winners come down: read once per game (its options never
    change)."""
    if game not in _TABLES:
        opts = game.options
        figures = np.array([opts.table_min, opts.bankroll, opts.max_rolls], dtype=np.int64)
        codes = np.array([[row[w] for w in WAGER_IDS] for row in game.codes], dtype=np.int64)
        decided = np.array(
            [sum(1 << w for w in range(AREAS) if row[w] != STAY) for row in codes], dtype=np.int64
        )
        back = np.array(
            [not (opts.winners_stay_up and w in MULTI_ROLL) for w in WAGER_IDS], dtype=np.bool_
        )
        rows = np.full((36, 2 + AREAS), -1, dtype=np.int64)
        for roll, row in enumerate(codes):
            ws = [w for w in range(AREAS) if row[w] != STAY]
            rows[roll, 0] = sum(row[w] + back[w] for w in ws if row[w] != LOSE)
            rows[roll, 1] = sum(1 << w for w in ws if row[w] == LOSE or back[w])
            rows[roll, 2 : 2 + len(ws)] = ws
        _TABLES[game] = (figures, codes, decided, rows, back)
    return _TABLES[game]


def _start(state: CasinoState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The state as the kernel's arrays; ``Unsupported`` names what they cannot hold."""
    n = state.players
    phase = PHASES.get(state.phase)
    if phase is None:
        raise Unsupported(f"the table is in a phase the kernel does not know: {state.phase!r}")
    start = np.zeros(SCALARS, dtype=np.int64)
    start[PHASE] = phase
    start[SHOOTER] = -1 if state.shooter is None else state.shooter
    start[DEALER] = state.dealer_rolls
    start[ROLLS] = state.rolls
    start[READY] = sum(1 << s for s in state.ready)
    if phase == BETTING and state.shooter is None:
        raise Unsupported("wagers are being placed but nobody holds the dice")
    if phase == OFFER:
        queue = state.offer_queue
        if not 0 < len(queue) <= n or queue != [(queue[0] + k) % n for k in range(len(queue))]:
            raise Unsupported(
                f"the offer queue {describe(queue)} is not the seats in turn round the table"
            )
        start[QHEAD], start[QLEFT] = queue[0], len(queue)
        start[NEEDS] = state.offer_needs_wager
    if phase == ENTERED:
        assert state.entered is not None
        start[FACE_A], start[FACE_B] = divmod(roll_index(*state.entered), 6)
    purse = np.array([state.ledger.balances[p] for p in state.purse], dtype=np.int64)
    bets = np.zeros((n, AREAS), dtype=np.int64)
    for s, held in enumerate(state.bets):
        for w, area in enumerate(WAGER_IDS):
            bets[s, w] = held.get(area, 0)
    undec = np.zeros(n, dtype=np.int64)
    for s, area in state.undecided:
        undec[s] |= 1 << WAGER_IDS.index(area)
    return start, purse, bets, undec


def _casino(state: object) -> CasinoState:
    if not isinstance(state, CasinoState):
        kind = state.game.id if isinstance(state, State) else type(state).__name__
        raise TypeError(f"casino playouts play snake-eyes-casino states, not {kind}")
    return state


def _play(state: CasinoState, n: int, seed: int, tape: np.ndarray | None) -> tuple[np.ndarray, int]:
    """``n`` playouts into a new array, and the dice read from ``tape`` (-1: it ran out)."""
    start, purse, bets, undec = _start(state)
    out = np.zeros((n, state.players), dtype=np.float64)
    taped = tape is not None
    dice = tape if tape is not None else np.zeros(0, dtype=np.int64)
    seats = len(purse)
    scratch = purse.copy(), bets.copy(), np.zeros(seats, np.int64), np.zeros(seats, np.bool_)
    used = run(start, purse, bets, undec, *_table(state.game), np.uint64(seed), taped, dice, out,
               *scratch, undec.copy())  # fmt: skip
    return out, used


def playouts(state: CasinoState, n: int, seed: int) -> np.ndarray:
    """Returns (n, players) float64: row i is the engine's returns (state.returns(), each seat's
    net chips) of playout i of ``state`` to the end of the session, every seat played by the
    sensible casino bot (every_area); the dice keyed by (seed, i, roll) as the module says."""
    state = _casino(state)
    if type(n) is not int or not 1 <= n <= MAX_PLAYOUTS:
        raise ValueError(
            f"n must be a whole number of playouts from 1 to {MAX_PLAYOUTS:,}; got {describe(n)}"
        )
    if type(seed) is not int:
        raise TypeError(f"seed must be a whole number; got {describe(seed)}")
    return _play(state, n, seed & MASK64, None)[0]


def playout_tape(state: CasinoState, tape: Any) -> tuple[list[float], int]:
    """One playout of ``state`` on the dice of ``tape`` (values 0-5, a die showing value + 1,
    two a roll, in the engine's order): its returns and how many dice it read."""
    state = _casino(state)
    try:
        dice = np.asarray(tape)
    except (ValueError, TypeError):  # ragged or unreadable: refused below with the others
        dice = np.zeros((0, 0))
    if dice.ndim != 1 or (dice.size and (dice.dtype.kind not in "iu" or dice.min() < 0
                                         or dice.max() > 5)):  # fmt: skip
        raise ValueError("the tape must be a flat sequence of whole numbers from 0 to 5")
    out, used = _play(state, 1, 0, dice.astype(np.int64))
    if used < 0:
        raise ValueError(f"the tape ran out: its {dice.size} dice do not finish the session")
    return out[0].tolist(), used
