"""Shake played out to the end from any engine state, compiled, every seat the sensible bot.

The search bot tries a move on a copy of the table, then needs thousands of endings of that game
to score it. Here an engine ``ShakeState`` is read once into a few integer arrays (phase, round,
totals, colored dice, choosing queue, shaker and points in hand, All Shake slots, roll-off
contenders, who has had an All Shake turn) and one Numba call plays ``n`` endings, every seat
choosing as ``bots.shake_bot.ShakeBot`` does (its exact values as two lookup tables, its All
Shake race written out), and returns what ``state.returns()`` would give at each ending.

Common random numbers, keyed by purpose. Playout ``i`` of seed ``s`` draws every die from a
SplitMix64 stream of its own purpose: its counter starts at ``H(H(H(s ^ SALT) + (i + 1)·γ) ^
H(code·γ))`` (``H`` SplitMix64's finaliser, ``γ`` its increment), where ``code`` names what the
dice are for:

- the colored dice of round ``r`` (re-rolls of an all-equal throw read on in the same stream);
- the shakes of seat ``q``'s turn in round ``r``;
- seat ``q``'s All Shake turn;
- the roll-off of the ``j``-th All Shake slot (every re-roll of that tie), and the final roll-off.

So two states one decision apart (stop now, or shake once more), played out with one seed, meet
the same dice in every later turn, and their paired difference has a small spread. The current
turn's shakes are read from the start of that turn's stream: a state that shakes once more
reads the next value, which a state that stopped never reads. With three scoring faces each
shake is six fair bits, ten shakes to a 64-bit draw; otherwise one exact draw among the 6**6
ordered throws, two shakes to a draw (Lemire's multiply with rejection, as ``analysis.kernels``).

``playout_tape`` reads the dice instead from a tape (values 0-5, in the engine's order: a
colored die shows ``value + 1``, a shake die scores when ``value < scoring_faces``), so a test
can hand the engine the very same dice. Numba is the optional ``kernels`` extra: importing this
module without it raises ImportError, and callers fall back to Python playouts.
"""

from __future__ import annotations

from functools import cache
from math import comb
from typing import Any

import numpy as np
from numba import njit

from gamenight.bots.shake_bot import TurnPlan, keeps_shaking, shake_values
from gamenight.games.shake import ShakeState

from .rng import (  # SplitMix64 and Lemire's unbiased multiply, as every kernel draws
    GAMMA,
    LOW32,
    MIX1,
    MIX2,
    NO_REFCOUNT,
    REJECT,
    S27,
    S30,
    S31,
    S32,
    SHAKE_OUTCOMES,
    SHAKE_REJECT,
    SIX,
)

MAX_PLAYOUTS = 10_000_000  # one call's playouts (its result alone is 80 MB a seat at the top)
KNOWN_OPTIONS = frozenset({"players", "rounds", "scoring_faces", "final_tie"})

SALT = np.uint64(0x5348414B45524F4C)  # "SHAKEROL": this kernel's streams, apart from others'
S4 = np.uint64(4)
SENTINEL = np.int64(1 << 60)  # marks the end of a draw's 60 unused bits
HALF_HITS = np.array([bin(b).count("1") for b in range(64)], dtype=np.int64)

# the engine's phases, then steps between them that the engine takes inside one move
ROLL, CHOOSE, SHAKE, SHAKEN, ORDER_ROLL, ORDER, FINAL_ROLL, OVER = range(8)
END_ROUND, NEXT_TIE, NEXT_SHAKER, FINISH = range(8, 12)
PHASES = ("roll", "choose", "shake", "shaken", "order-roll", "order", "final-roll", "over")
# what a stream of dice is for (the purpose in its key)
ROLL_KEY, TURN_KEY, ALL_KEY, ORDER_KEY, FINAL_KEY = range(1, 6)
# a table's scalars
PHASE, ROUND, SHAKER, POINTS, QHEAD, QLEN, TIED, NCONT, PICKER, TURN, NSLOTS = range(11)
SCALARS = 11
# a table's rows, a seat a column (seven columns at least: COUNT counts faces 1-6): totals,
# colored dice, the choosing queue, the All Shake slots (seats in order, then where each slot
# ends), roll-off contenders (the winners at the end), All Shake turn had, scratch
TOTAL, ROLLED, QUEUE, SLOT, SLOT_END, CONT, DONE, COUNT, FACES = range(9)
ROWS = 9


