"""Rate limits: a token bucket per client address for the HTTP API, and one per WebSocket.

``ClientRates`` keeps a single client from flooding the REST endpoints (creating tables,
joining, listing the lobby) and tells it when to retry; ``RateLimit`` is a socket's frame rate
(and a seat's chat rate).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

MAX_CLIENTS = 10_000  # buckets kept before the full (idle) ones are dropped


class ClientRates:
    """``rate`` requests a second per client, in bursts of ``burst``; 0 turns it off."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, max(burst, 1.0), clock
        self.buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)

    def retry_after(self, client: str) -> float:
        """0 if ``client`` may make a request now (and it is counted), else seconds to wait."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        tokens, at = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens >= 1:
            if client not in self.buckets and len(self.buckets) >= MAX_CLIENTS:
                self._prune(now)
            self.buckets[client] = (tokens - 1, now)
            return 0.0
        self.buckets[client] = (tokens, now)
        return (1 - tokens) / self.rate

    @staticmethod
    def header(seconds: float) -> str:
        """The Retry-After value: whole seconds, at least 1."""
        return str(max(1, math.ceil(seconds)))

    def _prune(self, now: float) -> None:
        full = self.burst - 1
        for client, (tokens, at) in list(self.buckets.items()):
            if tokens + (now - at) * self.rate >= full:
                del self.buckets[client]


class RateLimit:
    """A token bucket per connection: ``rate`` frames a second, bursts of ``burst``.

    ``refusals`` counts the frames refused since the bucket was last half full: a client that
    paused has its earlier burst forgiven, one that keeps flooding does not. (Counting refusals
    "in a row" forgave a flood at every token that came back, so a busy server, which reads a
    flood more slowly than the tokens return, never cut it off.)"""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()
        self.refusals = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= self.burst / 2:
            self.refusals = 0
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refusals += 1
        return False

    def reserve(self) -> float:
        """Take a token, borrowing it from the future if none is left: the seconds until it
        is due (0 when one was there)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate) - 1
        self.at = now
        return max(0.0, -self.tokens / self.rate)
