"""The action catalogues as Markdown tables, kept in docs/rl.md between two markers.

``python -m gamenight.rl.catalogue docs/rl.md`` rewrites the block; a test checks it is current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import gamenight
from gamenight.engine import new_game

from .encoding import encoding

BEGIN = "<!-- catalogue: begin (python -m gamenight.rl.catalogue docs/rl.md) -->"
END = "<!-- catalogue: end -->"


def markdown(players: int = 2) -> str:
    """Every game's catalogue at ``players`` seats: index and engine action."""
    parts = []
    for game_id in gamenight.list_games():
        actions = encoding(new_game(game_id, players=players)).actions
        parts.append(f"#### {game_id} ({len(actions)} actions at {players} players)\n")
        parts.append("| index | action |\n|---:|---|")
        parts += [f"| {i} | `{json.dumps(a)}` |" for i, a in enumerate(actions)]
        parts.append("")
    return "\n".join(parts)


def block() -> str:
    return f"{BEGIN}\n{markdown()}{END}"


def rewrite(path: Path) -> bool:
    """Replace the block in ``path``; True if it changed."""
    text = path.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = head + block() + tail
    path.write_text(new)
    return new != text


if __name__ == "__main__":
    rewrite(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rl.md"))
