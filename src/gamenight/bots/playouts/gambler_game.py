"""Gambler as a compiled kernel, every seat played by the sensible bot (``bots.gambler_bot``).

The engine (``games.gambler.state``) is ported move by move: the same phases, the same chance
moves in the same order, and after every move the same end-of-game checks, so a game on given
chance outcomes ends with the same winner, length and cash. The board, the Fortune cards, the
tickets and the horses come in as arrays built from the game's own data (built-in or custom),
and the bot as a few thresholds and a marker preference order read off the bot itself.

A tape (for agreement tests) gives one whole number per draw: a die shows ``v % 6 + 1``, and a
card is number ``v % k`` of the ``k`` it may be, in the order the engine lists them (tickets
sorted, horses as dealt from the data, Fortune cards not yet seen in deck order).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

# The engine's amounts, compiled in as constants (Numba's cache does not see a change to them
# in table.py: clear __pycache__ after one; the agreement tests would catch a stale build).
from gamenight.games.gambler.table import (
    DOUBLES_PRIZE,
    IOU_INTEREST,
    IOU_LOAN,
    LOTTERY_PRIZE,
    MAX_TICKETS,
    RACE_FEE,
    RACE_PRIZE,
    START_CASH,
    START_PAY,
    SWEEP_FEE,
    TARGET,
    TICKET_PRICE,
)

from .rng import (
    GAMMA,
    LOW32,
    NO_REFCOUNT,
    REJECT,
    S32,
    SHAKE_OUTCOMES,
    SHAKE_REJECT,
    SIX,
    chunk_starts,
    keyed,
    mix,
    turn_stream,
)

GAME = "gambler"
FIGURES = (
    "moves",
    "turns",
    "ious_taken",
    "players_out",
    "sweepstakes",
    "lotteries",
    "horse_races",
    "turn_limit",
)

KINDS = ("start", "fortune", "sweepstakes", "lottery", "races", "daily_double", "collect", "pay")
START, FORTUNE_SPACE, SWEEP_SPACE, LOTTERY_SPACE, RACES, DAILY_DOUBLE, COLLECT_SPACE, PAY_SPACE = (
    range(8)
)
EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "advance", "go_to",
           "sweepstakes", "lottery", "horse_race")  # fmt: skip
COLLECT, PAY, COLLECT_EACH, PAY_EACH, ADVANCE, GO_TO, CALL_SWEEP, CALL_LOTTERY, CALL_RACE = range(9)
HIGH, SPLIT, STRAIGHT, PAIRS = range(4)  # Sweepstakes space shapes
EVENT = -(2**40)  # plus its kind: a space that is not plain money (no amount comes near)

# phases and pending chance moves, as the engine names them
ORDER, TURN, DOUBLES, MARKER, CLAIM, OVER = range(6)
NONE, THROW_OFF, MOVE, AGAIN, TICKET, FORTUNE, HORSE_DEAL, SHAKER = range(8)
FOR_SWEEP, FOR_LOTTERY = 0, 1
# what a move leaves to do besides a chance move: end the turn, pass it on, place markers,
# choose on doubles; and the end checks' answer while nobody has won
THEN_END, THEN_PASS, THEN_MARKERS, THEN_DOUBLES = range(8, 12)
GOES_ON = -3


@cache
def bot_params() -> tuple[int, int, bool, np.ndarray]:
    """The sensible bot's choices as numbers: the least cash it buys a ticket with, the least it
    repays an IOU with, whether it rolls again on doubles, and its Sweepstakes preference."""
    from fractions import Fraction

    from gamenight.bots import gambler_bot as bot
    from gamenight.games.gambler import odds

    reach = 10 * TARGET
    buy_min = next((c for c in range(reach) if bot.GamblerBot.ticket_pays(c)), reach)
    if any(bot.GamblerBot.ticket_pays(c) != (c >= buy_min) for c in range(reach)):
        raise ValueError("the bot's ticket rule is no longer a cash threshold: update the kernel")
    repay_min = max(IOU_LOAN + IOU_INTEREST, IOU_LOAN + IOU_INTEREST + bot.CUSHION)
    again = Fraction(DOUBLES_PRIZE, 6) >= bot.BEST_SPACE
    order = sorted(range(len(odds.SPACES)), key=lambda i: (-bot.EXPECTED[odds.SPACES[i]], i))
    return buy_min, repay_min, again, np.array(order, dtype=np.int64)


def spaces() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each Sweepstakes space (in ``odds.SPACES`` order): shape, positions it reads, prize."""
    from gamenight.games.gambler import odds

    shape, a, b, prize = [], [], [], []
    for name in odds.SPACES:
        if name.startswith("high-"):
            shape.append(HIGH)
            a.append(int(name[5:]) - 1)
            b.append(-1)
        elif name in odds.SPLITS:
            shape.append(SPLIT)
            a.append(odds.SPLITS[name][0] - 1)
            b.append(odds.SPLITS[name][1] - 1)
        else:
            shape.append(STRAIGHT if name == "straight" else PAIRS)
            a.append(-1)
            b.append(-1)
        prize.append(odds.prize(name))
    as_array = lambda x: np.array(x, dtype=np.int64)  # noqa: E731
    return as_array(shape), as_array(a), as_array(b), as_array(prize)


def tables(options: dict[str, Any]) -> tuple[np.ndarray, ...]:
    """The game's data as arrays: board, Fortune cards, ticket kinds, horses, Shaker spaces."""
    from gamenight.engine import new_game

    game: Any = new_game(GAME, **options)  # validated, with the built-in data filled in
    data = game.data
    board = data.board.space
    kind = np.array([KINDS.index(s.kind) for s in board], dtype=np.int64)
    amount = np.array([s.amount or 0 for s in board], dtype=np.int64)
    cards = data.fortune.card
    effect = np.array([EFFECTS.index(c.effect) for c in cards], dtype=np.int64)
    card_amount = np.array([c.amount or 0 for c in cards], dtype=np.int64)
    card_to = np.array([KINDS.index(c.to) if c.to else -1 for c in cards], dtype=np.int64)
    kinds = sorted({(a, b) for a, b in data.tickets.tickets})  # the engine draws from sorted()
    ticket_a = np.array([a for a, _ in kinds], dtype=np.int64)
    ticket_b = np.array([b for _, b in kinds], dtype=np.int64)
    deck = np.array([sum(1 for t in data.tickets.tickets if tuple(t) == k) for k in kinds])
    horses = np.array(data.horses.horses, dtype=np.int64)
    return (kind, amount, effect, card_amount, card_to, ticket_a, ticket_b,
            deck.astype(np.int64), horses, *spaces())  # fmt: skip


