"""A table's clock: what moves without anyone sending a frame, its bots' moves and the turn timer
that plays a cautious default for a seat that ran out of time.

After every change the table is rescheduled here (``Timers.schedule``): the bots due decide, the
seat to act gets its deadline. Their moves go through the referee like anyone's (``play``).

A bot that thinks (``thinks = True``: the search bot) decides in a worker thread on a copy of
the state, at most one thinker a core for the whole process, so the event loop serves every
other table meanwhile; its thought is dropped if the table moved on before it came back.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from gamenight.bots import make_bot
from gamenight.engine import State
from gamenight.realtime.table import correct_call

from . import throws
from .frames import actors
from .limits import RateLimit
from .protocol import ServerError
from .settings import BOT_SECONDS
from .table import Accepted, SeatKey, Table

log = logging.getLogger("gamenight.server")

# An all-bot table at instant pace made ~1,000 moves a second for as long as the server lived:
# the bots of a table play their first BOT_BURST moves at once, then BOT_RATE a second.
BOT_BURST = 1000
BOT_RATE = 2.0
# ... and a table of bots alone stops at BOT_MOVES (its memory and its replay stay bounded); with
# nobody moving it then expires when idle
BOT_MOVES = 20_000

# Thinking bots deciding at once in this process: one a core, so a flood of search tables queues
# for the cores instead of slicing them (and every thought past its budget)
THINKERS = os.cpu_count() or 1
_thinkers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)

TIMEOUT_PREFERENCE = ("stop", "take", "done", "decline", "end_turn", "give_up", "flip", "roll")

Play = Callable[..., Awaitable[Accepted]]
Away = Callable[[Table, SeatKey], Awaitable[None]]
Action = dict[str, Any]


def thinkers() -> asyncio.Semaphore:
    """The process's thinker slots (one set per event loop: a server runs one, tests many)."""
    return _thinkers.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(THINKERS))


def default_action(state: State, seat: int) -> dict[str, Any] | None:
    """What a seat that ran out of time plays: the game's own default, else a cautious one."""
    own = getattr(state, "default_action", None)
    if callable(own):
        action: dict[str, Any] | None = own(seat)
        return action
    legal = state.legal_actions(seat)
    for kind in TIMEOUT_PREFERENCE:
        for a in legal:
            if a.get("type") == kind:
                return a
    return legal[0] if legal else None


def make_bots(table: Table, bot_seconds: float) -> None:
    """A bot for each of the table's bot seats that has none yet, seeded from the table's own
    generator (a search bot thinking up to ``bot_seconds`` a move), and a stand-in for each away
    seat."""
    for i, s in enumerate(table.seats):
        if s.kind != "bot" or i in table.bots:
            continue
        seed = table.rng.randrange(2**32)
        if table.game_id == "snake-eyes-casino" and s.strategy:
            from gamenight.bots.casino_bot import CasinoBot

            table.bots[i] = CasinoBot(strategy=s.strategy)
        elif s.bot == "search":
            table.bots[i] = search_bot(table.game_id, bot_seconds, seed)
        else:
            table.bots[i] = make_bot(table.game_id, s.bot, seed=seed)
    stand_in(table)


def search_bot(game_id: str, seconds: float, seed: int) -> Any:
    """A Monte Carlo search bot thinking up to ``seconds`` a move."""
    return make_bot(game_id, f"mcts-{seconds:g}s", seed=seed)


def stand_in(table: Table) -> None:
    """A sensible bot plays each away seat (Board Game Arena's way: nobody waits on a player
    who is gone), and leaves the seat the moment its player is back."""
    for i, s in enumerate(table.seats):
        if s.kind == "bot":
            continue
        if s.away and i not in table.bots:
            table.bots[i] = make_bot(table.game_id, "sensible", seed=table.rng.randrange(2**32))
        elif not s.away:
            table.bots.pop(i, None)


async def _unwired(*args: Any, **kwargs: Any) -> Accepted:
    raise RuntimeError("the table service gives the timers the referee's play")


async def _nobody_away(table: Table, seat: SeatKey) -> None:
    """Without the table service nothing stands in for a seat."""


