"""Fixed deals for Snap and Slap scenarios: choose the top cards of each pack, the rest follow."""

from __future__ import annotations

from collections import Counter

import gamenight
from gamenight.games.snap.deck import full_deck
from gamenight.games.snap.table import TableState


def dealt(game_id: str, tops: list[list[str]], **options: object) -> TableState:
    """A state just after the deal, where seat s's pack starts with ``tops[s]`` (top first)."""
    n = len(tops)
    state = gamenight.new_game(game_id, players=n, **options).new_state(seed=0)
    assert isinstance(state, TableState)
    left: Counter[str] = full_deck()
    for t in tops:
        left.subtract(t)
    assert all(v >= 0 for v in left.values()), "tops use more copies than the deck has"
    filler = sorted(left.elements())
    sizes = [52 // n + (1 if s < 52 % n else 0) for s in range(n)]
    packs = [list(t) for t in tops]
    for s in range(n):
        while len(packs[s]) < sizes[s]:
            packs[s].append(filler.pop())
    for i in range(max(sizes)):
        for s in range(n):
            if i < len(packs[s]):
                state.apply({"type": "deal", "card": packs[s][i]})
    assert not state.is_chance()
    assert [p[: len(t)] for p, t in zip(state.pack, tops, strict=True)] == tops
    return state