# Speed: the helpers below never allocate, so they are compiled without Numba's reference
# counting (rng.NO_REFCOUNT).
# One flat int64 array ``s`` holds a game (scalars, then per-seat and per-card blocks) and one
# ``d`` holds the table and the bot: every helper takes the two, so a call passes two arrays.
# What every move touches (phase, player on turn, turns, moves, the stream) is in ``play``'s
# locals instead; ``s`` gets the turns and moves at the end, for the figures.
(START_DUE, MAY_BUY, TURNS, IOUS, SWEEPS, LOTTOS, RACES_HELD, BY_LIMIT, WINNER, QLEN,
 HQLEN, DECK_N, UNSEEN_N, KNOWN_HEAD, KNOWN_N, SHAKER_FOR, MOVES, MAY_END,
 MARKS) = range(19)  # fmt: skip
SEATS, KINDS_MAX, CARDS_MAX, HORSES_MAX, SPACES_MAX, SHAKER_SPACES = 4, 30, 200, 6, 100, 12
TICKETS_MAX = 100  # the data's limit
SMALL = 128  # above every space, ticket kind and pile count (a power of two, as SEATS is)
assert SEATS & (SEATS - 1) == 0 and max(SPACES_MAX, TICKETS_MAX, KINDS_MAX) < SMALL
# Per seat: cash, position, IOU held, out, tickets held (count, kinds), marker queue, race
# queue, horse dealt. Then the horses taken, the Sweepstakes markers' owners (in preference
# order), the ticket pile (count per kind), the Fortune cards unseen and seen (in deck order),
# and the ticket pile as a list of kinds (any order: a draw takes a uniform slot).
CASH = MARKS + 1
POSN = CASH + SEATS
IOU = POSN + SEATS
OUT = IOU + SEATS
NHELD = OUT + SEATS
HELD = NHELD + SEATS
QUEUE = HELD + SEATS * MAX_TICKETS
HQ = QUEUE + SEATS
HCARD = HQ + SEATS
TAKEN = HCARD + SEATS
MOWNER = TAKEN + HORSES_MAX
DECK = MOWNER + SEATS
UNSEEN = DECK + KINDS_MAX
KNOWN = UNSEEN + CARDS_MAX
PILE = KNOWN + CARDS_MAX
STATE_SIZE = PILE + TICKETS_MAX

# ``d``: options and bot, then the Sweepstakes spaces, tickets, horses, board and cards
PLAYERS, FIRST, AUTO_CLAIM, MAX_TURNS, BUY_MIN, REPAY_MIN, ROLL_AGAIN = range(7)
N_SPACES, N_CARDS, N_KINDS, N_HORSES = range(7, 11)
PREF = 16
SHAPE = PREF + SHAKER_SPACES
PA = SHAPE + SHAKER_SPACES
PB = PA + SHAKER_SPACES
PRIZE = PB + SHAKER_SPACES
PILE0 = PRIZE + SHAKER_SPACES  # the pile as dealt, and each kind's faces as a bit mask
TMASK = PILE0 + TICKETS_MAX
HORSE = TMASK + KINDS_MAX
KIND = HORSE + HORSES_MAX
AMOUNT = KIND + SPACES_MAX
EFFECT = AMOUNT + SPACES_MAX
CARD_AMOUNT = EFFECT + CARDS_MAX
CARD_TO = CARD_AMOUNT + CARDS_MAX
HORSE_AT = CARD_TO + CARDS_MAX  # where each face is among the horses (-1: none)
DELTA = HORSE_AT + 7  # per space: the money it moves (+ collect, - pay), or EVENT + its kind
THROWS = DELTA + SPACES_MAX  # per Shaker throw the markers it pays, 4 bits each, 16 a word
FRESH = THROWS + 6**6 // 16  # ``s`` as dealt, up to the Fortune cards unseen: copied at once
DATA_SIZE = FRESH + KNOWN  # (26 kB: it stays in the core's first cache)


def kernel_args(options: dict[str, Any]) -> np.ndarray:
    """The table and the bot as one array ``d`` for ``play``."""
    (kind, amount, effect, card_amount, card_to, ticket_a, ticket_b, deck, horses, shape, pa,
     pb, prize) = tables(options)  # fmt: skip
    buy_min, repay_min, again, order = bot_params()
    if ticket_a.size > KINDS_MAX:
        raise ValueError(f"the kernel holds {KINDS_MAX} kinds of ticket at most")
    first = options.get("first_player")
    d = np.zeros(DATA_SIZE, dtype=np.int64)
    d[:11] = [int(options["players"]), -1 if first is None else int(first),
              int(bool(options.get("auto_claim_start"))), int(options["max_turns"]),
              buy_min, repay_min, int(again), kind.size, effect.size, ticket_a.size,
              horses.size]  # fmt: skip
    pile = np.repeat(np.arange(deck.size), deck)
    tmask = (1 << ticket_a) | (1 << ticket_b)
    for at, a in ((PREF, order), (SHAPE, shape), (PA, pa), (PB, pb), (PRIZE, prize),
                  (PILE0, pile), (TMASK, tmask), (HORSE, horses), (KIND, kind),
                  (AMOUNT, amount), (EFFECT, effect), (CARD_AMOUNT, card_amount),
                  (CARD_TO, card_to)):  # fmt: skip
        d[at : at + a.size] = a
    d[HORSE_AT : HORSE_AT + 7] = -1
    d[DELTA : DELTA + kind.size] = np.where(
        kind == COLLECT_SPACE, amount, np.where(kind == PAY_SPACE, -amount, EVENT + kind)
    )
    d[DELTA : DELTA + kind.size][kind == START] = 0
    d[HORSE_AT + horses] = np.arange(horses.size)
    d[THROWS:FRESH] = throw_table()
    fresh = d[FRESH:]
    fresh[CASH : CASH + d[PLAYERS]] = START_CASH
    fresh[DECK : DECK + deck.size] = deck
    fresh[DECK_N] = pile.size
    fresh[UNSEEN : UNSEEN + effect.size] = np.arange(effect.size)
    fresh[UNSEEN_N] = effect.size
    return d


