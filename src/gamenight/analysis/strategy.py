"""A betting strategy as data: which wagers, how much, how each stake moves, when to stop.

crapssim composes strategies as Python objects whose ``update_bets`` methods mutate a player;
the rules of a system then live in code and cannot be read back, checked or solved exactly.
Here a strategy is a validated record (from the command line or a TOML file) and one small
function, ``next_stake``, says how every progression moves a stake, so the exact chain
(``session_chain``) and the compiled kernel (``kernels.sessions``) read the same data.
"""

from __future__ import annotations

import tomllib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gamenight.bots.casino_bot import STRATEGIES
from gamenight.engine.errors import GamenightError, describe
from gamenight.games.casino_options import MAX_CHIPS, MAX_ROLLS
from gamenight.games.casino_wagers import WAGER_IDS

Progression = Literal["flat", "martingale", "paroli", "dalembert", "press", "regress"]
PROGRESSIONS: tuple[str, ...] = ("flat", "martingale", "paroli", "dalembert", "press", "regress")
ALIASES = {"place5": "num5", "place6": "num6", "place8": "num8", "snake_eyes": "craps2"}
"""Names a player uses for a wager, beside the table's own ids."""


class StrategyError(GamenightError, ValueError):
    """A strategy that cannot be played: ``field`` names the setting at fault."""

    def __init__(self, field: str, problem: str) -> None:
        self.field, self.problem = field, problem
        super().__init__(f"{field}: {problem}")


