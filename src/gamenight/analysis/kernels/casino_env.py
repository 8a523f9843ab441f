"""The casino table stepped one learner decision at a time, for thousands of tables at once.

One player seat learns; the other seats bet by a fixed strategy (the casino bot's: each missing
wager of the strategy at the table minimum, then accept the dice, roll, or say done); the dealer
is the rules: dice drawn and settled at once, the dice offered round the table, and chips left
with nobody to shoot rolled out by the dealer (rule 5.9(d)). Actions are the entries of
``rl.encoding``'s casino catalogue (wagers and take-downs of the table minimum, accept, decline,
done, roll, give up); take-downs while the dice are in the air are not offered (a roll settles
at once). Dice come from each table's SplitMix64 stream or, for the agreement test, from a tape
(two dice, values 0-5, a roll).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamenight.bots.playouts.rng import LOW32, NO_REFCOUNT, REJECT, S32, SIX, mix
from gamenight.games.casino_wagers import WAGER_IDS

OFFER, BETTING, ROLLING, CLOSED = 0, 1, 2, 4  # the catalogue's phase order
# per table: phase, shooter (-1: none), dealer rolling, the offer queue (its head seat, seats
# left in it, whether only seats with a wager qualify), seats done betting (bits), rolls, tape
PHASE, SHOOTER, DEALER, QHEAD, QLEFT, NEEDS, READY, ROLLS, POS = range(9)
SCALARS = 9
AREAS = len(WAGER_IDS)
WAGER, REMOVE, REDUCE = 1, 1 + AREAS, 1 + 2 * AREAS
ACCEPT, DECLINE, DONE, ROLL, GIVE_UP = range(1 + 3 * AREAS, 6 + 3 * AREAS)
ACTIONS = GIVE_UP + 1
STAY, LOSE = -1, 0


@njit(cache=True, inline="always", **NO_REFCOUNT)
def _die(g: int, rng: np.ndarray, tape: np.ndarray, sc: np.ndarray) -> int:
    """One die, 0-5: from the table's tape, else an unbiased draw from its stream."""
    p = sc[g, POS]
    if p < tape.shape[1]:
        sc[g, POS] = p + 1
        return int(tape[g, p])
    s = rng[g]
    while True:
        s, z = mix(s)
        m = (z >> S32) * SIX
        if (m & LOW32) >= REJECT:
            rng[g] = s
            return np.int64(m >> S32)  # type: ignore[return-value]  # int() keeps it unsigned


@njit(cache=True, **NO_REFCOUNT)
def _held(g: int, s: int, bets: np.ndarray) -> int:
    """The areas where seat ``s`` has chips, as bits."""
    out = 0
    for w in range(AREAS):
        if bets[g, s, w]:
            out |= 1 << w
    return out


@njit(cache=True, **NO_REFCOUNT)
def _any_bets(g: int, bets: np.ndarray) -> bool:
    """Whether any seat has chips on the layout."""
    for s in range(bets.shape[1]):  # noqa: SIM110 (Numba compiles no generator in any())
        if _held(g, s, bets):
            return True
    return False


@njit(cache=True, **NO_REFCOUNT)
def _next_offer(g: int, sc: np.ndarray, bets: np.ndarray, undec: np.ndarray) -> None:
    """The dice to the queue's head (skipping seats with no wager when only they qualify); an
    empty queue leaves the dealer to roll the layout out, or closes an empty table."""
    n = bets.shape[1]
    if sc[g, NEEDS]:
        while sc[g, QLEFT] and not _held(g, sc[g, QHEAD], bets):
            sc[g, QHEAD], sc[g, QLEFT] = (sc[g, QHEAD] + 1) % n, sc[g, QLEFT] - 1
    if sc[g, QLEFT]:
        sc[g, PHASE] = OFFER
    elif _any_bets(g, bets):
        sc[g, PHASE], sc[g, DEALER], sc[g, SHOOTER] = ROLLING, 1, -1
        for s in range(n):
            undec[g, s] = _held(g, s, bets)
    else:
        sc[g, PHASE] = CLOSED


