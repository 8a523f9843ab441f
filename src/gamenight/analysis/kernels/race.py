"""Snap and Slap the Elephant as one compiled kernel: the realtime table with every seat a bot.

It copies ``gamenight.realtime.RealtimeTable`` playing a game's state to the end: flips at a
fixed tempo, each bot's call landing after an ex-Gaussian reaction time, the one late rule (a
second voice under ``LATE_MS`` for what the last call took is dropped), calls held back when
the table changes in time, the bots' false calls after a flip, and the run's cap on event
rounds. Cards are group numbers in the engine's name order, so a draw of card number ``i`` of a
pool is the engine's draw too.

Chance comes from three sources that a test can replace with tapes (rows of ``tape``): uniform
doubles (card draws, false-call checks, the choice of a false call), standard normals and standard
exponentials (the two parts of a reaction time). Without a tape each chunk draws them from its
own SplitMix64 stream, so results do not depend on the threads that played the chunks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from gamenight.bots.playouts.rng import NO_REFCOUNT, chunk_starts, next64

from ..stats import TRUNCATED

FLIP, CALL, FINGERS = 0, 1, 2  # event kinds: a flip; snap (Snap) or slap (Slap); snap fingers
NONE = -1
CAP = 64  # a circular pile holds up to CAP cards (the deck has 52); a power of two
MASK = CAP - 1
# Events waiting: a flip, a call per seat, and calls held back but not yet due (at most one per
# seat each time the table changes while they wait). Games hold a handful; a full queue raises.
QUEUE = 4096
TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
TWO_PI = 2.0 * np.pi
FIGURES = ("moves", "flips", "calls", "false_calls", "stopped")


def card_numbers() -> tuple[list[str], int, int]:
    """The card groups in the engine's draw order, and the numbers of the elephant and mouse."""
    from gamenight.games.snap.deck import ELEPHANT, MOUSE
    from gamenight.games.snap.table import SORTED_GROUPS

    names = list(SORTED_GROUPS)
    return names, names.index(ELEPHANT), names.index(MOUSE)


