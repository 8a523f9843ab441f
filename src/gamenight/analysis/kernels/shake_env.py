"""Shake as a stepped kernel: thousands of tables advanced one learner decision at a time.

``kernels.shake`` plays whole games for the simulator; a learner needs the game cut at its own
decisions. Here every table is a row of two integer arrays (its scalars and its per-seat lists),
the rules are the engine's (``games.shake``) written out move by move, and one call steps every
table: the learner's action, then dice and the other seats (the sensible bot's policy tables,
or uniformly random moves) until the learner decides again or the game ends. Dice come from a
SplitMix64 stream per table, or from a tape (values 0-5) so a test can give the engine the same
ones.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from gamenight.bots.playouts.rng import (
    LOW32,
    NO_REFCOUNT,
    REJECT,
    S32,
    SHAKE_OUTCOMES,
    SHAKE_REJECT,
    SIX,
    mix,
)

from .shake import HALF_HITS

# phases, numbered as rl.encoding lists them (the observation's one-hot)
ROLL, CHOOSE, SHAKE, SHAKEN, ORDER_ROLL, ORDER, FINAL_ROLL, OVER = range(8)
# catalogue indices (rl.encoding's Shake catalogue): wait, take, shake, stop, then the orders
WAIT, TAKE, SHAKE_ON, STOP, FIRST_ORDER = range(5)
# scalar columns of a table's row
PHASE, ROUND, SHAKER, POINTS, QHEAD, QLEN, TIED, NCONT, PICKER, TURN, NSLOTS, POS = range(12)
NWIN, ROLL_OFF_TIE = 12, 13  # winners declared; 1 when a tie for the win is rolled off
SCALARS = 14
# per-seat rows: totals, colored dice (0 = none), crap-outs, choosing queue, All Shake slots
# (seats in order, then where each slot ends), roll-off contenders, winners, All Shake done
TOTAL, ROLLED, CRAPS, QUEUE, SLOT, SLOT_END, CONT, WINNERS, DONE = range(9)
ROWS = 9
SENSIBLE, RANDOM = 0, 1
SIX_BITS, SIX_SHIFT = np.uint64(63), np.uint64(6)
NO_DICE = np.zeros((0, 0), dtype=np.int8)  # no tape: the stream


def order_tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    """For each set of seats (a bit mask): the catalogue index of its first ordering; and each
    order entry's seats (-1 padded). rl.encoding numbers the orderings the same way."""
    first = np.full(1 << players, -1, dtype=np.int64)
    rows: list[list[int]] = []
    for k in range(2, players + 1):
        for subset in itertools.combinations(range(players), k):
            first[sum(1 << s for s in subset)] = FIRST_ORDER + len(rows)
            rows += [list(p) + [-1] * (players - k) for p in itertools.permutations(subset)]
    seats = np.full((FIRST_ORDER + len(rows), players), -1, dtype=np.int64)
    if rows:
        seats[FIRST_ORDER:] = np.array(rows, dtype=np.int64)
    return first, seats


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _die(g: int, rng: np.ndarray, tape: np.ndarray, sc: np.ndarray) -> int:
    """One die, 0-5: from the table's tape, else an unbiased draw from its stream."""
    p = sc[g, POS]
    if p < tape.shape[1]:  # a tape that runs out goes on with the stream
        sc[g, POS] = p + 1
        return int(tape[g, p])
    s = rng[g]
    while True:
        s, z = mix(s)
        m = (z >> S32) * SIX
        if (m & LOW32) >= REJECT:
            rng[g] = s
            return int(m >> S32)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _below(g: int, rng: np.ndarray, n: int) -> int:
    """A whole number in [0, n) from the stream (the random opponents' choices)."""
    s = rng[g]
    nn = np.uint64(n)
    cut = (np.uint64(1) << np.uint64(32)) % nn
    while True:
        s, z = mix(s)
        m = (z >> S32) * nn
        if (m & LOW32) >= cut:
            rng[g] = s
            return int(m >> S32)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _hits(g: int, k: int, hits_of: np.ndarray, rng: np.ndarray, tape: np.ndarray,
          sc: np.ndarray) -> int:  # fmt: skip
    """Scoring dice of one shake: six tape dice (below ``k`` scores), or one exact draw among
    the 6**6 ordered throws looked up in the binomial table."""
    if tape.shape[1]:
        hits = 0
        for _ in range(6):
            if _die(g, rng, tape, sc) < k:
                hits += 1
        return hits
    s = rng[g]
    while True:
        s, z = mix(s)
        m = (z >> S32) * SHAKE_OUTCOMES
        if (m & LOW32) >= SHAKE_REJECT:
            rng[g] = s
            return int(hits_of[int(m >> S32)])


