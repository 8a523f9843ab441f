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
from numba import njit, prange

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

from .rng import LOW32, NO_TAPE, S32, next64, two_d6, uniform_6pow6

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
NO_TAPE64 = np.zeros(0, dtype=np.int64)

KINDS = ("start", "fortune", "sweepstakes", "lottery", "races", "daily_double", "collect", "pay")
START, FORTUNE_SPACE, SWEEP_SPACE, LOTTERY_SPACE, RACES, DAILY_DOUBLE, COLLECT_SPACE, PAY_SPACE = (
    range(8)
)
EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "advance", "go_to",
           "sweepstakes", "lottery", "horse_race")  # fmt: skip
COLLECT, PAY, COLLECT_EACH, PAY_EACH, ADVANCE, GO_TO, CALL_SWEEP, CALL_LOTTERY, CALL_RACE = range(9)
HIGH, SPLIT, STRAIGHT, PAIRS = range(4)  # Sweepstakes space shapes

# phases and pending chance moves, as the engine names them
ORDER, TURN, DOUBLES, MARKER, CLAIM, OVER = range(6)
NONE, THROW_OFF, MOVE, AGAIN, TICKET, FORTUNE, HORSE, SHAKER = range(8)
FOR_SWEEP, FOR_LOTTERY = 0, 1

# the game's scalars, kept in one int64 array ``g``
(PHASE, CHANCE, CUR, START_DUE, MAY_BUY, TURNS, IOUS, SWEEPS, LOTTOS, RACES_HELD, BY_LIMIT,
 WINNER, QLEN, MARKED, HQLEN, DECK_N, UNSEEN_N, KNOWN_HEAD, KNOWN_N, SHAKER_FOR,
 MOVES) = range(21)  # fmt: skip
NG = 21
# the bot and options, in one int64 array ``prm``
PLAYERS, FIRST, AUTO_CLAIM, MAX_TURNS, BUY_MIN, REPAY_MIN, ROLL_AGAIN = range(7)


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


def kernel_args(options: dict[str, Any]) -> tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]:
    """(``prm``, data arrays, marker preference) for ``play``."""
    buy_min, repay_min, again, order = bot_params()
    first = options.get("first_player")
    prm = np.array(
        [
            int(options["players"]),
            -1 if first is None else int(first),
            int(bool(options.get("auto_claim_start"))),
            int(options["max_turns"]),
            buy_min,
            repay_min,
            int(again),
        ],
        dtype=np.int64,
    )
    return prm, tables(options), order


