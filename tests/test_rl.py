"""PettingZoo and Gymnasium conformance of every game's learning environments."""

from __future__ import annotations

import functools
import random
import types
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

import gamenight  # noqa: E402
from gamenight import rl  # noqa: E402
from gamenight.rl.encoding import action_key, encoding  # noqa: E402

GAMES = gamenight.list_games()
SETUPS = [(g, p) for g in GAMES for p in (2, 4)]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_pettingzoo_api(game: str, players: int) -> None:
    api_test(rl.env(game, players=players, render_mode="ansi"), num_cycles=200)
    parallel_api_test(rl.parallel_env(game, players=players), num_cycles=200)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_pettingzoo_seed_and_max_cycles(game: str, players: int) -> None:
    seed_test(functools.partial(rl.env, game, players=players), num_cycles=50)
    parallel_seed_test(functools.partial(rl.parallel_env, game, players=players), num_cycles=50)
    mod = types.SimpleNamespace(
        env=functools.partial(rl.env, game, players=players),
        parallel_env=functools.partial(rl.parallel_env, game, players=players),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_single_agent(game: str) -> None:
    env = rl.single_agent_env(game, players=3)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        obs, reward, term, trunc, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        total += reward
        done = term or trunc
    assert term, "a whole game with bots ends before the cycle cap"
    assert total == pytest.approx(env.aec.table.returns()[0])


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_every_legal_action_is_in_the_catalogue(game: str, players: int) -> None:
    """The mask is complete: random play never meets a legal action the agent cannot pick."""
    g = gamenight.new_game(game, players=players)
    index = encoding(g).index()
    rng = random.Random(players)
    for seed in range(5):
        state = g.new_state(seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.is_chance():
                state.sample_chance()
                continue
            for seat in state.actors():
                missing = [a for a in state.legal_actions(seat) if action_key(a) not in index]
                assert not missing, f"{game}: {missing} not in the action catalogue"
            seat = rng.choice(state.actors())
            state.apply(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("game", GAMES)
def test_observation_is_the_seats_view_only(game: str) -> None:
    """An observation is a function of view(seat): what the seat may see, nothing else."""
    env = rl.env(game, players=3)
    env.reset(seed=11)
    for agent in env.agent_iter(max_iter=60):
        seat = env.possible_agents.index(agent)
        obs, *_ = env.last()
        assert obs is not None
        expected = env.encoding.observe(env.table.view(seat), seat)
        assert np.array_equal(obs["observation"], expected)
        assert obs["observation"].shape == (env.encoding.size,)
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_an_illegal_index_changes_nothing() -> None:
    env = rl.env("shake", players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.table.record()
    env.step(bad)
    assert env.infos[agent]["illegal"] is True
    assert env.table.record() == before
    env2 = rl.env("shake", players=2)
    env2.reset(seed=5)
    env2.step(10**9)
    assert env2.infos[env2.possible_agents[0]]["illegal"] is True


def test_realtime_calls_race_and_only_one_wins() -> None:
    """Two seats calling the same card: one is judged, the other is too late and dropped."""
    env = rl.parallel_env("snap", players=3)
    obs, _ = env.reset(seed=2)
    snap = env.aec.encoding.actions.index({"type": "snap"})
    flip = env.aec.encoding.actions.index({"type": "flip"})
    wait = 0
    seen_race = False
    for _ in range(400):
        state = env.aec.table
        if state.is_terminal():
            break
        matched = bool(state.view()["matches"])
        actions = {}
        for a in env.agents:
            mask = obs[a]["action_mask"]
            if matched and mask[snap]:
                actions[a] = snap
            elif mask[flip]:
                actions[a] = flip
            else:
                actions[a] = wait
        calls_before = sum(1 for s, m in state.moves if m["type"] == "snap")
        obs, _, term, trunc, env_infos = env.step(actions)
        calls_after = sum(1 for s, m in env.aec.table.moves if m["type"] == "snap")
        if matched and sum(1 for v in actions.values() if v == snap) >= 2:
            seen_race = True
            assert calls_after - calls_before == 1
            callers = [a for a, v in actions.items() if v == snap]
            assert sum(env_infos[a]["late"] for a in callers) == len(callers) - 1
        if not env.agents:
            break
    assert seen_race


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without PettingZoo, importing gamenight.rl says which extra to install."""
    import importlib
    import sys

    for name in [m for m in sys.modules if m == "gamenight.rl" or m.startswith("gamenight.rl.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match=r"gamenight\[rl\]"):
        importlib.import_module("gamenight.rl")


def _extremes() -> list[tuple[str, int]]:
    out = []
    for g in GAMES:
        cls = type(gamenight.new_game(g))
        out += [(g, cls.min_players), (g, cls.max_players)]
    return out


@pytest.mark.parametrize(("game", "players"), _extremes())
def test_fewest_and_most_players(game: str, players: int) -> None:
    """Every table size a game allows builds and passes the API checks (Shake's catalogue grows
    with the seats; the casino table seats one)."""
    api_test(rl.env(game, players=players), num_cycles=30)
    parallel_api_test(rl.parallel_env(game, players=players), num_cycles=30)
    env = rl.single_agent_env(game, players=players, opponents="random")
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].any()


def test_docs_catalogue_is_current() -> None:
    """docs/rl.md lists every action index as the code numbers it."""
    from pathlib import Path

    from gamenight.rl.catalogue import block

    doc = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
    assert block() in doc.read_text(), "run: python -m gamenight.rl.catalogue docs/rl.md"


def test_parallel_refuses_an_index_outside_the_mask() -> None:
    env = rl.parallel_env("snap", players=2)
    obs, _ = env.reset(seed=4)
    bad = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in env.agents}
    before = env.aec.table.record()
    _, _, _, _, infos = env.step({**bad, "player_1": 10**9})
    assert all(infos[a]["illegal"] for a in env.agents)
    assert env.aec.table.record() == before


def test_single_agent_env_rejects_unknown_opponents() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        rl.single_agent_env("shake", opponents="grandmaster")


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10"])
def test_max_cycles_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(ValueError, match="max_cycles"):
        rl.env("shake", max_cycles=bad)
