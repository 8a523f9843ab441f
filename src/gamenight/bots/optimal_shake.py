"""A Shake player that maximises its chance to win a two-player game (not its points).

It reads the tables of the exact solver (``solvers.shake``): a dynamic programme over rounds
and the lead in which both players take, shake and stop so as to win. With more than two
players that programme does not apply, and the bot plays as the sensible ``ShakeBot``. Needs
Numba.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamenight.engine import State
from gamenight.solvers import shake as solver
from gamenight.solvers.shake_dp import follower, follower_start, leader_turn, shake_turn

from .shake_bot import ShakeBot


class OptimalShakeBot:
    """Win-probability-optimal Shake for two players; the sensible bot otherwise."""

    def __init__(self, seed: int | None = None) -> None:
        self.fallback = ShakeBot(seed)

    def act(self, state: State, seat: int) -> dict[str, Any]:
        if state.players != 2:
            return self.fallback.act(state, seat)
        opts: Any = state.game.options
        rounds, k = opts.rounds, opts.scoring_faces
        w, sv = solver.win_tables(rounds, k)
        p = solver.hits_law(k)
        lead_max, cap = solver.LEAD, solver.CAP
        view = state.view(seat)
        me, them = view["players"][seat], view["players"][1 - seat]
        lead = (me["total"] - them["total"]) // 10
        phase = view["phase"]

        def at(row: Any, x: int, pad: int = 0) -> float:
            return float(row[min(max(x, -lead_max - pad), lead_max + pad) + lead_max + pad])

        if phase == "order":
            v = self._follower(k)
            first = leader_turn(0, v, p, cap)[0] > 0.5
            return {"type": "order", "seats": [seat, 1 - seat] if first else [1 - seat, seat]}
        if phase == "choose":
            r = view["round"] - 1
            a, b = view["rolled"][seat], view["rolled"][1 - seat]
            shake = at(sv[r], lead - b, 6)
            if len(view["choosing_order"]) == 2:  # I choose first
                take = min(at(w[r + 1], lead + a - b), 1.0 - at(sv[r], -(lead + a), 6))
            else:  # they took; ``lead`` already counts their die
                shake = at(sv[r], lead, 6)
                take = at(w[r + 1], lead + a)
            return {"type": "shake" if shake > take else "take"}
        if phase == "shaken":
            i = view["shake_points"] // 10
            if i >= cap:
                return {"type": "stop"}
            if view["all_shake_round"]:
                return {"type": "shake" if self._races_on(view, seat, i, k) else "stop"}
            r = view["round"] - 1
            t = shake_turn(lead, w[r + 1], lead_max, p, cap)
            cont = p[0] * at(w[r + 1], lead) + float(p[1:] @ t[i + 1 : i + 7])
            return {"type": "shake" if cont > at(w[r + 1], lead + i) else "stop"}
        return state.legal_actions(seat)[0]

    def _races_on(self, view: dict[str, Any], seat: int, i: int, k: int) -> bool:
        p = solver.hits_law(k)
        v = self._follower(k)
        players = view["players"]
        if view["all_shake_order"][0] == seat:  # I shake first: the other answers my total
            lead = (players[seat]["total"] - players[1 - seat]["total"]) // 10
            u = leader_turn(lead, v, p, solver.CAP)
            cont = p[0] * (1.0 - follower_start(v, p, lead)) + float(p[1:] @ u[i + 1 : i + 7])
            return bool(cont > 1.0 - follower_start(v, p, lead + i))
        gap = (players[1 - seat]["total"] - players[seat]["total"]) // 10 - i
        if gap < 0:
            return False
        return gap > 0 or 1.0 - p[0] > 0.5

    @staticmethod
    @cache
    def _follower(k: int) -> Any:
        p = solver.hits_law(k)
        return follower(p, solver.LEAD + solver.CAP + 7)
