"""The timing layer: ex-Gaussian reactions, arrival order, too-late calls, bot simulations."""

from __future__ import annotations

import random
import statistics

import pytest

from gamenight.realtime import LEVELS, RealtimeTable, reaction_ms, simulate_realtime
from gamenight.realtime.reaction import FLOOR_MS, Level, level
from gamenight.realtime.table import LATE_MS
from snap_helpers import dealt


@pytest.mark.parametrize("name", list(LEVELS))
def test_reaction_times_have_the_documented_mean(name: str) -> None:
    lv = LEVELS[name]
    rng = random.Random(1)
    times = [reaction_ms(lv, rng) for _ in range(4000)]
    assert min(times) >= FLOOR_MS
    assert abs(statistics.fmean(times) - lv.mean_ms) < 0.05 * lv.mean_ms
    assert statistics.fmean(times) > statistics.median(times)  # the slow tail


def test_levels_are_ordered_and_unknown_level_is_named() -> None:
    assert LEVELS["easy"].mean_ms > LEVELS["normal"].mean_ms > LEVELS["expert"].mean_ms
    assert LEVELS["expert"].false_rate == 0 < LEVELS["normal"].false_rate
    with pytest.raises(ValueError, match="unknown bot level 'wizard'"):
        level("wizard")


def matched_table(bot_level: str = "normal") -> RealtimeTable:
    state = dealt("snap", [["kite"], ["kite"]])
    table = RealtimeTable(state, {1: bot_level}, seed=3, auto_flip_humans=False)
    table.press(0, {"type": "flip"})
    table.advance(table.now + 1000.0)  # B flips at the tempo: kite on kite
    assert state.matches() == [0, 1]
    return table


def test_a_human_who_presses_first_wins_the_snap_and_the_bot_is_not_punished() -> None:
    table = matched_table("expert")
    out = table.press(0, {"type": "snap"})
    assert out is not None and out.result == "good"
    table.advance(table.now + 5000.0)
    assert {o.result for o in table.outcomes if o.seat == 1} - {"flip"} <= {
        "too late",
        "held back",
    }
    assert table.state.false_calls == 0


STEADY = Level("steady", mu=400.0, sigma=1e-9, tau=1e-9, false_rate=0.0)  # always 400 ms


def steady_table() -> RealtimeTable:
    """B flips his kite onto A's kite at 900 ms and, if nothing changes, calls at 1300 ms."""
    state = dealt("snap", [["kite"], ["kite"]])
    table = RealtimeTable(state, {1: STEADY}, seed=3)
    table.press(0, {"type": "flip"})
    table.advance(1000.0)
    assert state.matches() == [0, 1]
    return table


def test_one_late_rule_a_bot_call_just_after_a_human_call_is_too_late() -> None:
    """A call arriving under LATE_MS after another call, with nothing left to call, is the
    second voice: dropped, no penalty, whoever makes it."""
    table = steady_table()
    table.advance(1200.0)
    assert table.press(0, {"type": "snap"}).result == "good"  # type: ignore[union-attr]
    table.advance(2000.0)
    late = [o for o in table.outcomes if o.seat == 1 and o.action["type"] == "snap"]
    assert [o.result for o in late] == ["too late"] and late[0].t == pytest.approx(1300.0)
    assert table.state.false_calls == 0


def test_one_late_rule_a_bot_that_sees_the_pile_go_in_time_holds_back() -> None:
    table = steady_table()
    table.press(0, {"type": "snap"})  # at 1000 ms: B's call would land 300 ms later
    table.advance(2000.0)
    late = [o for o in table.outcomes if o.seat == 1 and o.action["type"] == "snap"]
    assert [o.result for o in late] == ["held back"] and table.state.false_calls == 0


def test_one_late_rule_a_human_call_just_after_a_bot_call_is_too_late() -> None:
    table = steady_table()
    table.advance(1301.0)  # B calls first
    assert table.state.up == [[], []]
    table.advance(1450.0)
    out = table.press(0, {"type": "snap"})
    assert out is not None and out.result == "too late" and table.state.false_calls == 0


def test_one_late_rule_a_call_long_after_the_pile_went_is_false() -> None:
    table = steady_table()
    table.advance(1301.0 + LATE_MS)
    out = table.press(0, {"type": "snap"})
    assert out is not None and out.result == "false" and table.state.false_calls == 1


def test_a_bot_wins_when_the_human_is_slow() -> None:
    table = matched_table("expert")
    done = table.advance(table.now + 3000.0)
    assert [o.result for o in done if o.seat == 1 and o.result != "flip"] == ["good"]