@njit(cache=True, **NO_REFCOUNT)
def _end_round(g: int, n: int, rounds: int, sc: np.ndarray, st: np.ndarray) -> None:
    sc[g, ROUND] += 1
    sc[g, QHEAD] = sc[g, QLEN] = 0
    for s in range(n):
        st[g, ROLLED, s] = 0
    if sc[g, ROUND] <= rounds:
        sc[g, PHASE] = ROLL
        return
    slot = st[g, SLOT]  # seats by total, highest first, ties in seat order
    total = st[g, TOTAL]
    for i in range(n):
        j = i
        while j > 0 and total[slot[j - 1]] < total[i]:
            slot[j] = slot[j - 1]
            j -= 1
        slot[j] = i
    m = 0
    for i in range(n):
        if i == n - 1 or total[slot[i + 1]] != total[slot[i]]:
            st[g, SLOT_END, m] = i + 1
            m += 1
    sc[g, NSLOTS] = m
    sc[g, TIED] = -1
    _next_tie(g, n, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def _next_tie(g: int, n: int, sc: np.ndarray, st: np.ndarray) -> None:
    """Roll off the next tied slot, or start the All Shake when every slot is settled."""
    for i in range(sc[g, TIED] + 1, sc[g, NSLOTS]):
        lo = 0 if i == 0 else st[g, SLOT_END, i - 1]
        hi = st[g, SLOT_END, i]
        if hi - lo > 1:
            sc[g, TIED] = i
            for t in range(hi - lo):
                st[g, CONT, t] = st[g, SLOT, lo + t]
            sc[g, NCONT] = hi - lo
            sc[g, PHASE] = ORDER_ROLL
            return
    sc[g, TIED] = -1
    sc[g, NCONT] = 0
    sc[g, TURN] = 0
    _next_all_shaker(g, n, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def _next_all_shaker(g: int, n: int, sc: np.ndarray, st: np.ndarray) -> None:
    if sc[g, TURN] < n:
        sc[g, SHAKER] = st[g, SLOT, sc[g, TURN]]  # the settled slots are the order
        sc[g, POINTS] = 0
        sc[g, PHASE] = SHAKE
        return
    best = st[g, TOTAL, 0]
    for s in range(1, n):
        best = max(best, st[g, TOTAL, s])
    m = 0
    for s in range(n):
        if st[g, TOTAL, s] == best:
            st[g, CONT, m] = s
            m += 1
    sc[g, NCONT] = m
    if m > 1 and sc[g, ROLL_OFF_TIE]:
        sc[g, PHASE] = FINAL_ROLL
        return
    _declare(g, m, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def _declare(g: int, m: int, sc: np.ndarray, st: np.ndarray) -> None:
    for i in range(m):
        st[g, WINNERS, i] = st[g, CONT, i]
    sc[g, NWIN] = m
    sc[g, NCONT] = 0
    sc[g, SHAKER] = -1
    sc[g, PHASE] = OVER


@njit(cache=True, **NO_REFCOUNT)
def _roll_off(g: int, rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, st: np.ndarray,
              faces: np.ndarray) -> int:  # fmt: skip
    """One throw of the contenders' colored dice: the high roller, or -1 (the top ones go on)."""
    m = sc[g, NCONT]
    best = -1
    for i in range(m):
        faces[i] = _die(g, rng, tape, sc)
        best = max(best, faces[i])
    k = 0
    for i in range(m):
        if faces[i] == best:
            st[g, CONT, k] = st[g, CONT, i]
            k += 1
    sc[g, NCONT] = k
    return st[g, CONT, 0] if k == 1 else -1


@njit(cache=True, **NO_REFCOUNT)
def _stop(g: int, n: int, rounds: int, sc: np.ndarray, st: np.ndarray) -> None:
    seat = sc[g, SHAKER]
    st[g, TOTAL, seat] += sc[g, POINTS]
    sc[g, SHAKER] = -1
    sc[g, POINTS] = 0
    if sc[g, ROUND] > rounds:
        st[g, DONE, seat] = 1
        sc[g, TURN] += 1
        _next_all_shaker(g, n, sc, st)
    else:
        _end_round(g, n, rounds, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def _chance(g: int, n: int, rounds: int, k: int, hits_of: np.ndarray, rng: np.ndarray,
            tape: np.ndarray, sc: np.ndarray, st: np.ndarray,
            faces: np.ndarray) -> None:  # fmt: skip
    """The dice of the current chance phase."""
    phase = sc[g, PHASE]
    if phase == SHAKE:
        hits = _hits(g, k, hits_of, rng, tape, sc)
        if hits == 0:
            st[g, CRAPS, sc[g, SHAKER]] += 1
            sc[g, POINTS] = 0
            _stop(g, n, rounds, sc, st)
        else:
            sc[g, POINTS] += 10 * hits
            sc[g, PHASE] = SHAKEN
        return
    if phase == ROLL:
        rolled = st[g, ROLLED]
        same = True
        for s in range(n):
            rolled[s] = _die(g, rng, tape, sc) + 1
            same = same and rolled[s] == rolled[0]
        if same:
            return  # everyone re-rolls
        q = 0
        for s in range(n):
            matched = False
            for o in range(n):
                matched = matched or (o != s and rolled[o] == rolled[s])
            if matched:
                st[g, TOTAL, s] += 10 * rolled[s]
                continue
            j = q  # the queue, highest die first (unmatched faces differ)
            while j > 0 and rolled[st[g, QUEUE, j - 1]] < rolled[s]:
                st[g, QUEUE, j] = st[g, QUEUE, j - 1]
                j -= 1
            st[g, QUEUE, j] = s
            q += 1
        sc[g, QHEAD] = 0
        sc[g, QLEN] = q
        if q:
            sc[g, PHASE] = CHOOSE
        else:
            _end_round(g, n, rounds, sc, st)
        return
    high = _roll_off(g, rng, tape, sc, st, faces)
    if high < 0:
        return
    if phase == ORDER_ROLL:
        sc[g, PICKER] = high
        sc[g, PHASE] = ORDER
    else:
        st[g, CONT, 0] = high
        _declare(g, 1, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def actor(g: int, sc: np.ndarray, st: np.ndarray) -> int:
    """The seat to decide now, or -1 (dice to throw, or the game is over)."""
    phase = sc[g, PHASE]
    if phase == SHAKEN:
        return sc[g, SHAKER]
    if phase == CHOOSE:
        return st[g, QUEUE, sc[g, QHEAD]]
    if phase == ORDER:
        return sc[g, PICKER]
    return -1


@njit(cache=True, **NO_REFCOUNT)
def _tied(g: int, sc: np.ndarray, st: np.ndarray) -> tuple[int, int, int]:
    """The slot being ordered: (its first position, its size, its seats as a bit mask)."""
    i = sc[g, TIED]
    lo = 0 if i == 0 else st[g, SLOT_END, i - 1]
    hi = st[g, SLOT_END, i]
    b = 0
    for t in range(lo, hi):
        b |= 1 << st[g, SLOT, t]
    return lo, hi - lo, b


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _orderings(m: int) -> int:
    count = 1
    for c in range(2, m + 1):
        count *= c
    return count


@njit(cache=True, **NO_REFCOUNT)
def legal(g: int, a: int, sc: np.ndarray, st: np.ndarray, first: np.ndarray) -> bool:
    """Whether catalogue entry ``a`` is open to the seat deciding at table ``g``."""
    phase = sc[g, PHASE]
    if phase == CHOOSE:
        return a in (TAKE, SHAKE_ON)
    if phase == SHAKEN:
        return a in (SHAKE_ON, STOP)
    if phase == ORDER:
        _, m, b = _tied(g, sc, st)
        return first[b] <= a < first[b] + _orderings(m)
    return a == WAIT  # the end, not yet taken


@njit(cache=True, **NO_REFCOUNT)
def _act(g: int, a: int, n: int, rounds: int, sc: np.ndarray, st: np.ndarray,
         orders: np.ndarray) -> None:  # fmt: skip
    """Apply legal catalogue entry ``a`` for the seat deciding at table ``g``."""
    phase = sc[g, PHASE]
    if phase == SHAKEN:
        if a == SHAKE_ON:
            sc[g, PHASE] = SHAKE
        else:
            _stop(g, n, rounds, sc, st)
        return
    if phase == CHOOSE:
        head = sc[g, QHEAD]
        seat = st[g, QUEUE, head]
        sc[g, QHEAD] = head + 1
        if a == TAKE:
            st[g, TOTAL, seat] += 10 * st[g, ROLLED, seat]
            if head + 1 == sc[g, QLEN]:
                _end_round(g, n, rounds, sc, st)
            return
        sc[g, SHAKER] = seat  # one shaker a round: everyone after scores their die
        sc[g, POINTS] = 0
        for i in range(head + 1, sc[g, QLEN]):
            o = st[g, QUEUE, i]
            st[g, TOTAL, o] += 10 * st[g, ROLLED, o]
        sc[g, QHEAD] = sc[g, QLEN] = 0
        sc[g, PHASE] = SHAKE
        return
    lo, m, _ = _tied(g, sc, st)  # ORDER: the picker's ordering replaces the tied slot
    for t in range(m):
        st[g, SLOT, lo + t] = orders[a, t]
    sc[g, PICKER] = -1
    _next_tie(g, n, sc, st)


@njit(cache=True, **NO_REFCOUNT)
def _opponent(g: int, seat: int, n: int, rounds: int, kind: int, shake_die: np.ndarray,
              keep: np.ndarray, first: np.ndarray, orders: np.ndarray, rng: np.ndarray,
              sc: np.ndarray, st: np.ndarray) -> int:  # fmt: skip
    """The catalogue entry another seat plays: the sensible bot's choice, or a random one."""
    phase = sc[g, PHASE]
    if phase == ORDER:
        lo, m, b = _tied(g, sc, st)
        count = _orderings(m)
        if kind == RANDOM:
            return first[b] + _below(g, rng, count)
        for a in range(first[b], first[b] + count):  # the others in slot order, the picker last
            ok = orders[a, m - 1] == seat
            t = 0
            for u in range(m):
                s = st[g, SLOT, lo + u]
                if s != seat:
                    ok = ok and orders[a, t] == s
                    t += 1
            if ok:
                return a
        return first[b]
    if kind == RANDOM:
        return (TAKE if phase == CHOOSE else STOP) if _below(g, rng, 2) else SHAKE_ON
    if phase == CHOOSE:
        return SHAKE_ON if shake_die[st[g, ROLLED, seat]] else TAKE
    units = sc[g, POINTS] // 10
    if sc[g, ROUND] <= rounds:
        return SHAKE_ON if units < keep.size and keep[units] else STOP
    mine = st[g, TOTAL, seat] + sc[g, POINTS]
    rivals = -1
    later = False
    for o in range(n):
        if o != seat:
            rivals = max(rivals, st[g, TOTAL, o])
            later = later or st[g, DONE, o] == 0
    if mine <= rivals:
        return SHAKE_ON  # totals never fall: a stop behind a rival cannot win
    if not later:
        return STOP
    return SHAKE_ON if units < keep.size and keep[units] else STOP


@njit(cache=True, **NO_REFCOUNT)
def _observe(g: int, me: int, n: int, rounds: int, crap: float, high: np.ndarray,
             sc: np.ndarray, st: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """rl.encoding's Shake vector of table ``g`` from seat ``me``, written into ``out``."""
    for i in range(out.size):
        out[i] = 0.0
    out[sc[g, PHASE]] = 1.0
    out[8] = min(sc[g, ROUND], rounds + 1) / (rounds + 1)
    out[9] = 1.0 if sc[g, ROUND] > rounds else 0.0
    a = actor(g, sc, st)
    if a >= 0:
        out[10 + (a - me) % n] = 1.0
    if sc[g, SHAKER] >= 0:
        out[10 + n + (sc[g, SHAKER] - me) % n] = 1.0
    out[10 + 2 * n] = sc[g, POINTS] / 1000
    out[11 + 2 * n] = crap
    for k in range(n):
        s = (me + k) % n
        base = 12 + 2 * n + 3 * k
        out[base] = st[g, TOTAL, s] / 1000
        out[base + 1] = 10 * st[g, ROLLED, s] / 60
        out[base + 2] = st[g, CRAPS, s] / rounds
    for i in range(out.size):
        out[i] = min(out[i], high[i])


@njit(cache=True, **NO_REFCOUNT)
def _mask(g: int, sc: np.ndarray, st: np.ndarray, first: np.ndarray, out: np.ndarray) -> None:
    for i in range(out.size):
        out[i] = 0
    phase = sc[g, PHASE]
    if phase == CHOOSE:
        out[TAKE] = out[SHAKE_ON] = 1
    elif phase == SHAKEN:
        out[SHAKE_ON] = out[STOP] = 1
    elif phase == ORDER:
        _, m, b = _tied(g, sc, st)
        for a in range(first[b], first[b] + _orderings(m)):
            out[a] = 1
    else:
        out[WAIT] = 1


@njit(cache=True, **NO_REFCOUNT)
def _new_game(g: int, roll_off: bool, sc: np.ndarray, st: np.ndarray) -> None:
    pos = sc[g, POS]  # a tape is read on from game to game
    sc[g, :] = 0
    st[g, :, :] = 0
    sc[g, POS] = pos
    sc[g, ROUND] = 1
    sc[g, PHASE] = ROLL
    sc[g, SHAKER] = sc[g, TIED] = sc[g, PICKER] = -1
    sc[g, ROLL_OFF_TIE] = 1 if roll_off else 0


@njit(cache=True, **NO_REFCOUNT)
def _bot_shakes(g: int, k: int, keep: np.ndarray, hits_of: np.ndarray, rng: np.ndarray,
                sc: np.ndarray, st: np.ndarray) -> int:  # fmt: skip
    """The sensible bot's ordinary shaking turn from the stream, in one loop: it shakes on while
    ``keep`` says so. With three scoring faces a draw's 60 low bits are ten shakes of six fair
    dice, read in order (the same law as one draw a shake, at a tenth of the draws). Leaves the
    points to score in POINTS (0 after a crap-out); returns the decisions made (each shake on,
    and the stop)."""
    units = sc[g, POINTS] // 10
    made = 0
    if k == 3:
        s = rng[g]
        going = units < keep.size and keep[units]
        while going:
            s, z = mix(s)
            for _ in range(10):
                hits = HALF_HITS[z & SIX_BITS]
                z >>= SIX_SHIFT
                made += 1  # the choice to shake on
                if hits == 0:
                    st[g, CRAPS, sc[g, SHAKER]] += 1
                    units = 0
                    going = False
                    break
                units += hits
                if not (units < keep.size and keep[units]):
                    going = False
                    break
        rng[g] = s
    else:
        while units < keep.size and keep[units]:
            hits = _hits(g, k, hits_of, rng, NO_DICE, sc)
            made += 1
            if hits == 0:
                st[g, CRAPS, sc[g, SHAKER]] += 1
                units = 0
                break
            units += hits
    sc[g, POINTS] = 10 * units
    return made + (units > 0)  # and the stop


@njit(cache=True, **NO_REFCOUNT)
def _advance(g: int, me: int, n: int, rounds: int, k: int, kind: int, shake_die: np.ndarray,
             keep: np.ndarray, hits_of: np.ndarray, first: np.ndarray, orders: np.ndarray,
             rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, st: np.ndarray,
             faces: np.ndarray) -> int:  # fmt: skip
    """Dice and the other seats until seat ``me`` decides or the game ends; their decisions."""
    made = 0
    while True:
        phase = sc[g, PHASE]
        if phase == OVER:
            return made
        if phase in (ROLL, SHAKE, ORDER_ROLL, FINAL_ROLL):
            _chance(g, n, rounds, k, hits_of, rng, tape, sc, st, faces)
            continue
        seat = actor(g, sc, st)
        if seat == me:
            return made
        bot = kind == SENSIBLE and tape.shape[1] == 0  # (the fast loop reads the stream only)
        if phase == SHAKEN and bot and sc[g, ROUND] <= rounds:
            made += _bot_shakes(g, k, keep, hits_of, rng, sc, st)
            _stop(g, n, rounds, sc, st)
            continue
        a = _opponent(g, seat, n, rounds, kind, shake_die, keep, first, orders, rng, sc, st)
        _act(g, a, n, rounds, sc, st, orders)
        made += 1


@njit(cache=True, **NO_REFCOUNT)
def reset_all(me: int, n: int, rounds: int, k: int, roll_off: bool, kind: int, crap: float,
              high: np.ndarray, shake_die: np.ndarray, keep: np.ndarray, hits_of: np.ndarray,
              first: np.ndarray, orders: np.ndarray, rng: np.ndarray, tape: np.ndarray,
              sc: np.ndarray, st: np.ndarray, obs: np.ndarray, masks: np.ndarray,
              faces: np.ndarray) -> None:  # fmt: skip
    """A new game at every table, played on to seat ``me``'s first decision (or its end);
    ``faces`` is scratch space for roll-offs (a seat's worth)."""
    for g in range(sc.shape[0]):
        _new_game(g, roll_off, sc, st)
        _advance(g, me, n, rounds, k, kind, shake_die, keep, hits_of, first, orders, rng, tape,
                 sc, st, faces)  # fmt: skip
        _observe(g, me, n, rounds, crap, high, sc, st, obs[g])
        _mask(g, sc, st, first, masks[g])


@njit(cache=True, **NO_REFCOUNT)
def step_all(actions: np.ndarray, me: int, n: int, rounds: int, k: int, roll_off: bool,
             kind: int, crap: float, high: np.ndarray, shake_die: np.ndarray, keep: np.ndarray,
             hits_of: np.ndarray, first: np.ndarray, orders: np.ndarray, rng: np.ndarray,
             tape: np.ndarray, sc: np.ndarray, st: np.ndarray, obs: np.ndarray,
             masks: np.ndarray, rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray,
             final_obs: np.ndarray, faces: np.ndarray) -> int:  # fmt: skip
    """Seat ``me``'s action at every table, then on to its next decision; a finished game is
    scored, its last observation kept in ``final_obs``, and a new one started. Returns the
    decisions the other seats made. An action the mask does not allow changes nothing."""
    made = 0
    for g in range(sc.shape[0]):
        a = actions[g]
        rewards[g] = 0.0
        ended[g] = False
        illegal[g] = a < 0 or a >= orders.shape[0] or not legal(g, a, sc, st, first)
        if illegal[g]:
            continue
        if sc[g, PHASE] != OVER:
            _act(g, a, n, rounds, sc, st, orders)
            made += _advance(g, me, n, rounds, k, kind, shake_die, keep, hits_of, first,
                             orders, rng, tape, sc, st, faces)  # fmt: skip
        if sc[g, PHASE] == OVER:
            for i in range(sc[g, NWIN]):
                if st[g, WINNERS, i] == me:
                    rewards[g] = 1.0 / sc[g, NWIN]
            ended[g] = True
            _observe(g, me, n, rounds, crap, high, sc, st, final_obs[g])
            _new_game(g, roll_off, sc, st)
            made += _advance(g, me, n, rounds, k, kind, shake_die, keep, hits_of, first,
                             orders, rng, tape, sc, st, faces)  # fmt: skip
        _observe(g, me, n, rounds, crap, high, sc, st, obs[g])
        _mask(g, sc, st, first, masks[g])
    return made