@njit(cache=True)
def new_table(n: int, cards: int, kinds: int, horses: int) -> tuple:
    """The arrays one game plays on; ``play`` resets them, so a chunk reuses them: g, cash,
    position, iou, out, tickets held (count, kinds), marker queue, race queue, horse dealt to
    each in the race, ticket pile (count per kind), Fortune cards unseen, Fortune cards seen
    (in deck order), horses taken, marker owner per space, the Shaker's dice."""
    z = np.zeros
    return (z(NG, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
            z(n, np.int64), z((n, MAX_TICKETS), np.int64), z(n, np.int64), z(n, np.int64),
            z(n, np.int64), z(kinds, np.int64), z(cards, np.int64), z(cards, np.int64),
            z(horses, np.int64), z(12, np.int64), z(6, np.int64))  # fmt: skip


# --- chance ------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _below(state: np.ndarray, tape: np.ndarray, at: np.ndarray, k: int) -> Any:
    """A whole number in [0, k): from the tape, else unbiased from the stream (Lemire)."""
    if tape.size:
        if at[0] >= tape.size:
            raise IndexError("the tape ran out before the game ended")
        v = tape[at[0]]
        at[0] += 1
        return v % k
    kk = np.uint64(k)
    reject = (np.uint64(1) << S32) % kk
    while True:
        m = (next64(state) >> S32) * kk
        if (m & LOW32) >= reject:
            return np.int64(m >> S32)


@njit(cache=True, inline="always")
def _two_dice(state: np.ndarray, tape: np.ndarray, at: np.ndarray) -> tuple[Any, Any]:
    """Two dice, 1-6 each."""
    if tape.size:
        a = _below(state, tape, at, 6)
        return a + 1, _below(state, tape, at, 6) + 1
    a, b = two_d6(state, NO_TAPE, at)
    return a + 1, b + 1


@njit(cache=True, inline="always")
def _shaker(state: np.ndarray, tape: np.ndarray, at: np.ndarray, dice: np.ndarray) -> None:
    """The Shaker's six dice, positions 1-6 in order: one draw among 6**6 from the stream."""
    if tape.size:
        for i in range(6):
            dice[i] = _below(state, tape, at, 6) + 1
        return
    u = uniform_6pow6(state)
    for i in range(6):
        dice[i] = u % 6 + 1
        u //= 6


@njit(cache=True)
def wins(shape: int, a: int, b: int, dice: np.ndarray) -> bool:
    """Does a marker on a space of this shape win with the Shaker showing ``dice``?"""
    top = dice[0]
    for i in range(1, 6):
        if dice[i] > top:
            top = dice[i]
    if shape == HIGH:
        return dice[a] == top
    if shape == SPLIT:
        return dice[a] == top or dice[b] == top
    if shape == STRAIGHT:
        for i in range(4):
            step = dice[i + 1] - dice[i]
            if (step == 1 or step == -1) and dice[i + 2] - dice[i + 1] == step:
                return True
        return False
    pair = False
    for i in range(5):
        pair = pair or dice[i] == dice[i + 1]
    return pair


@njit(cache=True)
def win_counts(shape: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many of the 6**6 ordered throws win each space: to check ``wins`` against ``odds``."""
    counts = np.zeros(shape.size, dtype=np.int64)
    dice = np.empty(6, dtype=np.int64)
    for u in range(6**6):
        v = u
        for i in range(6):
            dice[i] = v % 6 + 1
            v //= 6
        for sp in range(shape.size):
            counts[sp] += wins(shape[sp], a[sp], b[sp], dice)
    return counts


# --- money and turns ---------------------------------------------------------------------------
@njit(cache=True)
def _knock_out(t: tuple, seat: int) -> None:
    """An IOU holder whose cash reaches $0 is out; their tickets go back to the pile."""
    g, cash, _, iou, out, nheld, held, queue = t[:8]
    deck = t[10]
    if iou[seat] and not out[seat] and cash[seat] == 0:
        out[seat] = 1
        for i in range(nheld[seat]):
            deck[held[seat, i]] += 1
        g[DECK_N] += nheld[seat]
        nheld[seat] = 0
        k = 0
        for i in range(g[QLEN]):
            if queue[i] != seat:
                queue[k] = queue[i]
                k += 1
        g[QLEN] = k


@njit(cache=True)
def _charge(t: tuple, seat: int, amount: int, to: int) -> None:
    """A forced payment (to a seat, or the bank when ``to`` < 0): an IOU if needed, then
    as much as the purse holds."""
    g, cash, _, iou = t[:4]
    if cash[seat] < amount and not iou[seat]:
        iou[seat] = 1
        g[IOUS] += 1
        cash[seat] += IOU_LOAN
    paid = min(cash[seat], amount)
    cash[seat] -= paid
    if to >= 0:
        cash[to] += paid
    _knock_out(t, seat)


@njit(cache=True)
def _finish(g: np.ndarray, seat: int) -> None:
    g[WINNER] = seat
    g[PHASE] = OVER
    g[CHANCE] = NONE


@njit(cache=True)
def _begin_turn(g: np.ndarray, seat: int) -> None:
    g[TURNS] += 1
    g[CUR] = seat
    g[PHASE] = TURN
    g[MAY_BUY] = 1


@njit(cache=True)
def _next_turn(t: tuple, prm: np.ndarray) -> None:
    """The next seat still in plays, unless the turn cap stops the game (richest wins)."""
    g, cash, _, iou, out = t[:5]
    n = prm[PLAYERS]
    if g[PHASE] == OVER:
        return
    if g[TURNS] >= prm[MAX_TURNS]:
        g[BY_LIMIT] = 1
        best, worth = -1, 0
        for s in range(n):
            w = cash[s] - (IOU_LOAN + IOU_INTEREST) * iou[s]
            if not out[s] and (best < 0 or w > worth):
                best, worth = s, w
        _finish(g, best)
        return
    seat = g[CUR]
    for _ in range(n):
        seat = (seat + 1) % n
        if not out[seat]:
            break
    if out[seat]:  # nobody is left in (the engine has no rule for it): no winner
        _finish(g, -1)
        return
    _begin_turn(g, seat)


@njit(cache=True)
def _end_turn(t: tuple, prm: np.ndarray) -> None:
    """An unclaimed Start payment waits for one last claim; else the next turn."""
    g, out = t[0], t[4]
    if g[START_DUE] and not out[g[CUR]]:
        g[PHASE] = CLAIM
    else:
        g[START_DUE] = 0
        _next_turn(t, prm)


@njit(cache=True)
def _check_end(t: tuple, n: int) -> None:
    """The richest debt-free player at the target wins (ties: first from the player on turn);
    or the last one still in."""
    g, cash, _, iou, out = t[:5]
    cur = g[CUR]
    best, top, alive, last = -1, -1, 0, -1
    for k in range(n):
        s = (cur + k) % n
        if out[s]:
            continue
        alive += 1
        last = s
        if not iou[s] and cash[s] >= TARGET and cash[s] > top:
            best, top = s, cash[s]
    if best >= 0:
        _finish(g, best)
    elif alive == 1:
        _finish(g, last)


# --- events ------------------------------------------------------------------------------------
@njit(cache=True)
def _sweepstakes(t: tuple, n: int, caller: int) -> None:
    """Everyone still in pays the entry, from the caller round; then markers in that order."""
    g, _, _, _, out, _, _, queue = t[:8]
    g[SWEEPS] += 1
    g[MARKED] = 0
    q = 0
    for k in range(n):
        s = (caller + k) % n
        if out[s]:
            continue
        _charge(t, s, SWEEP_FEE, -1)
        if not out[s]:
            queue[q] = s
            q += 1
    g[QLEN] = q
    g[PHASE] = MARKER
    if q == 0:
        g[SHAKER_FOR] = FOR_SWEEP
        g[CHANCE] = SHAKER


@njit(cache=True)
def _lottery(t: tuple, prm: np.ndarray) -> None:
    g, nheld = t[0], t[5]
    held = 0
    for s in range(prm[PLAYERS]):
        held += nheld[s]
    if held == 0:  # nobody holds a ticket: no Lottery
        _end_turn(t, prm)
        return
    g[LOTTOS] += 1
    g[SHAKER_FOR] = FOR_LOTTERY
    g[CHANCE] = SHAKER


@njit(cache=True)
def _horse_race(t: tuple, n: int) -> None:
    """Everyone still in pays the entry, from the player on turn round; each is dealt a horse."""
    g, out, hq = t[0], t[4], t[8]
    g[RACES_HELD] += 1
    cur = g[CUR]
    for k in range(n):
        s = (cur + k) % n
        if not out[s]:
            _charge(t, s, RACE_FEE, -1)
    h = 0
    for k in range(n):
        s = (cur + k) % n
        if not out[s]:
            hq[h] = s
            h += 1
    g[HQLEN] = h
    g[CHANCE] = HORSE


@njit(cache=True)
def _fortune(t: tuple, d: tuple, prm: np.ndarray, card: int) -> int:
    """Card ``card`` read by the player on turn; returns the steps it moves them (else 0)."""
    g, cash, position, _, out = t[:5]
    known = t[12]
    kind, effect, card_amount, card_to = d[0], d[2], d[3], d[4]
    n, cards = prm[PLAYERS], known.size
    known[(g[KNOWN_HEAD] + g[KNOWN_N]) % cards] = card  # back to the bottom of the deck
    g[KNOWN_N] += 1
    cur, e, amount = g[CUR], effect[card], card_amount[card]
    if e == COLLECT:
        cash[cur] += amount
    elif e == PAY:
        _charge(t, cur, amount, -1)
    elif e == COLLECT_EACH:
        for s in range(n):
            if s != cur and not out[s]:
                _charge(t, s, amount, cur)
    elif e == PAY_EACH:
        for s in range(n):
            if s != cur and not out[s]:
                _charge(t, cur, amount, s)
    elif e == ADVANCE:
        return amount
    elif e == GO_TO:
        size = kind.size
        for k in range(1, size + 1):
            if kind[(position[cur] + k) % size] == card_to[card]:
                return k
    elif e == CALL_SWEEP:
        _sweepstakes(t, n, cur)
        return 0
    elif e == CALL_LOTTERY:
        _lottery(t, prm)
        return 0
    else:
        _horse_race(t, n)
        return 0
    if out[cur]:
        _next_turn(t, prm)
    else:
        _end_turn(t, prm)
    return 0


@njit(cache=True)
def _land(t: tuple, d: tuple, prm: np.ndarray) -> int:
    """Do what the space says; returns the steps a Fortune card moves the player on (else 0)."""
    g, cash, position = t[:3]
    unseen, known = t[11], t[12]
    kind, amount = d[0], d[1]
    cur = g[CUR]
    k = kind[position[cur]]
    if k == COLLECT_SPACE:
        cash[cur] += amount[position[cur]]
    elif k == PAY_SPACE:
        _charge(t, cur, amount[position[cur]], -1)
    elif k == FORTUNE_SPACE:
        if g[UNSEEN_N]:
            g[CHANCE] = FORTUNE
            return 0
        card = known[g[KNOWN_HEAD]]  # every card seen: the deck order is known
        g[KNOWN_HEAD] = (g[KNOWN_HEAD] + 1) % unseen.size
        g[KNOWN_N] -= 1
        return _fortune(t, d, prm, card)
    elif k == SWEEP_SPACE:
        _sweepstakes(t, prm[PLAYERS], cur)
        return 0
    elif k == LOTTERY_SPACE:
        _lottery(t, prm)
        return 0
    elif k in (RACES, DAILY_DOUBLE):
        _horse_race(t, prm[PLAYERS])
        return 0
    _end_turn(t, prm)
    return 0


@njit(cache=True)
def _move(t: tuple, d: tuple, prm: np.ndarray, steps: int) -> None:
    """Move the player on turn, passing Start, landing; again while a Fortune card says so."""
    g, cash, position = t[:3]
    size = d[0].size
    while steps > 0:
        cur = g[CUR]
        new = position[cur] + steps
        if new >= size:
            if prm[AUTO_CLAIM]:
                cash[cur] += START_PAY
            else:
                g[START_DUE] = 1
        position[cur] = new % size
        steps = _land(t, d, prm)


# --- one move ----------------------------------------------------------------------------------
@njit(cache=True)
def _chance(t: tuple, d: tuple, prm: np.ndarray, state: np.ndarray, tape: np.ndarray,
            at: np.ndarray) -> None:  # fmt: skip
    """The pending chance move (a Shaker's six dice, or a race's deals and die, as one)."""
    g, cash, _, _, _, nheld, held, _, hq, hcard, deck, unseen = t[:12]
    taken, owner, dice = t[13], t[14], t[15]
    ticket_a, ticket_b, horses = d[5], d[6], d[8]
    shape, pa, pb, prize = d[9], d[10], d[11], d[12]
    n = prm[PLAYERS]
    kind = g[CHANCE]
    g[CHANCE] = NONE
    cur = g[CUR]
    if kind == MOVE:
        a, b = _two_dice(state, tape, at)
        g[MOVES] += 1
        if a == b:
            g[PHASE] = DOUBLES
        else:
            _move(t, d, prm, a + b)
    elif kind == AGAIN:
        a, b = _two_dice(state, tape, at)
        g[MOVES] += 1
        if a == b:
            cash[cur] += DOUBLES_PRIZE
        _end_turn(t, prm)
    elif kind == SHAKER:
        _shaker(state, tape, at, dice)
        g[MOVES] += 6
        if g[SHAKER_FOR] == FOR_LOTTERY:
            for s in range(n):
                for i in range(nheld[s]):
                    k = held[s, i]
                    a_in = b_in = False
                    for j in range(6):
                        a_in = a_in or dice[j] == ticket_a[k]
                        b_in = b_in or dice[j] == ticket_b[k]
                    if a_in and b_in:
                        cash[s] += LOTTERY_PRIZE
                    deck[k] += 1
                g[DECK_N] += nheld[s]
                nheld[s] = 0
        else:
            for sp in range(shape.size):
                if g[MARKED] >> sp & 1 and wins(shape[sp], pa[sp], pb[sp], dice):
                    cash[owner[sp]] += prize[sp]
            g[MARKED] = 0
        _end_turn(t, prm)
    elif kind == FORTUNE:
        i = _below(state, tape, at, g[UNSEEN_N])
        g[MOVES] += 1
        card = unseen[i]
        g[UNSEEN_N] -= 1
        for j in range(i, g[UNSEEN_N]):
            unseen[j] = unseen[j + 1]
        steps = _fortune(t, d, prm, card)
        if steps:
            _move(t, d, prm, steps)
    elif kind == TICKET:
        i = _below(state, tape, at, g[DECK_N])
        g[MOVES] += 1
        k = 0
        while i >= deck[k]:
            i -= deck[k]
            k += 1
        deck[k] -= 1
        g[DECK_N] -= 1
        held[cur, nheld[cur]] = k
        nheld[cur] += 1
        _knock_out(t, cur)
    elif kind == HORSE:
        for i in range(g[HQLEN]):  # each player in the race is dealt a horse, then the die
            j = _below(state, tape, at, horses.size - i)
            for h in range(horses.size):
                if not taken[h]:
                    if j == 0:
                        taken[h] = 1
                        hcard[i] = horses[h]
                        break
                    j -= 1
        face = _below(state, tape, at, 6) + 1
        g[MOVES] += g[HQLEN] + 1
        for i in range(g[HQLEN]):
            if hcard[i] == face:
                cash[hq[i]] += RACE_PRIZE
                break
        taken[:] = 0
        _end_turn(t, prm)
    else:  # the throw for first player, ties throwing again, all of it
        contenders = hq
        m = n
        for s in range(n):
            contenders[s] = s
        while m > 1:
            best = 0
            for i in range(m):
                a, b = _two_dice(state, tape, at)
                g[MOVES] += 1
                hcard[i] = a + b
                best = max(best, a + b)
            k = 0
            for i in range(m):
                if hcard[i] == best:
                    contenders[k] = contenders[i]
                    k += 1
            m = k
        _begin_turn(g, contenders[0])


@njit(cache=True)
def _player(t: tuple, prm: np.ndarray, order: np.ndarray) -> None:
    """The sensible bot's move for the seat the game waits for."""
    g, cash, _, iou, out, nheld, _, queue = t[:8]
    owner = t[14]
    phase, cur = g[PHASE], g[CUR]
    seat = queue[0] if phase == MARKER else cur
    c = cash[seat]
    g[MOVES] += 1
    bought = False
    if iou[seat] and not out[seat] and c >= prm[REPAY_MIN]:
        iou[seat] = 0
        cash[seat] -= IOU_LOAN + IOU_INTEREST
    elif phase == CLAIM or (g[START_DUE] and seat == cur):
        g[START_DUE] = 0
        cash[seat] += START_PAY
        if phase == CLAIM:
            _next_turn(t, prm)
    elif (phase == TURN and g[MAY_BUY] and nheld[seat] < MAX_TICKETS and c >= TICKET_PRICE
          and g[DECK_N] > 0 and c >= prm[BUY_MIN]):  # fmt: skip
        cash[seat] -= TICKET_PRICE
        g[CHANCE] = TICKET
        bought = True
    elif phase == DOUBLES:
        if prm[ROLL_AGAIN]:
            g[CHANCE] = AGAIN
        else:
            _sweepstakes(t, prm[PLAYERS], seat)
    elif phase == MARKER:
        for sp in order:
            if not g[MARKED] >> sp & 1:
                g[MARKED] |= 1 << sp
                owner[sp] = seat
                break
        g[QLEN] -= 1
        for i in range(g[QLEN]):
            queue[i] = queue[i + 1]
        if g[QLEN] == 0:
            g[SHAKER_FOR] = FOR_SWEEP
            g[CHANCE] = SHAKER
    else:
        g[MAY_BUY] = 0
        g[CHANCE] = MOVE
    if not bought:
        _knock_out(t, seat)


@njit(cache=True)
def play(prm: np.ndarray, d: tuple, order: np.ndarray, t: tuple, state: np.ndarray,
         tape: np.ndarray, at: np.ndarray) -> int:  # fmt: skip
    """One game on the arrays ``t``; returns the winner (-1: nobody left in)."""
    g, cash, position, iou, out, nheld, _, _, _, _, deck, unseen, _, taken = t[:14]
    n = prm[PLAYERS]
    g[:] = 0
    for s in range(n):
        cash[s] = START_CASH
        position[s] = iou[s] = out[s] = nheld[s] = 0
    deck[:] = d[7]
    g[DECK_N] = deck.sum()
    for i in range(unseen.size):
        unseen[i] = i
    g[UNSEEN_N] = unseen.size
    taken[:] = 0
    if prm[FIRST] >= 0:
        _begin_turn(g, prm[FIRST])
    else:
        g[PHASE] = ORDER
        g[CHANCE] = THROW_OFF
    while g[PHASE] != OVER:
        if g[CHANCE] != NONE:
            _chance(t, d, prm, state, tape, at)
        else:
            _player(t, prm, order)
        if g[PHASE] != OVER:
            _check_end(t, n)
        phase = g[PHASE]
        on_turn = phase in (TURN, DOUBLES, CLAIM) and g[CHANCE] == NONE
        if on_turn and out[g[CUR]]:  # went out on their own turn: play passes on
            g[START_DUE] = 0
            _next_turn(t, prm)
    return g[WINNER]


@njit(cache=True)
def _chunk(seed: np.uint64, lo: int, hi: int, prm: np.ndarray, d: tuple, order: np.ndarray,
           winners: np.ndarray, figures: np.ndarray) -> None:  # fmt: skip
    t = new_table(prm[PLAYERS], d[2].size, d[5].size, d[8].size)
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    at = np.zeros(1, dtype=np.int64)
    g, out = t[0], t[4]
    for i in range(lo, hi):
        w = play(prm, d, order, t, state, NO_TAPE64, at)
        winners[i] = -2 if g[BY_LIMIT] else w  # -2: stopped by the turn cap (stats.TRUNCATED)
        figures[0, i] = g[MOVES]
        figures[1, i] = g[TURNS]
        figures[2, i] = g[IOUS]
        figures[3, i] = out.sum()
        figures[4, i] = g[SWEEPS]
        figures[5, i] = g[LOTTOS]
        figures[6, i] = g[RACES_HELD]
        figures[7, i] = g[BY_LIMIT]


@njit(cache=True, parallel=True)
def run_chunks(seeds: np.ndarray, sizes: np.ndarray, prm: np.ndarray, d: tuple,
               order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Play every chunk (its own stream and arrays each) in parallel; winners and figures."""
    starts = np.zeros(sizes.size + 1, dtype=np.int64)
    starts[1:] = np.cumsum(sizes)
    total = starts[-1]
    winners = np.empty(total, dtype=np.int64)
    figures = np.empty((len(FIGURES), total), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], prm, d, order, winners, figures)
    return winners, figures


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Winners (-2 for a game the turn cap stopped) and named figures of a batch of chunks."""
    winners, figures = run_chunks(seeds, sizes, *kernel_args(options))
    return winners, {name: figures[i] for i, name in enumerate(FIGURES)}


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> tuple[int, int, list[int], int, dict]:
    """One game on given draws (see the module's docstring): (winner as the engine names it, -1
    when nobody is left in, moves, final cash per seat, draws used, figures)."""
    prm, d, order = kernel_args(options)
    t = new_table(prm[PLAYERS], d[2].size, d[5].size, d[8].size)
    at = np.zeros(1, dtype=np.int64)
    tape = np.ascontiguousarray(tape, dtype=np.int64)
    w = play(prm, d, order, t, np.zeros(1, dtype=np.uint64), tape, at)
    g = t[0]
    figures = [int(g[MOVES]), int(g[TURNS]), int(g[IOUS]), int(t[4].sum()), int(g[SWEEPS]),
               int(g[LOTTOS]), int(g[RACES_HELD]), int(g[BY_LIMIT])]  # fmt: skip
    named = dict(zip(FIGURES, figures, strict=True))
    return int(w), int(g[MOVES]), [int(c) for c in t[1]], int(at[0]), named