@njit(cache=True, **NO_REFCOUNT)
def _pass_dice(g: int, seat: int, sc: np.ndarray, bets: np.ndarray, undec: np.ndarray) -> None:
    """Rule 5.9: round the other seats with a wager from the shooter's left; after a 7 Out (an
    empty layout) round every seat, the shooter's turn last."""
    n = bets.shape[1]
    sc[g, SHOOTER] = -1
    needs = _any_bets(g, bets)
    sc[g, QHEAD], sc[g, NEEDS] = (seat + 1) % n, needs
    sc[g, QLEFT] = n - 1 if needs else n
    _next_offer(g, sc, bets, undec)


@njit(cache=True, **NO_REFCOUNT)
def _roll(g: int, codes: np.ndarray, multi: np.ndarray, stay_up: bool, max_rolls: int,
          rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, purse: np.ndarray,
          bets: np.ndarray, undec: np.ndarray) -> None:  # fmt: skip
    """One roll drawn and settled, then the dice go where the rules send them."""
    a = _die(g, rng, tape, sc)
    b = _die(g, rng, tape, sc)
    roll, seven = a * 6 + b, a + b == 5
    n = bets.shape[1]
    for s in range(n):
        for w in range(AREAS):
            amount = bets[g, s, w]
            code = codes[roll, w]
            if amount == 0 or code == STAY:
                continue
            if code == LOSE:
                bets[g, s, w] = 0
                continue
            purse[g, s] += amount * code
            if not stay_up or not multi[w]:
                purse[g, s] += amount
                bets[g, s, w] = 0
    sc[g, ROLLS] += 1
    sc[g, READY] = 0
    if sc[g, ROLLS] >= max_rolls:
        sc[g, PHASE] = CLOSED
    elif sc[g, DEALER]:
        left = 0
        for s in range(n):
            keep = 0
            for w in range(AREAS):
                if undec[g, s] >> w & 1 and codes[roll, w] == STAY:
                    keep |= 1 << w
            undec[g, s] = keep
            left |= keep
        if seven or not left:  # rule 5.9(d) is met: the dice offered afresh from seat 0
            sc[g, DEALER], sc[g, QHEAD], sc[g, QLEFT], sc[g, NEEDS] = 0, 0, n, 0
            undec[g, :] = 0
            _next_offer(g, sc, bets, undec)
    elif seven:
        _pass_dice(g, max(sc[g, SHOOTER], 0), sc, bets, undec)
    else:
        sc[g, PHASE] = BETTING


@njit(cache=True, **NO_REFCOUNT)
def actor(g: int, n: int, sc: np.ndarray) -> int:
    """Who decides now: the offered seat, or the first seat not done betting (the others from
    seat 0, the shooter last); -1 while the dice roll or the table is closed."""
    phase = sc[g, PHASE]
    if phase == OFFER:
        return sc[g, QHEAD]
    if phase != BETTING:
        return -1
    shooter, ready = sc[g, SHOOTER], sc[g, READY]
    for s in range(n):
        if s != shooter and not ready >> s & 1:
            return s
    return shooter


@njit(cache=True, **NO_REFCOUNT)
def legal(g: int, s: int, a: int, lo: int, hi: int, sc: np.ndarray, purse: np.ndarray,
          bets: np.ndarray) -> bool:  # fmt: skip
    """Whether catalogue entry ``a`` is one of seat ``s``'s legal actions at its turn."""
    phase = sc[g, PHASE]
    if phase == CLOSED:
        return a == 0
    if a < WAGER or a >= ACTIONS:
        return False
    if a < REMOVE:
        return purse[g, s] >= lo and bets[g, s, a - WAGER] + lo <= hi
    if a < ACCEPT:
        return bets[g, s, (a - REMOVE) % AREAS] > 0
    if a in (ACCEPT, DECLINE):
        return phase == OFFER
    shooter = phase == BETTING and s == sc[g, SHOOTER]
    if a == ROLL:
        return shooter and _held(g, s, bets) != 0
    if a == GIVE_UP:
        return shooter
    return phase == BETTING and not shooter  # done