class Unsupported(ValueError):
    """A state this kernel cannot start from; the message says which part and why."""


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _fin(z: Any) -> Any:
    """SplitMix64's finaliser: a well-mixed 64-bit word from any counter."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _start(key: Any, kind: int, r: int, seat: int) -> Any:
    """The counter of the stream for one purpose of one playout (``key``)."""
    code = np.uint64(kind | r << 3 | seat << 11)
    return _fin(key ^ _fin(code * GAMMA))


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _taped(tape: np.ndarray, pos: np.ndarray) -> Any:
    """The next tape die, 0-5; past the end a cycle that ends any game (the caller refuses)."""
    p = pos[0]
    pos[0] = p + 1
    return np.int64(tape[p]) if p < tape.size else p % 6


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _die(c: Any, tape: np.ndarray, pos: np.ndarray) -> tuple[Any, Any]:
    """One colored die, 0-5, and the stream's counter after it."""
    if tape.size:
        return _taped(tape, pos), c
    while True:
        c = c + GAMMA
        m = (_fin(c) >> S32) * SIX
        if (m & LOW32) >= REJECT:
            return np.int64(m >> S32), c


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _hits(k: int, hits_of: np.ndarray, c: Any, spare: Any, tape: np.ndarray,
          pos: np.ndarray) -> tuple[Any, Any, Any]:  # fmt: skip
    """Scoring dice of one shake: (hits, counter, spare), ``spare`` holding the draw's unread
    shakes (-1: none)."""
    hits: Any = 0
    if tape.size:
        for _ in range(6):
            if _taped(tape, pos) < k:
                hits += 1
        return hits, c, spare
    if k == 3:  # each die scores with chance exactly 1/2: six fair bits, ten shakes a draw
        if spare < 0:
            c = c + GAMMA
            spare = int(np.int64(_fin(c) >> S4) | SENTINEL)
        hits = HALF_HITS[spare & 63]
        spare >>= 6
        if spare == 1:  # only the sentinel is left: the next shake draws again
            spare = -1
        return hits, c, spare
    if spare >= 0:
        u = spare
        spare = -1
    else:
        while True:
            c = c + GAMMA
            z = _fin(c)
            m1 = (z >> S32) * SHAKE_OUTCOMES
            m2 = (z & LOW32) * SHAKE_OUTCOMES
            if (m1 & LOW32) >= SHAKE_REJECT and (m2 & LOW32) >= SHAKE_REJECT:
                u, spare = np.int64(m1 >> S32), np.int64(m2 >> S32)
                break
    return int(hits_of[u]), c, spare


