"""Snake Eyes, the home kitty game: turn cards #2-#12 (no #7) face down by throwing their totals.

Nothing in Snake Eyes is a player's choice: every move is a throw of two dice, a chance move.
Front ends let a human press a key to throw; a live table enters physical dice instead.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from pydantic import Field

from gamenight.engine import Game, IllegalAction, Options, State, register_game
from gamenight.engine.chance import Uniforms, check_faces, dice_outcomes
from gamenight.engine.errors import BadOption, ClashingOptions, MalformedAction, NotYourTurn
from gamenight.engine.ledger import Ledger
from gamenight.engine.schema import IntList

CARDS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
SEVEN_FINE = 2  # chips a 7 costs
MISS_FINE = 1  # chips a throw of a face-down number costs
FAILED_PASS_FINE = 2  # chips three failed chances after a complete pass cost
SNAKE_EYES_BONUS = 2  # chips drawn for throwing Snake Eyes on a face-up #2
SNAKE_EYES_PASS_DRAW = 1  # chips drawn for Snake Eyes on a face-down #2
CHANCES = 3  # throws the original thrower gets after a complete pass
# The 36 ordered throws as shared, read-only actions: a draw hands one out, nothing is built.
THROWS = tuple({"type": "dice", "faces": [a, b]} for a in range(1, 7) for b in range(1, 7))
UP = [t in CARDS for t in range(13)]  # a seat's cards at the start: UP[total], all face up


class SnakeEyesOptions(Options):
    players: int = Field(default=4, description="2 to 8 players")
    starting_chips: int = Field(default=50, ge=2, le=1_000_000, description="chips before the ante")
    ante: int = Field(default=2, ge=0, le=1_000, description="chips each player puts in the kitty")
    first_player: int | None = Field(
        default=None, ge=0, le=7, description="seat that throws first; none: throw for high dice"
    )


@register_game
class SnakeEyes(Game):
    id = "snake-eyes"
    title = "Snake Eyes"
    Options = SnakeEyesOptions
    min_players = 2
    max_players = 8

    options: SnakeEyesOptions

    def validate(self) -> None:
        opts = self.options
        if opts.ante > opts.starting_chips:  # a clash of two options: named as both, not one
            raise ClashingOptions(
                self.id,
                ("ante", "starting_chips"),
                f"ante {opts.ante} is more than starting_chips {opts.starting_chips}",
            )
        fp = opts.first_player
        if fp is not None and not 0 <= fp < self.players:
            raise BadOption(self.id, "first_player", f"no seat {fp} among {self.players} players")

    def new_state(self, seed: int | None = None) -> SnakeEyesState:
        return SnakeEyesState(self, seed)

    @cached_property
    def seat_labels(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Each seat's purse and letter, worked out once for every state of this game."""
        n = self.players
        return tuple(f"seat{i}" for i in range(n)), tuple(chr(ord("A") + i) for i in range(n))


