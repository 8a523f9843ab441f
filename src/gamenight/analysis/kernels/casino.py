"""The Snake Eyes casino table as a compiled kernel, every seat betting by a named strategy.

The bots (``bots.casino_bot``) keep each wager of their strategy up at the table minimum while
they can afford it, take the dice when offered if they have a wager down, and otherwise pass.
The table's payouts come in as the settlement codes the game itself builds (36 rolls by 12
wagers), so a table's own payout file is simulated exactly as the engine settles it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from gamenight.bots.casino_bot import STRATEGIES
from gamenight.bots.playouts.rng import NO_REFCOUNT, NO_TAPE, chunk_starts, two_d6
from gamenight.games.snake_eyes_casino import WAGER_IDS

GAME = "snake-eyes-casino"
FIGURES = ("rolls", "moves", "bank")
OFFER, BETTING, ROLLING, CLOSED = 0, 1, 2, 3


def tables(options: dict[str, Any], strategy: str) -> tuple[np.ndarray, np.ndarray]:
    """Settlement codes [roll, area] and multi-roll flags of the strategy's own areas: the only
    ones its bots bet on, so the kernel's rows are short and stay in cache."""
    from gamenight.engine import new_game
    from gamenight.games.casino_wagers import MULTI_ROLL

    game: Any = new_game(GAME, **options)
    names = list(STRATEGIES[strategy])
    codes = np.array([[row[w] for w in names] for row in game.codes], dtype=np.int64)
    multi = np.array([w in MULTI_ROLL for w in names], dtype=np.bool_)
    return codes, multi


@njit(cache=True, **NO_REFCOUNT)
def _place(s: int, lo: int, bets: np.ndarray, purse: np.ndarray) -> int:
    """The bot's wagers: each missing area of its strategy at the minimum, while it can pay."""
    placed = 0
    for a in range(bets.shape[1]):
        if purse[s] < lo:
            break
        if bets[s, a] == 0:
            purse[s] -= lo
            bets[s, a] = lo
            placed += 1
    return placed


@njit(cache=True, **NO_REFCOUNT)
def _any_bets(bets: np.ndarray) -> bool:
    for s in range(bets.shape[0]):
        for a in range(bets.shape[1]):
            if bets[s, a]:
                return True
    return False


@njit(cache=True, **NO_REFCOUNT)
def play(
    players: int,
    bankroll: int,
    lo: int,
    stay_up: bool,
    max_rolls: int,
    codes: np.ndarray,
    multi: np.ndarray,
    state: np.ndarray,
    tape: np.ndarray,
    pos: np.ndarray,
    bets: np.ndarray,
    purse: np.ndarray,
    handle: np.ndarray,
    house: np.ndarray,
    path: np.ndarray,
    queue: np.ndarray,
) -> tuple[int, int, int]:
    """One session; fills ``purse`` with each seat's net result and ``handle``/``house`` with
    the chips decided and the house's result per wager; returns (moves, rolls, bank).
    Every array comes from the caller (``queue``: a seat each), so nothing is allocated here."""
    k = codes.shape[1]
    bets[:] = 0
    handle[:] = 0
    house[:] = 0
    purse[:] = bankroll
    for s in range(players):
        queue[s] = s
    qlen, qhead = players, 0
    phase, shooter, dealer = OFFER, -1, False
    moves = rolls = bank = 0
    while phase != CLOSED:
        if phase == OFFER:
            s = queue[qhead]
            moves += _place(s, lo, bets, purse) + 1
            held = False
            for w in range(k):  # the bots bet only on their strategy's areas
                held = held or bets[s, w] > 0
            if held:  # accept
                shooter, phase = s, BETTING
                continue
            qhead += 1  # decline
        elif phase == BETTING:
            for i in range(players):  # the others from the dealer's left, the shooter last
                s = shooter if i == players - 1 else (i if i < shooter else i + 1)
                moves += _place(s, lo, bets, purse) + 1
            held = False
            for w in range(k):
                held = held or bets[shooter, w] > 0
            if held:
                phase = ROLLING
                continue
            start = shooter  # gives up the dice
            shooter = -1
            qlen, qhead = _pass_queue(start, players, bets, queue), 0
        else:
            a, b = two_d6(state, tape, pos)
            moves += 1
            rolls += 1
            roll = a * 6 + b
            for s in range(players):
                won = back = 0
                for w in range(k):
                    amount = bets[s, w]
                    code = codes[roll, w]
                    if amount == 0 or code < 0:
                        continue
                    handle[w] += amount
                    if code == 0:
                        bank += amount
                        house[w] += amount
                        bets[s, w] = 0
                        continue
                    won += amount * code
                    house[w] -= amount * code
                    if not stay_up or not multi[w]:
                        back += amount
                        bets[s, w] = 0
                bank -= won
                purse[s] += won + back
            if path.size:
                chips = purse[0]
                for w in range(k):
                    chips += bets[0, w]
                path[rolls] = chips
            seven = a + b + 2 == 7
            if rolls >= max_rolls:
                break
            if dealer:
                if seven or not _any_bets(bets):
                    dealer = False
                    for s in range(players):
                        queue[s] = s
                    qlen, qhead = players, 0
                else:
                    continue
            elif seven:
                start = shooter
                shooter = -1
                qlen, qhead = _pass_queue(start, players, bets, queue), 0
            else:
                phase = BETTING
                continue
        # the next offer, the dealer's rolls, or the table closes
        if qhead < qlen:
            phase = OFFER
        elif _any_bets(bets):
            phase, dealer, shooter = ROLLING, True, -1
        else:
            phase = CLOSED
    for s in range(players):
        on_layout = 0
        for w in range(bets.shape[1]):
            on_layout += bets[s, w]
        purse[s] += on_layout - bankroll
    return moves, rolls, bank


