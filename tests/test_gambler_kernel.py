"""The Gambler kernel agrees with the reference engine game by game on the same chance outcomes.

Both read one tape of whole numbers per game: a die shows ``v % 6 + 1`` and a card is number
``v % k`` of the ``k`` the engine lists (``kernels.gambler``'s docstring). The engine, with the
sensible bot in every seat, defines the rules; the kernel must end every game with the same
winner, number of moves, cash per seat, draws used and figures (``state.stats()``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

import gamenight  # noqa: E402
from gamenight.analysis import runner  # noqa: E402
from gamenight.analysis.simulate import reference_figures  # noqa: E402
from gamenight.bots.playouts import gambler_game as gambler  # noqa: E402
from gamenight.engine import State  # noqa: E402
from gamenight.games.gambler import odds  # noqa: E402
from kernel_helpers import (  # noqa: E402
    EVENTS_BOARD,
    HARSH_BOARD,
    HARSH_CARDS,
    engine_on_tape,
    gambler_draw,
)


def agree(options: dict[str, Any], seed: int, games: int, length: int = 4000) -> dict[str, int]:
    """Play ``games`` tapes on both; returns how often each rare path came up (to show the
    tapes reach them)."""
    game = gamenight.new_game("gambler", **options)
    full = game.options_dict()
    seen = {"truncated": 0, "players_out": 0, "ious": 0, "lotteries": 0, "start_twice": 0}
    tapes = np.random.default_rng(seed).integers(0, 2**31, size=(games, length))
    for i, tape in enumerate(tapes):
        state: State
        state, used = engine_on_tape(game.new_state(seed=0), tape, gambler_draw)
        assert used < length, "tape too short for this game"
        w, moves, cash, k_used, figures = gambler.play_tape(tape, full)
        want_figures = reference_figures(state)
        want = (state.winner(), len(state.moves), [state.ledger[p] for p in state.purse], used)
        assert (w, moves, cash, k_used) == want, f"gambler {options} tape {i} (seed {seed})"
        assert figures == want_figures, f"gambler {options} tape {i} (seed {seed})"
        seen["truncated"] += state.truncated
        seen["players_out"] += figures["players_out"]
        seen["ious"] += figures["ious_taken"]
        seen["lotteries"] += figures["lotteries"]
        seen["start_twice"] += any("claims $200" in e for e in state.events())
    return seen


@pytest.mark.parametrize("players", range(2, 5))
def test_gambler_kernel_agrees_with_the_engine(players: int) -> None:
    seen = agree({"players": players}, seed=players, games=400)
    assert seen["ious"] and seen["lotteries"]
    assert seen["start_twice"]  # Start passed twice in a turn ($200 claimed) agrees too


@pytest.mark.parametrize("players", range(2, 5))
def test_gambler_kernel_agrees_on_capped_games_and_other_options(players: int) -> None:
    """A short turn cap (the richest wins, the game counted as truncated), Start paid at once,
    a fixed first player."""
    options = {"players": players, "max_turns": 12, "auto_claim_start": True,
               "first_player": players - 1}  # fmt: skip
    seen = agree(options, seed=10 + players, games=200)
    assert seen["truncated"]


@pytest.mark.parametrize("players", range(2, 5))
def test_gambler_kernel_agrees_on_custom_data(players: int) -> None:
    """A table's own board and cards (as options): bills that knock players out, every card
    effect, repeated tickets, fewer horses than faces."""
    options = {"players": players, "board": HARSH_BOARD, "fortune": HARSH_CARDS,
               "tickets": {"tickets": [[1, 2], [1, 2], [5, 6]] * 4},
               "horses": {"horses": [6, 2, 4, 1]}}  # fmt: skip
    seen = agree(options, seed=20 + players, games=200)
    assert seen["players_out"] > 10


def test_the_kernel_scores_the_shaker_like_the_odds() -> None:
    """Every ordered throw of six dice, every space: the kernel's wins count as ``odds`` says."""
    shape, a, b, _ = gambler.spaces()
    counts = gambler.win_counts(shape, a, b)
    assert list(counts) == [odds.WIN_COUNTS[s] for s in odds.SPACES]


def test_simulate_uses_the_kernel_and_counts_capped_games_apart() -> None:
    fast = runner.run("gambler", 3000, seed=5, players=3, max_turns=15)
    assert fast.engine == "kernel" and fast.tally.games == 3000
    t = fast.tally
    assert 0 < t.truncated < 3000
    assert t.figures["turn_limit"].total == t.truncated
    assert sum(t.wins) + t.no_winner + t.truncated == 3000
    assert set(t.figures) == set(reference_figures(_one_reference_game()))
    ref = runner.run("gambler", 60, seed=5, engine="reference", players=3, max_turns=15).tally
    lo, hi = ref.figures["moves"].ci()
    assert lo - 5 <= t.figures["moves"].mean <= hi + 5


def _one_reference_game() -> State:
    from gamenight.analysis.simulate import play_out, seated_bots

    state = gamenight.new_game("gambler", players=3).new_state(seed=1)
    return play_out(state, seated_bots("gambler", 3, 1))


@pytest.mark.parametrize("players", [2, 3])
def test_streamed_games_follow_the_law_of_tapes(players: int) -> None:
    """The stream takes shortcuts a tape cannot (a ticket by its slot in the pile, a Fortune
    card by swapping, only where the winning horse went, a Shaker throw as one number): games on
    it must look like games on uniform tapes, whose law the agreement tests tie to the engine.
    A table of events (fewer horses than faces), where how much they pay sets a game's length."""
    options = {"players": players, "board": EVENTS_BOARD, "fortune": HARSH_CARDS,
               "tickets": {"tickets": [[1, 2], [1, 2], [5, 6]] * 4},
               "horses": {"horses": [6, 2, 4, 1]}}  # fmt: skip
    full = gamenight.new_game("gambler", **options).options_dict()
    tapes = np.random.default_rng(40 + players).integers(0, 2**31, size=(3000, 4000))
    taped = [gambler.play_tape(tape, full)[4] for tape in tapes]
    winners, figures = gambler.batch(runner_seeds(7, 10), np.full(10, 4096), full)
    for name in ("moves", "turns", "ious_taken", "players_out", "lotteries", "horse_races"):
        a = np.array([f[name] for f in taped], dtype=float)
        b = figures[name].astype(float)
        spread = np.sqrt(a.var() / a.size + b.var() / b.size)
        assert abs(a.mean() - b.mean()) < 4.5 * spread, (name, a.mean(), b.mean())


def runner_seeds(seed: int, chunks: int) -> np.ndarray:
    from gamenight.bots.playouts.rng import chunk_seeds

    return chunk_seeds(seed, 0, chunks)