class SnakeEyesState(State):
    game: SnakeEyes

    VIEW_BY_SEAT = False  # nothing is hidden
    ACTIONS: ClassVar[dict[str, dict[str, IntList]]] = {}  # every move is a throw: no choices
    CHANCE_ACTIONS = {"dice": {"faces": IntList(2, 2, 1, 6)}}

    def __init__(self, game: SnakeEyes, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n, opts = game.players, game.options
        self.purse, self.names = game.seat_labels  # read-only, shared by the game's states
        self.ledger = Ledger({**{p: opts.starting_chips for p in self.purse}, "kitty": 0})
        for seat in range(n):
            self.ledger.transfer(self.purse[seat], "kitty", opts.ante)
        self.up = [UP.copy() for _ in range(n)]  # up[seat][total]
        self.up_count = [len(CARDS)] * n
        self.thrower = 0
        self.chances_left = 0  # > 0 while the thrower uses the chances of a complete pass
        self._winner: int | None = None
        self.throws = 0
        self.kitty_won = 0
        self.last_throw: list[int] | None = None
        # The throw for first player: seats still contending, and this round's totals.
        self.contenders: list[int] = []
        self.start_totals: dict[int, int] = {}
        if opts.first_player is None:
            self.contenders = list(range(n))
            self.log("Players throw for high dice to decide who throws first.")
        else:
            self.thrower = opts.first_player
            self.log("{} throws first.", self.seat_name(self.thrower))

    # --- protocol --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._winner is not None

    def is_chance(self) -> bool:
        return self._winner is None

    def actors(self) -> list[int]:
        return []

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return []

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        """Net chips won or lost by each seat against what it sat down with."""
        start = self.game.options.starting_chips
        return [float(self.ledger[p] - start) for p in self.purse]

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        return dice_outcomes(2)

    def _sample_chance(self, rng: Uniforms) -> dict[str, Any]:
        return THROWS[int(rng.random() * 36)]

    @property
    def throwing_seat(self) -> int:
        """Who holds the dice now (in the throw for first player too)."""
        if self.contenders:
            return self.contenders[len(self.start_totals)]
        return self.thrower

    def _check(self, action: dict[str, Any], seat: int | None) -> None:
        if seat is not None:
            raise NotYourTurn(
                "in Snake Eyes every move is a throw of the dice: apply it as chance (seat None)"
            )
        if action["type"] != "dice":
            raise MalformedAction(f"Snake Eyes knows only 'dice' actions, not {action['type']!r}")
        check_faces(action, 2)
        if set(action) != {"type", "faces"}:
            raise MalformedAction(f"unexpected fields in {action!r}")

    def _do(self, action: dict[str, Any], seat: int | None) -> None:
        faces = action["faces"]
        self.last_throw = faces
        total = faces[0] + faces[1]
        if self.contenders:
            self._start_throw(total)
            return
        self.throws += 1
        thrower = self.thrower
        name = self.names[thrower]
        events = self._events  # self.log, inline on the path every throw takes
        events.append(("{} throws {} ({}+{}).", name, total, faces[0], faces[1]))
        if total == 7:  # _pay and _pass_left, inline: a sixth of all throws
            paid = self.ledger.pay_what_you_can(self.purse[thrower], "kitty", SEVEN_FINE)
            events.append(("{} puts {} chip(s) in the kitty ({}).", name, paid, "threw 7"))
            self.chances_left = 0
            left = self.thrower = (thrower + 1) % self.players
            events.append(("Dice pass to {}.", self.names[left]))
        elif self.up[thrower][total]:
            self.chances_left = 0
            self._turn_down(thrower, total)
            if total == 2 and self._winner is None:
                self._draw(thrower, SNAKE_EYES_BONUS, "Snake Eyes bonus")
        elif self.chances_left:
            self.chances_left -= 1
            if self.chances_left == 0:
                self.log("{} has failed all three chances.", self.seat_name(thrower))
                self._pay(thrower, FAILED_PASS_FINE, "three failed chances")
                self._pass_left(thrower)
            else:
                self.log("#{} is face down: {} chance(s) left.", total, self.chances_left)
        else:
            if total == 2:
                self._draw(thrower, SNAKE_EYES_PASS_DRAW, "Snake Eyes on a face-down #2")
            else:
                self._pay(thrower, MISS_FINE, f"#{total} already face down")
            self._pass_card(thrower, total)

    # --- rules -----------------------------------------------------------------------------------
    def _start_throw(self, total: int) -> None:
        seat = self.contenders[len(self.start_totals)]
        self.start_totals[seat] = total
        self.log("{} throws {} for first player.", self.seat_name(seat), total)
        if len(self.start_totals) < len(self.contenders):
            return
        best = max(self.start_totals.values())
        top = [s for s in self.contenders if self.start_totals[s] == best]
        self.start_totals = {}
        if len(top) > 1:
            self.contenders = top
            self.log("Tie at {}: {} throw again.", best, ", ".join(map(self.seat_name, top)))
        else:
            self.contenders = []
            self.thrower = top[0]
            self.log("{} threw highest and throws first.", self.seat_name(top[0]))

    def _turn_down(self, seat: int, card: int) -> None:
        self.up[seat][card] = False
        left = self.up_count[seat] = self.up_count[seat] - 1
        self._events.append(("{} turns #{} face down.", self.names[seat], card))  # self.log
        if left == 0:
            self._winner = seat
            won = self.ledger.transfer("kitty", self.purse[seat], self.ledger["kitty"])
            self.kitty_won = won
            self.log(
                "{} has turned every card down, wins and takes the kitty of {}.",
                self.seat_name(seat),
                won,
            )

    def _pass_card(self, thrower: int, card: int) -> None:
        """Pass the dice to the nearest seat on the left with ``card`` face up."""
        n = self.players
        for step in range(1, n):
            seat = (thrower + step) % n
            if self.up[seat][card]:
                self.thrower = seat
                self._events.append(
                    ("Dice pass to {}, who has #{} face up.", self.names[seat], card)
                )
                self._turn_down(seat, card)
                return
        self.chances_left = CHANCES
        self.log("Complete pass: the dice return to {} for three chances.", self.seat_name(thrower))

    def _pass_left(self, seat: int) -> None:
        self.chances_left = 0
        self.thrower = (seat + 1) % self.players
        self.log("Dice pass to {}.", self.names[self.thrower])

    def _pay(self, seat: int, chips: int, why: str) -> None:
        paid = self.ledger.pay_what_you_can(self.purse[seat], "kitty", chips)
        self._events.append(("{} puts {} chip(s) in the kitty ({}).", self.names[seat], paid, why))

    def _draw(self, seat: int, chips: int, why: str) -> None:
        got = self.ledger.pay_what_you_can("kitty", self.purse[seat], chips)
        self.log("{} draws {} chip(s) from the kitty ({}).", self.names[seat], got, why)

    # --- views -----------------------------------------------------------------------------------
    def face_up(self, seat: int) -> list[int]:
        return [c for c in CARDS if self.up[seat][c]]

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Snake Eyes hides nothing: every seat sees the whole table."""
        return {
            "game": self.game.id,
            "phase": "over"
            if self._winner is not None
            else ("first-player" if self.contenders else "play"),
            "kitty": self.ledger["kitty"],
            "thrower": self.throwing_seat if self._winner is None else None,
            "winner": self._winner,
            "chances_left": self.chances_left,
            "last_throw": list(self.last_throw) if self.last_throw else None,
            "contenders": list(self.contenders),
            "start_totals": {str(s): t for s, t in self.start_totals.items()},
            "players": [
                {"chips": self.ledger[self.purse[s]], "face_up": self.face_up(s)}
                for s in range(self.players)
            ],
        }

    def stats(self) -> dict[str, float]:
        return {"throws": self.throws, "kitty": self.kitty_won}


__all__ = ["CARDS", "SnakeEyes", "SnakeEyesState", "IllegalAction"]
