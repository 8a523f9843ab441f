"""A discrete-event table: bots and humans send flips and calls; the earliest arrival is applied.

Time is simulated milliseconds. One rule judges every call, a human's or a bot's, when it
arrives: a call that comes less than ``LATE_MS`` after another call was applied, is not right
on the table as it now stands, but was right on the table that call changed, is *too late* (the
second voice, dropped without penalty); any other call is judged on the table as it stands
(good, or false and punished: a call at nothing pays even just after another call at nothing).
``LATE_MS`` is the time a person needs to stop a call once he sees the pile go (the stop-signal
reaction time, about 200-250 ms: Logan & Cowan 1984; Verbruggen & Logan 2008).

A bot that sees something to call schedules its call at now + its reaction time, and like a
person holds it back when the table changes under it early enough to stop (at least ``LATE_MS``
before the call would land). Flips come at a fixed tempo.
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
LATE_MS = 250.0  # a call this soon after another call is the second voice (see above)
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
    result: str  # "flip", "good", "false", "too late", "stale", "held back"
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
        self._queue: list[tuple[float, int, int, dict[str, Any]]] = []
        self._seq = 0
        # seat -> (arrival time, sequence number, call, aimed at what the bot saw) of a bot's
        # scheduled call; a held-back call's sequence number goes to _withdrawn
        self._pending: dict[int, tuple[float, int, dict[str, Any], bool]] = {}
        self._withdrawn: set[int] = set()
        self._last_call: float | None = None  # when the last call was applied
        self._right_before: dict[str, Any] | None = None  # the right call just before it
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
    def _push(self, t: float, seat: int, action: dict[str, Any]) -> int:
        self._seq += 1
        heapq.heappush(self._queue, (t, self._seq, seat, action))
        return self._seq

    def _run_due(self, until: float) -> Outcome | None:
        last = None
        while self._queue and self._queue[0][0] <= until and not self.state.is_terminal():
            t, seq, seat, action = heapq.heappop(self._queue)
            if seq in self._withdrawn:
                self._withdrawn.discard(seq)
                continue
            self.now = max(self.now, t)
            last = self._arrive(seat, action)
            self._settle()
        return last

    def _arrive(self, seat: int, action: dict[str, Any]) -> Outcome:
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
        last = self._last_call
        right = correct_call(st)
        if (
            last is not None
            and self.now - last < LATE_MS
            and action != right
            and action == self._right_before
        ):
            return self._note(seat, action, "too late", "another call changed the table first")
        if seat not in st.actors() or action not in st.legal_actions(seat):
            return self._note(seat, action, "stale", "that call is not open now")
        before = st.false_calls
        st.apply(action, seat)
        self._last_call = self.now
        self._right_before = right
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
        for seat, (t, seq, sent, aimed) in list(self._pending.items()):
            if aimed and sent != good and t - self.now >= LATE_MS:  # seen in time to stop
                del self._pending[seat]
                self._withdrawn.add(seq)
                self._note(seat, sent, "held back", "saw the table change in time to stop")
        actors = st.actors()
        for seat, lv in self.bots.items():
            if seat not in actors or seat in self._pending:
                continue
            call = good
            if call is None and flipped and self.rng.random() < lv.false_rate:
                options = [a for a in st.legal_actions(seat) if a["type"] != "flip"]
                call = self.rng.choice(options) if options else None
            if call is not None:
                t = self.now + reaction_ms(lv, self.rng)
                self._pending[seat] = (t, self._push(t, seat, call), call, call == good)
        turn = st.turn
        if self._flip_due is None and (turn in self.bots or self.auto_flip_humans):
            self._flip_due = len(st.moves)
            self._push(self.now + self.tempo, turn, {"type": "flip"})


def simulate_realtime(
    game_id: str = "snap",
    levels: list[str] | None = None,
    games: int = 100,
    seed: int = 0,
    max_flips: int | None = None,
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
    capped = {} if max_flips is None else {"max_flips": max_flips}
    game = gamenight.new_game(game_id, players=n, **capped)
    for _ in range(games):
        state: Any = game.new_state(seed=rng.randrange(2**32))
        table = RealtimeTable(
            state, dict(enumerate(levels)), seed=rng.randrange(2**32), tempo_ms=tempo_ms
        )
        table.run()
        w = state.winner()
        if w is not None:
            wins[w] += 1
        flips.append(state.flips)
        stopped += int(state.truncated)
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
        "max_flips": game.options.max_flips,  # type: ignore[attr-defined]
    }
