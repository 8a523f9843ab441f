"""Each table at 80x24 as an SVG screenshot, compared with the one saved in tests/snapshots/.

A table that grows past 80x24, clips a panel or shows stray markup changes its picture, and the
test fails with both pictures on disk to compare. After a deliberate change of a table, write
the new pictures with ``GAMENIGHT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_tui_snapshots.py``
and look at them before committing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tui_tables import SIZE, TABLES, human_key, screen_text

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("GAMENIGHT_UPDATE_SNAPSHOTS") == "1"


async def settle(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """Let bots and dice play until the human in seat A must press a key (or the game ends)."""
    for _ in range(2000):
        await pilot.pause()
        if app.state.is_terminal() or human_key(app) is not None or hasattr(app, "clock"):
            return
    raise AssertionError("the table never waited for the human")


@pytest.mark.parametrize("game_id", sorted(TABLES))
async def test_table_matches_its_saved_screenshot(game_id: str, tmp_path: Path) -> None:
    app = TABLES[game_id](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(3):  # a few of the human's own moves, so the table is in play
            key = human_key(app)
            if key is None:
                break
            await pilot.press(key)
            await settle(app, pilot)
        if hasattr(app, "clock"):  # the real-time table: turn a few cards on the test's clock
            await pilot.press("f")
            for _ in range(4):
                app.clock.ms += 1000
                app.tick()
            await pilot.pause()
        text = screen_text(app)
        svg = app.export_screenshot()
    assert not re.search(r"\[/?(red|bold|b|dim|green)\]", text), "literal markup on screen"
    saved = SNAPSHOTS / f"{game_id}.svg"
    if UPDATE or not saved.exists():
        if not UPDATE:
            pytest.fail(f"no saved screenshot {saved}: run with GAMENIGHT_UPDATE_SNAPSHOTS=1")
        SNAPSHOTS.mkdir(exist_ok=True)
        saved.write_text(svg)
        (SNAPSHOTS / f"{game_id}.txt").write_text(text)
    if svg != saved.read_text():
        actual = tmp_path / f"{game_id}.svg"
        actual.write_text(svg)
        was = (SNAPSHOTS / f"{game_id}.txt").read_text()
        pytest.fail(f"{game_id} looks different: compare {actual} with {saved}\n"
                    f"--- saved\n{was}\n--- now\n{text}")  # fmt: skip
