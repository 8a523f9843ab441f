"""PettingZoo and Gymnasium conformance of every game's learning environments."""

from __future__ import annotations

import functools
import random
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
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
    _truncates_after_max_cycles(game, players)


def _truncates_after_max_cycles(game: str, players: int, cycles: int = 4) -> None:
    """PettingZoo's max_cycles_test counts every agent stepping once a cycle; with only deciding
    seats stepping (one seat may decide many times running) the AEC counts differ by seat. So:
    the Parallel env truncates after ``cycles`` steps, the AEC one after ``cycles`` steps per seat
    (``cycles * players`` decisions), and then every agent steps out once."""
    rng = np.random.default_rng(0)
    par = rl.parallel_env(game, players=players, max_cycles=cycles)
    obs, _ = par.reset(seed=0)
    steps, truncated = 0, False
    while par.agents:
        picks = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, _, _, truncs, _ = par.step(picks)
        steps, truncated = steps + 1, all(truncs.values())
    assert (steps == cycles and truncated) or (steps < cycles and par.aec.table.is_terminal())
    env = rl.env(game, players=players, max_cycles=cycles)
    env.reset(seed=0)
    live = out = 0
    for _agent in env.agent_iter():
        o, _, term, trunc, _ = env.last()
        if term or trunc:
            out += 1
            env.step(None)
            continue
        live += 1
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    assert out == players
    assert live == cycles * players or (live < cycles * players and env.table.is_terminal())


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


def test_two_false_calls_at_one_moment_both_pay() -> None:
    """Snap rulebook: a Snap called while no two face-up cards match costs the caller a
    penalty card. Only a call for what an earlier call took is too late; two calls at nothing
    are two false calls."""
    from snap_helpers import dealt

    env = rl.parallel_env("snap", players=2)
    env.reset(seed=1)
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"]])
    state.apply({"type": "flip"}, 0)
    state.apply({"type": "flip"}, 1)  # kite and fish: nothing to call
    env.aec.state_ = state
    snap = env.aec.encoding.actions.index({"type": "snap"})
    _, _, _, _, infos = env.step({a: snap for a in env.agents})
    assert state.false_calls == 2 and sorted(state.center) == ["crown", "owl"]
    assert not any(i["late"] or i["illegal"] for i in infos.values())


def test_a_call_still_right_after_a_false_call_at_one_moment_wins() -> None:
    """As at the realtime table, a call is too late only when an earlier one took what it asked
    for. Slap, three seats, an elephant alone in the centre: a wrong snap of the fingers leaves
    it on top (one card is too few to share), so a slap at the same moment still wins it, in
    whichever order the two arrive."""
    from snap_helpers import dealt

    orders = set()
    for seed in range(12):  # the arrival order is drawn: both orders come up
        env = rl.parallel_env("slap-the-elephant", players=3)
        env.reset(seed=seed)
        state = dealt("slap-the-elephant", [["elephant"], ["kite"], ["fish"]])
        state.apply({"type": "flip"}, 0)
        env.aec.state_ = state
        index = env.aec.encoding.actions.index
        fingers, slap = index({"type": "snap_fingers"}), index({"type": "slap"})
        wait = index({"type": "wait"})
        picks = dict(zip(env.agents, (wait, fingers, slap), strict=True))
        _, _, _, _, infos = env.step(picks)
        assert state.center == [] and state.pack[2][-1] == "elephant"
        slapper, other = infos[env.agents[2]], infos[env.agents[1]]
        assert not slapper["late"] and not slapper["illegal"] and not other["illegal"]
        assert other["late"] == (state.false_calls == 0)  # after the slap: nothing left to call
        orders.add(state.false_calls)
    assert orders == {0, 1}, "both arrival orders: fingers first (false) and slap first"


