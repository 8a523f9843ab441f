"""A replayed game told in names and numbers: who won, each seat's standing, how it ended.

Used by ``gamenight replay``; reads only the public protocol (``view``, ``returns``, ``winner``).
"""

from __future__ import annotations

from typing import Any

from gamenight.engine import State

# view["players"][seat] key -> the column it makes, per game shape
SEAT_FIGURES = (("chips", "chips"), ("total", "points"), ("cash", "cash $"))


def seat_figures(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The figures a player cares about for ``seat``: chips, points, cash, cards or bankroll."""
    if "bankrolls" in view:  # the casino table; chips still on the layout are the seat's too
        on = sum(w["amount"] for w in view.get("layout", []) if w["seat"] == seat)
        return {"bankroll": view["bankrolls"][seat], "on layout": on}
    p = view.get("players", [{}])[seat]
    out = {col: p[key] for key, col in SEAT_FIGURES if key in p}
    if "pack" in p:  # Snap and Slap the Elephant: the cards a seat holds
        out["cards"] = p["pack"] + len(p.get("face_up", []))
    return out


def summarise(state: State) -> dict[str, Any]:
    """JSON-ready summary of ``state``: names, standings, winner and one readable sentence."""
    view = state.view()
    record = state.record()
    n = state.players
    names = [state.seat_name(s) for s in range(n)]
    over = state.is_terminal()
    winner = state.winner()
    # a game under way has no result yet: 0.0 read as "broke even" beside a seat's 48 chips
    returns: list[float | None] = list(state.returns()) if over else [None] * n
    rows = [
        {"seat": s, "name": names[s], **seat_figures(view, s), "result": returns[s]}
        for s in range(n)
    ]
    figure_names = [k for k in rows[0] if k not in ("seat", "name")] if rows else []
    if not over:
        sentence = f"Game in progress after {len(state.moves)} moves."
    elif winner is not None:
        sentence = f"{names[winner]} won after {len(state.moves)} moves."
    elif "bankrolls" in view:
        best = max(range(n), key=lambda s: view["bankrolls"][s])
        sentence = (
            f"Session over after {len(state.moves)} moves; "
            f"{names[best]} ended with the biggest bankroll ({view['bankrolls'][best]:,})."
        )
    else:
        sentence = f"Game over after {len(state.moves)} moves: no single winner."
    return {
        "game": state.game.id,
        "title": state.game.title,
        "players": n,
        "seed": record.get("seed"),
        "options": record["options"],
        "moves": len(state.moves),
        "terminal": over,
        "winner": winner,
        "winner_name": names[winner] if winner is not None else None,
        "names": names,
        "figure_names": figure_names,
        "standings": rows,
        "summary": sentence,
    }
