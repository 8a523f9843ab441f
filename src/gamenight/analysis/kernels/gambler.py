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
# in state.py: clear __pycache__ after one; the agreement tests would catch a stale build).
from gamenight.games.gambler.state import (
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

from .rng import LOW32, NO_TAPE, S32, chunk_starts, next64, two_d6, uniform_6pow6

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
EVENT = -(2**40)  # a space that is not plain money (no amount comes near)

# phases and pending chance moves, as the engine names them
ORDER, TURN, DOUBLES, MARKER, CLAIM, OVER = range(6)
NONE, THROW_OFF, MOVE, AGAIN, TICKET, FORTUNE, HORSE_DEAL, SHAKER = range(8)
FOR_SWEEP, FOR_LOTTERY = 0, 1


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
# counting (``_nrt=False``): its atomic increments cost a quarter of the time on every call.
NO_REFCOUNT: dict[str, Any] = {"_nrt": False, "error_model": "numpy"}
# One flat int64 array ``s`` holds a game (scalars, then per-seat and per-card blocks) and one
# ``d`` holds the table and the bot: every helper takes the two, so a call passes two arrays.
(PHASE, CHANCE, CUR, START_DUE, MAY_BUY, TURNS, IOUS, SWEEPS, LOTTOS, RACES_HELD, BY_LIMIT,
 WINNER, QLEN, MARKED, HQLEN, DECK_N, UNSEEN_N, KNOWN_HEAD, KNOWN_N, SHAKER_FOR,
 MOVES, MAY_END, MARKS) = range(23)  # fmt: skip
SEATS, KINDS_MAX, CARDS_MAX, HORSES_MAX, SPACES_MAX, SHAKER_SPACES = 4, 30, 200, 6, 100, 12
TICKETS_MAX = 100  # the data's limit
# Per seat: cash, position, IOU held, out, tickets held (count, kinds), marker queue, race
# queue, horse dealt. Then the horses taken, the Sweepstakes markers placed (spaces, owners),
# the ticket pile (count per kind), the Fortune cards unseen and seen (in deck order), and the
# ticket pile as a list of kinds (any order: a draw takes a uniform slot).
CASH = 24
POSN = CASH + SEATS
IOU = POSN + SEATS
OUT = IOU + SEATS
NHELD = OUT + SEATS
HELD = NHELD + SEATS
QUEUE = HELD + SEATS * MAX_TICKETS
HQ = QUEUE + SEATS
HCARD = HQ + SEATS
TAKEN = HCARD + SEATS
MSPACE = TAKEN + HORSES_MAX
MOWNER = MSPACE + SEATS
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
DECK0 = PRIZE + SHAKER_SPACES
PILE0 = DECK0 + KINDS_MAX  # the pile as dealt, and each kind's faces as a bit mask
TMASK = PILE0 + TICKETS_MAX
HORSE = TMASK + KINDS_MAX
KIND = HORSE + HORSES_MAX
AMOUNT = KIND + SPACES_MAX
EFFECT = AMOUNT + SPACES_MAX
CARD_AMOUNT = EFFECT + CARDS_MAX
CARD_TO = CARD_AMOUNT + CARDS_MAX
HORSE_AT = CARD_TO + CARDS_MAX  # where each face is among the horses (-1: none)
DELTA = HORSE_AT + 7  # per space: the money it moves (+ collect, - pay), or EVENT for the rest
THROWS = DELTA + SPACES_MAX  # per Shaker throw the spaces it wins, 16 bits each, four a word
DATA_SIZE = THROWS + 6**6 // 4  # (93 kB: it stays in the core's cache between Sweepstakes)


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
                  (DECK0, deck), (PILE0, pile), (TMASK, tmask), (HORSE, horses), (KIND, kind),
                  (AMOUNT, amount), (EFFECT, effect), (CARD_AMOUNT, card_amount),
                  (CARD_TO, card_to)):  # fmt: skip
        d[at : at + a.size] = a
    d[HORSE_AT : HORSE_AT + 7] = -1
    d[DELTA : DELTA + kind.size] = np.where(
        kind == COLLECT_SPACE, amount, np.where(kind == PAY_SPACE, -amount, EVENT)
    )
    d[DELTA : DELTA + kind.size][kind == START] = 0
    d[HORSE_AT + horses] = np.arange(horses.size)
    d[THROWS:] = throw_table()
    return d


