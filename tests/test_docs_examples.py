"""The docs' examples stay true: every Python block of the README and docs/ runs, and the
records that docs/records.md shows are what the engine writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import gamenight

ROOT = Path(__file__).parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "rules").glob("*.md")),
]


def blocks(page: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", page.read_text(), re.S)


PYTHON = [
    pytest.param(code, id=f"{page.name}-{i}")
    for page in PAGES
    for i, code in enumerate(blocks(page, "python"))
]


def test_the_docs_hold_python_examples() -> None:
    names = {p.id.split("-")[0] for p in PYTHON}  # type: ignore[union-attr]
    assert {"README.md", "gambler.md", "rl.md"} <= names, names


@pytest.mark.parametrize("code", PYTHON)
def test_docs_python_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as a reader would, from the repository root (gambler.md once named options that
    new_game refused as unknown)."""
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<docs example>", "exec"), {"__name__": "docs_example"})


def test_records_page_full_record_replays_to_itself() -> None:
    full = json.loads(blocks(ROOT / "docs" / "records.md", "json")[0])
    assert gamenight.replay(full).record() == full


def test_records_page_public_record_has_the_real_shape() -> None:
    shown = json.loads(blocks(ROOT / "docs" / "records.md", "json")[1])
    state = gamenight.new_game(shown["game"], **shown["options"]).new_state(seed=1)
    while state.is_chance():  # the deal
        state.sample_chance()
    first = state.actors()[0]
    state.apply({"type": "flip"}, first)
    real = state.public_record(shown["viewer"])
    assert real.keys() == shown.keys() and "seed" not in real
    assert real["options"] == shown["options"]
    assert real["moves"][0] == shown["moves"][0]  # a deal, its card hidden
    assert real["moves"][-1] == shown["moves"][-1]  # then A's flip
    assert sum(m["action"]["type"] == "deal" for m in real["moves"]) == 52


@pytest.mark.parametrize("game", gamenight.list_games())
def test_every_option_is_named_on_its_rules_page(game: str) -> None:
    """gambler.md named board_file, fortune_file, ... and never the options the game takes."""
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    for name in gamenight.new_game(game).options_dict():
        assert f"`{name}`" in page, f"docs/rules/{game}.md never names the option {name!r}"
