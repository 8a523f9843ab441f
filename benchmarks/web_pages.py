"""How fast the browser pages load from a local `gamenight serve`, and how much they weigh.

Starts the server on a free port, creates one table per game, and opens each page in Debian's
Chromium (Playwright) several times with an empty cache. Prints, per page, the median time to
the load event and to the first drawn table, the bytes fetched, and the ratio of the load time
to a bare page of one small file measured in the same run (the baseline).

    python benchmarks/web_pages.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The running server's base URL and a JSON call."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, method=method, data=data)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read() or b"null")

    def table(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
        return self.call("POST", "/api/tables", {"game": game, "seats": seats, **extra})


GAMES = {
    "snake-eyes": 3,
    "shake": 3,
    "snake-eyes-casino": 3,
    "snap": 3,
    "slap-the-elephant": 3,
    "gambler": 3,
}


def start_server(workdir: Path) -> tuple[Any, Server]:
    import subprocess
    import time
    import urllib.request

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamenight.cli", "serve", "--port", str(port)],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return proc, Server(base)
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def measure(
    browser: Any, url: str, ready: str | None, seat: Any = None
) -> tuple[float, float, int]:
    """(ms to the load event, ms until `ready` is drawn, bytes) with an empty cache."""
    ctx = browser.new_context()
    page = ctx.new_page()
    fetched: list[int] = []
    page.on("requestfinished", lambda r: fetched.append(r.sizes()["responseBodySize"]))
    if seat:
        page.goto(seat["base"] + "/static/favicon.svg")
        page.evaluate(
            "([id, v]) => localStorage.setItem('gamenight:seat:' + id, JSON.stringify(v))",
            [seat["table"], seat["value"]],
        )
        fetched.clear()
    page.goto(url, wait_until="load")
    if ready:
        page.wait_for_selector(ready)
    nav = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return [n.loadEventEnd - n.startTime, performance.now() - n.startTime]; }"
    )
    ctx.close()
    return nav[0], nav[1], sum(fetched)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        proc, server = start_server(Path(tmp))
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages: list[tuple[str, str, str | None, Any]] = [
                ("baseline: /static/favicon.svg", "/static/favicon.svg", None, None),
                ("lobby /", "/", "#games .game-pick", None),
            ]
            for game, n in GAMES.items():
                seats = [{"kind": "human"}] + [{"kind": "bot"}] * (n - 1)
                made = server.table(game, seats, bot_pace="human")
                tid = made["table_id"]
                joined = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})
                server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
                value = {"seat": 0, "token": joined["token"], "name": "Sam"}
                seat = {"base": server.base, "table": tid, "value": value}
                pages.append((f"table {game}", f"/t/{tid}", "#board .game", seat))
                if game == "snake-eyes-casino":
                    pages.append(("casino display", f"/t/{tid}/display", "#disp-total", None))
            rows = []
            base_ms = None
            for name, path, ready, seat in pages:
                runs = [measure(browser, server.base + path, ready, seat) for _ in range(args.runs)]
                load = statistics.median(r[0] for r in runs)
                drawn = statistics.median(r[1] for r in runs)
                weight = max(r[2] for r in runs)
                base_ms = base_ms or load
                rows.append((name, load, drawn, weight, load / base_ms))
            print(f"{'page':34} {'load ms':>8} {'drawn ms':>9} {'KiB':>7} {'x baseline':>11}")
            for name, load, drawn, weight, ratio in rows:
                print(f"{name:34} {load:8.1f} {drawn:9.1f} {weight / 1024:7.1f} {ratio:11.2f}")
            browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
