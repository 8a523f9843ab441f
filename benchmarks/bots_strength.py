"""The search bot against the sensible bot in every game with decisions, and the optimal Shake
bot's rating: win shares with 95 % intervals.

For each game (Shake, Gambler, the casino table; two seats) the search bot with ``--seconds`` a
move at most meets the sensible bot on ``--deals`` deals, each played twice with the seats
swapped (the same table seed both times), spread over ``--jobs`` processes. Printed: the search
bot's win share over all games with its Wilson 95 % interval, the same share with an interval
over deals (a deal's two games are paired), its thinking time per decision (mean and longest)
and playouts per decision, and how often it left the sensible bot's move.

Where the game has compiled playouts each such move is also **valued**: its advantage, what it
gains in win share over the sensible move when the sensible bot plays on, from 20,000 fresh
paired playouts (dice of their own, not the search's). By the performance-difference lemma
(Kakade and Langford, 2002) a bot's win share against the sensible bot is 50 % (the sensible
bot against itself, both seatings of a deal) plus the mean over its games of its advantages
summed; that estimate of the same games leaves out the luck of the dice, so its interval is far
narrower than the tournament's. The target: a share above 50 % with the whole interval. Each game's
result is also written to ``--out`` as a JSON line as it ends, so a long run can be read while
it goes (``--summary FILE`` prints the figures of such a file).

Then ``--optimal N`` (0 to skip) rates the optimal Shake bot against the sensible and random bots
over N deals per seating (5,000: 10,000 games a pair): the target is optimal above sensible.

    python benchmarks/bots_strength.py --game casino --deals 50 --jobs 2
    python benchmarks/bots_strength.py --game shake --deals 2000 --jobs 2 --out shake.jsonl
    python benchmarks/bots_strength.py --summary shake.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from gamenight.analysis.ratings import Z95, wilson
from gamenight.analysis.simulate import play_out
from gamenight.analysis.tournament import run_tournament
from gamenight.bots import make_bot
from gamenight.bots.mcts import kernel_playouts, win_shares
from gamenight.engine import new_game

GAMES = {"shake": "shake", "gambler": "gambler", "casino": "snake-eyes-casino"}
STRIDE = 1_000_003  # deal d of seed s is table seed s * STRIDE + d, as tournaments number them


ADVANTAGE_PLAYOUTS = 20_000  # fresh paired playouts that value each move unlike the sensible one


def advantage(state: Any, seat: int, chosen: dict, sensible: dict, seed: int) -> float | None:
    """What ``chosen`` gains in win share over ``sensible`` when the sensible bot plays on (its
    advantage), from fresh compiled playouts on common dice; None without a kernel."""
    play = kernel_playouts(state.game.id)
    if play is None:
        return None
    shares = []
    for action in (chosen, sensible):
        after = state.clone()
        after.apply(action, seat)
        rows = play(after, ADVANTAGE_PLAYOUTS, seed)
        shares.append(win_shares(rows, seat))
    return float((shares[0] - shares[1]).mean())


class Timed:
    """A bot whose decisions (moves with a choice) are timed, their playouts counted, and the
    moves where it left the sensible bot's choice counted and valued (``advantage``)."""

    def __init__(self, bot: Any, sensible: Any, seed: str) -> None:
        self.bot, self.sensible = bot, sensible
        self.rng = random.Random(seed)  # the valuing playouts' own dice, not the search's
        self.decisions = 0
        self.changed = 0
        self.gain: float | None = 0.0
        self.seconds = 0.0
        self.longest = 0.0
        self.playouts = 0

    def act(self, state: Any, seat: int) -> dict[str, Any]:
        start = time.perf_counter()
        action: dict[str, Any] = self.bot.act(state, seat)
        spent = time.perf_counter() - start
        if len(state.legal_actions(seat)) > 1:
            self.decisions += 1
            self.seconds += spent
            self.longest = max(self.longest, spent)
            self.playouts += getattr(self.bot, "searched", 0)
            usual = self.sensible.act(state, seat)
            if action != usual:
                self.changed += 1
                gain = advantage(state, seat, action, usual, self.rng.getrandbits(63))
                self.gain = None if gain is None or self.gain is None else self.gain + gain
        return action


def warm(game_id: str, kind: str) -> None:
    """Load the compiled playouts before the clock runs (Numba compiles or reads its cache once
    a process: seconds that belong to no move)."""
    state = new_game(game_id, players=2).new_state(seed=0)
    search, sensible = make_bot(game_id, kind, seed=0), make_bot(game_id, "sensible", seed=0)
    while not state.is_terminal():  # to the first move the search thinks about
        if state.is_chance():
            state.play_chance()
            continue
        seat = state.next_actor()
        assert seat is not None
        search.act(state, seat)
        if getattr(search, "searched", 1):  # a bot that does not search is warm at once
            return
        state.apply(sensible.act(state, seat), seat)


