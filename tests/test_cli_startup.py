"""``gamenight --help`` and ``gamenight list`` start without the heavy modules.

Behaviour, not timings: a fresh interpreter runs the command and reports which modules got
imported; none of the heavy ones may be among them (``benchmarks/cli_startup.py`` measures
the time itself).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = (
    "textual",  # the terminal tables
    "numpy",
    "pydantic",  # the engine's option and record validation
    "gamenight.games",  # every rulebook
    "gamenight.engine.game",
    "rich.progress",
    "rich.markdown",
    "markdown_it",
)

PROBE = """
import json, sys
from gamenight.cli import app
try:
    app(sys.argv[1:], prog_name="gamenight")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--help"], ["list"], [], ["play", "--help"]])
def test_starting_up_imports_nothing_heavy(argv: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    )
    *said, last = run.stderr.strip().splitlines()
    modules = json.loads(last)
    loaded = [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == [], f"gamenight {' '.join(argv)} imported {loaded}"
    assert "gamenight" in run.stdout + "\n".join(said)  # it did print its help or the games


def test_the_lazy_package_still_offers_every_public_name() -> None:
    import gamenight
    import gamenight.engine as engine

    for name in gamenight.__all__:
        assert getattr(gamenight, name) is getattr(engine, name)
    with pytest.raises(AttributeError):
        gamenight.no_such_name  # noqa: B018


def test_python_dash_m_knows_every_command() -> None:
    """``python -m gamenight.cli`` runs the app once every command is defined (tournament last)."""
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-m", "gamenight.cli", "tournament", "--help"],
                         capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
