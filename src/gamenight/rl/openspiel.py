"""Every gamenight game as an OpenSpiel Python game, so OpenSpiel's algorithms run on it unchanged.

``register()`` (called on import) registers ``python_gamenight_<id>`` for each game, e.g.
``pyspiel.load_game("python_gamenight_shake", {"players": 2})``; the parameters are the game's
own options that are whole numbers, flags or words. The state wraps an engine State:

- chance is explicit: a chance node's outcomes are the engine's ``chance_outcomes()`` with their
  exact probabilities, numbered by their place in that list;
- a player's actions are the indices of rl.encoding's catalogue (the ones PettingZoo agents use);
- observations are the seat's ``view`` (a JSON string) and rl.encoding's vector (a tensor); the
  information state is the seat's ``public_record`` (what it has seen happen, in order);
- returns are the engine's ``returns()``, all at the end.

OpenSpiel's games are sequential or simultaneous, never real-time. Snap and Slap the Elephant
(and every optional move: casino wagers, Gambler's IOUs) are made sequential: at each moment the
seats whose only moves are optional are asked in seat order, each may make one or pass (``wait``),
and then the seat with the required move (turning the next card, rolling) plays. So at every card
each seat has its chance to call before the next is turned, and the reaction race of the live
table becomes seat order, as in the Gymnasium environment.

Install with ``pip install 'gamenight[openspiel]'``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import gamenight
from gamenight.engine import Game, State, new_game

from .aec import OPTIONAL
from .encoding import WAIT, WAIT_INDEX, Encoding, action_key, encoding

PREFIX = "python_gamenight_"
LONGEST = 10**7  # a nominal bound: Shake, Snap and Gambler have no fixed longest game
NO_CEILING = 1e12  # a nominal bound where the rules set none
# the largest return a seat can have, by game (the casino's is a bound of the chips, not a rule)
UTILITY = {"shake": (0.0, 1.0), "gambler": (0.0, 1.0), "snap": (-1.0, 1.0),
           "slap-the-elephant": (-1.0, 1.0)}  # fmt: skip


# games whose chance moves no seat sees (Snap's and Slap's deals into face-down packs): every
# other game shows every seat all that happens (a test compares records with public records)
HIDDEN_CHANCE = frozenset({"snap", "slap-the-elephant"})
BUILT: dict[tuple[str, str], tuple[Game, Encoding, dict[Any, int]]] = {}  # per game and options


def _build(game_id: str, options: dict[str, Any]) -> tuple[Game, Encoding, dict[Any, int]]:
    """The engine game, its encoding and catalogue index for these options (made once)."""
    key = (game_id, json.dumps(options, sort_keys=True))
    if key not in BUILT:
        table_game = new_game(game_id, **options)
        code = encoding(table_game)
        BUILT[key] = (table_game, code, code.index())
    return BUILT[key]


def short_name(game_id: str) -> str:
    return PREFIX + game_id.replace("-", "_")


def _parameters(game: Game) -> dict[str, Any]:
    """The options OpenSpiel can carry (whole numbers, flags, words), at their defaults."""
    return {k: v for k, v in game.options.model_dump().items() if type(v) in (int, bool, str)}


def _utility(game: Game) -> tuple[float, float]:
    if game.id in UTILITY:
        return UTILITY[game.id]
    if game.id == "snake-eyes":  # net chips: a seat loses its own at most, wins the others'
        chips = float(game.options.starting_chips)  # type: ignore[attr-defined]
        return -chips, chips * (game.players - 1)
    bankroll = float(game.options.bankroll)  # type: ignore[attr-defined]
    return -bankroll, NO_CEILING  # the casino: no rule bounds what the bank may pay


def _max_chance_outcomes(game: Game) -> int:
    """Colored dice of every seat at once in Shake (or a shake's 64 results); a card picture in
    Snap and Slap; two dice elsewhere."""
    if game.id == "shake":
        return max(64, 6**game.players)
    if game.id in ("snap", "slap-the-elephant"):
        return 13
    return 36


class GamenightGame(pyspiel.Game):
    """One gamenight game in OpenSpiel's clothes; subclassed per game by ``register``."""

    GAME_ID = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        table_game, code, _ = _build(self.GAME_ID, options)
        low, high = _utility(table_game)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(code.actions),
            max_chance_outcomes=_max_chance_outcomes(table_game),
            num_players=table_game.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=LONGEST,
        )
        super().__init__(game_type(self.GAME_ID), info, options)

    # OpenSpiel may hand a state a fresh Python wrapper of this game, without its attributes:
    # what the state needs is looked up from the game's parameters instead
    def _built(self) -> tuple[Game, Encoding, dict[Any, int]]:
        return _build(self.GAME_ID, self.get_parameters())

    @property
    def table_game(self) -> Game:
        return self._built()[0]

    @property
    def encoding(self) -> Encoding:
        return self._built()[1]

    @property
    def index(self) -> dict[Any, int]:
        return self._built()[2]

    def new_initial_state(self) -> GamenightState:
        return GamenightState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"gamenight observers take no parameters; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect_recall)


