"""Monte Carlo on the reference engine: many bot games through the public protocol."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from gamenight.engine import State, new_game

from .stats import Tally


class Bot(Protocol):
    def act(self, state: State, seat: int) -> dict[str, Any]: ...


BotFactory = Callable[[str, int, int], Bot]  # (game id, seat, seed) -> bot


def default_bots(game_id: str, seat: int, seed: int) -> Bot:
    """Each game's sensible bot where it has one, else a random bot."""
    from gamenight.bots import make_bot

    return make_bot(game_id, "sensible", seed=seed)


def seated_bots(game_id: str, players: int, game_seed: int) -> list[Bot]:
    """Each seat's sensible bot, seeded from the game's seed."""
    return [default_bots(game_id, s, game_seed + s) for s in range(players)]


def reference_figures(state: State) -> dict[str, int]:
    """A finished game's whole-number figures: its length, its own stats, each seat's result."""
    out = {"moves": len(state.moves)}
    for k, v in state.stats().items():
        out[k] = int(v)
    if state.game.id == "snake-eyes":
        for s, p in enumerate(state.purse):  # type: ignore[attr-defined]
            out[f"chips_{chr(65 + s)}"] = state.ledger[p]
    elif state.game.id == "snake-eyes-casino":
        for s in range(state.players):
            out[f"net_{chr(65 + s)}"] = int(state.returns()[s])
    return out


def play_out(state: State, bots: list[Bot], max_moves: int = 1_000_000) -> State:
    """Play ``state`` to the end: chance from its RNG, each actor's bot in seat order."""
    is_terminal, is_chance, next_actor = state.is_terminal, state.is_chance, state.next_actor
    apply, play_chance = state.apply, state.play_chance  # the draws are not looked at here
    for _ in range(max_moves):
        if is_chance():  # asked first: a finished game is never a chance node
            play_chance()
        elif is_terminal():
            return state
        else:
            seat = next_actor()
            if seat is None:
                raise RuntimeError(f"{state.game.id}: nobody is to act in an unfinished game")
            apply(bots[seat].act(state, seat), seat)
    raise RuntimeError(f"{state.game.id}: no end after {max_moves} moves")


def simulate(
    game_id: str,
    games: int,
    players: int,
    seed: int = 0,
    bots: BotFactory = default_bots,
    on_game: Callable[[int], None] | None = None,
    **options: Any,
) -> Tally:
    """Play ``games`` bot games; the same seed gives the same result.

    Only the tally is kept (wins, and a histogram per figure), so memory does not grow with the
    number of games; games a safety cap stopped are counted apart."""
    game = new_game(game_id, players=players, **options)
    master = random.Random(seed)
    tally = Tally(game_id, players)
    for i in range(games):
        game_seed = master.getrandbits(63)
        seated = [bots(game_id, s, game_seed + s) for s in range(players)]
        state = play_out(game.new_state(seed=game_seed), seated)
        tally.add_game(state.winner(), reference_figures(state), truncated=state.truncated)
        if on_game:
            on_game(i + 1)
    return tally