# --- chance ------------------------------------------------------------------------------------
# The stream's outputs are worked out ``BUF`` at a time, side by side (the loop vectorises), into
# ``r``, whose last word keeps the stream's counter; a draw reads the next one. ``rng``, where the
# next draw is in ``r``, is a local of the game, passed in and handed back by each draw: kept in a
# register. The outputs and their order are the stream's, so the games are those drawn one by one.
BUF = 256  # a power of two


@njit(cache=True, **NO_REFCOUNT)
def _refill(r: np.ndarray) -> None:
    """The stream's next ``BUF`` outputs into ``r[:BUF]``; its counter moves on past them."""
    c = r[BUF]
    for i in range(BUF):
        _, r[i] = mix(c + np.uint64(i) * GAMMA)
    r[BUF] = c + np.uint64(BUF) * GAMMA


# A playout's stream is keyed by turn instead (``rng.turn_stream``).
def _next(rng: Any, r: np.ndarray) -> tuple[Any, Any]:
    """The stream's next output, and where the stream is then (compiled only)."""
    raise NotImplementedError("compiled only")


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _buffered(rng: int, r: np.ndarray) -> tuple[int, Any]:
    """The stream's next output (``rng == BUF``: every buffered one is used, work out more)."""
    if rng < BUF:
        return rng + 1, r[rng & (BUF - 1)]
    _refill(r)
    return 1, r[0]


# (inlined by LLVM, not by Numba, whose inlining of it trips its own pedantic checks)
@overload(_next, jit_options=NO_REFCOUNT)  # type: ignore[arg-type]  # numba's stub TypedDict
def _next_compiled(rng, r):  # type: ignore[no-untyped-def]  # Numba: names as the lambdas
    if keyed(rng):
        return lambda rng, r: mix(rng)
    return lambda rng, r: _buffered(rng, r)


def _taped(tape: np.ndarray) -> bool:
    """Is there a tape to read? (Compiled: an int8 tape never is, so the stream build drops
    every tape branch.)"""
    return bool(tape.size)


@overload(_taped, inline="always")
def _taped_compiled(tape):  # type: ignore[no-untyped-def]  # Numba: names as the lambdas
    if isinstance(tape, types.Array) and tape.dtype == types.int8:
        return lambda tape: False
    return lambda tape: tape.size > 0


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _below(rng: Any, r: np.ndarray, tape: np.ndarray, at: np.ndarray, k: int) -> tuple[Any, Any]:
    """A whole number in [0, k): from the tape, else unbiased from the stream (Lemire)."""
    if _taped(tape):
        if at[0] >= tape.size:
            raise IndexError("the tape ran out before the game ended")
        v = tape[at[0]]
        at[0] += 1
        return rng, v % k
    kk = np.uint64(k)
    while True:
        rng, z = _next(rng, r)
        m = (z >> S32) * kk
        low = m & LOW32
        if low >= kk or low >= (np.uint64(1) << S32) % kk:  # divide only when it may matter
            return rng, np.int64(m >> S32)


def _ticket_below(rng: Any, r: np.ndarray, tape: np.ndarray, at: np.ndarray, k: int) -> Any:
    """``_below`` for a ticket: a keyed stream draws it aside (compiled only)."""
    raise NotImplementedError("compiled only")


@overload(_ticket_below, jit_options=NO_REFCOUNT)  # type: ignore[arg-type]  # as _next
def _ticket_below_compiled(rng, r, tape, at, k):  # type: ignore[no-untyped-def]
    if not keyed(rng):
        return lambda rng, r, tape, at, k: _below(rng, r, tape, at, k)

    def aside(rng, r, tape, at, k):  # type: ignore[no-untyped-def]
        there, i = _below(r[2], r, tape, at, k)
        r[2] = there
        return rng, i

    return aside


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _two_dice(rng: Any, r: np.ndarray, tape: np.ndarray, at: np.ndarray) -> tuple[Any, Any, Any]:
    """Two dice, 1-6 each (from the stream, one draw's two halves)."""
    if _taped(tape):
        rng, a = _below(rng, r, tape, at, 6)
        rng, b = _below(rng, r, tape, at, 6)
        return rng, a + 1, b + 1
    while True:
        rng, z = _next(rng, r)
        m1 = (z >> S32) * SIX
        m2 = (z & LOW32) * SIX
        if (m1 & LOW32) >= REJECT and (m2 & LOW32) >= REJECT:  # as ``rng.pair``
            return rng, np.int64(m1 >> S32) + 1, np.int64(m2 >> S32) + 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _shaker(rng: Any, r: np.ndarray, tape: np.ndarray, at: np.ndarray) -> tuple[Any, Any]:
    """The Shaker's six dice as one throw ``u`` among 6**6: die ``i`` (from 0) shows
    ``u // 6**i % 6 + 1``. One draw from the stream; six dice from a tape."""
    if _taped(tape):
        u, place = 0, 1
        for _ in range(6):
            rng, v = _below(rng, r, tape, at, 6)
            u += place * v
            place *= 6
        return rng, u
    while True:
        rng, z = _next(rng, r)
        m = (z >> S32) * SHAKE_OUTCOMES
        if (m & LOW32) >= SHAKE_REJECT:
            return rng, np.int64(m >> S32)