@njit(cache=True, **NO_REFCOUNT)
def _act(g: int, s: int, a: int, lo: int, sc: np.ndarray, purse: np.ndarray, bets: np.ndarray,
         undec: np.ndarray) -> None:  # fmt: skip
    """Seat ``s``'s legal action ``a``."""
    n = bets.shape[1]
    if a < REMOVE:
        purse[g, s] -= lo
        bets[g, s, a - WAGER] += lo
    elif a < ACCEPT:
        w = (a - REMOVE) % AREAS
        amount = bets[g, s, w] if a < REDUCE else lo
        purse[g, s] += amount
        bets[g, s, w] -= amount
        offered = sc[g, PHASE] == OFFER and sc[g, QHEAD] == s
        if offered and sc[g, NEEDS] and not _held(g, s, bets):  # rule 5.9(a): no longer qualifies
            sc[g, QHEAD], sc[g, QLEFT] = (s + 1) % n, sc[g, QLEFT] - 1
            _next_offer(g, sc, bets, undec)
    elif a == ACCEPT:
        sc[g, SHOOTER], sc[g, PHASE], sc[g, READY] = s, BETTING, 0
    elif a == DECLINE:
        sc[g, QHEAD], sc[g, QLEFT] = (s + 1) % n, sc[g, QLEFT] - 1
        _next_offer(g, sc, bets, undec)
    elif a == DONE:
        sc[g, READY] |= 1 << s
    elif a == ROLL:
        sc[g, PHASE] = ROLLING
    else:
        _pass_dice(g, s, sc, bets, undec)


@njit(cache=True, **NO_REFCOUNT)
def _bot(g: int, s: int, lo: int, plan: np.ndarray, sc: np.ndarray, purse: np.ndarray,
         bets: np.ndarray) -> int:  # fmt: skip
    """The casino bot's move (bots.casino_bot): its strategy's missing wagers in order, then
    accept or decline the dice, roll or give them up, or say done."""
    if purse[g, s] >= lo:
        for w in plan:
            if bets[g, s, w] == 0:
                return WAGER + w
    held = _held(g, s, bets) != 0
    if sc[g, PHASE] == OFFER:
        return ACCEPT if held else DECLINE
    if s == sc[g, SHOOTER]:
        return ROLL if held else GIVE_UP
    return DONE


