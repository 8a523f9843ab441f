"""Prometheus metrics of one server process: tables, connections, bots' thoughts, moves and
move latency.

Each app gets its own registry, so several apps in one process (tests) never share counters.
Tables, connections and thoughts are read from the service when scraped, so they never drift.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

# From half a millisecond (an in-memory move) to seconds (a stalled disk or a lease wait).
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class ServerMetrics:
    """The counters a server process exports at /metrics."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(
        self,
        tables: Callable[[], int] | None = None,
        connections: Callable[[], int] | None = None,
        thoughts: Callable[[], int] | None = None,
    ) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("gamenight_tables", "Tables held in memory by this process", registry=r)
        self.connections = Gauge(
            "gamenight_connections", "WebSocket connections held by this process", registry=r
        )
        if tables is not None:
            self.tables.set_function(lambda: float(tables()))
        if connections is not None:
            self.connections.set_function(lambda: float(connections()))
        self.thoughts = Gauge(
            "gamenight_bot_thoughts",
            "Search bots' moves being decided in worker threads or queued for one",
            registry=r,
        )
        if thoughts is not None:
            self.thoughts.set_function(lambda: float(thoughts()))
        self.moves = Counter(
            "gamenight_moves",
            "Moves accepted and committed (chance moves not counted)",
            ["game"],
            registry=r,
        )
        self.chance_moves = Counter(
            "gamenight_chance_moves", "Chance moves drawn and committed", ["game"], registry=r
        )
        self.move_latency = Histogram(
            "gamenight_move_seconds",
            "From an action's arrival to its commit and broadcast by this process",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.refused = Counter(
            "gamenight_refused_actions",
            "Frames or actions refused, by error code",
            ["code"],
            registry=r,
        )
        self.notices = Counter(
            "gamenight_fanout_notices",
            "Fan-out notices, by direction (sent, received)",
            ["direction"],
            registry=r,
        )
        self._by_game: dict[str, tuple[Counter, Counter]] = {}
        self.lease_wait = Histogram(
            "gamenight_lease_wait_seconds",
            "Time spent waiting for a table's write lease",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )

    def moved(self, game: str, seconds: float, chance: int = 0) -> None:
        """Count one accepted move (and the chance moves it caused) and its latency."""
        counters = self._by_game.get(game)
        if counters is None:  # labels() takes a lock and builds a key: once per game, not move
            counters = self._by_game[game] = (
                self.moves.labels(game),
                self.chance_moves.labels(game),
            )
        counters[0].inc()
        if chance:
            counters[1].inc(chance)
        self.move_latency.observe(seconds)

    def render(self) -> bytes:
        """The text exposition format Prometheus scrapes."""
        return generate_latest(self.registry)