class GamenightState(pyspiel.State):
    """An engine State, asked one seat at a time (see the module's note on optional moves)."""

    def __init__(self, game: GamenightGame, table: State | None = None) -> None:
        super().__init__(game)
        self.spiel_game = game
        self.table = table if table is not None else game.table_game.new_state(seed=0)
        self.passed: set[int] = set()  # seats that let this moment go by
        self.moment = len(self.table.moves)

    def _seat(self) -> int:
        """The seat asked now: one with only optional moves that has not passed, else the seat
        that must move."""
        table = self.table
        if len(table.moves) != self.moment:  # a move was made: a new moment, everyone asked
            self.moment, self.passed = len(table.moves), set()
        required = None
        for seat in table.actors():
            if seat in self.passed:
                continue
            if all(a["type"] in OPTIONAL for a in table.legal_actions(seat)):
                return seat
            if required is None:
                required = seat
        if required is None:
            raise RuntimeError(f"no seat can move at a non-terminal {table.game.id} table")
        return required

    def current_player(self) -> int:
        if self.table.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.table.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        return self._seat()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        index = self.spiel_game.index
        moves = self.table.legal_actions(player)
        legal = sorted({index[k] for k in map(action_key, moves) if k in index})
        if all(a["type"] in OPTIONAL for a in moves):
            legal.insert(0, WAIT_INDEX)
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.table.chance_outcomes()
        bound = self.spiel_game.max_chance_outcomes()
        if len(outcomes) > bound:
            raise RuntimeError(f"{len(outcomes)} chance outcomes, more than the {bound} declared")
        return [(i, float(p)) for i, (_, p) in enumerate(outcomes)]

    def _apply_action(self, action: int) -> None:
        if self.table.is_chance():
            self.table.apply(self.table.chance_outcomes()[action][0])
            return
        seat = self._seat()
        move = self.spiel_game.encoding.actions[action]
        if move == WAIT:
            self.passed.add(seat)
        else:
            self.table.apply(dict(move), seat)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return json.dumps(self.table.chance_outcomes()[action][0])
        return json.dumps(self.spiel_game.encoding.actions[action])

    def is_terminal(self) -> bool:
        return self.table.is_terminal()

    def returns(self) -> list[float]:
        if not self.table.is_terminal():
            return [0.0] * self.table.game.players
        return [float(r) for r in self.table.returns()]

    def __str__(self) -> str:
        return "\n".join(self.table.events()[-8:])

    def __deepcopy__(self, memo: dict[int, Any]) -> GamenightState:
        twin = GamenightState(self.spiel_game, self.table.clone())
        twin.passed, twin.moment = set(self.passed), self.moment
        return twin


class Observer:
    """What a seat sees: its view and rl.encoding's vector, or (perfect recall) its record."""

    def __init__(self, game: GamenightGame, perfect_recall: bool) -> None:
        self.game, self.perfect_recall = game, perfect_recall
        self.tensor = np.zeros(game.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GamenightState, player: int) -> None:
        self.tensor[:] = self.game.encoding.observe(state.table.view(player), player)

    def string_from(self, state: GamenightState, player: int) -> str:
        if self.perfect_recall:  # everything this seat has seen happen, in order
            seen = state.table.public_record(player)
            return json.dumps([seen["moves"], sorted(state.passed), player], sort_keys=True)
        return json.dumps(state.table.view(player), sort_keys=True)


def game_type(game_id: str) -> pyspiel.GameType:
    table = new_game(game_id)
    cls = type(table)
    hides = game_id in HIDDEN_CHANCE
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"gamenight {table.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hides
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(table),
    )


def register() -> list[str]:
    """Register every game with OpenSpiel (again harmlessly); the short names."""
    names = []
    for game_id in gamenight.list_games():
        name = short_name(game_id)
        if name not in pyspiel.registered_names():
            cls = type(f"Gamenight_{game_id.replace('-', '_')}", (GamenightGame,),
                       {"GAME_ID": game_id})  # fmt: skip
            pyspiel.register_game(game_type(game_id), cls)
        names.append(name)
    return names


register()
