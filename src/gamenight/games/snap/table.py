"""What Snap and Slap the Elephant share: the card-by-card deal, packs, turns, outs, the flip limit.

Seat 0 sits at the dealer's left (the dealer is the last seat), so the deal and the first flip
start at seat 0 and go round in seat order (clockwise). Cards are dealt one at a time, so seats
0, 1, ... get the extra cards of an uneven deal.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from pydantic import Field

from gamenight.engine import IllegalAction, Options, State
from gamenight.engine.chance import Uniforms
from gamenight.engine.errors import MalformedAction, NotYourTurn
from gamenight.engine.schema import Str

from .deck import DECK_SIZE, GROUPS, draw_outcomes, full_deck

SORTED_GROUPS = sorted(GROUPS)  # the order in which a draw lays a pool of cards out


def flip_cap(default: int) -> Any:
    """The safety cap on flips; each game sets its default far past its measured tail
    (benchmarks/game_lengths.py)."""
    return Field(
        default=default,
        ge=1,
        le=1_000_000,
        description="flips after which a never-ending game stops (truncated); most cards wins",
    )


class CardOptions(Options):
    max_flips: int = flip_cap(20_000)


CARD = Str(max_len=20, choices=frozenset(GROUPS))


class TableState(State):
    """Packs (index 0 is the top), the deal, the turn and the end of the game."""

    CALLS: tuple[str, ...] = ()
    CHANCE_ACTIONS = {"deal": {"card": CARD}}
    VIEW_BY_SEAT = False  # no seat sees a face-down card, not even its owner

    def __init__(self, game: Any, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n = game.players
        self.pack: list[list[str]] = [[] for _ in range(n)]
        self.center: list[str] = []
        self.undealt: Counter[str] = full_deck()
        self.to_deal = DECK_SIZE  # sum(undealt.values()), kept as the deal goes
        self.deal_to = 0
        self.turn = 0
        self.out = [False] * n
        self.flips = 0
        self.calls = 0
        self.false_calls = 0
        self._winner: int | None = None
        self._over = False
        self.max_flips: int = game.options.max_flips

    # --- counting --------------------------------------------------------------------------
    def held(self, seat: int) -> int:
        """Cards a seat owns: its pack (and, in Snap, its face-up pile)."""
        return len(self.pack[seat])

    def in_seats(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    def next_in(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if not self.out[s]:
                return s
        return seat

    # --- the deal --------------------------------------------------------------------------
    def dealing(self) -> bool:
        return self.to_deal > 0

    def _deal_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        return draw_outcomes(self.undealt, "deal")

    def _check_drawn(self, action: dict[str, Any], pool: Counter[str], kind: str) -> str:
        if action.get("type") != kind:
            raise NotYourTurn(f"a {kind!r} chance move is due, not {action.get('type')!r}")
        card = action.get("card")
        if not isinstance(card, str) or pool.get(card, 0) <= 0:
            raise MalformedAction(f"a {kind!r} needs a 'card' still in the pool; got {card!r}")
        return card

    def _do_deal(self, card: str) -> None:
        self.undealt[card] -= 1
        self.to_deal -= 1
        self.pack[self.deal_to].append(card)
        self.deal_to = (self.deal_to + 1) % self.players
        if not self.dealing():
            sizes = sorted({len(p) for p in self.pack}, reverse=True)
            each = " or ".join(map(str, sizes))  # with 3 players some hold one card more
            self.log("the deal is done: {} cards each", each)

    def _sample_from(self, pool: Counter[str], kind: str, rng: Uniforms) -> dict[str, Any]:
        # card number i of the pool laid out in name order, without laying it out
        i = int(rng.random() * sum(pool.values()))
        for card in SORTED_GROUPS:
            i -= pool.get(card, 0)
            if i < 0:
                return {"type": kind, "card": card}
        raise IllegalAction("no card is left to draw")

    def _public_action(
        self, action: dict[str, Any], seat: int | None, viewer: int | None
    ) -> dict[str, Any]:
        """Cards are dealt and shuffled face down: nobody, the receiver included, sees them."""
        if seat is None:
            return {"type": action["type"]}
        return dict(action)

    # --- calls and turns -------------------------------------------------------------------
    def _count_flip(self) -> None:
        self.flips += 1
        if self.flips >= self.max_flips and not self._over:
            self._finish_by_limit()

    def _finish_by_limit(self) -> None:
        counts = [self.held(s) for s in range(self.players)]
        best = max(counts)
        leaders = [s for s, c in enumerate(counts) if c == best]
        self._over = True
        self.truncated = True
        self._winner = leaders[0] if len(leaders) == 1 else None
        self.log("the flip limit ({}) is reached: cards held {}", self.flips, counts)

    def _still_in_play(self, seat: int) -> bool:
        """A seat with no cards that still has a say in the card on the table (Slap)."""
        return False

    def _update_outs(self) -> None:
        """Seats with no cards are out; the last seat in takes the centre and wins."""
        out, pack = self.out, self.pack
        for s in range(self.players):  # an empty pack first: held() counts the pack too
            if not pack[s] and not out[s] and self.held(s) == 0 and not self._still_in_play(s):
                out[s] = True
                self.log("{} has no cards left and is out", self.seat_name(s))
        alive = out.count(False)
        if alive == 1 and not self.to_deal > 0:
            w = out.index(False)
            self._gather_all(w)
            self._over = True
            self._winner = w
            self.log("{} holds all {} cards and wins", self.seat_name(w), DECK_SIZE)
        elif alive and out[self.turn]:
            self.turn = self.next_in(self.turn)

    def _gather_all(self, seat: int) -> None:
        self.pack[seat].extend(self.center)
        self.center.clear()

    # --- protocol --------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._over

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        """+1 to the winner, -1 shared by the rest; a stopped game with a tie is 0 for all."""
        if self._winner is None:
            return [0.0] * self.players
        lose = -1.0 / (self.players - 1)
        return [1.0 if s == self._winner else lose for s in range(self.players)]

    def actors(self) -> list[int]:
        """Every seat still in may call; the seat to flip comes first, so a driver that takes
        turns (one actor at a time) still moves the game on."""
        if self._over or self.is_chance():
            return []
        t = self.turn
        if not self._call_open():
            return [t]
        out = self.out
        return [t] + [s for s in range(self.players) if s != t and not out[s]]

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self._over or self.is_chance():  # no actors: nobody may act
            return []
        if seat == self.turn:  # the seat to flip is always first among the actors
            if self._call_open():
                return [{"type": "flip"}] + [{"type": c} for c in self.CALLS]
            return [{"type": "flip"}]
        if self.out[seat] or not self._call_open():
            return []
        return [{"type": c} for c in self.CALLS]

    def _call_open(self) -> bool:
        return True

    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            self._check_chance(action)
            return
        if self.is_chance():
            raise NotYourTurn("cards are being dealt or shuffled: a chance move is due")
        kind = action["type"]
        if kind != "flip" and kind not in self.CALLS:
            known = ", ".join(("flip", *self.CALLS))
            raise MalformedAction(f"unknown action {kind!r} (known: {known})")
        if len(action) != 1:  # "type" is its only key
            raise MalformedAction(f"a {kind!r} action has no fields besides 'type'; got {action}")
        if self.out[seat]:
            raise NotYourTurn(f"seat {self.seat_name(seat)} is out of the game and may not act")
        if kind == "flip":
            if seat != self.turn:
                raise NotYourTurn(
                    f"it is {self.seat_name(self.turn)}'s turn to flip, "
                    f"not {self.seat_name(seat)}'s"
                )
        elif not self._call_open():
            raise IllegalAction(f"there is nothing on the table to {kind} at")

    def _check_chance(self, action: dict[str, Any]) -> None:
        self._check_drawn(action, self.undealt, "deal")

    def _player_view(self, seat: int) -> dict[str, Any]:
        return {"pack": len(self.pack[seat]), "face_up": []}

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Face-down cards are counted, never shown, to every seat alike (nobody sees his own)."""
        return {
            "game": self.game.id,
            "phase": "over" if self._over else ("deal" if self.dealing() else "play"),
            "turn": None if self._over else self.turn,
            "players": [self._player_view(s) for s in range(self.players)],
            "center": list(self.center),
            "undealt": self.to_deal,
            "out": list(self.out),
            "flips": self.flips,
            "winner": self._winner,
            "truncated": self.truncated,
        }

    def total_cards(self) -> int:
        v = self.view()
        return (
            v["undealt"]
            + len(v["center"])
            + sum(p["pack"] + len(p["face_up"]) for p in v["players"])
        )

    def stats(self) -> dict[str, float]:
        return {
            "flips": self.flips,
            "calls": self.calls,
            "false_calls": self.false_calls,
            "stopped": float(self.truncated),
        }
