"""A discrete-event table: bots and humans send flips and calls; the earliest arrival is applied.

Time is simulated milliseconds. A bot that sees something to call schedules its call at
now + its reaction time; a call that arrives after another call has already changed the table
(the pile it saw was taken, or a penalty was paid) is *too late* and is dropped, not punished:
at a real table that is the second voice shouting after the first. Flips come at a fixed tempo.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from typing import Any

import gamenight
from gamenight.engine import BadOption, State
from gamenight.engine.errors import MalformedAction, describe
from gamenight.games.snap.deck import ELEPHANT, MOUSE

from .reaction import Level, level, reaction_ms

TEMPO_MS = 900.0  # a card turned up every 0.9 s
_INF = float("inf")


def _level(name: str) -> Level:
    try:
        return level(name)
    except ValueError as e:
        raise BadOption("realtime", "bots", str(e)) from None


def correct_call(state: Any) -> dict[str, Any] | None:
    """The call that would win now, if any (the bots' eyes; humans use their own)."""
    if state.game.id == "snap":
        return {"type": "snap"} if state.matches() else None
    if state.center:
        top = state.center[-1]
        if top == ELEPHANT:
            return {"type": "slap"}
        if top == MOUSE:
            return {"type": "snap_fingers"}
    return None


@dataclass
class Outcome:
    """What happened to one arrival, for the log and the terminal table."""

    t: float
    seat: int
    action: dict[str, Any]
    result: str  # "flip", "good", "false", "too late", "stale"
    text: str


class RealtimeTable:
    """Orders arrivals from humans and bots on one simulated clock."""

    def __init__(
        self,
        state: State,
        bots: dict[int, Level | str],
        seed: int | None = None,
        tempo_ms: float = TEMPO_MS,
        auto_flip_humans: bool = False,
    ) -> None:
        self.state: Any = state
        for s in bots:
            state.legal_actions(s)  # a bot's seat must be a seat at this table
        self.bots = {s: (_level(v) if isinstance(v, str) else v) for s, v in bots.items()}
        if not all(isinstance(v, Level) for v in self.bots.values()):
            raise BadOption(state.game.id, "bots", "each bot is a level name or a Level")
        if type(seed) not in (int, type(None)):
            raise BadOption(state.game.id, "seed", f"a whole number or None; got {describe(seed)}")
        if type(tempo_ms) not in (int, float) or not 1.0 <= tempo_ms <= 3_600_000.0:
            raise BadOption(state.game.id, "tempo_ms", "from 1 ms to an hour")
        self.rng = random.Random(seed)
        self.tempo = float(tempo_ms)
        self.auto_flip_humans = auto_flip_humans
        self.now = 0.0
        self._queue: list[tuple[float, int, int, dict[str, Any], int]] = []
        self._seq = 0
        self._pending: dict[int, int] = {}  # seat -> calls-epoch of its scheduled call
        self._flip_due: int | None = None  # moves count when a flip was scheduled
        self.outcomes: list[Outcome] = []
        self._settle()

    # --- input ------------------------------------------------------------------------------
    def press(self, seat: int, action: dict[str, Any]) -> Outcome | None:
        """A human's key press arrives now; a bad seat or a malformed action is refused (typed
        error) before it is queued, and what is queued is a private copy."""
        self.state.legal_actions(seat)  # NotYourTurn / MalformedAction for a bad seat
        action = self.state.parse_action(action, seat)
        self._push(self.now, seat, action)
        return self._run_due(self.now)

    def advance(self, until: float) -> list[Outcome]:
        """Process every arrival up to time ``until`` (ms); returns what happened."""
        if type(until) not in (int, float) or not until == until or until in (_INF, -_INF):
            raise MalformedAction(f"a time is a finite number of ms; got {describe(until)}")
        start = len(self.outcomes)
        self._run_due(until)
        self.now = max(self.now, until)
        return self.outcomes[start:]

    def run(self, max_events: int = 1_000_000) -> State:
        """Play to the end (all seats bots, or humans on auto tempo), as a simulation."""
        for _ in range(max_events):
            if self.state.is_terminal() or not self._queue:
                break
            self._run_due(self._queue[0][0])
        return self.state

    # --- the clock --------------------------------------------------------------------------
    def _push(self, t: float, seat: int, action: dict[str, Any]) -> None:
        self._seq += 1
        heapq.heappush(self._queue, (t, self._seq, seat, action, self.state.calls))

    def _run_due(self, until: float) -> Outcome | None:
        last = None
        while self._queue and self._queue[0][0] <= until and not self.state.is_terminal():
            t, _, seat, action, epoch = heapq.heappop(self._queue)
            self.now = max(self.now, t)
            last = self._arrive(seat, action, epoch)
            self._settle()
        return last

    def _arrive(self, seat: int, action: dict[str, Any], epoch: int) -> Outcome:
        st = self.state
        kind = action.get("type")
        if seat in self.bots and kind != "flip":
            self._pending.pop(seat, None)
        if kind == "flip":
            self._flip_due = None
            if st.is_chance() or st.turn != seat or seat not in st.actors():
                return self._note(seat, action, "stale", "flip no longer due")
            st.apply(action, seat)
            return self._note(seat, action, "flip", st.events()[-1])
        if epoch != st.calls:
            return self._note(seat, action, "too late", "another call changed the table first")
        if seat not in st.actors() or action not in st.legal_actions(seat):
            return self._note(seat, action, "stale", "that call is not open now")
        before = st.false_calls
        st.apply(action, seat)
        result = "false" if st.false_calls > before else "good"
        return self._note(seat, action, result, st.events()[-1] if st.events() else "")

    def _note(self, seat: int, action: dict[str, Any], result: str, text: str) -> Outcome:
        out = Outcome(self.now, seat, action, result, text)
        self.outcomes.append(out)
        return out

    def _settle(self) -> None:
        """Resolve chance moves, then let bots decide what to schedule."""
        st = self.state
        while st.is_chance() and not st.is_terminal():
            st.sample_chance()
        if st.is_terminal():
            return
        flipped = bool(self.outcomes) and self.outcomes[-1].result == "flip"
        good = correct_call(st)
        for seat, lv in self.bots.items():
            if seat not in st.actors() or seat in self._pending:
                continue
            call = good
            if call is None and flipped and self.rng.random() < lv.false_rate:
                options = [a for a in st.legal_actions(seat) if a["type"] != "flip"]
                call = self.rng.choice(options) if options else None
            if call is not None:
                self._pending[seat] = st.calls
                self._push(self.now + reaction_ms(lv, self.rng), seat, call)
        turn = st.turn
        if self._flip_due is None and (turn in self.bots or self.auto_flip_humans):
            self._flip_due = len(st.moves)
            self._push(self.now + self.tempo, turn, {"type": "flip"})


def simulate_realtime(
    game_id: str = "snap",
    levels: list[str] | None = None,
    games: int = 100,
    seed: int = 0,
    max_flips: int = 1000,
    tempo_ms: float = TEMPO_MS,
) -> dict[str, Any]:
    """Bot-vs-bot games at the given levels (one per seat): win rates, length, stopped games."""
    levels = levels or ["easy", "normal", "expert"]
    n = len(levels)
    wins = [0] * n
    flips: list[int] = []
    stopped = 0
    false_calls = 0
    rng = random.Random(seed)
    for _ in range(games):
        state: Any = gamenight.new_game(game_id, players=n, max_flips=max_flips).new_state(
            seed=rng.randrange(2**32)
        )
        table = RealtimeTable(
            state, dict(enumerate(levels)), seed=rng.randrange(2**32), tempo_ms=tempo_ms
        )
        table.run()
        w = state.winner()
        if w is not None:
            wins[w] += 1
        flips.append(state.flips)
        stopped += int(state.flips >= max_flips)
        false_calls += state.false_calls
    flips.sort()
    return {
        "game": game_id,
        "games": games,
        "levels": levels,
        "win_rate": [w / games for w in wins],
        "mean_flips": sum(flips) / games,
        "median_flips": flips[games // 2],
        "stopped_at_max_flips": stopped / games,
        "false_calls_per_game": false_calls / games,
        "max_flips": max_flips,
    }