def test_simulations_are_repeatable_and_expert_beats_easy() -> None:
    a = simulate_realtime("snap", ["easy", "expert"], games=20, seed=5)
    assert a == simulate_realtime("snap", ["easy", "expert"], games=20, seed=5)
    assert a["win_rate"][1] > a["win_rate"][0]
    b = simulate_realtime("slap-the-elephant", ["normal", "normal", "easy"], games=10, seed=1)
    assert sum(b["win_rate"]) + 0 <= 1.0 and b["mean_flips"] > 0


def test_tiny_flip_limit_stops_games() -> None:
    r = simulate_realtime("snap", ["expert", "expert"], games=5, seed=2, max_flips=10)
    assert r["stopped_at_max_flips"] == 1.0 and r["mean_flips"] == 10


def test_cli_simulate_realtime_prints_json_and_names_a_bad_level() -> None:
    import json

    from typer.testing import CliRunner

    from gamenight.cli import app

    runner = CliRunner()
    ok = runner.invoke(
        app, ["simulate-realtime", "slap-the-elephant", "--levels", "easy,expert", "--games", "5"]
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["games"] == 5
    bad = runner.invoke(app, ["simulate-realtime", "snap", "--levels", "easy,wizard"])
    assert bad.exit_code == 2 and "wizard" in bad.output


def test_generic_simulator_plays_calling_games_with_the_caller_bot() -> None:
    from gamenight.analysis.simulate import simulate

    for game_id in ("snap", "slap-the-elephant"):
        out = simulate(game_id, 5, 3, seed=1).to_json()
        assert out["games"] == 5
        assert out["false_calls"]["max"] == 0
        assert out["flips"]["min"] > 3


def test_a_second_false_call_just_after_a_false_call_still_pays() -> None:
    """Snap rulebook: a Snap called while no two face-up cards match costs the caller a
    penalty card from his pack into the centre. The late window excuses a second voice for a
    pair that the first call took away; with no pair before the first call either, the second
    caller pays too."""
    state = dealt("snap", [["kite", "owl"], ["fish", "crown"]])
    table = RealtimeTable(state, {}, seed=3)
    table.press(0, {"type": "flip"})
    table.press(1, {"type": "flip"})  # kite and fish: nothing to call
    first = table.press(0, {"type": "snap"})
    assert first is not None and first.result == "false" and state.center == ["owl"]
    table.advance(table.now + 100.0)
    second = table.press(1, {"type": "snap"})  # 100 ms later, at the same kite and fish
    assert second is not None and second.result == "false"
    assert state.false_calls == 2 and state.center == ["owl", "crown"]


def test_a_second_wrong_slap_just_after_a_wrong_slap_still_shares_the_pile() -> None:
    """Rulebook (Slap the Elephant): "If a player slaps a card that is not an elephant ... the
    exposed pile is divided equally among the other players." Two wrong slaps at one kite are
    two wrong slaps, however close together."""
    state = dealt("slap-the-elephant", [["kite", "owl"], ["fish", "crown"], ["anchor", "cactus"]])
    table = RealtimeTable(state, {}, seed=3)
    for seat in (0, 1, 2, 0, 1):
        table.press(seat, {"type": "flip"})  # kite, fish, anchor, owl, crown
    assert table.press(0, {"type": "slap"}).result == "false"  # type: ignore[union-attr]
    assert state.center == ["kite"]  # two each to B and C, one left
    table.advance(table.now + 100.0)
    second = table.press(1, {"type": "slap"})  # 100 ms later, at the kite left in the centre
    assert second is not None and second.result == "false" and state.false_calls == 2


def test_a_late_call_for_the_pair_the_last_call_took_stays_excused_after_a_wrong_call() -> None:
    """Slap: A snaps his fingers at an elephant (wrong, the pile is shared out); B's slap,
    100 ms later, was right when he made it: the second voice, dropped, no penalty."""
    state = dealt("slap-the-elephant", [["kite"], ["elephant"], ["anchor"]])
    table = RealtimeTable(state, {}, seed=3)
    for seat in (0, 1):
        table.press(seat, {"type": "flip"})
    assert table.press(0, {"type": "snap_fingers"}).result == "false"  # type: ignore[union-attr]
    table.advance(table.now + 100.0)
    out = table.press(2, {"type": "slap"})
    assert out is not None and out.result in ("too late", "stale") and state.false_calls == 1