# --- chance: tapes or the chunk's stream -----------------------------------------------------
@njit(cache=True, inline="always")
def _uniform(st: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> float:
    """A double in [0, 1): tape row 0, else 53 bits of the stream."""
    if tape.shape[1]:
        if pos[0] == tape.shape[1]:
            raise IndexError("the tape ran out")
        v = tape[0, pos[0]]
        pos[0] += 1
        return v
    return float(next64(st) >> np.uint64(11)) * TO_UNIT


@njit(cache=True, inline="always")
def _normal(st: np.ndarray, spare: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> float:
    """A standard normal: tape row 1, else Box-Muller on the stream (the second one kept)."""
    if tape.shape[1]:
        if pos[1] == tape.shape[1]:
            raise IndexError("the tape ran out")
        v = tape[1, pos[1]]
        pos[1] += 1
        return v
    if spare[0] != 0.0:
        spare[0] = 0.0
        return spare[1]
    u1 = 1.0 - float(next64(st) >> np.uint64(11)) * TO_UNIT  # in (0, 1]
    u2 = float(next64(st) >> np.uint64(11)) * TO_UNIT
    r = np.sqrt(-2.0 * np.log(u1))
    spare[0] = 1.0
    spare[1] = r * np.sin(TWO_PI * u2)
    return r * np.cos(TWO_PI * u2)


@njit(cache=True, inline="always")
def _exponential(st: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> float:
    """A standard exponential: tape row 2, else -log(1 - u) as Python's expovariate draws it."""
    if tape.shape[1]:
        if pos[2] == tape.shape[1]:
            raise IndexError("the tape ran out")
        v = tape[2, pos[2]]
        pos[2] += 1
        return v
    return -np.log(1.0 - float(next64(st) >> np.uint64(11)) * TO_UNIT)


@njit(cache=True, inline="always")
def _reaction(lv: np.ndarray, s: int, floor: float, st: np.ndarray, spare: np.ndarray,
              tape: np.ndarray, pos: np.ndarray) -> float:  # fmt: skip
    """Seat s's reaction time in ms, in the very operations of ``realtime.reaction_ms``."""
    g = lv[s, 0] + _normal(st, spare, tape, pos) * lv[s, 1]
    r = g + _exponential(st, tape, pos) / (1.0 / lv[s, 2])
    return r if r > floor else floor


@njit(cache=True)
def reaction_times(seed: np.uint64, count: int, lv: np.ndarray, floor: float) -> np.ndarray:
    """``count`` reaction times of seat 0's level from a stream, as games draw them (a check
    of the stream's law against ``realtime.reaction_ms``)."""
    st = np.empty(1, dtype=np.uint64)
    st[0] = seed
    spare = np.zeros(2, dtype=np.float64)
    no_tape = np.zeros((3, 0), dtype=np.float64)
    pos = np.zeros(3, dtype=np.int64)
    out = np.empty(count, dtype=np.float64)
    for i in range(count):
        out[i] = _reaction(lv, 0, floor, st, spare, no_tape, pos)
    return out


@njit(cache=True, inline="always")
def _draw(pool: np.ndarray, total: int, st: np.ndarray, tape: np.ndarray, pos: np.ndarray) -> int:
    """One card at random from ``pool`` (counts by group): card number int(u * total) of the
    pool laid out in group order, the engine's own draw; the card leaves the pool."""
    i = int(_uniform(st, tape, pos) * total)
    for g in range(pool.size):
        i -= pool[g]
        if i < 0:
            pool[g] -= 1
            return g
    raise ValueError("no card is left to draw")


# --- the event queue: (time, sequence, seat, kind), earliest first; kind -1 = withdrawn -----
@njit(cache=True, inline="always")
def _push(q: np.ndarray, qn: int, t: float, seq: int, seat: int, kind: int) -> int:
    if qn == q.shape[0]:
        raise OverflowError("event queue full")  # see QUEUE
    q[qn, 0] = t
    q[qn, 1] = seq
    q[qn, 2] = seat
    q[qn, 3] = kind
    return qn + 1


@njit(cache=True, inline="always")
def _pop(q: np.ndarray, qn: int) -> tuple[float, int, int, int]:
    """Remove the earliest event (ties: the first pushed); (time, seat, kind, events left)."""
    b = 0
    for i in range(1, qn):
        if q[i, 0] < q[b, 0] or (q[i, 0] == q[b, 0] and q[i, 1] < q[b, 1]):
            b = i
    t, seat, kind = q[b, 0], int(q[b, 2]), int(q[b, 3])
    qn -= 1
    for j in range(4):  # the last event fills the gap (a row copy would allocate a temporary)
        q[b, j] = q[qn, j]
    return t, seat, kind, qn


@njit(cache=True, inline="always")
def _withdraw(q: np.ndarray, qn: int, seq: int) -> None:
    for i in range(qn):
        if q[i, 1] == seq:
            q[i, 3] = NONE


# --- piles: circular buffers of CAP cards, index 0 the top of a pack / bottom of a face-up pile
@njit(cache=True, inline="always")
def _put(piles: np.ndarray, head: np.ndarray, size: np.ndarray, s: int, card: int) -> None:
    piles[s, (head[s] + size[s]) & MASK] = card
    size[s] += 1


@njit(cache=True, inline="always")
def _take_first(piles: np.ndarray, head: np.ndarray, size: np.ndarray, s: int) -> int:
    card = piles[s, head[s]]
    head[s] = (head[s] + 1) & MASK
    size[s] -= 1
    return card


@njit(cache=True, inline="always")
def _next_in(out: np.ndarray, n: int, seat: int) -> int:
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if not out[s]:
            return s
    return seat


@njit(cache=True, inline="always")
def _snap_matches(n: int, up: np.ndarray, uh: np.ndarray, ul: np.ndarray, center: np.ndarray,
                  cl: int, seen: np.ndarray) -> bool:  # fmt: skip
    """Whether two exposed tops (face-up piles and the centre) show the same picture; ``seen``
    is left holding how many exposed tops show each picture."""
    seen[:] = 0
    hit = False
    for s in range(n):
        if ul[s]:
            c = up[s, (uh[s] + ul[s] - 1) & MASK]
            seen[c] += 1
            hit = hit or seen[c] > 1
    if cl:
        seen[center[cl - 1]] += 1
        hit = hit or seen[center[cl - 1]] > 1
    return hit


@njit(cache=True)
def workspace(n: int) -> Any:
    """The arrays one game is played on, made once per chunk (see ``play``)."""
    return (
        np.empty((2 * n, CAP), dtype=np.int64),  # piles: packs, then face-up piles
        np.zeros((4, n), dtype=np.int64),  # where each pack and face-up pile starts and its size
        np.empty(CAP, dtype=np.int64),  # the centre pile, bottom first
        np.zeros((2, 13), dtype=np.int64),  # cards to draw from, and exposed tops, by picture
        np.zeros(n, dtype=np.float64),  # when each bot's call is due
        np.zeros((3, n), dtype=np.int64),  # its sequence number, call and whether it is aimed
        np.zeros(n, dtype=np.bool_),  # seats out
        np.empty((QUEUE, 4), dtype=np.float64),  # the event queue
    )


@njit(cache=True, **NO_REFCOUNT)
def play(
    slap: bool,
    n: int,
    max_flips: int,
    max_rounds: int,
    lv: np.ndarray,
    timing: np.ndarray,
    elephant: int,
    mouse: int,
    st: np.ndarray,
    spare: np.ndarray,
    tape: np.ndarray,
    pos: np.ndarray,
    ws: Any,
    layout: np.ndarray,
) -> tuple[int, bool, int, int, int, int]:
    """One game at the realtime table with a bot in every seat (``lv[s]``: mu, sigma, tau,
    false-call rate); ``timing``: tempo, late, floor in ms. Returns (winner or -1, stopped by
    the flip cap, moves, flips, calls, false calls); ``ws`` is the ``workspace`` it plays on;
    ``layout[s]`` (if given) gets each seat's pack then face-up pile, top of the pack first,
    ending in -1."""
    tempo, late, floor = timing[0], timing[1], timing[2]
    piles, ends, center, cards, pend_t, pend, out, q = ws
    pack, up = piles[:n], piles[n:]  # packs and Snap's face-up piles, circular (see _put)
    ph, pl, uh, ul = ends[0], ends[1], ends[2], ends[3]
    ends[:] = 0
    pool, seen = cards[0], cards[1]
    pool[:] = 4  # the undealt cards, then a shuffle's
    pend_seq, pend_call, pend_aimed = pend[0], pend[1], pend[2]  # each bot's scheduled call
    pend_call[:] = NONE
    out[:] = False
    cl = 0
    qn = 0

    to = 0
    for i in range(52):  # the deal, one card at a time from seat 0
        _put(pack, ph, pl, to, _draw(pool, 52 - i, st, tape, pos))
        to = to + 1 if to + 1 < n else 0
    moves = 52
    flips = calls = false_calls = 0
    turn = 0
    over = stopped = False
    winner = NONE
    top_by = NONE  # Slap: who played the centre's top card
    penalized = NONE  # Snap: who paid the centre's top card
    shuffling = 0  # Snap: cards picked up by a flip, waiting to be shuffled
    now = 0.0
    last_call = -1.0
    called = False  # a call has been applied (last_call holds when)
    last_right = NONE  # the right call on the table the last applied call changed
    flip_due = False
    seq = 0
    rounds = 0
    round_t = -1.0
    flipped = False  # the arrival just handled was a flip that was applied

    while True:
        # --- settle: chance moves, then what each bot schedules -------------------------------
        if not slap:
            if (
                shuffling == 0
                and pl[turn] == 0
                and ul[turn]
                and not _snap_matches(n, up, uh, ul, center, cl, seen)
            ):
                pool[:] = 0  # the face-up pile is picked up for the shuffle
                while ul[turn]:
                    pool[_take_first(up, uh, ul, turn)] += 1
                    shuffling += 1
            while shuffling:
                _put(pack, ph, pl, turn, _draw(pool, shuffling, st, tape, pos))
                shuffling -= 1
                moves += 1
        if slap:
            good = NONE
            if cl:
                if center[cl - 1] == elephant:
                    good = CALL
                elif center[cl - 1] == mouse:
                    good = FINGERS
            open_ = cl > 0
        else:
            good = CALL if _snap_matches(n, up, uh, ul, center, cl, seen) else NONE
            open_ = True
        for s in range(n):  # a bot that sees the table change in time stops its call
            aimed = pend_call[s] != NONE and pend_aimed[s]
            if aimed and pend_call[s] != good and pend_t[s] - now >= late:
                _withdraw(q, qn, pend_seq[s])
                pend_call[s] = NONE
        for s in range(n):
            if out[s] or (not open_ and s != turn) or pend_call[s] != NONE:
                continue
            call = good
            # a false call (checked after each flip), picked among the calls open to him
            if call == NONE and flipped and _uniform(st, tape, pos) < lv[s, 3] and open_:
                call = CALL + int(_uniform(st, tape, pos) * (2 if slap else 1))
            if call != NONE:
                t = now + _reaction(lv, s, floor, st, spare, tape, pos)
                seq += 1
                qn = _push(q, qn, t, seq, s, call)
                pend_t[s] = t
                pend_seq[s] = seq
                pend_call[s] = call
                pend_aimed[s] = call == good
        if not flip_due:
            flip_due = True
            seq += 1
            qn = _push(q, qn, now + tempo, seq, turn, FLIP)

        # --- the next arrival ----------------------------------------------------------------
        while True:
            t, s, kind, qn = _pop(q, qn)
            if t != round_t:  # the table's run() takes every arrival due at one time per round
                if rounds == max_rounds:
                    break
                rounds += 1
                round_t = t
            if kind != NONE:
                break
        if t != round_t:
            break  # the run's cap on rounds: the game stays unfinished
        now = t if t > now else now
        flipped = False
        if kind == FLIP:
            flip_due = False
            if s != turn:
                continue  # stale: the turn moved on
            moves += 1
            flipped = True
            if slap:
                center[cl] = _take_first(pack, ph, pl, s)
                cl += 1
                top_by = s
                turn = _next_in(out, n, s)
            elif pl[s] == 0:  # a match kept his face-up pile out; this flip picks it up
                pool[:] = 0
                while ul[s]:
                    pool[_take_first(up, uh, ul, s)] += 1
                    shuffling += 1
                continue
            else:
                _put(up, uh, ul, s, _take_first(pack, ph, pl, s))
                turn = _next_in(out, n, s)
        else:
            pend_call[s] = NONE
            right = good  # the table has not changed since the settle (nor has ``seen``)
            if called and now - last_call < late and kind != right and kind == last_right:
                continue  # too late: the second voice for what the last call took
            if out[s] or (slap and cl == 0):
                continue  # stale: that call is not open now
            moves += 1
            calls += 1
            last_call = now
            called = True
            last_right = right
            if slap and kind == right:
                for i in range(cl):
                    _put(pack, ph, pl, s, center[i])
                cl = 0
                turn = s
            elif slap:  # a wrong reaction: the pile is handed out from the top
                false_calls += 1
                others = 0
                for s2 in range(n):
                    if s2 != s and not out[s2]:
                        others += 1
                for _ in range(cl // others):
                    top_by = NONE
                    for k in range(1, n):
                        s2 = (s + k) % n
                        if not out[s2]:
                            cl -= 1
                            _put(pack, ph, pl, s2, center[cl])
            elif right == CALL:  # Snap: every matched pile goes to the caller
                taken = -1
                if cl and seen[center[cl - 1]] > 1:
                    for i in range(cl):
                        _put(pack, ph, pl, s, center[i])
                    cl = 0
                    taken = penalized
                    penalized = NONE
                for s2 in range(n):
                    if ul[s2] and (s2 == taken or seen[up[s2, (uh[s2] + ul[s2] - 1) & MASK]] > 1):
                        while ul[s2]:
                            _put(pack, ph, pl, s, _take_first(up, uh, ul, s2))
            else:  # Snap with no match: a card to the centre
                false_calls += 1
                if pl[s]:
                    center[cl] = _take_first(pack, ph, pl, s)
                else:
                    center[cl] = _take_first(up, uh, ul, s)
                cl += 1
                penalized = s

        # --- outs after a call (and a Slap flip), then the flip count --------------------------
        if kind != FLIP or slap:
            alive = 0
            for s2 in range(n):
                if not out[s2] and pl[s2] + ul[s2] == 0 and not (slap and s2 == top_by and cl):
                    out[s2] = True
                if not out[s2]:
                    alive += 1
                    winner = s2
            if alive == 1:
                for i in range(cl):
                    _put(pack, ph, pl, winner, center[i])
                cl = 0
                over = True
                break
            winner = NONE
            if out[turn] and alive:
                turn = _next_in(out, n, turn)
        if kind == FLIP:
            flips += 1
            if flips >= max_flips:  # the safety cap: most cards wins, a tie has no winner
                best = -1
                for s2 in range(n):
                    held = pl[s2] + ul[s2]
                    if held > best:
                        best, winner = held, s2
                    elif held == best:
                        winner = NONE
                over = stopped = True
                break

    if layout.size:
        for s in range(n):
            k = 0
            for i in range(pl[s]):
                layout[s, k] = pack[s, (ph[s] + i) & MASK]
                k += 1
            for i in range(ul[s]):
                layout[s, k] = up[s, (uh[s] + i) & MASK]
                k += 1
            layout[s, k] = NONE
    if not over:
        winner = NONE
    return winner, stopped, moves, flips, calls, false_calls


@njit(cache=True)
def _chunk(seed: np.uint64, lo: int, hi: int, slap: bool, n: int, max_flips: int,
           max_rounds: int, lv: np.ndarray, timing: np.ndarray, elephant: int, mouse: int,
           winners: np.ndarray, figures: np.ndarray) -> None:  # fmt: skip
    st = np.empty(1, dtype=np.uint64)
    st[0] = seed
    spare = np.zeros(2, dtype=np.float64)
    pos = np.zeros(3, dtype=np.int64)
    layout = np.zeros((0, 0), dtype=np.int64)
    no_tape = np.zeros((3, 0), dtype=np.float64)  # a local (a global would be read-only: a
    ws = workspace(n)  # second compiled ``play``)
    lv, timing = lv.copy(), timing.copy()  # the chunk's own (see ``run_chunks``)
    for g in range(lo, hi):
        w, stopped, moves, flips, calls, false_calls = play(
            slap, n, max_flips, max_rounds, lv, timing, elephant, mouse, st, spare, no_tape,
            pos, ws, layout,
        )  # fmt: skip
        winners[g] = TRUNCATED if stopped else w
        figures[0, g] = moves
        figures[1, g] = flips
        figures[2, g] = calls
        figures[3, g] = false_calls
        figures[4, g] = stopped


@njit(cache=True, parallel=True)
def run_chunks(seeds: np.ndarray, sizes: np.ndarray, slap: bool, n: int, max_flips: int,
               max_rounds: int, lv: np.ndarray, timing: np.ndarray, elephant: int,
               mouse: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Play every chunk (its own stream each) in parallel; per-game winners and figures.

    A chunk plays on its own copies of the batch's arrays: when both threads read the same
    ones in the game loop they slowed each other down (Snap on two threads ran 1.3 times as
    fast as on one, while two processes of one thread each did not slow at all)."""
    starts = chunk_starts(sizes)
    total = starts[-1]
    winners = np.empty(total, dtype=np.int64)
    figures = np.empty((len(FIGURES), total), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], slap, n, max_flips, max_rounds, lv, timing,
               elephant, mouse, winners, figures)  # fmt: skip
    return winners, figures


def kernel_args(slap: bool, options: dict[str, Any]) -> tuple[Any, ...]:
    """The table's settings as plain numbers: bots' levels (``options["levels"]``, one name
    per seat, default all ``normal`` as the simulator seats them), the tempo and the caps
    (``options["max_events"]``: the table's ``run`` cap, by default the same as ``run``'s)."""
    import inspect

    from gamenight.realtime.reaction import FLOOR_MS, level
    from gamenight.realtime.table import LATE_MS, TEMPO_MS, RealtimeTable

    n = int(options["players"])
    names = options.get("levels") or ["normal"] * n
    if len(names) != n:
        raise ValueError(f"levels: one per seat ({n}); got {len(names)}")
    lv = np.array([[x.mu, x.sigma, x.tau, x.false_rate] for x in map(level, names)])
    max_rounds = options.get("max_events") or (
        inspect.signature(RealtimeTable.run).parameters["max_events"].default
    )
    _, elephant, mouse = card_numbers()
    timing = np.array([TEMPO_MS, LATE_MS, FLOOR_MS], dtype=np.float64)
    return slap, n, int(options["max_flips"]), int(max_rounds), lv, timing, elephant, mouse


def batch(slap: bool, seeds: np.ndarray, sizes: np.ndarray,
          options: dict[str, Any]) -> tuple[Any, dict]:  # fmt: skip
    """Winners (``TRUNCATED`` for a game the flip cap stopped) and named figures of a batch."""
    winners, figures = run_chunks(seeds, sizes, *kernel_args(slap, options))
    return winners, {name: figures[i] for i, name in enumerate(FIGURES)}


def play_tape(slap: bool, tape: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
    """One game on given chance (rows: uniforms, normals, exponentials): its winner (None for
    no single winner), whether the flip cap stopped it, its figures, each seat's cards (pack
    top first, then the face-up pile bottom first, as names) and how much of each row it used."""
    _, n, max_flips, max_rounds, lv, timing, elephant, mouse = kernel_args(slap, options)
    names = card_numbers()[0]
    st = np.zeros(1, dtype=np.uint64)
    pos = np.zeros(3, dtype=np.int64)
    layout = np.empty((n, 53), dtype=np.int64)
    rows = np.ascontiguousarray(tape, dtype=np.float64)
    w, stopped, *counts = play(
        slap, n, max_flips, max_rounds, lv, timing, elephant, mouse, st, np.zeros(2), rows, pos,
        workspace(n), layout,
    )  # fmt: skip
    cards = [[names[c] for c in row[: list(row).index(NONE)]] for row in layout]
    return {
        "winner": None if w < 0 else int(w),
        "stopped": bool(stopped),
        **{k: int(v) for k, v in zip(FIGURES, [*counts, stopped], strict=True)},
        "cards": cards,
        "used": [int(p) for p in pos],
    }