# --- chance ------------------------------------------------------------------------------------
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
def _below(state: np.ndarray, tape: np.ndarray, at: np.ndarray, k: int) -> Any:
    """A whole number in [0, k): from the tape, else unbiased from the stream (Lemire)."""
    if _taped(tape):
        if at[0] >= tape.size:
            raise IndexError("the tape ran out before the game ended")
        v = tape[at[0]]
        at[0] += 1
        return v % k
    kk = np.uint64(k)
    while True:
        m = (next64(state) >> S32) * kk
        low = m & LOW32
        if low >= kk or low >= (np.uint64(1) << S32) % kk:  # divide only when it may matter
            return np.int64(m >> S32)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _two_dice(state: np.ndarray, tape: np.ndarray, at: np.ndarray) -> tuple[Any, Any]:
    """Two dice, 1-6 each."""
    if _taped(tape):
        a = _below(state, tape, at, 6)
        return a + 1, _below(state, tape, at, 6) + 1
    a, b = two_d6(state, NO_TAPE, at)
    return a + 1, b + 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _shaker(state: np.ndarray, tape: np.ndarray, at: np.ndarray) -> Any:
    """The Shaker's six dice as one throw ``u`` among 6**6: die ``i`` (from 0) shows
    ``u // 6**i % 6 + 1``. One draw from the stream; six dice from a tape."""
    if _taped(tape):
        u, place = 0, 1
        for _ in range(6):
            u += place * _below(state, tape, at, 6)
            place *= 6
        return u
    return uniform_6pow6(state)


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
    """Every Shaker throw's outcome, worked out once: a Sweepstakes or Lottery is a lookup."""
    shape, a, b, _ = spaces()
    return _throw_table(shape, a, b)


