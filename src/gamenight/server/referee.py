"""The referee: the one place a move changes a table, applied, committed, then announced.

``play`` holds the table's lock (and the writer lease), checks the move counter, lets the engine
validate and apply, draws the chance moves that follow, commits them all to storage, and only
then hands the notices to the fan-out. A commit that fails is undone: the table is rebuilt from
storage, or rewound in memory when storage is away, and the player is told nothing changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from gamenight.engine import IllegalAction, MalformedAction, NotYourTurn
from gamenight.realtime.table import correct_call

from . import throws
from .clock import Timers
from .lease import Lease
from .protocol import ServerError
from .rebuild import call_types, from_row, last_call, replayed
from .storage import Storage
from .sync import Sync
from .table import DEALER, Accepted, SeatKey, Table, engine_seat

log = logging.getLogger("gamenight.server")


def draw_chance(table: Table) -> list[tuple[int | None, Any]]:
    """The chance moves due now, drawn by the server (none at a live dealer's table, and none
    while a human holds the dice: the table waits for the throw)."""
    st = table.state
    drawn: list[tuple[int | None, Any]] = []
    if table.live_dealer:
        return drawn
    while st.is_chance() and not st.is_terminal():
        if throws.holder(table) is not None:  # a human throws their own dice
            break
        drawn.append((None, st.sample_chance()))
    return drawn


class Referee:
    """Applies and commits every move of this process's tables (``play``)."""

    def __init__(
        self,
        storage: Storage,
        lease: Lease,
        sync: Sync,
        timers: Timers,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage, self.lease, self.sync, self.timers = storage, lease, sync, timers
        self.clock = clock
        self.closing = False  # shutting down: no new move is taken
        self.in_flight = 0  # moves being applied and committed now
        self.on_move: Callable[[Table, Accepted, float], None] | None = None

    async def play(
        self, table: Table, seat: SeatKey, move: int, action: Any, timer: bool = False
    ) -> Accepted:
        """``seat``'s action, chosen at ``move``; ``timer``: played for it when its time ran out."""
        if self.closing:
            raise ServerError("server_error", "the server is shutting down; reconnect shortly")
        self.in_flight += 1
        started = time.perf_counter()
        try:
            async with table.lock, self.lease.hold(table.id) as held:
                if not getattr(held, "unchanged", False):  # no other writer since our last
                    await self.sync.catch_up_locked(table)
                accepted = await self._apply(table, seat, move, action)
                fence = getattr(held, "token", None)  # the Redis lease's fencing token
                self.timers.acted(table, seat)  # acted: a fresh timer next
                notices = []
                if timer:  # announced first, with the move the default action was played at
                    notices.append(
                        self.sync.notice(
                            table, "timer", seat=seat, action=action, move=accepted.first
                        )
                    )
                # with the lease's token, a process that catches up to these moves knows that
                # the next lease, if it gets it, follows a writer whose moves it holds
                # (RedisLease.seen)
                fenced = {} if fence is None else {"fence": fence}
                notices.append(self.sync.notice(table, "moves", first=accepted.first, **fenced))
                announced = self.sync.announce(held, table.id, notices)
        except ServerError as e:
            if e.code == "too_late":  # the race record grew: every screen shows it
                await self.sync.notify(table, "race")
            raise
        finally:
            self.in_flight -= 1
        await self.sync.tell(table.id, notices, announced)
        if self.on_move is not None:
            self.on_move(table, accepted, time.perf_counter() - started)
        return accepted

    async def _apply(self, table: Table, seat: SeatKey, move: int, action: Any) -> Accepted:
        if table.status == "waiting":
            raise ServerError("not_started", "the table has not started yet")
        st = table.state
        n = len(st.moves)
        kind = action.get("type") if isinstance(action, dict) else None
        is_call = table.realtime and seat != DEALER and kind in call_types(st)
        late = is_call and type(move) is int and move < table.last_call_move
        if table.status != "playing" and not (late and table.status == "finished"):
            raise ServerError("game_over", "the game is over")
        if type(move) is not int or move > n or (move != n and not is_call):
            raise ServerError(
                "stale_move", f"that action was chosen at move {move}; the table is at move {n}"
            )
        # a second voice for the call that ended the game is too late, as for any other call
        if late and self._second_voice(table, seat, action):
            self._note_race(table, move, seat, str(kind), "too late")
            raise ServerError(
                "too_late",
                f"another call changed the table after move {move}: yours came too late",
            )
        if seat == DEALER and not st.is_chance():
            raise ServerError("not_your_turn", "the dealer enters a result only when one is due")
        if action == throws.THROW:  # the dice holder's own throw (server/throws.py)
            new_moves = throws.throw(table, seat) + draw_chance(table)
            if st.is_terminal():
                table.status = "finished"
            await self.commit(table, n, new_moves)
            return Accepted(table.id, seat, n, table.move)
        calls_before = getattr(st, "false_calls", 0)
        right = correct_call(st) if is_call else None
        try:
            st.apply(action, engine_seat(seat))
        except MalformedAction as e:
            raise ServerError("malformed_action", str(e)) from None
        except NotYourTurn as e:
            raise ServerError("not_your_turn", str(e)) from None
        except IllegalAction as e:
            raise ServerError("illegal_action", str(e)) from None
        except Exception as e:  # an engine bug on odd input: the stored record is the truth
            log.exception(
                "engine failed on %r at table %s", action, table.id, extra={"table": table.id}
            )
            await self._reload(table)
            raise ServerError(
                "malformed_action", f"the engine could not read that action: {e}"
            ) from None
        new: list[tuple[int | None, Any]] = [(engine_seat(seat), action)]
        if is_call:
            false = getattr(st, "false_calls", 0) > calls_before
            table.last_call_move = n + 1
            table.right_before = (n, right)
            self._note_race(table, move, seat, str(kind), "false" if false else "good")
        new += draw_chance(table)
        if st.is_terminal():
            table.status = "finished"
        await self.commit(table, n, new)
        return Accepted(table.id, seat, n, table.move)

    async def commit(self, table: Table, first: int, new: list[tuple[int | None, Any]]) -> None:
        """Store the moves; if that fails, forget them (rebuild from storage) and refuse."""
        try:
            now = self.clock()
            await self.storage.append_moves(
                table.id, first, new, status=table.status, updated_at=now
            )
        except Exception:
            log.exception("could not store moves of table %s", table.id, extra={"table": table.id})
            try:
                await self._reload(table)
            except Exception:  # storage is down: undo from memory, or the next move leaves a hole
                log.warning(
                    "table %s rewound in memory: storage is unreachable",
                    table.id,
                    extra={"table": table.id},
                )
                self._rewind(table, first)
            raise ServerError(
                "server_error", "the move could not be stored; nothing changed"
            ) from None
        table.moved_at = now
        if not new or new[0][0] not in table.bots:  # bots alone keep no table alive (idle expiry)
            table.last_active = now

    def _rewind(self, table: Table, first: int) -> None:
        """Forget the moves from ``first`` on without storage: replay those before (the stored
        ones, as the lease guarantees), as a restart would."""
        moves = table.state.moves[:first]
        state = replayed(table.game_id, table.options, table.seed, moves)
        table.state, table.status = state, "playing"
        table.last_call_move = last_call(state)
        table.right_before = None  # recomputed from the moves when needed

    async def _reload(self, table: Table) -> None:
        row = await self.storage.load_table(table.id)
        if row is None:
            return
        fresh = from_row(row, await self.storage.load_moves(table.id), self.timers.bot_seconds)
        table.state, table.status = fresh.state, fresh.status
        table.last_call_move = fresh.last_call_move
        table.right_before = None  # recomputed from the moves when needed

    # --- calls racing (Snap, Slap) ----------------------------------------------------------
    def _second_voice(self, table: Table, seat: SeatKey, action: Any) -> bool:
        """A call chosen before the last call was applied is dropped as too late when it is not
        right now but asked for what that call took (or is no longer open), as at the realtime
        table; a call at nothing is judged like any other, since the rulebook punishes every
        call made with no pair showing, and a call still right now wins."""
        es = engine_seat(seat)
        if es is None or action not in table.state.legal_actions(es):
            return True
        if action == correct_call(table.state):
            return False
        return bool(action == self._right_before_call(table))

    def _right_before_call(self, table: Table) -> Any:
        """The call that was right just before the last call (replayed once after a restart or
        another process's call, then kept)."""
        k = table.last_call_move - 1
        if table.right_before is None or table.right_before[0] != k:
            before = replayed(table.game_id, table.options, table.seed, table.state.moves[:k])
            table.right_before = (k, correct_call(before))
        return table.right_before[1]

    def _note_race(self, table: Table, move: int, seat: SeatKey, kind: str, result: str) -> None:
        if table.race is None or table.race["move"] != move:
            table.race = {"move": move, "arrivals": []}
        table.race["arrivals"].append({"seat": seat, "type": kind, "result": result})
