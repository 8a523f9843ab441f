"""The casino table stepped one learner decision at a time, for thousands of tables at once.

One player seat (the learner) at each table; the dealer is the rules: dice drawn and settled at
once, a shooter who gives up or sevens out passes the dice, and with chips left on the layout
and nobody to shoot the dealer rolls until they are decided (rule 5.9(d)). Actions are the
entries of ``rl.encoding``'s casino catalogue (wagers and take-downs of the table minimum,
accept, decline, roll, give up); take-downs while the dice are in the air are not offered (the
roll settles at once). Dice come from each table's SplitMix64 stream or, for the agreement test,
from a tape (two dice, values 0-5, a roll).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamenight.games.casino_wagers import WAGER_IDS

from .rng import LOW32, NO_REFCOUNT, REJECT, S32, SIX, mix

OFFER, BETTING, ROLLING, CLOSED = 0, 1, 2, 4  # the catalogue's phase order
PHASE, SHOOTER, DEALER, UNDECIDED, PURSE, ROLLS, POS = range(7)
SCALARS = 7
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
def _held(g: int, bets: np.ndarray) -> int:
    """The areas holding chips, as bits."""
    out = 0
    for w in range(AREAS):
        if bets[g, w]:
            out |= 1 << w
    return out


@njit(cache=True, **NO_REFCOUNT)
def _pass_dice(g: int, sc: np.ndarray, bets: np.ndarray) -> None:
    """Rule 5.9 with one seat: nobody else may take the dice, so chips on the layout are rolled
    out by the dealer; an empty layout offers the dice to the seat again."""
    sc[g, SHOOTER] = -1
    held = _held(g, bets)
    if held:
        sc[g, PHASE], sc[g, DEALER], sc[g, UNDECIDED] = ROLLING, 1, held
    else:
        sc[g, PHASE] = OFFER


@njit(cache=True, **NO_REFCOUNT)
def _roll(g: int, codes: np.ndarray, multi: np.ndarray, stay_up: bool, max_rolls: int,
          rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, bets: np.ndarray) -> None:  # fmt: skip
    """One roll drawn and settled, then the dice go where the rules send them."""
    a = _die(g, rng, tape, sc)
    b = _die(g, rng, tape, sc)
    roll, seven = a * 6 + b, a + b == 5
    for w in range(AREAS):
        amount = bets[g, w]
        code = codes[roll, w]
        if amount == 0 or code == STAY:
            continue
        if code == LOSE:
            bets[g, w] = 0
            continue
        sc[g, PURSE] += amount * code
        if not stay_up or not multi[w]:
            sc[g, PURSE] += amount
            bets[g, w] = 0
    sc[g, ROLLS] += 1
    if sc[g, ROLLS] >= max_rolls:
        sc[g, PHASE] = CLOSED
    elif sc[g, DEALER]:
        left = 0
        for w in range(AREAS):
            if sc[g, UNDECIDED] >> w & 1 and codes[roll, w] == STAY:
                left |= 1 << w
        sc[g, UNDECIDED] = left
        if seven or not left:
            sc[g, PHASE], sc[g, DEALER] = OFFER, 0
    elif seven:
        _pass_dice(g, sc, bets)
    else:
        sc[g, PHASE] = BETTING


@njit(cache=True, **NO_REFCOUNT)
def legal(g: int, a: int, lo: int, hi: int, sc: np.ndarray, bets: np.ndarray) -> bool:
    """Whether catalogue entry ``a`` is one of the seat's legal actions now."""
    phase = sc[g, PHASE]
    if phase == CLOSED:
        return a == 0
    if a < WAGER or a >= ACTIONS:
        return False
    if a < REMOVE:
        return sc[g, PURSE] >= lo and bets[g, a - WAGER] + lo <= hi
    if a < ACCEPT:
        return bets[g, (a - REMOVE) % AREAS] > 0
    if a in (ACCEPT, DECLINE):
        return phase == OFFER
    if a == ROLL:
        return phase == BETTING and _held(g, bets) != 0
    return a == GIVE_UP and phase == BETTING


@njit(cache=True, **NO_REFCOUNT)
def _act(g: int, a: int, lo: int, sc: np.ndarray, bets: np.ndarray) -> None:
    """The seat's legal action ``a``."""
    if a < REMOVE:
        sc[g, PURSE] -= lo
        bets[g, a - WAGER] += lo
    elif a < REDUCE:
        sc[g, PURSE] += bets[g, a - REMOVE]
        bets[g, a - REMOVE] = 0
    elif a < ACCEPT:
        sc[g, PURSE] += lo
        bets[g, a - REDUCE] -= lo
    elif a == ACCEPT:
        sc[g, SHOOTER], sc[g, PHASE] = 0, BETTING
    elif a == DECLINE:  # nobody else to offer the dice to
        held = _held(g, bets)
        if held:
            sc[g, PHASE], sc[g, DEALER], sc[g, SHOOTER], sc[g, UNDECIDED] = ROLLING, 1, -1, held
        else:
            sc[g, PHASE] = CLOSED
    elif a == ROLL:
        sc[g, PHASE] = ROLLING
    else:
        _pass_dice(g, sc, bets)