@njit(cache=True)
def _throw_table(shape: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(6**6 // 4, dtype=np.int64)
    dice = np.empty(6, dtype=np.int64)
    for u in range(6**6):
        _throw_faces(u, dice)
        for sp in range(shape.size):
            if wins(shape[sp], a[sp], b[sp], dice, 0):
                out[u >> 2] |= 1 << (16 * (u & 3) + sp)
    return out


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _wrap(i: int, n: int) -> int:
    """``i % n`` for ``0 <= i < 2 * n``, without a division (seats and spaces go round)."""
    return i - n if i >= n else i


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _return_ticket(s: np.ndarray, k: int) -> None:
    """A ticket of kind ``k`` goes back: counted (for a tape's draws) and on the pile."""
    s[DECK + k] += 1
    s[PILE + s[DECK_N]] = k
    s[DECK_N] += 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _draw_ticket(s: np.ndarray, state: np.ndarray, tape: np.ndarray, at: np.ndarray) -> Any:
    """A uniform ticket off the pile: from the stream a uniform slot (no walk over the kinds);
    from a tape number ``v % k`` of the tickets in sorted order, as the engine lists them."""
    n = s[DECK_N]
    i = _below(state, tape, at, n)
    if _taped(tape):
        k = 0
        while i >= s[DECK + k]:
            i -= s[DECK + k]
            k += 1
        i = 0
        while s[PILE + i] != k:
            i += 1
    k = s[PILE + i]
    s[PILE + i] = s[PILE + n - 1]
    s[DECK_N] = n - 1
    s[DECK + k] -= 1
    return k


# --- money and turns ---------------------------------------------------------------------------
@njit(cache=True, inline="always", **NO_REFCOUNT)
def _gain(s: np.ndarray, seat: int, amount: int) -> None:
    """Money in: a purse at the target may end the game, so the end checks look again."""
    s[CASH + seat] += amount
    if s[CASH + seat] >= TARGET:
        s[MAY_END] = 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _knock_out(s: np.ndarray, seat: int) -> None:
    """An IOU holder whose cash reaches $0 is out; their tickets go back to the pile."""
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
def _finish(s: np.ndarray, seat: int) -> None:
    s[WINNER] = seat
    s[PHASE] = OVER
    s[CHANCE] = NONE


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _begin_turn(s: np.ndarray, seat: int) -> None:
    s[TURNS] += 1
    s[CUR] = seat
    s[PHASE] = TURN
    s[MAY_BUY] = 1


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _next_turn(s: np.ndarray, d: np.ndarray) -> None:
    """The next seat still in plays, unless the turn cap stops the game (richest wins)."""
    n = d[PLAYERS]
    if s[PHASE] == OVER:
        return
    if s[TURNS] >= d[MAX_TURNS]:
        s[BY_LIMIT] = 1
        best, worth = -1, 0
        for p in range(n):
            w = s[CASH + p] - (IOU_LOAN + IOU_INTEREST) * s[IOU + p]
            if not s[OUT + p] and (best < 0 or w > worth):
                best, worth = p, w
        _finish(s, best)
        return
    seat = s[CUR]
    for _ in range(n):
        seat = _wrap(seat + 1, n)
        if not s[OUT + seat]:
            break
    if s[OUT + seat]:  # nobody is left in (the engine has no rule for it): no winner
        _finish(s, -1)
        return
    _begin_turn(s, seat)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _end_turn(s: np.ndarray, d: np.ndarray) -> None:
    """An unclaimed Start payment waits for one last claim; else the next turn."""
    if s[START_DUE] and not s[OUT + s[CUR]]:
        s[PHASE] = CLAIM
    else:
        s[START_DUE] = 0
        _next_turn(s, d)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _check_end(s: np.ndarray, n: int) -> None:
    """The richest debt-free player at the target wins (ties: first from the player on turn);
    or the last one still in. Only money in, a repaid IOU or a player out can change that, and
    they flag it: else nothing is looked at."""
    if not s[MAY_END]:
        return
    s[MAY_END] = 0
    alive, last, rich = 0, -1, False
    for p in range(n):  # the common case first: nobody there yet, two or more still in
        if not s[OUT + p]:
            alive += 1
            last = p
            rich = rich or (not s[IOU + p] and s[CASH + p] >= TARGET)
    if not rich:
        if alive == 1:
            _finish(s, last)
        return
    cur = s[CUR]
    best, top = -1, -1
    for k in range(n):
        p = _wrap(cur + k, n)
        if not s[OUT + p] and not s[IOU + p] and s[CASH + p] >= TARGET and s[CASH + p] > top:
            best, top = p, s[CASH + p]
    _finish(s, best)


# --- events ------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def _sweepstakes(s: np.ndarray, n: int, caller: int) -> None:
    """Everyone still in pays the entry, from the caller round; then markers in that order."""
    s[SWEEPS] += 1
    s[MARKED] = 0
    s[MARKS] = 0
    q = 0
    for k in range(n):
        p = _wrap(caller + k, n)
        if s[OUT + p]:
            continue
        _charge(s, p, SWEEP_FEE, -1)
        if not s[OUT + p]:
            s[QUEUE + q] = p
            q += 1
    s[QLEN] = q
    s[PHASE] = MARKER
    if q == 0:
        s[SHAKER_FOR] = FOR_SWEEP
        s[CHANCE] = SHAKER


@njit(cache=True, **NO_REFCOUNT)
def _lottery(s: np.ndarray, d: np.ndarray) -> None:
    held = 0
    for p in range(d[PLAYERS]):
        held += s[NHELD + p]
    if held == 0:  # nobody holds a ticket: no Lottery
        _end_turn(s, d)
        return
    s[LOTTOS] += 1
    s[SHAKER_FOR] = FOR_LOTTERY
    s[CHANCE] = SHAKER


@njit(cache=True, **NO_REFCOUNT)
def _horse_race(s: np.ndarray, n: int) -> None:
    """Everyone still in pays the entry, from the player on turn round; each is dealt a horse."""
    s[RACES_HELD] += 1
    cur = s[CUR]
    for k in range(n):
        p = _wrap(cur + k, n)
        if not s[OUT + p]:
            _charge(s, p, RACE_FEE, -1)
    h = 0
    for k in range(n):
        p = _wrap(cur + k, n)
        if not s[OUT + p]:
            s[HQ + h] = p
            h += 1
    s[HQLEN] = h
    s[CHANCE] = HORSE_DEAL


@njit(cache=True, **NO_REFCOUNT)
def _fortune(s: np.ndarray, d: np.ndarray, card: int) -> int:
    """Card ``card`` read by the player on turn; returns the steps it moves them (else 0)."""
    n, cards = d[PLAYERS], d[N_CARDS]
    s[KNOWN + _wrap(s[KNOWN_HEAD] + s[KNOWN_N], cards)] = card  # back to the bottom of the deck
    s[KNOWN_N] += 1
    cur, e, amount = s[CUR], d[EFFECT + card], d[CARD_AMOUNT + card]
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
        return amount
    elif e == GO_TO:
        size = d[N_SPACES]
        for k in range(1, size + 1):
            if d[KIND + _wrap(s[POSN + cur] + k, size)] == d[CARD_TO + card]:
                return k
    elif e == CALL_SWEEP:
        _sweepstakes(s, n, cur)
        return 0
    elif e == CALL_LOTTERY:
        _lottery(s, d)
        return 0
    else:
        _horse_race(s, n)
        return 0
    if s[OUT + cur]:
        _next_turn(s, d)
    else:
        _end_turn(s, d)
    return 0


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _land(s: np.ndarray, d: np.ndarray) -> int:
    """Do what the space says; returns the steps a Fortune card moves the player on (else 0)."""
    cur = s[CUR]
    at = s[POSN + cur]
    delta = d[DELTA + at]
    if delta != EVENT:  # plain money (or Start): one test instead of a chain over the kinds
        c = s[CASH + cur] + delta
        if c < 0:  # a bill beyond the purse: the IOU rules
            _charge(s, cur, -delta, -1)
        else:
            s[CASH + cur] = c
            if c >= TARGET:
                s[MAY_END] = 1
            if c == 0:
                _knock_out(s, cur)
        _end_turn(s, d)
        return 0
    k = d[KIND + at]
    if k == FORTUNE_SPACE:
        if s[UNSEEN_N]:
            s[CHANCE] = FORTUNE
            return 0
        card = s[KNOWN + s[KNOWN_HEAD]]  # every card seen: the deck order is known
        s[KNOWN_HEAD] = _wrap(s[KNOWN_HEAD] + 1, d[N_CARDS])
        s[KNOWN_N] -= 1
        return _fortune(s, d, card)
    elif k == SWEEP_SPACE:
        _sweepstakes(s, d[PLAYERS], cur)
        return 0
    elif k == LOTTERY_SPACE:
        _lottery(s, d)
    else:  # a Horse Race or the Daily Double
        _horse_race(s, d[PLAYERS])
    return 0


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _move(s: np.ndarray, d: np.ndarray, steps: int) -> None:
    """Move the player on turn, passing Start, landing; again while a Fortune card says so."""
    size = d[N_SPACES]
    while steps > 0:
        cur = s[CUR]
        new = s[POSN + cur] + steps
        if new >= size:
            if d[AUTO_CLAIM]:
                _gain(s, cur, START_PAY)
            else:
                s[START_DUE] = 1
        s[POSN + cur] = _wrap(new, size) if new < 2 * size else new % size
        steps = _land(s, d)


# --- one move ----------------------------------------------------------------------------------
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
                k = s[HELD + MAX_TICKETS * p + i]
                m = d[TMASK + k]
                if shown & m == m:
                    _gain(s, p, LOTTERY_PRIZE)
                _return_ticket(s, k)
            s[NHELD + p] = 0
    else:
        won = d[THROWS + (throw >> 2)] >> (16 * (throw & 3))
        for i in range(s[MARKS]):
            sp = s[MSPACE + i]
            if won >> sp & 1:
                _gain(s, s[MOWNER + i], d[PRIZE + sp])
        s[MARKED] = 0
    _end_turn(s, d)


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _chance(s: np.ndarray, d: np.ndarray, state: np.ndarray, tape: np.ndarray,
            at: np.ndarray) -> None:  # fmt: skip
    """The pending chance move (a Shaker's six dice, or a race's deals and die, as one)."""
    n = d[PLAYERS]
    kind = s[CHANCE]
    s[CHANCE] = NONE
    cur = s[CUR]
    if kind == MOVE:
        a, b = _two_dice(state, tape, at)
        s[MOVES] += 1
        if a == b:
            s[PHASE] = DOUBLES
        else:
            _move(s, d, a + b)
    elif kind == AGAIN:
        a, b = _two_dice(state, tape, at)
        s[MOVES] += 1
        if a == b:
            _gain(s, cur, DOUBLES_PRIZE)
        _end_turn(s, d)
    elif kind == SHAKER:
        throw = _shaker(state, tape, at)
        s[MOVES] += 6
        _settle_shaker(s, d, throw)
    elif kind == FORTUNE:
        i = _below(state, tape, at, s[UNSEEN_N])
        s[MOVES] += 1
        card = s[UNSEEN + i]
        s[UNSEEN_N] -= 1
        if _taped(tape):  # a tape's draws read the unseen cards in deck order
            for j in range(i, s[UNSEEN_N]):
                s[UNSEEN + j] = s[UNSEEN + j + 1]
        else:  # the stream's in any order: the last takes the drawn card's slot
            s[UNSEEN + i] = s[UNSEEN + s[UNSEEN_N]]
        steps = _fortune(s, d, card)
        if steps:
            _move(s, d, steps)
    elif kind == HORSE_DEAL and not _taped(tape):
        # Only who wins matters: the die, then where that horse went. Dealt at random, it is
        # equally likely in each of the deck's places, the first ones those of the players.
        face = _below(state, tape, at, 6) + 1
        s[MOVES] += s[HQLEN] + 1
        if d[HORSE_AT + face] >= 0 and s[HQLEN]:
            j = _below(state, tape, at, d[N_HORSES])
            if j < s[HQLEN]:
                _gain(s, s[HQ + j], RACE_PRIZE)
        _end_turn(s, d)
    elif kind == HORSE_DEAL:  # a tape deals each player's horse in turn, then throws the die
        horses = d[N_HORSES]
        for i in range(s[HQLEN]):  # each player in the race is dealt a horse, then the die
            j = _below(state, tape, at, horses - i)
            for h in range(horses):
                if not s[TAKEN + h]:
                    if j == 0:
                        s[TAKEN + h] = 1
                        s[HCARD + i] = d[HORSE + h]
                        break
                    j -= 1
        face = _below(state, tape, at, 6) + 1
        s[MOVES] += s[HQLEN] + 1
        for i in range(s[HQLEN]):
            if s[HCARD + i] == face:
                _gain(s, s[HQ + i], RACE_PRIZE)
                break
        for h in range(horses):
            s[TAKEN + h] = 0
        _end_turn(s, d)
    else:  # the throw for first player, ties throwing again, all of it
        m = n
        for p in range(n):
            s[HQ + p] = p  # the contenders
        while m > 1:
            best = 0
            for i in range(m):
                a, b = _two_dice(state, tape, at)
                s[MOVES] += 1
                s[HCARD + i] = a + b
                best = max(best, a + b)
            k = 0
            for i in range(m):
                if s[HCARD + i] == best:
                    s[HQ + k] = s[HQ + i]
                    k += 1
            m = k
        _begin_turn(s, s[HQ])


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _player(s: np.ndarray, d: np.ndarray, state: np.ndarray, tape: np.ndarray,
            at: np.ndarray) -> None:  # fmt: skip
    """The sensible bot's move for the seat the game waits for."""
    phase, cur = s[PHASE], s[CUR]
    seat = s[QUEUE] if phase == MARKER else cur
    c = s[CASH + seat]
    s[MOVES] += 1
    if s[IOU + seat] and not s[OUT + seat] and c >= d[REPAY_MIN]:
        s[IOU + seat] = 0
        s[CASH + seat] -= IOU_LOAN + IOU_INTEREST
        s[MAY_END] = 1  # debt-free now
    elif phase == CLAIM or (s[START_DUE] and seat == cur):
        s[START_DUE] = 0
        _gain(s, seat, START_PAY)
        if phase == CLAIM:
            _next_turn(s, d)
    elif (phase == TURN and s[MAY_BUY] and s[NHELD + seat] < MAX_TICKETS and c >= TICKET_PRICE
          and s[DECK_N] > 0 and c >= d[BUY_MIN]):  # fmt: skip
        # Every ticket it buys now, each drawn at once, then its roll: in between only its purse
        # and the pile change (the end checks see nothing new, nobody else may act, and the
        # purse only goes down: no IOU to repay and no Start to claim before the next buy).
        while True:
            s[CASH + seat] -= TICKET_PRICE
            s[HELD + MAX_TICKETS * seat + s[NHELD + seat]] = _draw_ticket(s, state, tape, at)
            s[NHELD + seat] += 1
            s[MOVES] += 2  # the ticket, then the next choice
            _knock_out(s, seat)
            if s[OUT + seat]:  # the main loop's checks end the game or pass the turn on
                s[MOVES] -= 1
                return
            c = s[CASH + seat]
            if not (s[NHELD + seat] < MAX_TICKETS and c >= TICKET_PRICE and s[DECK_N] > 0
                    and c >= d[BUY_MIN]):  # fmt: skip
                break
        s[MAY_BUY] = 0
        s[CHANCE] = MOVE
    elif phase == DOUBLES:
        if d[ROLL_AGAIN]:
            s[CHANCE] = AGAIN
        else:
            _sweepstakes(s, d[PLAYERS], seat)
    elif phase == MARKER:  # every marker in a row, while the next seat has nothing else to do
        while True:
            for i in range(SHAKER_SPACES):
                sp = d[PREF + i]
                if not s[MARKED] >> sp & 1:
                    s[MARKED] |= 1 << sp
                    s[MSPACE + s[MARKS]] = sp
                    s[MOWNER + s[MARKS]] = seat
                    s[MARKS] += 1
                    break
            s[QLEN] -= 1
            for i in range(s[QLEN]):
                s[QUEUE + i] = s[QUEUE + i + 1]
            if s[QLEN] == 0:
                s[SHAKER_FOR] = FOR_SWEEP
                s[CHANCE] = SHAKER
                break
            # A marker changes nobody's standing (the end checks after it see nothing new);
            # the next seat places theirs now unless it repays an IOU or claims Start first.
            _knock_out(s, seat)
            nxt = s[QUEUE]
            if (s[IOU + nxt] and s[CASH + nxt] >= d[REPAY_MIN]) or (s[START_DUE] and nxt == cur):
                break
            seat = nxt
            s[MOVES] += 1
    else:
        s[MAY_BUY] = 0
        s[CHANCE] = MOVE
    _knock_out(s, seat)


@njit(cache=True, **NO_REFCOUNT)
def play(d: np.ndarray, s: np.ndarray, state: np.ndarray, tape: np.ndarray,
         at: np.ndarray) -> int:  # fmt: skip
    """One game on the array ``s``; returns the winner (-1: nobody left in)."""
    n = d[PLAYERS]
    s[:UNSEEN] = 0  # the Fortune blocks are written before they are read
    for p in range(n):
        s[CASH + p] = START_CASH
    for k in range(d[N_KINDS]):
        s[DECK + k] = d[DECK0 + k]
        s[DECK_N] += d[DECK0 + k]
    for i in range(s[DECK_N]):
        s[PILE + i] = d[PILE0 + i]
    for i in range(d[N_CARDS]):
        s[UNSEEN + i] = i
    s[UNSEEN_N] = d[N_CARDS]
    if d[FIRST] >= 0:
        _begin_turn(s, d[FIRST])
    else:
        s[PHASE] = ORDER
        s[CHANCE] = THROW_OFF
    while s[PHASE] != OVER:
        if s[CHANCE] == NONE:
            _player(s, d, state, tape, at)
        # A choice that calls for chance (a roll, a ticket, the last marker) changes nobody's
        # standing, so the end-of-game checks after it could not end the game: the chance
        # move follows in the same round, and the checks run once for the two.
        while s[CHANCE] != NONE:  # chance moves in a row (a card, a Shaker, a race's deals)
            _chance(s, d, state, tape, at)
            if s[CHANCE] != NONE:
                _check_end(s, n)
        if s[PHASE] != OVER:
            _check_end(s, n)
        on_turn = s[PHASE] in (TURN, DOUBLES, CLAIM) and s[CHANCE] == NONE
        if on_turn and s[OUT + s[CUR]]:  # went out on their own turn: play passes on
            s[START_DUE] = 0
            _next_turn(s, d)
    return s[WINNER]


@njit(cache=True, error_model="numpy")
def _chunk(seed: np.uint64, lo: int, hi: int, d: np.ndarray, winners: np.ndarray,
           figures: np.ndarray) -> None:  # fmt: skip
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    no_tape = np.zeros(0, dtype=np.int8)  # not play_tape's type: a build without the tape
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    at = np.zeros(1, dtype=np.int64)
    for i in range(lo, hi):
        w = play(d, s, state, no_tape, at)
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
    w = play(d, s, np.zeros(1, dtype=np.uint64), tape, at)
    n = int(d[PLAYERS])
    figures = [int(s[MOVES]), int(s[TURNS]), int(s[IOUS]), int(s[OUT : OUT + n].sum()),
               int(s[SWEEPS]), int(s[LOTTOS]), int(s[RACES_HELD]), int(s[BY_LIMIT])]  # fmt: skip
    named = dict(zip(FIGURES, figures, strict=True))
    return int(w), int(s[MOVES]), [int(c) for c in s[CASH : CASH + n]], int(at[0]), named
