"""A player's strategy from the command line (flags, a named bundle or a TOML file), and its
session figures printed with the risk answer first."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import STRATEGY_NAMES, console, fail, read_text, refuse

BetFlag = Annotated[
    list[str] | None,
    typer.Option(
        "--bet", metavar="WAGER=CHIPS[:PROGRESSION]",
        help="casino: a wager and its stake (repeat it): field=5, place6=6:press, "
        "craps2=1:martingale; progressions flat, martingale, paroli, dalembert, press, regress",
    ),
]  # fmt: skip
StrategyFile = Annotated[
    Path | None,
    typer.Option(
        "--strategy-file", dir_okay=False,
        help="casino: a TOML strategy (bankroll, goal, stop_loss, rolls, [[bets]] ...)",
    ),
]  # fmt: skip
Goal = Annotated[
    int | None, typer.Option(min=1, help="casino: stop-win, leave once chips reach this")
]
StopLoss = Annotated[
    int | None, typer.Option("--stop-loss", min=1, help="casino: leave once this many are lost")
]
FLAGS = {"bankroll": "--bankroll", "goal": "--goal", "stop_loss": "--stop-loss", "rolls": "--rolls"}


def build(
    named: str | None,
    bets: list[str] | None,
    file: Path | None,
    given: dict[str, int | None],
    unit: int | None,
    table: dict[str, Any],
) -> Any:
    """The strategy the flags describe; a refusal names the flag (or file setting) at fault.

    ``given`` holds --bankroll, --goal, --stop-loss and --rolls by field name; the table file's
    bankroll and max_rolls fill what neither the flags nor the strategy file say."""
    from gamenight.analysis.strategy import (
        StrategyError,
        named_bets,
        parse_bet,
        strategy,
        toml_fields,
    )

    sources = [x for x, v in (("--strategy", named), ("--bet", bets), ("--strategy-file", file))
               if v]  # fmt: skip
    if len(sources) > 1:
        why = f"give one of --strategy, --bet and --strategy-file, not {sources[0]} too"
        raise refuse(sources[1], why)
    fields: dict[str, Any] = {}
    try:
        if file is not None:
            fields = toml_fields(read_text(file, "--strategy-file"))
        elif bets:
            fields["bets"] = [parse_bet(b) for b in bets]
        elif named:
            fields["bets"] = named_bets(named, unit or table.get("table_min", 5))
        fields.update({k: v for k, v in given.items() if v is not None})
        fields.setdefault("bankroll", table.get("bankroll", 1000))
        if "rolls" not in fields and (table.get("max_rolls") or "goal" not in fields):
            fields["rolls"] = table.get("max_rolls", 100)
        return strategy(**fields)
    except StrategyError as e:
        raise refused(e, given, named, bets, file) from None


def refused(e: Any, given: dict[str, int | None], named: str | None, bets: list[str] | None,
            file: Path | None) -> typer.Exit:  # fmt: skip
    """A strategy refused by the flag the user typed, or by the file and its setting."""
    top = e.field.split("[")[0].split(".")[0]
    if given.get(top) is not None:
        return refuse(FLAGS[top], e.problem)
    if top == "bets" and e.field[4:5] == "[":
        i = int(e.field[5 : e.field.index("]")])
        if named:
            return refuse("--unit" if e.field.endswith(".amount") else "--strategy", e.problem)
        if bets:
            return refuse(f"--bet {bets[i]}", e.problem)
    where = f"--strategy-file {file}: " if file is not None and top != "--strategy" else ""
    return fail(f"{where}{e}")


def run(s: Any, table: dict[str, Any], method: str, sessions: int, seed: int,
        how: tuple[Any, ...]) -> dict[str, Any]:  # fmt: skip
    """The answer, a stake outside the table's limits refused by the flag that set it (``how``:
    ``build``'s arguments but the table)."""
    from gamenight.analysis.session_chain import TooBig
    from gamenight.analysis.session_risk import answer
    from gamenight.analysis.strategy import StrategyError
    from gamenight.engine import GamenightError

    try:
        return answer(s, table, method, sessions, seed)
    except StrategyError as e:
        named, bets, file, given, _ = how
        raise refused(e, given, named, bets, file) from None
    except TooBig as e:
        why = f"exact: the chain would hold {e}; use auto or monte-carlo"
        raise refuse("--method", why) from None
    except GamenightError as e:
        raise fail(e) from None


def pct(p: float) -> str:
    return f"{p:.4%}"


def show(r: dict[str, Any]) -> None:
    """The risk answer first, then what else a session ends in, then how it was worked out."""
    ci = r.get("intervals", {})

    def with_ci(key: str) -> str:
        lo_hi = ci.get(key)
        return pct(r[key]) + (f" (95 % {pct(lo_hi[0])} to {pct(lo_hi[1])})" if lo_hi else "")

    how = (
        f"exact: an absorbing Markov chain over {r['states']:,} states"
        if r["method"] == "exact"
        else f"Monte Carlo: {r['sessions']:,} sessions in the kernel, seed {r['seed']}"
    )
    console.print(f"[bold]risk of ruin {with_ci('risk_of_ruin')}[/]  ({how})")
    if r["settings"].get("goal"):
        console.print(f"goal of {r['settings']['goal']} reached: {with_ci('goal_reached')}")
    if r["settings"].get("stop_loss"):
        console.print(f"stop-loss hit: {with_ci('stop_loss_hit')}")
    if r["settings"].get("rolls"):
        console.print(f"still playing after {r['settings']['rolls']} rolls: {with_ci('survived')}")
    if r.get("unfinished"):
        console.print(f"unfinished after 10,000,000 rolls: {pct(r['unfinished'])}")
    f = r["final_chips"]
    q1, med, q3 = f["quartiles"]
    console.print(
        f"expected rolls {r['expected_rolls']:.3f}; final chips: mean {f['mean']:.3f}, "
        f"sd {f['sd']:.3f}, quartiles {q1} / {med} / {q3}"
    )
    console.print(f"strategy: {r['strategy']}")
    if "why_monte_carlo" in r:
        console.print(f"[dim]why Monte Carlo: {r['why_monte_carlo']}[/]")
    console.print(f"[dim]convention: {r['convention']}[/]")


__all__ = ["STRATEGY_NAMES", "BetFlag", "Goal", "StopLoss", "StrategyFile", "build", "run", "show"]