def test_a_game_that_ends_before_the_agent_decides_is_one_step_long() -> None:
    """Four-player Shake, seed 123: the bots' choices leave seat 0 no decision in the whole game.
    reset() cannot end an episode in Gymnasium, so the agent takes the end with one ``wait``
    (before, the first step raised PettingZoo's "when an agent is dead" ValueError)."""
    env = rl.single_agent_env("shake", players=4)
    obs, _ = env.reset(seed=123)
    assert env.aec.table.is_terminal(), "the seed no longer gives a game without a decision"
    assert obs["action_mask"].tolist() == [1] + [0] * (len(obs["action_mask"]) - 1)
    _, reward, term, trunc, info = env.step(2)  # not wait: refused, as any illegal index
    assert (reward, term, trunc, info["illegal"]) == (0.0, False, False, True)
    _, reward, term, trunc, info = env.step(0)
    assert term and not trunc and not info["illegal"]
    assert reward == env.aec.table.returns()[0]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    check_env(rl.single_agent_env("shake", players=4), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_never_refuses_what_the_mask_allowed(game: str) -> None:
    """Every agent picks from its mask at once: nothing it picked is flagged illegal. Before,
    turn-based games went through aec_to_parallel, which judged a later seat's action on a
    table changed by an earlier seat in the same step (a Snake Eyes wait refused once the dice
    had passed to that seat), and in Slap a flip a won call made impossible was 'illegal'."""
    env = rl.parallel_env(game, players=3)
    rng = np.random.default_rng(1)
    refused = late = 0
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        for _ in range(3000):
            if not env.agents:
                break
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in obs}
            obs, _, _, _, infos = env.step(actions)
            refused += sum(i["illegal"] for i in infos.values())
            late += sum(i["late"] for i in infos.values())
            for a in env.agents:  # each agent sees the table as it now is
                seat = env.possible_agents.index(a)
                now = env.aec.encoding.observe(env.aec.table.view(seat), seat)
                assert np.array_equal(obs[a]["observation"], now)
    assert refused == 0
    if game == "slap-the-elephant":
        assert late > 0, "random calls and turns at once: some turns come too late"


def test_gymnasium_snap_bots_see_the_agents_own_cards_first() -> None:
    """As docs/rl.md says: steps go round in seat order, so a card is seen first by the seat
    after the one who turned it. A match the learning seat turns is called by the bot next to
    it before the agent is asked again; a match the bot turns is the agent's to see first."""
    from gamenight.realtime.table import correct_call

    env = rl.single_agent_env("snap", players=2)
    bot_first = agent_first = 0
    for seed in range(10):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            table = env.aec.table
            if correct_call(table) is not None:
                agent_first += 1  # asked with a call due: the agent saw this card first
            flip = bool(obs["action_mask"][1])
            before = len(table.moves)
            obs, _, term, trunc, _ = env.step(1 if flip else 0)  # turn cards, never call
            done = term or trunc
            played = [(s, m["type"]) for s, m in table.moves[before:] if s is not None]
            if flip and len(played) > 1 and played[1] == (1, "snap"):
                bot_first += 1  # the agent's own card: the bot called before it could look
    assert bot_first > 0 and agent_first > 0


@pytest.mark.parametrize("bad", [-1, -3, 1.7, 2.0, "1", np.array([1]), None])
def test_an_index_outside_the_action_space_is_refused(bad: object) -> None:
    """Discrete(n) holds 0 to n-1 only. Before, step(-1) in Snap played the last entry (a snap,
    a false call with its penalty) and step(1.7) turned a card."""
    env = rl.env("snap", players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.table.record()
    env.step(bad)
    assert env.infos[agent]["illegal"] is True
    assert env.table.record() == before
    par = rl.parallel_env("snap", players=2)
    par.reset(seed=1)
    _, _, _, _, infos = par.step({"player_0": bad, "player_1": bad})
    assert infos["player_0"]["illegal"] and infos["player_1"]["illegal"]
    assert par.aec.table.record() == before
    single = rl.single_agent_env("snap", players=2)
    single.reset(seed=1)
    moves = len(single.aec.table.moves)
    assert single.step(bad)[4]["illegal"] is True
    assert len(single.aec.table.moves) == moves


def test_numpy_seeds_and_numpy_indices_are_welcome() -> None:
    """Seeds and actions often come out of NumPy; an np.int64 seed was refused as '<int64>'."""
    a, b = rl.env("shake", players=2), rl.env("shake", players=2)
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.table.record() == b.table.record()
    a.step(np.int64(int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])[0])))
    assert a.infos["player_0"]["illegal"] is False
    par = rl.parallel_env("snap", players=2)
    par.reset(seed=np.int32(5))
    assert par.aec.table.record()["seed"] == 5


