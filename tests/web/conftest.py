"""A real `gamenight serve` process and a real Chromium for the browser-table tests."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GAMENIGHT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("fastapi", reason="the server extra (fastapi) is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The base URL of a running server and a small JSON client for setting tables up."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} {path}: {e.code} {e.read().decode()}") from None

    def table(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return self.call("POST", "/api/tables", {"game": game, "seats": seats, **extra})


@contextmanager
def serving(workdir: Path) -> Iterator[Server]:
    """`gamenight serve` on 127.0.0.1 and a free port, in `workdir` (its own SQLite), until the
    block ends."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamenight.cli", "serve", "--port", str(port)],
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                out = proc.stdout.read() if proc.stdout else ""
                raise RuntimeError(f"gamenight serve did not start:\n{out}") from None
            time.sleep(0.2)
    try:
        yield Server(base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session, in a fresh directory."""
    with serving(tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Playwright's sync API keeps an event loop running in the
    thread while it is open, so a session-long browser broke every later test in the same
    worker that runs asyncio (a test of another module listed after these ones)."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage, so its own seat tokens)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Any]:
    """Make more fresh profiles: two players at one table each get one."""
    made: list[Any] = []

    def make(**kw: Any) -> Any:
        ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | kw))
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def watch_errors(page: Any) -> list[str]:
    """Collect JavaScript errors and dialogs (an alert would mean injected script ran)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)

    def dialog(d: Any) -> None:
        errors.append(f"dialog: {d.message}")
        d.dismiss()

    page.on("dialog", dialog)
    return errors


def shot(page: Any, name: str) -> None:
    """Save a screenshot for the README (docs/screenshots/NAME.png)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    tall = page.evaluate("document.documentElement.scrollHeight")
    if size and tall > size["height"]:
        # a window as tall as the page: moves kept at the bottom of a phone's screen (sticky)
        # sit where they belong instead of over the middle of a stitched full-page picture
        page.set_viewport_size({"width": size["width"], "height": tall})
        page.wait_for_timeout(100)
    try:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    finally:
        if size:
            page.set_viewport_size(size)