class Timers:
    """The bots' moves and turn timers of every table of this process, as asyncio tasks kept
    in each table's ``tasks``."""

    def __init__(
        self, clock: Callable[[], float] = time.time, bot_seconds: float = BOT_SECONDS
    ) -> None:
        self.clock = clock
        self.bot_seconds = bot_seconds  # a search bot's thinking time a move
        self.closing = False  # shutting down: nothing new is scheduled
        self.play: Play = (
            _unwired  # how a bot or a timer plays: the referee's (the service sets it)
        )
        self.away: Away = _nobody_away  # a seat that ran out of time: a bot stands in (hosts.py)

    def cancel(self, table: Table) -> None:
        """Stop the table's bots and timer."""
        for _, task in table.tasks.values():
            task.cancel()
        table.tasks.clear()

    def acted(self, table: Table, seat: SeatKey) -> None:
        """The seat whose timer runs has acted: its timer goes, a fresh one comes next."""
        running = table.tasks.get("timer")
        if running is not None and running[0] == seat:
            running[1].cancel()
            del table.tasks["timer"]

    def seat_changed(self, table: Table, seat: SeatKey) -> None:
        """A seat changed hands (a bot stands in or steps out): its planned move and timer go,
        and the table is planned again."""
        for key in (seat, "timer"):
            running = table.tasks.get(key)
            if running is not None and (key == seat or running[0] == seat):
                running[1].cancel()
                del table.tasks[key]
        self.schedule(table)

    def schedule(self, table: Table, standby: float = 0.0) -> None:
        """After a change: bots decide what to do, and the seat to act gets its timer
        (``standby`` seconds later in a process that did not make the last move)."""
        if self.closing:
            return
        st = table.state
        if table.status != "playing" or st.is_terminal():
            self.cancel(table)
            table.deadline = None
            return
        n = table.move
        for key, (at, task) in list(table.tasks.items()):
            if at != n and key != "timer":
                task.cancel()
                del table.tasks[key]
        acting = actors(table)  # in Snake Eyes an away seat's stand-in throws its dice
        if n >= BOT_MOVES and len(table.bots) == len(table.seats) and table.dealer is None:
            return
        # turn-based games: bots act in the order the rules list the actors (as the simulator
        # does), so a casino shooter waits for the other seats; Snap and Slap race for real
        ready = acting if table.realtime else acting[:1]
        for seat in ready:
            bot = table.bots.get(seat)
            # a seat whose thought is still out waits for it: it plans the table again on landing
            if bot is None or seat in table.tasks or seat in table.thoughts:
                continue
            if self._thinks(table, seat, bot):
                delay = self._paced(table, self._pace(table))
                thinking = self._think(table, seat, bot, n, delay, standby)
                table.tasks[seat] = (n, asyncio.create_task(thinking))
                continue
            planned = self._bot_plan(table, seat, bot)
            if planned is not None:
                action, delay, at = planned
                delay = self._paced(table, delay)
                table.tasks[seat] = (
                    n,
                    asyncio.create_task(self._bot_move(table, seat, at, action, delay + standby)),
                )
        # the timer runs for the first seat to act until that seat acts (its key holds the seat);
        # in Snake Eyes that is the human holding the dice, whose throw the table waits for
        waiting = actors(table)
        due = (
            waiting[0] if table.turn_seconds and waiting and waiting[0] not in table.bots else None
        )
        current = table.tasks.get("timer")
        if current is not None and current[0] != due:
            current[1].cancel()
            del table.tasks["timer"]
            current = None
        if due is None:
            table.deadline = None
        elif current is None and table.turn_seconds:
            # from the stored move, so every process that loads the table shows the same one
            now = self.clock()
            table.deadline = table.moved_at + table.turn_seconds
            if table.deadline <= now:  # the table was idle or down: a whole turn from now
                table.deadline = now + table.turn_seconds
            timer = self._timeout(table, due, table.deadline - now + standby)
            table.tasks["timer"] = (due, asyncio.create_task(timer))

    def _bot_plan(
        self, table: Table, seat: int, bot: Any
    ) -> tuple[dict[str, Any], float, int] | None:
        st = table.state
        human = table.bot_pace == "human"
        if seat == throws.holder(table):  # an away seat holding the Snake Eyes dice throws
            return dict(throws.THROW), self._pace(table), table.move
        if table.realtime:
            from gamenight.realtime.reaction import level as level_named
            from gamenight.realtime.reaction import reaction_ms

            lv = level_named(table.seats[seat].level or "normal")
            call = correct_call(st)
            if call is not None and call in st.legal_actions(seat):
                delay = reaction_ms(lv, table.rng) / 1000 if human else 0.0
                return call, delay, table.move
            if seat == getattr(st, "turn", None):
                return {"type": "flip"}, (0.9 if human else 0.0), table.move
            return None
        if not st.legal_actions(seat):
            return None
        return bot.act(st, seat), self._pace(table), table.move

    @staticmethod
    def _pace(table: Table) -> float:
        """How long a bot at a table of human pace seems to think: as long as a person might."""
        return table.rng.uniform(0.6, 1.5) if table.bot_pace == "human" else 0.0

    @staticmethod
    def _thinks(table: Table, seat: int, bot: Any) -> bool:
        """Whether this bot's move is worth a worker thread: a search bot with a decision to make
        at a turn-based table (a fast bot's thread hop would only slow a burst of bot moves)."""
        return (
            bool(getattr(bot, "thinks", False))
            and not table.realtime
            and seat != throws.holder(table)
            and bool(table.state.legal_actions(seat))
        )

    @staticmethod
    def _still(table: Table, seat: int, bot: Any, at: int) -> bool:
        """Whether a thought about move ``at`` still fits the table: same move, still playing,
        the seat still this bot's."""
        return table.status == "playing" and table.move == at and table.bots.get(seat) is bot

    def _paced(self, table: Table, delay: float) -> float:
        """The bot's delay, at least as long as the table's bots' bucket asks."""
        if table.bot_rate is None:
            table.bot_rate = RateLimit(BOT_RATE, BOT_BURST, clock=time.monotonic)
        return max(delay, table.bot_rate.reserve())

    async def _bot_move(
        self, table: Table, seat: int, at: int, action: dict[str, Any], delay: float
    ) -> None:
        async def decided() -> Action:
            await asyncio.sleep(delay)
            return action

        await self._move(table, seat, at, decided())

    async def _think(
        self, table: Table, seat: int, bot: Any, at: int, delay: float, standby: float
    ) -> None:
        """A thinking bot's move: its pace counts from the start of the thought, so a bot that
        thought a second does not then seem to think again."""

        async def decided() -> Action | None:
            await asyncio.sleep(standby)  # a standby process thinks only if the writer is gone
            begun = time.monotonic()
            thought = asyncio.ensure_future(self._thought(table, seat, bot, at))
            table.thoughts[seat] = thought
            thought.add_done_callback(functools.partial(self._landed, table, seat))
            action = await asyncio.shield(thought)  # called off, the thread thinks on regardless
            if action is None or not self._still(table, seat, bot, at):
                return None
            await asyncio.sleep(delay - (time.monotonic() - begun))
            return action

        await self._move(table, seat, at, decided())

    async def _thought(self, table: Table, seat: int, bot: Any, at: int) -> Action | None:
        """The bot's decision on a copy of the state in a worker thread, once a thinker slot is
        free; None when the table moved on while it queued."""
        async with thinkers():
            if not self._still(table, seat, bot, at):
                return None
            action: Action = await asyncio.to_thread(bot.act, table.state.clone(), seat)
            return action

    def _landed(self, table: Table, seat: int, thought: asyncio.Future[Action | None]) -> None:
        """A thought came back: the seat may think again, and if its move was called off
        meanwhile (the table moved, the seat changed hands) the table is planned again."""
        if table.thoughts.get(seat) is thought:
            del table.thoughts[seat]
        if thought.cancelled() or seat in table.tasks:  # its move task takes it from here
            return
        if thought.exception() is not None:
            log.warning(
                "bot at table %s seat %s: %s",
                table.id,
                seat,
                thought.exception(),
                extra={"table": table.id},
            )
        self.schedule(table)

    async def _move(
        self, table: Table, seat: int, at: int, decided: Awaitable[Action | None]
    ) -> None:
        """Play what the bot decided (None: nothing, plan the table again) through the referee;
        a move the table no longer wants is dropped quietly, a bot's failure is logged."""
        try:
            action = await decided
            table.tasks.pop(seat, None)
            if self.closing:  # a thought that came back after the shutdown began
                return
            if action is None:
                self.schedule(table)
                return
            await self.play(table, seat, at, action)
        except ServerError as e:
            if e.code not in ("stale_move", "too_late", "game_over"):
                log.warning(
                    "bot at table %s seat %s: %s", table.id, seat, e, extra={"table": table.id}
                )
            self.schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "bot at table %s seat %s failed", table.id, seat, extra={"table": table.id}
            )

    async def _timeout(self, table: Table, seat: int, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            table.tasks.pop("timer", None)
            acting = actors(table)
            if table.status != "playing" or not acting or acting[0] != seat:
                return
            # the dice holder's one move is the throw the table waits for (server/throws.py)
            action = (
                throws.THROW if seat == throws.holder(table) else default_action(table.state, seat)
            )
            if action is None:
                return
            await self.play(table, seat, table.move, action, timer=True)
            await self.away(table, seat)
        except ServerError:
            self.schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer at table %s failed", table.id, extra={"table": table.id})