@njit(cache=True, **NO_REFCOUNT)
def _pass_queue(seat: int, players: int, bets: np.ndarray, queue: np.ndarray) -> int:
    """Rule 5.9: the other seats with a wager from the left; everyone if the layout is empty."""
    anyone = _any_bets(bets)
    n = 0
    for i in range(1, players + 1):
        s = (seat + i) % players
        if not anyone:
            queue[n] = s
            n += 1
        elif i < players:
            for w in range(bets.shape[1]):
                if bets[s, w]:
                    queue[n] = s
                    n += 1
                    break
    return n


@njit(cache=True)
def _chunk(seed: np.uint64, lo_g: int, hi_g: int, players: int, bankroll: int, lo: int,
           stay_up: bool, max_rolls: int, codes: np.ndarray, multi: np.ndarray,
           figures: np.ndarray, nets: np.ndarray) -> None:  # fmt: skip
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    bets = np.zeros((players, codes.shape[1]), dtype=np.int64)
    purse = np.empty(players, dtype=np.int64)
    handle = np.zeros(codes.shape[1], dtype=np.int64)
    house = np.zeros(codes.shape[1], dtype=np.int64)
    no_path = np.zeros(0, dtype=np.int64)
    queue = np.empty(players, dtype=np.int64)
    # the chunk's own copies: no cache line shared between threads (race.run_chunks)
    codes, multi = codes.copy(), multi.copy()
    for g in range(lo_g, hi_g):
        moves, rolls, bank = play(players, bankroll, lo, stay_up, max_rolls, codes, multi,
                                  state, NO_TAPE, pos, bets, purse, handle, house,
                                  no_path, queue)  # fmt: skip
        figures[0, g] = rolls
        figures[1, g] = moves
        figures[2, g] = bank
        for i in range(codes.shape[1]):
            figures[3 + 2 * i, g] = handle[i]
            figures[4 + 2 * i, g] = house[i]
        for s in range(players):
            nets[s, g] = purse[s]


