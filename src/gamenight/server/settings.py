"""How one server process runs: the settings ``gamenight serve`` fills from its command line."""

from __future__ import annotations

from dataclasses import dataclass, field

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
# A search bot's thinking time a move, in seconds: long enough to search, short enough that a
# table never waits on a bot longer than on a slow player
BOT_SECONDS = 1.0
BOT_SECONDS_RANGE = (0.05, 10.0)


def bot_seconds_problem(seconds: float) -> str | None:
    """Why ``seconds`` cannot be a search bot's thinking time a move, or None."""
    lo, hi = BOT_SECONDS_RANGE
    if not lo <= seconds <= hi:  # nan too
        return f"a search bot thinks {lo:g} to {hi:g} seconds a move (got {seconds:g})"
    return None


@dataclass
class Settings:
    """How one server process runs; ``gamenight serve`` fills it from the command line."""

    database_url: str | None = None
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: list[str] = field(default_factory=list)
    idle_minutes: float = 360.0
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    http_rate_per_second: float = 50.0  # per client address, for /api/...; 0 turns it off
    http_rate_burst: float = 250.0
    max_refusals: int = 100
    ws_per_client: int = 100  # open WebSockets per client address; 0 turns the cap off
    tables_per_client: int = 50  # unfinished tables one client address made here; 0: no cap
    watchers_per_table: int = 500  # spectators and displays of one table here; 0: no cap
    allowed_hosts: list[str] = field(default_factory=list)  # Host names served; [] see below
    api_docs: bool = False  # /docs (Swagger UI, loaded from a CDN): off on the tokens' origin
    bot_seconds: float = BOT_SECONDS  # a search bot's thinking time a move (BOT_SECONDS_RANGE)

    def __post_init__(self) -> None:
        problem = bot_seconds_problem(self.bot_seconds)
        if problem:
            raise ValueError(f"bot_seconds: {problem}")

    def hosts(self) -> list[str]:
        """The Host allow-list: a server on a loopback address answers only to loopback names
        (a DNS-rebinding page cannot reach it under its own name); elsewhere any, unless set."""
        if self.allowed_hosts:
            return self.allowed_hosts
        if self.host in LOOPBACK:
            return list(LOOPBACK)
        return ["*"]