@njit(cache=True, **NO_REFCOUNT)
def _observe(g: int, me: int, hi: int, bankroll: int, high: np.ndarray, sc: np.ndarray,
             purse: np.ndarray, bets: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """``rl.encoding``'s casino observation of seat ``me`` (nothing is lit: no live dealer)."""
    n = bets.shape[1]
    out[:] = 0.0
    out[sc[g, PHASE]] = 1.0
    if sc[g, SHOOTER] >= 0:
        out[5 + (sc[g, SHOOTER] - me) % n] = 1.0
    if sc[g, PHASE] == OFFER:
        out[5 + n + (sc[g, QHEAD] - me) % n] = 1.0
    for k in range(n):
        out[5 + 2 * n + k] = min(purse[g, (me + k) % n] / bankroll, high[5 + 2 * n + k])
    mine = 5 + 3 * n
    for w in range(AREAS):
        out[mine + w] = bets[g, me, w] / hi
        others = 0.0
        for s in range(n):
            if s != me and bets[g, s, w]:
                others += bets[g, s, w] / hi
        out[mine + AREAS + w] = min(others, high[mine + AREAS + w])


@njit(cache=True, **NO_REFCOUNT)
def _advance(g: int, me: int, lo: int, plan: np.ndarray, codes: np.ndarray, multi: np.ndarray,
             stay_up: bool, max_rolls: int, rng: np.ndarray, tape: np.ndarray, sc: np.ndarray,
             purse: np.ndarray, bets: np.ndarray, undec: np.ndarray) -> int:  # fmt: skip
    """Dice and the other seats until seat ``me`` decides or the session ends; the rolls."""
    n = bets.shape[1]
    before = sc[g, ROLLS]
    while sc[g, PHASE] != CLOSED:
        if sc[g, PHASE] == ROLLING:
            _roll(g, codes, multi, stay_up, max_rolls, rng, tape, sc, purse, bets, undec)
            continue
        s = actor(g, n, sc)
        if s == me:
            break
        _act(g, s, _bot(g, s, lo, plan, sc, purse, bets), lo, sc, purse, bets, undec)
    return sc[g, ROLLS] - before


@njit(cache=True, **NO_REFCOUNT)
def _new_game(g: int, bankroll: int, sc: np.ndarray, purse: np.ndarray, bets: np.ndarray,
              undec: np.ndarray) -> None:  # fmt: skip
    """A fresh session: the dice offered round every seat from seat 0 (rule 5.3)."""
    pos = sc[g, POS]  # a tape is read on from game to game
    sc[g, :] = 0
    sc[g, POS], sc[g, SHOOTER], sc[g, QLEFT] = pos, -1, bets.shape[1]
    purse[g, :] = bankroll
    bets[g, :, :] = 0
    undec[g, :] = 0


@njit(cache=True, **NO_REFCOUNT)
def _show(g: int, me: int, lo: int, hi: int, bankroll: int, high: np.ndarray, sc: np.ndarray,
          purse: np.ndarray, bets: np.ndarray, obs: np.ndarray,
          masks: np.ndarray) -> None:  # fmt: skip
    """Seat ``me``'s observation and mask at table ``g``."""
    _observe(g, me, hi, bankroll, high, sc, purse, bets, obs[g])
    for a in range(ACTIONS):
        masks[g, a] = legal(g, me, a, lo, hi, sc, purse, bets)


@njit(cache=True, **NO_REFCOUNT)
def reset_all(me: int, lo: int, hi: int, bankroll: int, high: np.ndarray, plan: np.ndarray,
              codes: np.ndarray, multi: np.ndarray, stay_up: bool, max_rolls: int,
              rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, purse: np.ndarray,
              bets: np.ndarray, undec: np.ndarray, obs: np.ndarray,
              masks: np.ndarray) -> None:  # fmt: skip
    """A new session at every table, played on to seat ``me``'s first decision (or its end)."""
    for g in range(sc.shape[0]):
        _new_game(g, bankroll, sc, purse, bets, undec)
        _advance(g, me, lo, plan, codes, multi, stay_up, max_rolls, rng, tape, sc, purse, bets,
                 undec)  # fmt: skip
        _show(g, me, lo, hi, bankroll, high, sc, purse, bets, obs, masks)


@njit(cache=True, **NO_REFCOUNT)
def step_all(actions: np.ndarray, me: int, lo: int, hi: int, bankroll: int, high: np.ndarray,
             plan: np.ndarray, codes: np.ndarray, multi: np.ndarray, stay_up: bool,
             max_rolls: int, rng: np.ndarray, tape: np.ndarray, sc: np.ndarray,
             purse: np.ndarray, bets: np.ndarray, undec: np.ndarray, obs: np.ndarray,
             masks: np.ndarray, rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray,
             final_obs: np.ndarray) -> int:  # fmt: skip
    """Seat ``me``'s action at every table, then dice and the other seats to its next decision;
    a closed session pays its net chips, keeps its last observation in ``final_obs`` and starts
    again. An action the mask refuses changes nothing. Returns the rolls made."""
    rolls = 0
    for g in range(sc.shape[0]):
        a = actions[g]
        rewards[g] = 0.0
        ended[g] = False
        illegal[g] = a < 0 or a >= ACTIONS or not legal(g, me, a, lo, hi, sc, purse, bets)
        if illegal[g]:
            continue
        if sc[g, PHASE] != CLOSED:
            _act(g, me, a, lo, sc, purse, bets, undec)
            rolls += _advance(g, me, lo, plan, codes, multi, stay_up, max_rolls, rng, tape, sc,
                              purse, bets, undec)  # fmt: skip
        if sc[g, PHASE] == CLOSED:
            rewards[g] = purse[g, me] + bets[g, me].sum() - bankroll
            ended[g] = True
            _observe(g, me, hi, bankroll, high, sc, purse, bets, final_obs[g])
            _new_game(g, bankroll, sc, purse, bets, undec)
            rolls += _advance(g, me, lo, plan, codes, multi, stay_up, max_rolls, rng, tape, sc,
                              purse, bets, undec)  # fmt: skip
        _show(g, me, lo, hi, bankroll, high, sc, purse, bets, obs, masks)
    return rolls