@njit(cache=True, **NO_REFCOUNT)
def wins(shape: int, a: int, b: int, s: np.ndarray, o: int) -> bool:
    """Does a marker on a space of this shape win with the Shaker showing ``s[o : o + 6]``?"""
    top = s[o]
    for i in range(o + 1, o + 6):
        if s[i] > top:
            top = s[i]
    if shape == HIGH:
        return s[o + a] == top
    if shape == SPLIT:
        return s[o + a] == top or s[o + b] == top
    if shape == STRAIGHT:
        for i in range(o, o + 4):
            step = s[i + 1] - s[i]
            if (step == 1 or step == -1) and s[i + 2] - s[i + 1] == step:
                return True
        return False
    pair = False
    for i in range(o, o + 5):
        pair = pair or s[i] == s[i + 1]
    return pair


@njit(cache=True, inline="always")
def _throw_faces(u: int, dice: np.ndarray) -> None:
    """The faces of ordered Shaker throw number ``u`` (0 to 6**6 - 1; base 6, first die lowest)."""
    for i in range(6):
        dice[i] = u % 6 + 1
        u //= 6


@njit(cache=True)
def win_counts(shape: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many of the 6**6 ordered throws win each space: to check ``wins`` against ``odds``."""
    counts = np.zeros(shape.size, dtype=np.int64)
    dice = np.empty(6, dtype=np.int64)
    for u in range(6**6):
        _throw_faces(u, dice)
        for sp in range(shape.size):
            counts[sp] += wins(shape[sp], a[sp], b[sp], dice, 0)
    return counts


@cache
def throw_table() -> np.ndarray:
    """Every Shaker throw's outcome, worked out once: a Sweepstakes is a lookup. Every seat's bot
    marks the first free space in one preference order, so the i-th marker of a Sweepstakes is
    on the i-th space of that order: bit i of a throw's four says whether that space wins."""
    shape, a, b, _ = spaces()
    return _throw_table(shape, a, b, bot_params()[3][:SEATS])


@njit(cache=True)
def _throw_table(shape: np.ndarray, a: np.ndarray, b: np.ndarray,
                 order: np.ndarray) -> np.ndarray:  # fmt: skip
    out = np.zeros(6**6 // 16, dtype=np.int64)
    dice = np.empty(6, dtype=np.int64)
    for u in range(6**6):
        _throw_faces(u, dice)
        for i, sp in enumerate(order):
            if wins(shape[sp], a[sp], b[sp], dice, 0):
                out[u >> 4] |= 1 << (4 * (u & 15) + i)
    return out


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _wrap(i: int, n: int) -> int:
    """``i % n`` for ``0 <= i < 2 * n``, without a division (seats and spaces go round)."""
    return i - n if i >= n else i


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _seat(p: int) -> int:
    """Seat ``p`` (0-3) as LLVM can see it is one: an array index it needs no negative-index
    fix-up for (Numba adds one to every signed index it cannot prove non-negative)."""
    return p & (SEATS - 1)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _small(i: int) -> int:
    """A space, ticket kind or pile count (below ``SMALL``) read back from ``s``, as ``_seat``."""
    return i & (SMALL - 1)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _return_ticket(s: np.ndarray, k: int) -> None:
    """A ticket of kind ``k`` goes back: counted (for a tape's draws) and on the pile."""
    k = _small(k)
    s[DECK + k] += 1
    s[PILE + _small(s[DECK_N])] = k
    s[DECK_N] += 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _draw_ticket(s: np.ndarray, rng: Any, r: np.ndarray, tape: np.ndarray,
                 at: np.ndarray) -> tuple[Any, Any]:  # fmt: skip
    """A uniform ticket off the pile: from the stream a uniform slot (no walk over the kinds);
    from a tape number ``v % k`` of the tickets in sorted order, as the engine lists them."""
    n = _small(s[DECK_N])
    rng, i = _ticket_below(rng, r, tape, at, n)
    if _taped(tape):
        k = 0
        while i >= s[DECK + k]:
            i -= s[DECK + k]
            k += 1
        i = 0
        while s[PILE + i] != k:
            i += 1
    k = _small(s[PILE + i])
    s[PILE + i] = s[PILE + n - 1]
    s[DECK_N] = n - 1
    s[DECK + k] -= 1
    return rng, k


# --- money and turns ---------------------------------------------------------------------------
# Where the game is (phase, the player on turn, turns so far) lives in the game's locals: a step
# that changes it returns the new values. ``s`` keeps the rest, which changes less often.
@njit(cache=True, inline="always", **NO_REFCOUNT)
def _gain(s: np.ndarray, seat: int, amount: int) -> None:
    """Money in: a purse at the target may end the game, so the end checks look again."""
    seat = _seat(seat)
    s[CASH + seat] += amount
    if s[CASH + seat] >= TARGET:
        s[MAY_END] = 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _knock_out(s: np.ndarray, seat: int) -> None:
    """An IOU holder whose cash reaches $0 is out; their tickets go back to the pile."""
    seat = _seat(seat)
    if s[IOU + seat] and not s[OUT + seat] and s[CASH + seat] == 0:
        s[OUT + seat] = 1
        s[MAY_END] = 1  # one player left would win
        for i in range(s[NHELD + seat]):
            _return_ticket(s, s[HELD + MAX_TICKETS * seat + i])
        s[NHELD + seat] = 0
        k = 0
        for i in range(s[QLEN]):
            if s[QUEUE + i] != seat:
                s[QUEUE + k] = s[QUEUE + i]
                k += 1
        s[QLEN] = k


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _charge(s: np.ndarray, seat: int, amount: int, to: int) -> None:
    """A forced payment (to a seat, or the bank when ``to`` < 0): an IOU if needed, then
    as much as the purse holds."""
    seat = _seat(seat)
    if s[CASH + seat] < amount and not s[IOU + seat]:
        s[IOU + seat] = 1
        s[IOUS] += 1
        s[CASH + seat] += IOU_LOAN
    paid = min(s[CASH + seat], amount)
    s[CASH + seat] -= paid
    if to >= 0:
        _gain(s, to, paid)
    _knock_out(s, seat)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _begin_turn(s: np.ndarray, seat: int, turns: int) -> tuple[int, int, int]:
    """``seat`` plays: (phase, player on turn, turns)."""
    s[MAY_BUY] = 1
    return TURN, _seat(seat), turns + 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _next_turn(s: np.ndarray, d: np.ndarray, cur: int, turns: int) -> tuple[int, int, int]:
    """The next seat still in plays, unless the turn cap stops the game (richest wins)."""
    n = d[PLAYERS]
    if turns >= d[MAX_TURNS]:
        s[BY_LIMIT] = 1
        best, worth = -1, 0
        for p in range(n):
            w = s[CASH + p] - (IOU_LOAN + IOU_INTEREST) * s[IOU + p]
            if not s[OUT + p] and (best < 0 or w > worth):
                best, worth = p, w
        s[WINNER] = best
        return OVER, cur, turns
    seat = cur
    for _ in range(n):
        seat = _seat(_wrap(seat + 1, n))
        if not s[OUT + seat]:
            break
    if s[OUT + seat]:  # nobody is left in (the engine has no rule for it): no winner
        s[WINNER] = -1
        return OVER, cur, turns
    return _begin_turn(s, seat, turns)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _end_turn(s: np.ndarray, d: np.ndarray, cur: int, turns: int) -> tuple[int, int, int]:
    """An unclaimed Start payment waits for one last claim; else the next turn."""
    if s[START_DUE] and not s[OUT + cur]:
        return CLAIM, cur, turns
    s[START_DUE] = 0
    return _next_turn(s, d, cur, turns)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _decided(s: np.ndarray, n: int, cur: int) -> int:
    """The richest debt-free player at the target wins (ties: first from the player on turn);
    or the last one still in; else ``GOES_ON``. Only money in, a repaid IOU or a player out can
    change that, and they flag it: else nothing is looked at."""
    if not s[MAY_END]:
        return GOES_ON
    s[MAY_END] = 0
    alive, last, rich = 0, -1, False
    for p in range(n):  # the common case first: nobody there yet, two or more still in
        if not s[OUT + p]:
            alive += 1
            last = p
            rich = rich or (not s[IOU + p] and s[CASH + p] >= TARGET)
    if not rich:
        return last if alive == 1 else GOES_ON
    best, top = -1, -1
    for k in range(n):
        p = _seat(_wrap(cur + k, n))
        if not s[OUT + p] and not s[IOU + p] and s[CASH + p] >= TARGET and s[CASH + p] > top:
            best, top = p, s[CASH + p]
    return best


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _follow(s: np.ndarray, d: np.ndarray, then: int, phase: int, cur: int,
            turns: int) -> tuple[int, int, int, int]:  # fmt: skip
    """What a move leaves to do (``then``): a chance move, or the turn to end or pass on, or a
    new phase. Returns (phase, pending chance move, player on turn, turns)."""
    if then <= SHAKER:  # a chance move (or nothing) comes next
        return phase, then, cur, turns
    if then == THEN_END:
        phase, cur, turns = _end_turn(s, d, cur, turns)
    elif then == THEN_PASS:
        phase, cur, turns = _next_turn(s, d, cur, turns)
    elif then == THEN_MARKERS:
        phase = MARKER
    else:
        phase = DOUBLES
    return phase, NONE, cur, turns


# --- events ------------------------------------------------------------------------------------
# Each returns what follows it (``then``): a chance move, or the turn to end.
@njit(cache=True, **NO_REFCOUNT)
def _sweepstakes(s: np.ndarray, n: int, caller: int) -> int:
    """Everyone still in pays the entry, from the caller round; then markers in that order."""
    s[SWEEPS] += 1
    s[MARKS] = 0
    q = 0
    for k in range(n):
        p = _seat(_wrap(caller + k, n))
        if s[OUT + p]:
            continue
        _charge(s, p, SWEEP_FEE, -1)
        if not s[OUT + p]:
            s[QUEUE + q] = p
            q += 1
    s[QLEN] = q
    if q == 0:
        s[SHAKER_FOR] = FOR_SWEEP
        return SHAKER
    return THEN_MARKERS


@njit(cache=True, **NO_REFCOUNT)
def _lottery(s: np.ndarray, d: np.ndarray) -> int:
    held = 0
    for p in range(d[PLAYERS]):
        held += s[NHELD + p]
    if held == 0:  # nobody holds a ticket: no Lottery
        return THEN_END
    s[LOTTOS] += 1
    s[SHAKER_FOR] = FOR_LOTTERY
    return SHAKER


@njit(cache=True, **NO_REFCOUNT)
def _horse_race(s: np.ndarray, n: int, cur: int) -> int:
    """Everyone still in pays the entry, from the player on turn round; each is dealt a horse."""
    s[RACES_HELD] += 1
    for k in range(n):
        p = _seat(_wrap(cur + k, n))
        if not s[OUT + p]:
            _charge(s, p, RACE_FEE, -1)
    h = 0
    for k in range(n):
        p = _seat(_wrap(cur + k, n))
        if not s[OUT + p]:
            s[HQ + h] = p
            h += 1
    s[HQLEN] = h
    return HORSE_DEAL


@njit(cache=True, **NO_REFCOUNT)
def _fortune(s: np.ndarray, d: np.ndarray, card: int, cur: int) -> tuple[int, int]:
    """Card ``card`` read by the player on turn: (steps it moves them, else 0; what follows)."""
    n, cards = d[PLAYERS], d[N_CARDS]
    s[KNOWN + _wrap(s[KNOWN_HEAD] + s[KNOWN_N], cards)] = card  # back to the bottom of the deck
    s[KNOWN_N] += 1
    e, amount = d[EFFECT + card], d[CARD_AMOUNT + card]
    if e == COLLECT:
        _gain(s, cur, amount)
    elif e == PAY:
        _charge(s, cur, amount, -1)
    elif e == COLLECT_EACH:
        for p in range(n):
            if p != cur and not s[OUT + p]:
                _charge(s, p, amount, cur)
    elif e == PAY_EACH:
        for p in range(n):
            if p != cur and not s[OUT + p]:
                _charge(s, cur, amount, p)
    elif e == ADVANCE:
        return amount, NONE
    elif e == GO_TO:
        size = d[N_SPACES]
        for k in range(1, size + 1):
            if d[KIND + _wrap(s[POSN + cur] + k, size)] == d[CARD_TO + card]:
                return k, NONE
    elif e == CALL_SWEEP:
        return 0, _sweepstakes(s, n, cur)
    elif e == CALL_LOTTERY:
        return 0, _lottery(s, d)
    else:
        return 0, _horse_race(s, n, cur)
    return 0, THEN_PASS if s[OUT + cur] else THEN_END


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _land(s: np.ndarray, d: np.ndarray, cur: int) -> tuple[int, int]:
    """Do what the space says: (steps a Fortune card moves the player on, else 0; what follows)."""
    at = _small(s[POSN + cur])
    delta = d[DELTA + at]
    if delta > EVENT + len(KINDS):  # plain money (or Start): one test, not a chain over kinds
        c = s[CASH + cur] + delta
        if c < 0:  # a bill beyond the purse: the IOU rules
            _charge(s, cur, -delta, -1)
        else:
            s[CASH + cur] = c
            if c >= TARGET:
                s[MAY_END] = 1
            if c == 0:
                _knock_out(s, cur)
        return 0, THEN_END
    k = delta - EVENT  # (read with the amount: no second load before the branch on it)
    if k == FORTUNE_SPACE:
        if s[UNSEEN_N]:
            return 0, FORTUNE
        card = s[KNOWN + s[KNOWN_HEAD]]  # every card seen: the deck order is known
        s[KNOWN_HEAD] = _wrap(s[KNOWN_HEAD] + 1, d[N_CARDS])
        s[KNOWN_N] -= 1
        return _fortune(s, d, card, cur)
    if k == SWEEP_SPACE:
        return 0, _sweepstakes(s, d[PLAYERS], cur)
    if k == LOTTERY_SPACE:
        return 0, _lottery(s, d)
    return 0, _horse_race(s, d[PLAYERS], cur)  # a Horse Race or the Daily Double


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _move(s: np.ndarray, d: np.ndarray, cur: int, steps: int) -> int:
    """Move the player on turn, passing Start, landing; again while a Fortune card says so."""
    size = d[N_SPACES]
    then = NONE
    while steps > 0:
        new = s[POSN + cur] + steps
        if new >= size:
            if d[AUTO_CLAIM]:
                _gain(s, cur, START_PAY)
            else:
                s[START_DUE] += 1  # each pass of Start owes $100 (a Fortune card may add one)
        s[POSN + cur] = _wrap(new, size) if new < 2 * size else new % size
        steps, then = _land(s, d, cur)
    return then


# --- one move ----------------------------------------------------------------------------------
# A move returns what follows it, the moves it counts, and the stream's counter.
@njit(cache=True, inline="always", **NO_REFCOUNT)
def _settle_shaker(s: np.ndarray, d: np.ndarray, throw: int) -> None:
    """Pay the Lottery's tickets (all go back to the pile) or the Sweepstakes' markers."""
    if s[SHAKER_FOR] == FOR_LOTTERY:
        shown = 0  # the faces shown, as bits
        for _ in range(6):
            shown |= 1 << (throw % 6 + 1)
            throw //= 6
        for p in range(d[PLAYERS]):
            for i in range(s[NHELD + p]):
                k = _small(s[HELD + MAX_TICKETS * p + i])
                m = d[TMASK + k]
                if shown & m == m:
                    _gain(s, p, LOTTERY_PRIZE)
                _return_ticket(s, k)
            s[NHELD + p] = 0
    else:
        won = d[THROWS + (throw >> 4)] >> (4 * (throw & 15))
        for i in range(s[MARKS]):  # the i-th marker is on the i-th preferred space
            if won >> i & 1:
                _gain(s, s[MOWNER + i], d[PRIZE + d[PREF + i]])


@njit(cache=True, **NO_REFCOUNT)
def _deal_race(s: np.ndarray, d: np.ndarray, dealt: int, rng: Any, r: np.ndarray,
               tape: np.ndarray, at: np.ndarray) -> Any:  # fmt: skip
    """Each player in the race past the first ``dealt`` (whose horses ``TAKEN`` marks) is dealt
    a horse in turn, then the die is thrown (a tape's way; a playout's from a race begun)."""
    horses = d[N_HORSES]
    for i in range(dealt, s[HQLEN]):
        rng, j = _below(rng, r, tape, at, horses - i)
        for h in range(horses):
            if not s[TAKEN + h]:
                if j == 0:
                    s[TAKEN + h] = 1
                    s[HCARD + i] = d[HORSE + h]
                    break
                j -= 1
    rng, face = _below(rng, r, tape, at, 6)
    for i in range(s[HQLEN]):
        if s[HCARD + i] == face + 1:
            _gain(s, s[HQ + i], RACE_PRIZE)
            break
    for h in range(horses):
        s[TAKEN + h] = 0
    return rng


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _chance(s: np.ndarray, d: np.ndarray, kind: int, cur: int, rng: Any, r: np.ndarray,
            tape: np.ndarray, at: np.ndarray) -> tuple[int, int, Any]:  # fmt: skip
    """The pending chance move (a Shaker's six dice, or a race's deals and die, as one)."""
    if kind == MOVE:
        rng, a, b = _two_dice(rng, r, tape, at)
        return (THEN_DOUBLES if a == b else _move(s, d, cur, a + b)), 1, rng
    if kind == AGAIN:
        rng, a, b = _two_dice(rng, r, tape, at)
        if a == b:
            _gain(s, cur, DOUBLES_PRIZE)
        return THEN_END, 1, rng
    if kind == SHAKER:
        rng, throw = _shaker(rng, r, tape, at)
        _settle_shaker(s, d, throw)
        return THEN_END, 6, rng
    if kind == FORTUNE:
        rng, i = _below(rng, r, tape, at, s[UNSEEN_N])
        card = s[UNSEEN + i]
        s[UNSEEN_N] -= 1
        if _taped(tape):  # a tape's draws read the unseen cards in deck order
            for j in range(i, s[UNSEEN_N]):
                s[UNSEEN + j] = s[UNSEEN + j + 1]
        else:  # the stream's in any order: the last takes the drawn card's slot
            s[UNSEEN + i] = s[UNSEEN + s[UNSEEN_N]]
        steps, then = _fortune(s, d, card, cur)
        if steps:
            then = _move(s, d, cur, steps)
        return then, 1, rng
    # a Horse Race's deals and die
    made = s[HQLEN] + 1
    if _taped(tape):
        return THEN_END, made, _deal_race(s, d, 0, rng, r, tape, at)
    # Only who wins matters: the die, then where that horse went. Dealt at random, it is
    # equally likely in each of the deck's places, the first ones those of the players.
    rng, face = _below(rng, r, tape, at, 6)
    if d[HORSE_AT + face + 1] >= 0 and s[HQLEN]:
        rng, j = _below(rng, r, tape, at, d[N_HORSES])
        if j < s[HQLEN]:
            _gain(s, s[HQ + j], RACE_PRIZE)
    return THEN_END, made, rng


@njit(cache=True, **NO_REFCOUNT)
def _throw_off(s: np.ndarray, n: int, rng: Any, r: np.ndarray, tape: np.ndarray,
               at: np.ndarray) -> tuple[int, int, Any]:  # fmt: skip
    """The throw for first player, ties throwing again: (first player, moves, ``rng``)."""
    m, made = n, 0
    for p in range(n):
        s[HQ + p] = p  # the contenders
    while m > 1:
        best = 0
        for i in range(m):
            rng, a, b = _two_dice(rng, r, tape, at)
            made += 1
            s[HCARD + i] = a + b
            best = max(best, a + b)
        k = 0
        for i in range(m):
            if s[HCARD + i] == best:
                s[HQ + k] = s[HQ + i]
                k += 1
        m = k
    return s[HQ], made, rng


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _buys(s: np.ndarray, d: np.ndarray, seat: int) -> bool:
    """Does the bot buy a ticket now (it still may this turn)?"""
    c = s[CASH + seat]
    return (s[NHELD + seat] < MAX_TICKETS and c >= TICKET_PRICE and s[DECK_N] > 0
            and c >= d[BUY_MIN])  # fmt: skip


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _player(s: np.ndarray, d: np.ndarray, phase: int, cur: int, rng: Any, r: np.ndarray,
            tape: np.ndarray, at: np.ndarray) -> tuple[int, int, Any]:  # fmt: skip
    """The sensible bot's move for the seat the game waits for."""
    seat = _seat(s[QUEUE]) if phase == MARKER else cur
    then, made = NONE, 1
    if s[IOU + seat] and not s[OUT + seat] and s[CASH + seat] >= d[REPAY_MIN]:
        s[IOU + seat] = 0
        s[CASH + seat] -= IOU_LOAN + IOU_INTEREST
        s[MAY_END] = 1  # debt-free now
    elif phase == CLAIM or (s[START_DUE] and seat == cur):
        _gain(s, seat, START_PAY * s[START_DUE])
        s[START_DUE] = 0
        if phase == CLAIM:
            then = THEN_PASS
    elif phase == TURN and s[MAY_BUY] and _buys(s, d, seat):
        # Every ticket it buys now, each drawn at once, then its roll: in between only its purse
        # and the pile change (the end checks see nothing new, nobody else may act, and the
        # purse only goes down: no IOU to repay and no Start to claim before the next buy).
        while True:
            s[CASH + seat] -= TICKET_PRICE
            rng, k = _draw_ticket(s, rng, r, tape, at)
            s[HELD + MAX_TICKETS * seat + _small(s[NHELD + seat])] = k
            s[NHELD + seat] += 1
            made += 2  # the ticket, then the next choice
            _knock_out(s, seat)
            if s[OUT + seat]:  # the main loop's checks end the game or pass the turn on
                return NONE, made - 1, rng
            if not _buys(s, d, seat):
                break
        s[MAY_BUY] = 0
        then = MOVE
    elif phase == DOUBLES:
        then = AGAIN if d[ROLL_AGAIN] else _sweepstakes(s, d[PLAYERS], seat)
    elif phase == MARKER:  # every marker in a row, while the next seat has nothing else to do
        while True:
            s[MOWNER + _small(s[MARKS])] = seat  # on the first free space in the bot's order
            s[MARKS] += 1
            s[QLEN] -= 1
            for i in range(SEATS - 1):  # all slots move up: a fixed count, no call to memmove
                s[QUEUE + i] = s[QUEUE + i + 1]
            if s[QLEN] == 0:
                s[SHAKER_FOR] = FOR_SWEEP
                then = SHAKER
                break
            # A marker changes nobody's standing (the end checks after it see nothing new);
            # the next seat places theirs now unless it repays an IOU or claims Start first.
            _knock_out(s, seat)
            nxt = _seat(s[QUEUE])
            if (s[IOU + nxt] and s[CASH + nxt] >= d[REPAY_MIN]) or (s[START_DUE] and nxt == cur):
                break
            seat = nxt
            made += 1
    else:
        s[MAY_BUY] = 0
        then = MOVE
    _knock_out(s, seat)
    return then, made, rng


@njit(cache=True, **NO_REFCOUNT)
def _deal(d: np.ndarray, s: np.ndarray) -> None:
    """A new game on ``s``: purses, the ticket pile, the Fortune deck unseen (the Fortune blocks
    past them are written before they are read)."""
    for i in range(UNSEEN + d[N_CARDS]):
        s[i] = d[FRESH + i]
    for i in range(s[DECK_N]):
        s[PILE + i] = d[PILE0 + i]


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _settled(s: np.ndarray, n: int, phase: int, chance: int, cur: int) -> tuple[int, int]:
    """The end-of-game checks after a move: (phase, pending chance move)."""
    w = _decided(s, n, cur)
    if w == GOES_ON:
        return phase, chance
    s[WINNER] = w
    return OVER, NONE


@njit(cache=True, **NO_REFCOUNT)
def play(d: np.ndarray, s: np.ndarray, rng: Any, r: np.ndarray, tape: np.ndarray,
         at: np.ndarray) -> tuple[int, Any]:  # fmt: skip
    """One game on the array ``s``: (the winner, -1 when nobody is left in; ``rng``)."""
    _deal(d, s)
    first, moves = d[FIRST], 0
    if first < 0:
        first, moves, rng = _throw_off(s, d[PLAYERS], rng, r, tape, at)
    phase, cur, turns = _begin_turn(s, first, 0)
    return run(d, s, phase, NONE, cur, turns, moves, rng, r, tape, at)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def run(d: np.ndarray, s: np.ndarray, phase: int, chance: int, cur: int, turns: int, moves: int,
        rng: Any, r: np.ndarray, tape: np.ndarray, at: np.ndarray) -> tuple[int, Any]:  # fmt: skip
    """The game on ``s`` from where it waits (after the end checks of the last move) to its end:
    (the winner, -1 when nobody is left in; ``rng``)."""
    n = d[PLAYERS]
    while phase != OVER:
        rng = turn_stream(rng, r, turns)
        if (chance == NONE and phase == TURN and not s[IOU + cur] and not s[START_DUE]
                and not (s[MAY_BUY] and _buys(s, d, cur))):  # fmt: skip
            s[MAY_BUY] = 0  # the common turn: the bot just rolls
            moves += 1
            chance = MOVE
        elif chance == NONE:
            then, made, rng = _player(s, d, phase, cur, rng, r, tape, at)
            moves += made
            phase, chance, cur, turns = _follow(s, d, then, phase, cur, turns)
        # A choice that calls for chance (a roll, a ticket, the last marker) changes nobody's
        # standing, so the end-of-game checks after it could not end the game: the chance
        # move follows in the same round, and the checks run once for the two.
        while chance != NONE:  # chance moves in a row (a card, a Shaker, a race's deals)
            then, made, rng = _chance(s, d, chance, cur, rng, r, tape, at)
            moves += made
            phase, chance, cur, turns = _follow(s, d, then, phase, cur, turns)
            if chance != NONE:
                phase, chance = _settled(s, n, phase, chance, cur)
        if phase != OVER:
            phase, chance = _settled(s, n, phase, chance, cur)
        on_turn = phase in (TURN, DOUBLES, CLAIM) and chance == NONE
        if on_turn and s[OUT + cur]:  # went out on their own turn: play passes on
            s[START_DUE] = 0
            phase, cur, turns = _next_turn(s, d, cur, turns)
    s[MOVES] = moves
    s[TURNS] = turns
    return s[WINNER], rng


@njit(cache=True, error_model="numpy")
def _chunk(seed: np.uint64, lo: int, hi: int, d: np.ndarray, winners: np.ndarray,
           figures: np.ndarray) -> None:  # fmt: skip
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    no_tape = np.zeros(0, dtype=np.int8)  # not play_tape's type: a build without the tape
    at = np.zeros(1, dtype=np.int64)
    r = np.empty(BUF + 1, dtype=np.uint64)  # the chunk's stream, nothing worked out yet
    r[BUF] = seed
    rng = np.int64(BUF)  # (not the literal: ``play`` would be compiled once more for it)
    # the chunk's own copies: no cache line shared between threads (race.run_chunks)
    d = d.copy()
    for i in range(lo, hi):
        w, rng = play(d, s, rng, r, no_tape, at)
        winners[i] = -2 if s[BY_LIMIT] else w  # -2: stopped by the turn cap (stats.TRUNCATED)
        out = 0
        for p in range(d[PLAYERS]):
            out += s[OUT + p]
        figures[0, i] = s[MOVES]
        figures[1, i] = s[TURNS]
        figures[2, i] = s[IOUS]
        figures[3, i] = out
        figures[4, i] = s[SWEEPS]
        figures[5, i] = s[LOTTOS]
        figures[6, i] = s[RACES_HELD]
        figures[7, i] = s[BY_LIMIT]


@njit(cache=True, parallel=True, error_model="numpy")
def run_chunks(seeds: np.ndarray, sizes: np.ndarray, d: np.ndarray) -> tuple[Any, Any]:
    """Play every chunk (its own stream and arrays each) in parallel; winners and figures."""
    starts = chunk_starts(sizes)
    total = starts[-1]
    winners = np.empty(total, dtype=np.int64)
    figures = np.empty((len(FIGURES), total), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], d, winners, figures)
    return winners, figures


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners (-2 for a game the turn cap stopped) and named figures of a batch of chunks."""
    winners, figures = run_chunks(seeds, sizes, kernel_args(options))
    return winners, {name: figures[i] for i, name in enumerate(FIGURES)}


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> tuple[int, int, list[int], int, dict]:
    """One game on given draws (see the module's docstring): (winner as the engine names it, -1
    when nobody is left in, moves, final cash per seat, draws used, figures)."""
    d = kernel_args(options)
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    at = np.zeros(1, dtype=np.int64)
    tape = np.ascontiguousarray(tape, dtype=np.int64)
    w, _ = play(d, s, 0, np.zeros(1, dtype=np.uint64), tape, at)  # no stream: the tape's draws
    n = int(d[PLAYERS])
    figures = [int(s[MOVES]), int(s[TURNS]), int(s[IOUS]), int(s[OUT : OUT + n].sum()),
               int(s[SWEEPS]), int(s[LOTTOS]), int(s[RACES_HELD]), int(s[BY_LIMIT])]  # fmt: skip
    named = dict(zip(FIGURES, figures, strict=True))
    return int(w), int(s[MOVES]), [int(c) for c in s[CASH : CASH + n]], int(at[0]), named