class Bet(BaseModel):
    """One wager kept up at a stake that moves after each of its decisions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    wager: str = Field(description="a wager id (field, num6, hard6, craps2, ...) or place6 ...")
    amount: int = Field(strict=True, ge=1, le=MAX_CHIPS, description="the first stake, in chips")
    progression: Progression = "flat"
    step: int | None = Field(
        default=None, strict=True, ge=1, le=MAX_CHIPS,
        description="chips added (press, dalembert) or taken off (regress); the amount",
    )  # fmt: skip
    cap: int | None = Field(
        default=None,
        strict=True,
        ge=1,
        le=MAX_CHIPS,
        description="largest stake; the table maximum",
    )
    floor: int | None = Field(
        default=None,
        strict=True,
        ge=1,
        le=MAX_CHIPS,
        description="regress: smallest stake; the table minimum",
    )
    wins: int = Field(
        default=3, strict=True, ge=1, le=30, description="paroli: wins in a row, then reset"
    )

    @model_validator(mode="before")
    @classmethod
    def _known_wager(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("wager"), str):
            wager = ALIASES.get(data["wager"], data["wager"])
            if wager not in WAGER_IDS:
                raise ValueError(
                    f"unknown wager {describe(data['wager'])} (known: {', '.join(WAGER_IDS)})"
                )
            data = {**data, "wager": wager}
        return data


class Strategy(BaseModel):
    """A session: bankroll, bets, and the stops (goal, stop-loss, roll limit)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="custom", max_length=80)
    bankroll: int = Field(strict=True, ge=1, le=MAX_CHIPS, description="chips bought in")
    bets: tuple[Bet, ...] = Field(min_length=1, max_length=len(WAGER_IDS))
    goal: int | None = Field(
        default=None,
        strict=True,
        ge=1,
        le=MAX_CHIPS,
        description="stop-win: leave once chips reach this",
    )
    stop_loss: int | None = Field(
        default=None,
        strict=True,
        ge=1,
        le=MAX_CHIPS,
        description="leave once this many chips are lost",
    )
    rolls: int | None = Field(
        default=None, strict=True, ge=1, le=MAX_ROLLS, description="leave after this many rolls"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Strategy:
        seen = [b.wager for b in self.bets]
        for i, w in enumerate(seen):
            if w in seen[:i]:
                raise ValueError(f"bets[{i}]: {w} is bet twice; one stake a wager")
        if self.goal is not None and self.goal <= self.bankroll:
            raise ValueError(f"goal: {self.goal} chips is not above the bankroll {self.bankroll}")
        if self.stop_loss is not None and self.stop_loss > self.bankroll:
            raise ValueError(f"stop_loss: {self.stop_loss} is more than the bankroll")
        if self.rolls is None and self.goal is None:
            raise ValueError("rolls: a session needs a roll limit or a goal to end")
        return self

    def describe(self) -> str:
        """The strategy in one line, as a player would say it."""
        parts = []
        for b in self.bets:
            how = "" if b.progression == "flat" else f" ({b.progression})"
            parts.append(f"{b.wager} {b.amount}{how}")
        stops = [f"goal {self.goal}"] if self.goal else []
        stops += [f"stop-loss {self.stop_loss}"] if self.stop_loss else []
        stops += [f"{self.rolls} rolls"] if self.rolls else []
        return f"{', '.join(parts)}; bankroll {self.bankroll}; " + ", ".join(stops)


def strategy(**fields: Any) -> Strategy:
    """A validated ``Strategy``; a bad field raises ``StrategyError`` naming it."""
    try:
        return Strategy(**fields)
    except ValidationError as e:
        err = e.errors(include_url=False, include_context=False)[0]
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown setting"
        elif "input" in err and err["type"] not in ("missing", "value_error"):
            msg = f"{msg} (got {describe(err['input'])})"
        if not loc and ": " in msg:  # a check across fields names its field first
            loc, msg = msg.split(": ", 1)
        raise StrategyError(loc.lstrip(".") or "strategy", msg) from None


def toml_fields(text: str) -> dict[str, Any]:
    """A strategy file's settings (top-level keys, one ``[[bets]]`` table a wager), unchecked:
    the command line may still override some before ``strategy`` validates them all."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StrategyError("strategy file", f"not TOML: {e}") from None
    except RecursionError:
        raise StrategyError("strategy file", "nested too deeply") from None


def parse_bet(text: str) -> dict[str, Any]:
    """``field=5``, ``place6=6:press`` or ``craps2=1:martingale`` from the command line."""
    wager, sep, rest = text.partition("=")
    amount, _, progression = rest.partition(":")
    if not sep or not wager or not amount.strip().isdigit() or len(amount) > 10:
        why = f"{describe(text)}: write WAGER=CHIPS[:PROGRESSION], e.g. field=5"
        raise StrategyError("--bet", why)
    bet: dict[str, Any] = {"wager": wager.strip(), "amount": int(amount)}
    if progression:
        bet["progression"] = progression.strip()
    return bet


def with_table(s: Strategy, table_min: int, table_max: int) -> Strategy:
    """Check every stake a strategy can reach against the table's limits."""
    for i, b in enumerate(s.bets):
        if not table_min <= b.amount <= table_max:
            raise StrategyError(
                f"bets[{i}].amount",
                f"{b.amount} chips is outside the table's limits {table_min} to {table_max}",
            )
        if b.cap is not None and b.cap > table_max:
            raise StrategyError(f"bets[{i}].cap", f"{b.cap} is over the table maximum {table_max}")
    return s


def next_stake(b: Bet, stake: int, streak: int, won: bool, lo: int, hi: int) -> tuple[int, int]:
    """The stake after one decision, and the wins in a row so far (for Paroli).

    ``lo``/``hi`` are the table's limits (a bet's own floor and cap narrow them). A Martingale
    that would pass the cap starts again at the first amount, as a table maximum forces."""
    cap = min(b.cap or hi, hi)
    floor = max(b.floor or lo, lo)
    step = b.step or b.amount
    streak = streak + 1 if won else 0
    p = b.progression
    if p == "martingale":
        new = b.amount if won or stake * 2 > cap else stake * 2
    elif p == "paroli":
        if won and streak < b.wins and stake * 2 <= cap:
            new = stake * 2
        else:
            new, streak = b.amount, 0
    elif p == "dalembert":
        new = max(stake - step, b.amount) if won else min(stake + step, cap)
    elif p == "press":
        new = min(stake + step, cap) if won else b.amount
    elif p == "regress":
        new = max(stake - step, floor) if won else b.amount
    else:
        new = stake
    return new, (streak if p == "paroli" else 0)


def stakes(b: Bet, lo: int, hi: int) -> tuple[int, int]:
    """The smallest and largest stakes a bet's progression can reach at a table of limits
    ``lo``-``hi``: the bounds of the exact chain's states."""
    cap = min(b.cap or hi, hi)
    if b.progression == "flat":
        return b.amount, b.amount
    if b.progression == "regress":
        return min(max(b.floor or lo, lo), b.amount), b.amount
    if b.progression == "paroli":
        top = b.amount
        for _ in range(b.wins - 1):
            top = top * 2 if top * 2 <= cap else top
        return b.amount, top
    return b.amount, max(cap, b.amount)


def named_bets(name: str, unit: int) -> list[dict[str, Any]]:
    """A named strategy of the bots as bets of ``unit`` chips each."""
    if name not in STRATEGIES:
        known = ", ".join(STRATEGIES)
        raise StrategyError("--strategy", f"{describe(name)}: choose one of {known}")
    return [{"wager": w, "amount": unit} for w in STRATEGIES[name]]
