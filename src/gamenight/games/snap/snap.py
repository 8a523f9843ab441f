"""Snap: flip cards onto your own face-up pile; the first to call a match takes the matched piles.

Decisions (see docs/rules/snap.md): the exposed cards are the top of each face-up pile and the
top of the centre (penalty) pile; a good call takes every pile whose top matches another exposed
top, and when the centre is among them also the face-up pile of the seat that paid the centre's
top penalty card. A pack that runs out is re-formed when its owner's turn to flip comes, by a
card-by-card shuffle of his face-up pile (chance moves); nobody calls during a shuffle. While a
match shows, the shuffle waits: the pair stays callable until its owner flips, and that flip
picks his face-up pile up for the shuffle.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from pydantic import Field

from gamenight.engine import Game, register_game
from gamenight.engine.chance import Uniforms

from .deck import draw_outcomes
from .table import CARD, CardOptions, TableState


class SnapOptions(CardOptions):
    players: int = Field(default=4, description="2 to 8 players")


@register_game
class Snap(Game):
    id = "snap"
    title = "Snap"
    realtime = True
    Options = SnapOptions
    min_players = 2
    max_players = 8

    def new_state(self, seed: int | None = None) -> SnapState:
        return SnapState(self, seed)


class SnapState(TableState):
    CALLS = ("snap",)
    ACTIONS = {"flip": {}, "snap": {}}
    CHANCE_ACTIONS = {"deal": {"card": CARD}, "reshuffle": {"card": CARD}}

    def __init__(self, game: Snap, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.up: list[list[str]] = [[] for _ in range(game.players)]
        self.penalized: int | None = None  # who paid the centre's top card
        self.shuffle_pool: Counter[str] = Counter()

    def held(self, seat: int) -> int:
        return len(self.pack[seat]) + len(self.up[seat])

    # --- chance: the deal and re-forming a used-up pack ------------------------------------
    def is_chance(self) -> bool:
        if self._over:
            return False
        if self.to_deal > 0 or self.shuffle_pool:  # dealing, or a shuffle under way
            return True
        t = self.turn
        return not self.pack[t] and bool(self.up[t]) and not self.matches()

    def _needs_reshuffle(self) -> bool:
        """The seat to flip has an empty pack and nothing to call shows: the shuffle starts.

        A match showing keeps the face-up piles on the table until the seat to flip flips."""
        t = self.turn
        return not self.dealing() and not self.pack[t] and bool(self.up[t]) and not self.matches()

    def _chance_pool(self) -> tuple[Counter[str], str]:
        if self.dealing():
            return self.undealt, "deal"
        if not self.shuffle_pool:
            return Counter(self.up[self.turn]), "reshuffle"
        return self.shuffle_pool, "reshuffle"

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        pool, kind = self._chance_pool()
        return draw_outcomes(pool, kind)

    def _sample_chance(self, rng: Uniforms) -> dict[str, Any]:
        pool, kind = self._chance_pool()
        return self._sample_from(pool, kind, rng)

    def _check_chance(self, action: dict[str, Any]) -> None:
        pool, kind = self._chance_pool()
        self._check_drawn(action, pool, kind)

    # --- moves ------------------------------------------------------------------------------
    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            if self.dealing():
                self._do_deal(action["card"])
            else:
                self._do_reshuffle(action["card"])
            return
        if action["type"] == "flip":
            self._flip(seat)
        else:
            self._call(seat)

    def _do_reshuffle(self, card: str) -> None:
        t = self.turn
        if not self.shuffle_pool:  # first draw: the face-up pile is picked up
            self._pick_up(t)
        pool = self.shuffle_pool
        left = pool[card] - 1
        if left:
            pool[card] = left
        else:
            del pool[card]  # no zero counts: an empty pool is a finished shuffle
        self.pack[t].append(card)

    def _pick_up(self, seat: int) -> None:
        self.shuffle_pool = Counter(self.up[seat])
        self.up[seat] = []
        self.log(
            "{} turns over and shuffles a face-up pile of {}",
            self.seat_name(seat),
            sum(self.shuffle_pool.values()),
        )

    def _flip(self, seat: int) -> None:
        if not self.pack[seat]:  # a match kept the pile on the table; this flip picks it up
            self._pick_up(seat)
            return
        card = self.pack[seat].pop(0)
        self.up[seat].append(card)
        self.log("{} turns up {}", self.seat_name(seat), card)
        self.turn = self.next_in(seat)
        self._count_flip()

    def exposed(self) -> list[tuple[str, int | None]]:
        """Exposed cards as (card, seat); seat None is the centre pile."""
        tops: list[tuple[str, int | None]] = [(u[-1], s) for s, u in enumerate(self.up) if u]
        if self.center:
            tops.append((self.center[-1], None))
        return tops

    def matches(self) -> list[int | None]:
        """Piles (seats, None = centre) whose exposed top matches another exposed top."""
        cards = [u[-1] for u in self.up if u]
        if self.center:
            cards.append(self.center[-1])
        if len(set(cards)) == len(cards):  # the usual case: every top differs
            return []
        return [where for card, where in self.exposed() if cards.count(card) >= 2]

    def _call(self, seat: int) -> None:
        self.calls += 1
        piles = self.matches()
        if piles:
            self._take(seat, piles)
        else:
            self._penalty(seat)
        self._update_outs()

    def _take(self, seat: int, piles: list[int | None]) -> None:
        won: list[str] = []
        seats = [s for s in piles if s is not None]
        if None in piles:
            won += self.center
            self.center = []
            if self.penalized is not None and self.penalized not in seats:
                seats.append(self.penalized)
            self.penalized = None
        for s in sorted(seats):
            won += self.up[s]
            self.up[s] = []
        self.pack[seat].extend(won)
        self.log("{} calls Snap first and takes {} cards", self.seat_name(seat), len(won))

    def _penalty(self, seat: int) -> None:
        self.false_calls += 1
        source = self.pack[seat] if self.pack[seat] else self.up[seat]
        card = source.pop(0)  # top of the pack; with no pack, the oldest face-up card
        self.center.append(card)
        self.penalized = seat
        self.log(
            "{} calls Snap with no match and pays {} to the centre", self.seat_name(seat), card
        )

    def _player_view(self, seat: int) -> dict[str, Any]:
        return {"pack": len(self.pack[seat]), "face_up": list(self.up[seat])}

    def _view(self, seat: int | None) -> dict[str, Any]:
        v = super()._view(seat)
        v["penalized"] = self.penalized
        v["shuffling"] = sum(self.shuffle_pool.values())
        v["matches"] = self.matches()
        return v

    def total_cards(self) -> int:
        return super().total_cards() + sum(self.shuffle_pool.values())
