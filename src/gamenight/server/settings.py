"""How one server process runs: the settings ``gamenight serve`` fills from its command line."""

from __future__ import annotations

from dataclasses import dataclass, field

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


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

    def hosts(self) -> list[str]:
        """The Host allow-list: a server on a loopback address answers only to loopback names
        (a DNS-rebinding page cannot reach it under its own name); elsewhere any, unless set."""
        if self.allowed_hosts:
            return self.allowed_hosts
        if self.host in LOOPBACK:
            return list(LOOPBACK)
        return ["*"]