@njit(cache=True, **NO_REFCOUNT)
def _observe(g: int, lo: int, hi: int, bankroll: int, high: np.ndarray, sc: np.ndarray,
             bets: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """``rl.encoding``'s casino observation of the one seat (no other seats, nothing lit)."""
    out[:] = 0.0
    out[sc[g, PHASE]] = 1.0
    out[5] = 1.0 if sc[g, SHOOTER] == 0 else 0.0
    out[6] = 1.0 if sc[g, PHASE] == OFFER else 0.0
    out[7] = min(sc[g, PURSE] / bankroll, high[7])
    for w in range(AREAS):
        out[8 + w] = bets[g, w] / hi  # then the other seats' chips and the lit areas: none


@njit(cache=True, **NO_REFCOUNT)
def _advance(g: int, codes: np.ndarray, multi: np.ndarray, stay_up: bool, max_rolls: int,
             rng: np.ndarray, tape: np.ndarray, sc: np.ndarray,
             bets: np.ndarray) -> None:  # fmt: skip
    """Dice until the seat decides or the session ends."""
    while sc[g, PHASE] == ROLLING:
        _roll(g, codes, multi, stay_up, max_rolls, rng, tape, sc, bets)


@njit(cache=True, **NO_REFCOUNT)
def _new_game(g: int, bankroll: int, sc: np.ndarray, bets: np.ndarray) -> None:
    pos = sc[g, POS]  # a tape is read on from game to game
    sc[g, :] = 0
    sc[g, POS], sc[g, SHOOTER], sc[g, PURSE] = pos, -1, bankroll
    bets[g, :] = 0


@njit(cache=True, **NO_REFCOUNT)
def _finish(g: int, lo: int, hi: int, bankroll: int, high: np.ndarray, sc: np.ndarray,
            bets: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:  # fmt: skip
    _observe(g, lo, hi, bankroll, high, sc, bets, obs[g])
    for a in range(ACTIONS):
        masks[g, a] = legal(g, a, lo, hi, sc, bets)


@njit(cache=True, **NO_REFCOUNT)
def reset_all(lo: int, hi: int, bankroll: int, high: np.ndarray, sc: np.ndarray,
              bets: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:  # fmt: skip
    """A new session at every table (it opens with the dice offered to the seat)."""
    for g in range(sc.shape[0]):
        _new_game(g, bankroll, sc, bets)
        _finish(g, lo, hi, bankroll, high, sc, bets, obs, masks)


@njit(cache=True, **NO_REFCOUNT)
def step_all(actions: np.ndarray, lo: int, hi: int, bankroll: int, high: np.ndarray,
             codes: np.ndarray, multi: np.ndarray, stay_up: bool, max_rolls: int,
             rng: np.ndarray, tape: np.ndarray, sc: np.ndarray, bets: np.ndarray,
             obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, ended: np.ndarray,
             illegal: np.ndarray, final_obs: np.ndarray) -> int:  # fmt: skip
    """The seat's action at every table, then the dice to its next decision; a closed session
    pays its net chips, keeps its last observation in ``final_obs`` and starts again. An action
    the mask refuses changes nothing. Returns the rolls made."""
    rolls = 0
    for g in range(sc.shape[0]):
        a = actions[g]
        rewards[g] = 0.0
        ended[g] = False
        illegal[g] = a < 0 or a >= ACTIONS or not legal(g, a, lo, hi, sc, bets)
        if illegal[g]:
            continue
        if sc[g, PHASE] != CLOSED:
            before = sc[g, ROLLS]
            _act(g, a, lo, sc, bets)
            _advance(g, codes, multi, stay_up, max_rolls, rng, tape, sc, bets)
            rolls += sc[g, ROLLS] - before
        if sc[g, PHASE] == CLOSED:
            rewards[g] = sc[g, PURSE] + bets[g].sum() - bankroll
            ended[g] = True
            _observe(g, lo, hi, bankroll, high, sc, bets, final_obs[g])
            _new_game(g, bankroll, sc, bets)
        _finish(g, lo, hi, bankroll, high, sc, bets, obs, masks)
    return rolls
