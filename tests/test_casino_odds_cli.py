"""`gamenight odds snake-eyes-casino`: exact fractions as JSON, a table's own settings, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gamenight.cli import app

runner = CliRunner()


def test_odds_json_lists_every_wager_and_option() -> None:
    out = runner.invoke(app, ["odds", "snake-eyes-casino", "--json"])
    assert out.exit_code == 0
    rows = json.loads(out.stdout)["wagers"]
    assert {
        "wager": "hard4",
        "pays": "7:1",
        "win": "1/9",
        "lose": "8/9",
        "house_edge": "1/9",
    }.items() <= rows[0].items()
    assert [r["pays"] for r in rows if r["wager"] == "field"] == [
        "option-1",
        "option-2",
        "option-3",
    ]
    assert len(rows) == 27


def test_odds_for_one_tables_settings(tmp_path: Path) -> None:
    f = tmp_path / "table.json"
    f.write_text(json.dumps({"payouts": {"craps2": "30:1"}}))
    out = runner.invoke(app, ["odds", "snake-eyes-casino", "--json", "--table", str(f)])
    table = json.loads(out.stdout)["table"]["wagers"]
    assert {r["wager"]: r["pays"] for r in table}["craps2"] == "30:1"
    assert len(table) == 15


def test_odds_rich_table_and_errors(tmp_path: Path) -> None:
    assert "house edge" in runner.invoke(app, ["odds", "snake-eyes-casino"]).stdout
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"payouts": {"hard6": "7:1"}}))
    bad = runner.invoke(app, ["odds", "snake-eyes-casino", "--table", str(f)])
    assert bad.exit_code == 2 and "rule 4.9 allows" in bad.stderr
    assert runner.invoke(app, ["odds", "gambler"]).exit_code == 2


def test_risk_of_ruin_reads_the_tables_buy_in_minimum_and_length(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"bankroll": 200, "table_min": 10, "max_rolls": 50}))
    args = ["odds", "snake-eyes-casino", "--strategy", "numbers", "--json"]
    from_table = json.loads(runner.invoke(app, [*args, "--table", str(table)]).stdout)["risk"]
    assert (from_table["bankroll"], from_table["unit"], from_table["max_rolls"]) == (200, 10, 50)
    given = [*args, "--bankroll", "200", "--unit", "10", "--rolls", "50"]
    assert json.loads(runner.invoke(app, given).stdout)["risk"] == from_table
    told = runner.invoke(app, [*args, "--table", str(table), "--rolls", "60"])
    assert json.loads(told.stdout)["risk"]["max_rolls"] == 60  # an option beats the table


def test_ctrl_c_during_a_long_risk_of_ruin_ends_it_without_a_traceback() -> None:
    """A 10,000-roll chain runs for a minute or more: Ctrl-C (a real SIGINT, which lands in the
    Numba chain once it runs) stops it with a line and exit code 130."""
    import signal
    import subprocess
    import sys
    import time

    args = ["odds", "snake-eyes-casino", "--strategy", "every_area", "--rolls", "10000"]
    code = "import sys; from gamenight.cli import app; sys.argv[0] = 'gamenight'; app()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    time.sleep(8)  # imports, the chain's build (cached) and into its rolls
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in out and "Traceback" not in err, (out, err)
