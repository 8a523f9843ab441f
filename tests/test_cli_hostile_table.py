"""A casino table file is JSON a user got from anyone: whatever it holds, the CLI answers with
one line naming the problem (exit 2), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import gamenight
from gamenight import GamenightError
from gamenight.cli import app
from gamenight.games.casino_options import table_settings

runner = CliRunner()

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=10,
)
SETTING = st.sampled_from(
    ["players", "bankroll", "table_min", "table_max", "max_rolls", "dice", "payouts", "live"]
)
TEXTS = (
    st.dictionaries(SETTING, JSON, max_size=4).map(json.dumps)
    | JSON.map(json.dumps)
    | st.sampled_from(
        [
            '{"bankroll": ' + "9" * 5000 + "}",
            '{"players": ' + "9" * 5000 + "}",
            '{"players": ' + "9" * 4000 + "}",
            '{"payouts": {"hard6": ' + "1" * 4400 + "}}",
            '{"bankroll": NaN}',
            '{"table_max": -Infinity}',
            "[" * 5000,
        ]
    )
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=TEXTS)
def test_any_table_file_is_settings_or_a_typed_error(text: str) -> None:
    try:
        options = table_settings(text)
        options.pop("live", None)
        gamenight.new_game("snake-eyes-casino", **options)
    except GamenightError as e:
        assert len(str(e)) < 1000, str(e)[:200]


@pytest.mark.parametrize(
    "text",
    ['{"bankroll": ' + "9" * 5000 + "}", '{"players": ' + "9" * 4000 + "}", '{"dice": NaN}'],
)
def test_a_table_file_with_a_huge_number_is_one_line_of_error(tmp_path: Path, text: str) -> None:
    table = tmp_path / "table.json"
    table.write_text(text)
    for args in (["simulate", "snake-eyes-casino", "--games", "5"], ["odds", "snake-eyes-casino"]):
        result: Any = runner.invoke(app, [*args, "--table", str(table)])
        assert result.exit_code == 2, (args, result.output[-500:])
        assert "error:" in result.output and "Traceback" not in result.output, result.output[-500:]
        assert len(result.output) < 1000