def test_misuse_of_the_gymnasium_env_says_what_to_do() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        rl.single_agent_env("shake", players=2).step(0)
    with pytest.raises(ValueError, match="unknown bot kind None"):
        rl.single_agent_env("shake", opponents=None)  # type: ignore[arg-type]


def test_parallel_step_names_an_unknown_agent_and_plays_nothing() -> None:
    """Before, an unknown key failed with "'player_9' is not in list"."""
    env = rl.parallel_env("shake", players=2)
    env.reset(seed=1)
    before = env.aec.table.record()
    with pytest.raises(ValueError, match="no agent 'player_9' at this table"):
        env.step({"player_0": 1, "player_9": 0})
    assert env.aec.table.record() == before


@pytest.mark.parametrize("game", GAMES)
def test_environments_pickle_mid_game(game: str) -> None:
    """Copies for worker processes or checkpoints: a pickled environment goes on exactly as the
    original. Before, pickling failed on the observation builder ("Can't pickle local object")."""
    import pickle

    env = rl.single_agent_env(game, players=2)
    obs, _ = env.reset(seed=2)
    for _ in range(3):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    twin = pickle.loads(pickle.dumps(env))
    action = int(np.flatnonzero(obs["action_mask"])[0])
    a, b = env.step(action), twin.step(action)
    assert np.array_equal(a[0]["observation"], b[0]["observation"]) and a[1:] == b[1:]
    assert env.aec.table.record() == twin.aec.table.record()
    par = rl.parallel_env(game, players=2)
    par.reset(seed=2)
    assert pickle.loads(pickle.dumps(par)).aec.table.record() == par.aec.table.record()


@pytest.mark.parametrize("game", GAMES)
def test_observations_stay_inside_the_finite_box_the_space_declares(game: str) -> None:
    """Every feature is a count, a flag or a share of chips no purse can overdraw (only the bank
    may go negative, and it is not observed), so the space says low=0 (it said -inf: nothing);
    and each has a finite high (it said +inf), the figures no rule bounds clipped there."""
    env = rl.env(game, players=3)
    space = env.observation_space("player_0")
    assert float(space["observation"].low.min()) == 0.0
    assert np.isfinite(space["observation"].high).all()
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=1500):
            obs, _, term, trunc, _ = env.last()
            assert space.contains(obs), f"{game}: {obs['observation'].min()}"
            mask = obs["action_mask"]
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(mask))))


BLOCK_SB3 = (
    "import runpy, sys; sys.modules['sb3_contrib'] = None; sys.argv = ['train_shake.py', *{}]; "
    "runpy.run_path('examples/train_shake.py', run_name='__main__')"
)