@njit(cache=True, **NO_REFCOUNT)
def _play(n: int, rounds: int, k: int, rolloff: bool, shake_die: np.ndarray, keep: np.ndarray,
          hits_of: np.ndarray, key: Any, sc: np.ndarray, st: np.ndarray, tape: np.ndarray,
          pos: np.ndarray, plan: np.ndarray) -> int:  # fmt: skip
    """Play the table in ``sc``/``st`` to its end; the winners are ``st[CONT, :m]``, returns m.

    The engine's moves in its order (``games.shake``), the sensible bot deciding for every
    seat, except that seat ``plan[0]`` shakes round ``plan[1]`` until ``plan[2]`` points in hand
    (a ``TurnPlan``); a chance phase draws from its purpose's stream (``key`` is the playout's)."""
    total, rolled, queue, slot = st[TOTAL], st[ROLLED], st[QUEUE], st[SLOT]
    ends, cont, done, count, faces = st[SLOT_END], st[CONT], st[DONE], st[COUNT], st[FACES]
    phase, rnd, shaker, points = sc[PHASE], sc[ROUND], sc[SHAKER], sc[POINTS]
    qhead, qlen, tied, ncont = sc[QHEAD], sc[QLEN], sc[TIED], sc[NCONT]
    picker, turn, nslots = sc[PICKER], sc[TURN], sc[NSLOTS]
    while True:
        if phase in (SHAKE, SHAKEN):  # a turn of shakes, to the bot's stop or six blanks
            final = rnd > rounds
            c = _start(key, ALL_KEY if final else TURN_KEY, 0 if final else rnd, shaker)
            spare = -1
            rivals = -1  # All Shake: the best other total, and whether another seat shakes later
            later = False
            if final:
                for o in range(n):
                    if o != shaker:
                        rivals = max(rivals, total[o])
                        later = later or done[o] == 0
            throw = phase == SHAKE
            planned = shaker == plan[0] and rnd == plan[1]
            while True:
                if throw:
                    hits, c, spare = _hits(k, hits_of, c, spare, tape, pos)
                    if hits == 0:
                        points = 0
                        break
                    points += 10 * hits
                throw = True
                u = points // 10
                go = points < plan[2] if planned else u < keep.size and keep[u]
                if final:  # shake while a stop cannot win; stop on the lead when nobody is left
                    if total[shaker] + points <= rivals:
                        go = True
                    elif not later:
                        go = False
                if not go:
                    break
            total[shaker] += points
            if final:
                done[shaker] = 1
                turn += 1
                phase = NEXT_SHAKER
            else:
                phase = END_ROUND
            shaker, points = -1, 0
        elif phase == ROLL:
            c = _start(key, ROLL_KEY, rnd, 0)
            same = True
            while same:  # all equal: everyone rolls again
                for s in range(n):
                    d, c = _die(c, tape, pos)
                    rolled[s] = d + 1
                    same = same and rolled[s] == rolled[0]
            for f in range(7):
                count[f] = 0
            for s in range(n):
                count[rolled[s]] += 1
            qhead = qlen = 0
            for s in range(n):
                f = rolled[s]
                if count[f] > 1:  # matched: scored at once
                    total[s] += 10 * f
                    continue
                j = qlen  # the choosing queue, highest die first (unmatched faces differ)
                while j > 0 and rolled[queue[j - 1]] < f:
                    queue[j] = queue[j - 1]
                    j -= 1
                queue[j] = s
                qlen += 1
            phase = CHOOSE if qlen else END_ROUND
        elif phase == CHOOSE:
            s = queue[qhead]
            qhead += 1
            if shake_die[rolled[s]]:  # one shaker a round: everyone after scores their die
                for i in range(qhead, qlen):
                    total[queue[i]] += 10 * rolled[queue[i]]
                qhead = qlen = 0
                shaker, points, phase = s, 0, SHAKE
            else:
                total[s] += 10 * rolled[s]
                if qhead == qlen:
                    phase = END_ROUND
        elif phase == END_ROUND:
            rnd += 1
            qhead = qlen = 0
            for s in range(n):
                rolled[s] = 0
            if rnd <= rounds:
                phase = ROLL
                continue
            for i in range(n):  # the All Shake slots: seats by total, ties in seat order
                j = i
                while j > 0 and total[slot[j - 1]] < total[i]:
                    slot[j] = slot[j - 1]
                    j -= 1
                slot[j] = i
            nslots = 0
            for i in range(n):
                if i == n - 1 or total[slot[i + 1]] != total[slot[i]]:
                    ends[nslots] = i + 1
                    nslots += 1
            tied, phase = -1, NEXT_TIE
        elif phase == NEXT_TIE:
            phase = NEXT_SHAKER
            for i in range(tied + 1, nslots):
                lo = 0 if i == 0 else ends[i - 1]
                if ends[i] - lo > 1:
                    tied, ncont, phase = i, ends[i] - lo, ORDER_ROLL
                    for t in range(ncont):
                        cont[t] = slot[lo + t]
                    break
            if phase == NEXT_SHAKER:  # every slot settled: the slots are the All Shake order
                tied, ncont, turn = -1, 0, 0
        elif phase == NEXT_SHAKER:
            if turn < n:
                shaker, points, phase = slot[turn], 0, SHAKE
            else:
                phase = FINISH
        elif phase in (ORDER_ROLL, FINAL_ROLL):  # until one contender rolls highest
            tie = phase == ORDER_ROLL
            c = _start(key, ORDER_KEY if tie else FINAL_KEY, tied if tie else 0, 0)
            while ncont > 1:
                best = -1
                for i in range(ncont):
                    d, c = _die(c, tape, pos)
                    faces[i] = d
                    best = max(best, d)
                m = 0
                for i in range(ncont):
                    if faces[i] == best:
                        cont[m] = cont[i]
                        m += 1
                ncont = m
            if tie:
                picker, phase = cont[0], ORDER
            else:
                phase = OVER
        elif phase == ORDER:  # the high roller orders the slot: the others as they were, it last
            lo = 0 if tied == 0 else ends[tied - 1]
            t = lo
            for u in range(lo, ends[tied]):
                if slot[u] != picker:
                    slot[t] = slot[u]
                    t += 1
            slot[t] = picker
            picker, phase = -1, NEXT_TIE
        elif phase == FINISH:
            best = total[0]
            for s in range(1, n):
                best = max(best, total[s])
            ncont = 0
            for s in range(n):
                if total[s] == best:
                    cont[ncont] = s
                    ncont += 1
            phase = FINAL_ROLL if ncont > 1 and rolloff else OVER
        else:
            return ncont


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _reset(init_sc: np.ndarray, init_st: np.ndarray, sc: np.ndarray, st: np.ndarray) -> None:
    for i in range(sc.size):
        sc[i] = init_sc[i]
    for r in range(st.shape[0]):
        for s in range(st.shape[1]):
            st[r, s] = init_st[r, s]


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _run(n: int, rounds: int, k: int, rolloff: bool, shake_die: np.ndarray, keep: np.ndarray,
         hits_of: np.ndarray, seed: Any, init_sc: np.ndarray, init_st: np.ndarray,
         sc: np.ndarray, st: np.ndarray, tape: np.ndarray, pos: np.ndarray,
         plan: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """Row i of ``out``: the returns of playout i (its own streams, keyed by ``seed`` and i)."""
    base = _fin(seed ^ SALT)
    for i in range(out.shape[0]):
        _reset(init_sc, init_st, sc, st)
        key = _fin(base + np.uint64(i + 1) * GAMMA)
        m = _play(n, rounds, k, rolloff, shake_die, keep, hits_of, key, sc, st, tape, pos, plan)
        for s in range(n):
            out[i, s] = 0.0
        share = 1.0 / m
        for j in range(m):
            out[i, st[CONT, j]] = share


# --- from the engine's state to the kernel's arrays ----------------------------------------------
@cache
def _tables(scoring_faces: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sensible bot's choices as tables (shake a die of face f?  shake on with 10*i in
    hand?) and ``hits[u]``: scoring dice of ordered throw u of the 6**6, sorted by hits."""
    values = shake_values(scoring_faces)
    shake_die = np.array([f > 0 and values[0] > f * 10 for f in range(7)], dtype=np.bool_)
    keep = np.array([keeps_shaking(i * 10, scoring_faces) for i in range(len(values) + 6)],
                    dtype=np.bool_)  # fmt: skip
    k = scoring_faces
    counts = [comb(6, j) * k**j * (6 - k) ** (6 - j) for j in range(7)]
    hits = np.repeat(np.arange(7, dtype=np.int8), counts)
    for a in (shake_die, keep, hits):
        a.flags.writeable = False  # shared by every call and thread
    return shake_die, keep, hits


def _inconsistency(state: ShakeState) -> str | None:
    """What in the state's fields no engine move could have left, if anything: the kernel
    indexes by them, so a state edited by hand is refused rather than read out of bounds."""
    n, phase = state.players, state.phase
    seats = range(n)
    if not 1 <= state.round <= state.game.options.rounds + 1:
        return f"round {state.round}"
    if len(state.scores) != n or len(state.all_shake) != n:
        return "scores or All Shake scores not one a seat"
    if phase in ("shake", "shaken") and state.shaker not in seats:
        return f"shaker {state.shaker!r}"
    if phase == "choose" and not (state.rolled and state.queue and set(state.queue) <= set(seats)):
        return f"choosing queue {state.queue!r} of dice {state.rolled!r}"
    slots = sorted(s for slot in state.slots for s in slot)
    if state.slots and slots != list(seats):
        return f"All Shake slots {state.slots!r}"
    if phase in ("order-roll", "order") and state.tied_slot not in range(len(state.slots)):
        return f"tied slot {state.tied_slot!r}"
    if phase in ("order-roll", "final-roll") and not (
        len(state.contenders) >= 2 and set(state.contenders) <= set(seats)
    ):
        return f"roll-off contenders {state.contenders!r}"
    if phase == "order" and state.picker not in seats:
        return f"picker {state.picker!r}"
    final = state.round > state.game.options.rounds
    if final and phase in ("roll", "choose"):
        return f"phase {phase!r} in the All Shake round"
    if (
        final
        and phase in ("shake", "shaken")
        and (sorted(state.order) != list(seats) or state.turn not in seats)
    ):
        return f"All Shake order {state.order!r} at turn {state.turn}"
    return None


class _Table:
    """One engine state read into the kernel's arrays, with the game's settings."""

    def __init__(self, state: object) -> None:
        if not isinstance(state, ShakeState):
            game = getattr(getattr(state, "game", None), "id", None)
            of = f" (game {game!r})" if game else ""
            raise TypeError(f"Shake playouts need a Shake state, not {type(state).__name__}{of}")
        options = state.game.options
        unknown = sorted(set(type(options).model_fields) - KNOWN_OPTIONS)
        if unknown:
            raise Unsupported(f"Shake playouts do not know the option(s) {', '.join(unknown)}")
        if state.phase not in PHASES:
            raise Unsupported(f"Shake playouts cannot start from phase {state.phase!r}")
        broken = _inconsistency(state)
        if broken:
            raise Unsupported(f"Shake playouts cannot start from this state: {broken}")
        self.state = state
        self.players = n = state.players
        self.rounds = options.rounds
        self.k = options.scoring_faces
        self.rolloff = options.final_tie == "roll-off"
        self.sc, self.st = self._encode(state, n)

    @staticmethod
    def _encode(state: ShakeState, n: int) -> tuple[np.ndarray, np.ndarray]:
        sc = np.zeros(SCALARS, dtype=np.int64)
        st = np.zeros((ROWS, max(n, 7)), dtype=np.int64)
        sc[PHASE] = PHASES.index(state.phase)
        sc[ROUND] = state.round
        sc[SHAKER] = -1 if state.shaker is None else state.shaker
        sc[POINTS] = state.points
        sc[QLEN] = len(state.queue)
        sc[TIED] = -1 if state.tied_slot is None else state.tied_slot
        sc[NCONT] = len(state.contenders)
        sc[PICKER] = -1 if state.picker is None else state.picker
        sc[TURN] = state.turn
        sc[NSLOTS] = len(state.slots)
        st[TOTAL, :n] = state.scores
        if state.rolled:
            st[ROLLED, :n] = state.rolled
        st[QUEUE, : len(state.queue)] = state.queue
        order = state.order or [s for slot in state.slots for s in slot]
        st[SLOT, : len(order)] = order
        st[SLOT_END, : len(state.slots)] = np.cumsum([len(slot) for slot in state.slots])
        st[CONT, : len(state.contenders)] = state.contenders
        st[DONE, :n] = [points is not None for points in state.all_shake]
        return sc, st

    def run(self, tape: np.ndarray, out: np.ndarray, seed: int = 0,
            plan: TurnPlan | None = None) -> int:  # fmt: skip
        """Fill ``out`` with the playouts' returns; the tape dice read (0 without a tape)."""
        if self.state.is_terminal():
            out[:] = self.state.returns()
            return 0
        pos = np.zeros(1, dtype=np.int64)
        key = np.uint64(int(seed))
        _run(self.players, self.rounds, self.k, self.rolloff, *_tables(self.k), key,
             self.sc, self.st, self.sc.copy(), self.st.copy(), tape, pos,
             _plan_row(plan, self.players), out)  # fmt: skip
        return int(pos[0])


def _plan_row(plan: object, players: int) -> np.ndarray:
    """A ``TurnPlan`` (or None) as the kernel reads it; anything else is refused by name."""
    if plan is None:
        return np.array([-1, -1, 0], dtype=np.int64)
    row = plan[:3] if isinstance(plan, TurnPlan) else ()
    if not row or not all(_whole(x) for x in row):
        raise ValueError(f"a plan is a TurnPlan of whole numbers or None, not {plan!r}")
    seat, rnd, stop = row
    if not (0 <= seat < players and 0 <= rnd <= 1000 and 0 <= stop < 2**40):
        raise ValueError(f"plan {plan!r} names no seat, round or stop of this table")
    return np.array(row, dtype=np.int64)


NO_TAPE = np.zeros(0, dtype=np.int8)


def _whole(x: object) -> bool:
    """An int or a NumPy integer, not a bool (True is no count of playouts)."""
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def playouts(state: ShakeState, n: int, seed: int, plan: TurnPlan | None = None) -> np.ndarray:
    """Returns (n, players) float64: row i is the engine's returns (state.returns() at the end) of
    playout i of ``state`` to the end of the game, every seat played by the sensible Shake bot
    (the seat and round of ``plan`` shaking to its stop instead, as ``ShakeBot`` with that plan).

    Raises TypeError for a state of another game, ValueError for ``n`` outside 1 to
    ``MAX_PLAYOUTS``, a seed outside 0 to 2**64 - 1 or a malformed plan; the state is never
    changed."""
    if not _whole(n) or not 1 <= n <= MAX_PLAYOUTS:
        raise ValueError(f"n must be a whole number from 1 to {MAX_PLAYOUTS:,}, not {n!r}")
    if not _whole(seed) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    table = _Table(state)
    out = np.empty((n, table.players), dtype=np.float64)
    table.run(NO_TAPE, out, seed, plan)
    return out


def playout_tape(
    state: ShakeState, tape: Any, plan: TurnPlan | None = None
) -> tuple[list[float], int]:
    """One playout of ``state`` on given dice (values 0-5, in the order the engine throws them):
    (its returns, the dice it read). A tape that runs out raises ValueError."""
    dice = np.asarray(tape)
    if dice.ndim != 1 or dice.size == 0 or dice.dtype.kind not in "iu":
        raise ValueError(f"a tape is a non-empty row of whole numbers, not {dice.dtype} "
                         f"of shape {dice.shape}")  # fmt: skip
    if dice.min() < 0 or dice.max() > 5:
        raise ValueError("tape dice are values 0 to 5 (a die showing value + 1)")
    table = _Table(state)
    out = np.empty((1, table.players), dtype=np.float64)
    used = table.run(dice.astype(np.int8), out, 0, plan)
    if used > dice.size:
        raise ValueError(f"the tape ran out: this playout needs more than {dice.size} dice")
    return out[0].tolist(), used