def play_deal(game_id: str, kind: str, seed: int, deal: int) -> list[dict[str, Any]]:
    """One deal in both seatings: the search bot's score, decisions and thinking time in each."""
    game = new_game(game_id, players=2)
    out = []
    for me in (0, 1):
        table_seed = seed * STRIDE + deal
        search = Timed(
            make_bot(game_id, kind, seed=table_seed + me),
            make_bot(game_id, "sensible"),
            seed=f"value {table_seed} {me}",
        )
        bots = [make_bot(game_id, "sensible", seed=table_seed + s) for s in range(2)]
        bots[me] = search  # type: ignore[call-overload]
        returns = play_out(game.new_state(seed=table_seed), bots).returns()
        best = max(returns)
        score = 1 / returns.count(best) if returns[me] == best else 0.0
        out.append({"deal": deal, "seat": me, "score": score, "returns": returns,
                    "decisions": search.decisions, "seconds": search.seconds,
                    "longest": search.longest, "playouts": search.playouts,
                    "changed": search.changed, "gain": search.gain})  # fmt: skip
    return out


def summary(rows: list[dict[str, Any]]) -> str:
    """The search bot's win share with both intervals, and its thinking per decision."""
    n = len(rows)
    share = sum(r["score"] for r in rows) / n
    low, high = wilson(share, n)
    pairs: dict[int, list[float]] = {}
    for r in rows:
        pairs.setdefault(r["deal"], []).append(r["score"])
    means = [sum(v) / len(v) for v in pairs.values() if len(v) == 2]
    half = Z95 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else 1.0
    paired = sum(means) / len(means) if means else 0.0
    decisions = sum(r["decisions"] for r in rows)
    per = sum(r["seconds"] for r in rows) / max(decisions, 1)
    longest = max(r["longest"] for r in rows)
    playouts = sum(r["playouts"] for r in rows) / max(decisions, 1)
    changed = sum(r.get("changed", 0) for r in rows) / n
    valued = ""
    if all(r.get("gain") is not None for r in rows) and len(means) > 1:
        # the performance-difference estimate of the same games, its interval over deals
        gains: dict[int, list[float]] = {}
        for r in rows:
            gains.setdefault(r["deal"], []).append(r["gain"])
        per_deal = [sum(v) / 2 for v in gains.values() if len(v) == 2]
        g = 0.5 + statistics.mean(per_deal)
        spread = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
        valued = f"; valued {g:.2%} ± {spread:.2%}"
    return (
        f"{n} games: win share {share:.1%} ({low:.1%}–{high:.1%}); over {len(means)} deals "
        f"{paired:.1%} ± {half:.1%}; {decisions / n:.0f} decisions a game, "
        f"{per * 1000:.1f} ms each (longest {longest:.2f} s), {playouts:,.0f} playouts each, "
        f"{changed:.1f} a game unlike the sensible bot{valued}"
    )


def duel(game: str, kind: str, deals: int, jobs: int, seed: int, out: str | None) -> None:
    game_id = GAMES[game]
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    sink = open(out, "a") if out else None  # noqa: SIM115  # written as games end
    with ProcessPoolExecutor(jobs, initializer=warm, initargs=(game_id, kind)) as pool:
        futures = [pool.submit(play_deal, game_id, kind, seed, d) for d in range(deals)]
        for done, future in enumerate(as_completed(futures), 1):
            for r in future.result():
                rows.append(r)
                if sink:
                    sink.write(json.dumps({"game": game, "bot": kind, **r}) + "\n")
                    sink.flush()
            if done % max(deals // 10, 1) == 0 or done == deals:
                print(f"  {game:7} {kind} vs sensible, {done}/{deals} deals: {summary(rows)}",
                      flush=True)  # fmt: skip
    if sink:
        sink.close()
    print(f"  ({time.perf_counter() - start:,.0f} s)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", default=",".join(GAMES), help="shake, gambler, casino, by commas")
    ap.add_argument("--seconds", type=float, default=1.0, help="the search bot's time a move")
    ap.add_argument("--bot", help="another bot against the sensible one (optimal: a check of the "
                    "valued estimate against optimal Shake's known share)")  # fmt: skip
    ap.add_argument("--deals", type=int, default=100, help="deals, each played in both seatings")
    ap.add_argument("--jobs", type=int, default=2, help="processes")
    ap.add_argument("--optimal", type=int, default=0, help="deals per seating, optimal Shake")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="append each game's result to this JSON-lines file")
    ap.add_argument("--summary", help="print the figures of a JSON-lines file, and stop")
    args = ap.parse_args()
    if args.summary:
        with open(args.summary) as lines:
            rows = [json.loads(line) for line in lines]
        for game, bot in sorted({(r["game"], r["bot"]) for r in rows}):
            mine = [r for r in rows if r["game"] == game and r["bot"] == bot]
            print(f"  {game:7} {bot} vs sensible: {summary(mine)}")
        return
    kind = args.bot or f"mcts-{args.seconds:g}s"
    for game in [g for g in args.game.split(",") if g]:
        duel(game, kind, args.deals, args.jobs, args.seed, args.out)
    if args.optimal:
        print(f"shake: optimal, sensible and random, {args.optimal} deals per seating")
        result = run_tournament("shake", ["optimal", "sensible", "random"], deals=args.optimal,
                                players=2, seed=args.seed)  # fmt: skip
        for b in result.to_json()["bots"]:
            print(
                f"  {b['bot']:9} {b['games']:6} games  win share {b['win_share']:6.1%} "
                f"({b['win_share_low']:.1%}–{b['win_share_high']:.1%})  rating "
                f"{b['rating']:5.0f} ({b['rating_low']:.0f}–{b['rating_high']:.0f})"
            )


if __name__ == "__main__":
    main()