@pytest.mark.parametrize("args", [["--help"], ["--timesteps", "10"]])
def test_train_shake_without_the_training_extra_says_what_to_install(args: list[str]) -> None:
    """docs/rl.md shows `python examples/train_shake.py --help`; without sb3-contrib it was a
    traceback. Now --help answers, and a run names the extra to install."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, "-c", BLOCK_SB3.format(args)], cwd=root, capture_output=True,
        text=True, timeout=600,  # a generous deadline: imports on a busy machine
    )  # fmt: skip
    assert "Traceback" not in run.stderr, run.stderr
    if args == ["--help"]:
        assert run.returncode == 0 and "--train-against" in run.stdout
    else:
        assert run.returncode == 1 and "pip install -e '.[rl-train]'" in run.stderr


@pytest.mark.parametrize("game", GAMES)
def test_only_a_seat_with_a_decision_steps(game: str) -> None:
    """As in PettingZoo's classic games: the AEC environment never hands an agent a step whose
    only legal action is wait (before, a third to a half of the steps were such waits); in a
    turn-based game the agent stepping is the seat the engine waits for."""
    env = rl.env(game, players=3)
    rng = np.random.default_rng(2)
    decisions = 0
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter(max_iter=2000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask[1:].any(), f"{agent} was handed a forced wait"
            seat = env.possible_agents.index(agent)
            if not env.table.game.realtime and game != "snake-eyes":
                assert seat in env.table.actors()
            decisions += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert decisions > 0


def test_a_shaker_steps_again_and_again() -> None:
    """Shake: a shaker who shakes on is asked again at once; nobody else steps in between."""
    env = rl.env("shake", players=2)
    env.reset(seed=1)
    shake, runs = env.encoding.actions.index({"type": "shake"}), 0
    for agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        env.step(shake if shake in allowed else int(allowed[0]))
        runs += env.agent_selection == agent and env.table.view()["phase"] == "shaken"
    assert runs > 0


def test_flat_observations_carry_the_mask_in_infos() -> None:
    for game in ("shake", "snap"):
        api_test(rl.env(game, players=2, flat=True), num_cycles=100)
        parallel_api_test(rl.parallel_env(game, players=2, flat=True), num_cycles=100)
    flat, full = rl.env("shake", players=3, flat=True), rl.env("shake", players=3)
    flat.reset(seed=5)
    full.reset(seed=5)
    assert flat.observation_space("player_0") == full.observation_space("player_0")["observation"]
    for _ in range(12):  # a dozen decisions: far from the end of ten rounds
        agent = full.agent_selection
        assert flat.agent_selection == agent
        obs, info = full.observe(agent), flat.infos[agent]
        assert np.array_equal(flat.observe(agent), obs["observation"])
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        action = int(np.flatnonzero(obs["action_mask"])[-1])
        flat.step(action)
        full.step(action)
    with pytest.raises(ValueError, match="flat"):
        rl.env("shake", flat="yes")


@pytest.mark.parametrize("game", GAMES)
def test_shaped_rewards_add_up_to_the_return(game: str) -> None:
    """rl.shaping pays each change of a seat's standing as it happens; over a whole game the
    payments add up to the seat's return, and some come before the end."""
    env = rl.env(game, players=2, shaped_rewards=True)
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    early = False
    for agent in env.agent_iter(max_iter=200_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        early = early or (reward != 0 and not env.table.is_terminal())
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.table.is_terminal()
    returns = env.table.returns()
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(returns[seat], abs=1e-9)
    assert early, "the shaped rewards paid something during the game"


@pytest.mark.parametrize("game", ["shake", "snake-eyes-casino"])
def test_gymnasium_shaped_rewards_and_flat_observations(game: str) -> None:
    """The single-agent wrapper takes both keywords: the shaped rewards paid while the bots play
    reach the agent at its next step, so a game's rewards still add up to its return; a flat
    observation is the vector, its mask in the info and in action_masks()."""
    env = rl.single_agent_env(game, players=2, shaped_rewards=True, flat=True, opponents="random")
    check_env(rl.single_agent_env(game, players=2, flat=True), skip_render_check=True)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    rng = np.random.default_rng(6)
    obs, info = env.reset(seed=6)
    total, paid_early, done = 0.0, False, False
    while not done:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        obs, reward, term, trunc, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        total += reward
        done = term or trunc
        paid_early = paid_early or (reward != 0 and not done)
    assert term and paid_early
    assert total == pytest.approx(env.aec.table.returns()[0], abs=1e-9)