@njit(cache=True, parallel=True)
def run_chunks(seeds: np.ndarray, sizes: np.ndarray, players: int, bankroll: int, lo: int,
               stay_up: bool, max_rolls: int, codes: np.ndarray, multi: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Play every chunk (its own stream each) in parallel; per-session figures and nets."""
    starts = chunk_starts(sizes)
    n = starts[-1]
    figures = np.empty((3 + 2 * codes.shape[1], n), dtype=np.int64)
    nets = np.empty((players, n), dtype=np.int64)
    for c in prange(sizes.size):
        _chunk(seeds[c], starts[c], starts[c + 1], players, bankroll, lo, stay_up, max_rolls,
               codes, multi, figures, nets)  # fmt: skip
    return figures, nets


def kernel_args(options: dict[str, Any]) -> tuple[Any, ...]:
    table = {k: v for k, v in options.items() if k != "strategy"}
    codes, multi = tables(table, options.get("strategy") or "every_area")
    return (
        int(options["players"]),
        int(options["bankroll"]),
        int(options["table_min"]),
        bool(options["winners_stay_up"]),
        int(options["max_rolls"]),
        codes,
        multi,
    )


def batch(seeds: np.ndarray, sizes: np.ndarray, options: dict[str, Any]) -> tuple[Any, dict]:
    """Sessions have no winner (players play the house): winners are -1, nets are the figures."""
    figures, nets = run_chunks(seeds, sizes, *kernel_args(options))
    named = {name: figures[i] for i, name in enumerate(FIGURES)}
    for i, area in enumerate(STRATEGIES[options.get("strategy") or "every_area"]):
        named[f"handle_{area}"] = figures[3 + 2 * i]
        named[f"house_{area}"] = figures[4 + 2 * i]
    # the reference engine's other figures, all zero here (so both engines name the same ones):
    # wagers the strategy never places, and voids (only a live table's dealer voids a roll)
    never = np.broadcast_to(np.int64(0), figures.shape[1])  # one zero seen n times: no memory
    for name in ("voids", *(f"{k}_{w}" for w in WAGER_IDS for k in ("handle", "house"))):
        named.setdefault(name, never)
    for s in range(nets.shape[0]):
        named[f"net_{chr(65 + s)}"] = nets[s]
    return np.full(figures.shape[1], -1, dtype=np.int64), named


def play_tape(tape: np.ndarray, options: dict[str, Any]) -> tuple[int, int, list[int], int]:
    """One session on given dice (values 0-5): (-1, moves, net per seat, dice used)."""
    players, bankroll, lo, stay_up, max_rolls, codes, multi = kernel_args(options)
    pos = np.zeros(1, dtype=np.int64)
    bets = np.zeros((players, codes.shape[1]), dtype=np.int64)
    purse = np.empty(players, dtype=np.int64)
    handle = np.zeros(codes.shape[1], dtype=np.int64)
    house = np.zeros(codes.shape[1], dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    moves, _, _ = play(players, bankroll, lo, stay_up, max_rolls, codes, multi,
                       state, tape, pos, bets, purse, handle, house,
                       np.zeros(0, dtype=np.int64), np.empty(players, dtype=np.int64))  # fmt: skip
    return -1, int(moves), [int(x) for x in purse], int(pos[0])


@njit(cache=True)
def _paths(seed: np.uint64, sessions: int, players: int, bankroll: int, lo: int, stay_up: bool,
           max_rolls: int, codes: np.ndarray, multi: np.ndarray,
           out: np.ndarray) -> None:  # fmt: skip
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    pos = np.zeros(1, dtype=np.int64)
    bets = np.zeros((players, codes.shape[1]), dtype=np.int64)
    purse = np.empty(players, dtype=np.int64)
    handle = np.zeros(codes.shape[1], dtype=np.int64)
    house = np.zeros(codes.shape[1], dtype=np.int64)
    queue = np.empty(players, dtype=np.int64)
    for g in range(sessions):
        path = out[g]
        path[0] = bankroll
        _, rolls, _ = play(players, bankroll, lo, stay_up, max_rolls, codes, multi, state,
                           NO_TAPE, pos, bets, purse, handle, house, path, queue)  # fmt: skip
        path[rolls + 1 :] = path[rolls]  # a session that ended early keeps its last purse


def bankroll_paths(options: dict[str, Any], sessions: int, seed: int = 0) -> np.ndarray:
    """Seat A's chips after each roll (column 0: the buy-in) over ``sessions`` sessions."""
    players, bankroll, lo, stay_up, max_rolls, codes, multi = kernel_args(options)
    out = np.empty((sessions, max_rolls + 1), dtype=np.int64)
    stream = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
    _paths(stream, sessions, players, bankroll, lo, stay_up, max_rolls, codes, multi, out)
    return out
