"""Slap the Elephant: one centre pile; slap an elephant, snap your fingers at a mouse.

Decisions (see docs/rules/slap-the-elephant.md): a seat whose pack is empty stays in while the
card he played last lies on top of the centre (all players, him included, may still slap or snap
at it), and is out once it is taken or covered; a wrong reaction hands the pile out from the
top, one card at a time round the other seats from the offender's left, as many whole rounds as
go evenly, and the leftover cards (fewer than the number of other seats) stay in the centre
under the next card played. Reactions are open only
while the centre holds cards.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field

from gamenight.engine import Game, register_game
from gamenight.engine.chance import Uniforms

from .deck import ELEPHANT, MOUSE
from .table import CardOptions, TableState, flip_cap

TARGET = {"slap": ELEPHANT, "snap_fingers": MOUSE}
VERB = {"slap": "slaps", "snap_fingers": "snaps their fingers"}  # as the log says it


class SlapOptions(CardOptions):
    players: int = Field(default=3, description="2 to 4 players")
    max_flips: int = flip_cap(200_000)  # random play: longest of ~30,000 games 15,903 flips


@register_game
class SlapTheElephant(Game):
    id = "slap-the-elephant"
    title = "Slap the Elephant"
    realtime = True
    Options = SlapOptions
    min_players = 2
    max_players = 4

    def new_state(self, seed: int | None = None) -> SlapState:
        return SlapState(self, seed)


class SlapState(TableState):
    CALLS = ("slap", "snap_fingers")
    ACTIONS = {"flip": {}, "slap": {}, "snap_fingers": {}}

    def __init__(self, game: SlapTheElephant, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.top_by: int | None = None  # who played the centre's top card

    def _still_in_play(self, seat: int) -> bool:
        """All players try to slap an elephant: one whose last card lies on top of the centre
        may still win the pile back with it."""
        return seat == self.top_by and bool(self.center)

    def is_chance(self) -> bool:
        return not self._over and self.to_deal > 0

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        return self._deal_outcomes()

    def _sample_chance(self, rng: Uniforms) -> dict[str, Any]:
        return self._sample_from(self.undealt, "deal", rng)

    def _call_open(self) -> bool:
        return bool(self.center)

    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            self._do_deal(action["card"])
            return
        kind = action["type"]
        if kind == "flip":
            card = self.pack[seat].pop(0)
            self.center.append(card)
            self.top_by = seat
            self.log("{} plays {}", self.seat_name(seat), card)
            self.turn = self.next_in(seat)
            self._update_outs()
            if not self._over:
                self._count_flip()
            return
        self.calls += 1
        if self.center[-1] == TARGET[kind]:
            won = len(self.center)
            self.pack[seat].extend(self.center)
            self.center = []
            self.turn = seat
            self.log(
                "{} {} first at the {} and takes {} card{}",
                self.seat_name(seat),
                VERB[kind],
                TARGET[kind],
                won,
                "" if won == 1 else "s",
            )
        else:
            self.false_calls += 1
            self._divide(seat, kind)
        self._update_outs()

    def _divide(self, offender: int, kind: str) -> None:
        n, out, pack, center = self.players, self.out, self.pack, self.center
        # the seats still in, round from the offender's left
        others = [s % n for s in range(offender + 1, offender + n) if not out[s % n]]
        top = center[-1]
        rounds = len(center) // len(others)
        if rounds:
            self.top_by = None  # the top card is handed out; what is left is older
            for _ in range(rounds):
                for s in others:
                    pack[s].append(center.pop())
        names = [self.seat_name(s) for s in others]
        to = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        shared = f"{rounds} card{'' if rounds == 1 else 's'} each to {to}" if rounds else (
            "too few cards to share"
        )  # fmt: skip
        self.log(
            "{} wrongly {} at {} {}: {}; {} left in the centre",
            self.seat_name(offender),
            VERB[kind],
            "an" if top[0] in "aeiou" else "a",
            top,
            shared,
            len(center),
        )
