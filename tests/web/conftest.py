"""A real `gamenight serve` process and a real Chromium for the browser-table tests."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import weakref
from collections.abc import Callable, Iterator
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

# How long a test waits for anything the page or the server does: generous, since CI may run on
# a machine much busier than a desk's (2 cores, other jobs beside it). A wait ends as soon as its
# condition holds, so a long limit costs nothing when all is well.
WAIT_MS = 30_000
WAIT_S = WAIT_MS / 1000
# Bots playing whole games, or a server starting up, on that machine: longer still.
LONG_S = 120.0
# A server's start-up (importing the app, opening its database): 3 s at a desk, 30 s here with
# four test workers and two CPU burners beside it. Awaited by /healthz; this is only the point
# at which to give up.
START_S = 300.0
playwright_api.expect.set_options(timeout=WAIT_MS)

# The server's HTTP limit is 50 requests a second per address, in bursts of 250 (server/app.py
# Settings); the pages under test ask from the same address (the waiting room every 3 s, a table's
# summary at each load). The test client keeps well under it by design, as tests/services.py's
# Client does for frames, and waits as a 429's Retry-After says should it ever get one.
HTTP_PACE, HTTP_BURST = 20.0, 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def until(get: Callable[[], Any], ok: Callable[[Any], Any], seconds: float = LONG_S) -> Any:
    """Poll `get()` until `ok(value)`, for at most `seconds`; fail with the last value."""
    end = time.monotonic() + seconds
    while True:
        value = get()
        if ok(value):
            return value
        assert time.monotonic() < end, f"still not there after {seconds:g} s: {value!r}"
        time.sleep(0.1)


class Pace:
    """A token bucket on the client side: ``rate`` calls a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> None:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            if self.tokens < 1:
                time.sleep((1 - self.tokens) / self.rate)
                self.tokens, self.at = 1.0, time.monotonic()
            self.tokens -= 1


class Server:
    """The base URL of a running server and a small JSON client for setting tables up, paced
    under the server's per-address HTTP limit."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.pace = Pace(HTTP_PACE, HTTP_BURST)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        for _ in range(10):
            req = urllib.request.Request(self.base + path, data=data, method=method)
            req.add_header("Content-Type", "application/json")
            if token:
                req.add_header("Authorization", f"Bearer {token}")
            self.pace.take()
            try:
                with urllib.request.urlopen(req, timeout=WAIT_S) as res:
                    return json.loads(res.read() or b"null")
            except urllib.error.HTTPError as e:
                text = e.read().decode()
                if e.code != 429 or "rate_limited" not in text:
                    raise AssertionError(f"{method} {path}: {e.code} {text}") from None
                time.sleep(float(e.headers.get("Retry-After") or 1))
        raise AssertionError(f"{method} {path}: still told to slow down after 10 tries")

    def table(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return self.call("POST", "/api/tables", {"game": game, "seats": seats, **extra})


@contextmanager
def serving(workdir: Path, *extra: str) -> Iterator[Server]:
    """`gamenight serve` on 127.0.0.1 and a free port, in `workdir` (its own SQLite), until the
    block ends. Ready once /healthz answers, however long the machine takes to get there. Its
    output goes to a file: a pipe nobody reads would stop the server once its buffer filled."""
    port = free_port()
    log = workdir / f"serve-{port}.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gamenight.cli", "serve", "--port", str(port), *extra],
            cwd=workdir,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_S
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                said = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"gamenight serve did not start:\n{said}") from None
            time.sleep(0.2)
    try:
        yield Server(base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=LONG_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session, in a fresh directory.

    Every test here comes from 127.0.0.1 and leaves its tables as they are: the 68 tests make
    about 70 unfinished ones, over the 50 the server lets one address keep (--tables-per-client).
    Which of them one xdist worker runs depends on how fast the others go, so one worker with
    the default cap failed or not by luck; this server plays host to a whole night of players
    behind one address, and takes their tables without a cap."""
    with serving(tmp_path_factory.mktemp("serve"), "--tables-per-client", "0") as running:
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


# Notes, in each page, every frame its table socket sends and every frame the page has handled
# (its own listener has run: the frame is drawn), and every API answer the page has read (the
# code awaiting it has run up to its next wait). A test waits for "the page has drawn the next
# state" or "the page has taken in the server's answer" instead of guessing how long that takes.
# Hooked where the page adds its listener, so a socket routed by the test (route_web_socket) is
# seen as well as a real one. Frames that come before the table page has loaded its game's
# pictures are noted on arrival and drawn a little later: sit() waits for the board itself.
SPY = """(() => {
  window.__handled = [];
  window.__sent = [];
  window.__asked = [];
  window.__answered = [];
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (type === "message" && typeof fn === "function" && "send" in this && "readyState" in this) {
      const socket = this, inner = fn, send = socket.send;
      socket.send = function (data) {
        window.__sent.push(String(data));
        return send.call(this, data);
      };
      fn = function (e) {
        const out = inner.apply(this, arguments);
        let f = null;
        try { f = JSON.parse(e.data); } catch { /* not JSON: the page ignores it too */ }
        if (f) window.__handled.push({ type: f.type, move: f.move, ref: f.ref, seat: f.seat });
        return out;
      };
    }
    return add.call(this, type, fn, opts);
  };
  const fetch = window.fetch;
  window.fetch = function (input) {
    const path = new URL(String(input?.url ?? input), location.href).pathname;
    window.__asked.push(path);
    const done = () => setTimeout(() => window.__answered.push(path), 0);
    return fetch.apply(this, arguments).then((res) => {
      const text = res.text;
      res.text = function () {
        const got = text.apply(this, arguments);
        got.then(done, done);
        return got;
      };
      return res;
    }, (err) => { done(); throw err; });
  };
})();"""


def patient(ctx: Any) -> Any:
    """A browser context whose waits (actions, selectors, functions, loads) last WAIT_MS, and
    whose pages note the frames they send and handle (SPY)."""
    ctx.set_default_timeout(WAIT_MS)
    ctx.set_default_navigation_timeout(WAIT_MS)
    ctx.add_init_script(SPY)
    return ctx


def handled(page: Any, kind: str = "state") -> int:
    """How many frames of type `kind` the page has handled (and drawn) so far."""
    return int(page.evaluate("k => window.__handled.filter(f => f.type === k).length", kind))


def wait_handled(page: Any, more_than: int, kind: str = "state", timeout: float = WAIT_MS) -> None:
    """Wait until the page has handled more than `more_than` frames of type `kind`."""
    page.wait_for_function(
        "([k, n]) => window.__handled.filter(f => f.type === k).length > n",
        arg=[kind, more_than],
        timeout=timeout,
    )


def answered(page: Any, path: str) -> int:
    """How many answers from `path` the page has read (and acted on) so far."""
    return int(page.evaluate("p => window.__answered.filter(x => x === p).length", path))


def wait_answered(page: Any, path: str, more_than: int) -> None:
    """Wait until the page has read more than `more_than` answers from `path`."""
    page.wait_for_function(
        "([p, n]) => window.__answered.filter(x => x === p).length > n", arg=[path, more_than]
    )


def wait_all_answered(page: Any, path: str) -> None:
    """Wait until the page has read the answer to every request it made to `path`."""
    page.wait_for_function(
        "p => window.__answered.filter(x => x === p).length"
        " === window.__asked.filter(x => x === p).length",
        arg=path,
    )


def wait_drawn_since_connect(page: Any) -> None:
    """Wait until the page has drawn a state frame since its latest welcome: after a reconnect,
    the table as it stands now, not only the welcome that says the connection is back."""
    page.wait_for_function(
        """() => { const h = window.__handled.map(f => f.type);
                   const w = h.lastIndexOf("welcome");
                   return w >= 0 && h.indexOf("state", w) > w; }"""
    )


def poll(page: Any, ok: Callable[[], Any], what: str, seconds: float = WAIT_S) -> Any:
    """Poll `ok()` (something the test itself sees, such as a routed socket's messages) until it
    is true, letting Playwright deliver the page's events meanwhile; fail naming `what`."""
    end = time.monotonic() + seconds
    while not (value := ok()):
        assert time.monotonic() < end, f"{what}: not within {seconds:g} s"
        page.wait_for_timeout(50)
    return value


def sent_actions(page: Any) -> list[str]:
    """The action frames the page has sent so far (each is sent in the handler of its click or
    key, so this is complete as soon as the press returns)."""
    return [f for f in page.evaluate("window.__sent") if '"type":"action"' in f.replace(" ", "")]


# Playwright's wait_for_function compiles its predicate with eval inside the page, which the
# server's Content-Security-Policy forbids (no 'unsafe-eval'); the test profiles bypass the
# policy so the tests can wait, and tests/web/test_csp.py draws every kind of page under it.
DESK = {"viewport": {"width": 1280, "height": 900}, "bypass_csp": True}


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage, so its own seat tokens)."""
    ctx = patient(browser.new_context(**DESK))
    yield ctx
    ctx.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Any]:
    """Make more fresh profiles: two players at one table each get one."""
    made: list[Any] = []

    def make(**kw: Any) -> Any:
        ctx = patient(browser.new_context(**(DESK | kw)))
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
    """Save a screenshot for the README (docs/screenshots/NAME.png), once the dice have landed
    and the cards have turned (no animation left running)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("document.getAnimations().length === 0")
    size = page.viewport_size
    tall = page.evaluate("document.documentElement.scrollHeight")
    if size and tall > size["height"]:
        # a window as tall as the page: moves kept at the bottom of a phone's screen (sticky)
        # sit where they belong instead of over the middle of a stitched full-page picture
        page.set_viewport_size({"width": size["width"], "height": tall})
        page.wait_for_function("h => innerHeight === h", arg=tall)
        settled(page)
    try:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    finally:
        if size:
            page.set_viewport_size(size)


def settled(page: Any) -> None:
    """Two animation frames have passed: style, layout and paint of what was set are done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# The page ignores a double click's second half (the browser counts it: detail 2) and a second
# proposal for the same move counter (web/js/table/moves.js): a test presses its moves at a
# person's pace all the same, so no press of a test is taken for the second of a double click.
PERSON_S = 0.4
_last_press: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def at_a_persons_pace(page: Any) -> None:
    """Let PERSON_S pass since this page's last press (press() notes each one)."""
    wait = _last_press.get(page, -PERSON_S) + PERSON_S - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    _last_press[page] = time.monotonic()


def wait_all_sent_answered(page: Any) -> None:
    """Wait until the page has handled the server's answer to every action it has sent."""
    page.wait_for_function(
        """() => window.__sent.map(s => JSON.parse(s)).filter(f => f.type === "action")
                   .every(f => window.__handled.some(h => h.ref === f.ref))"""
    )


def press(page: Any, target: Any, timeout: float = WAIT_MS) -> dict[str, Any] | None:
    """Press a move as a person would: click `target` (a locator) or press the key `target`
    (a string), then wait until the page has handled the server's answer to the action it sent
    (the frame carrying its ref: the next state, or a refusal). Returns that frame's note, or
    None when the press sent no action (the button went, or the table moved on, before it)."""
    at_a_persons_pace(page)
    before = len(page.evaluate("window.__sent"))
    try:
        if isinstance(target, str):
            page.keyboard.press(target)
        else:
            target.click(timeout=5000)  # gone meanwhile: the caller looks again
    except playwright_api.Error:
        return None
    finally:
        _last_press[page] = time.monotonic()
    sent = [json.loads(f) for f in page.evaluate("window.__sent")[before:]]
    refs = [f["ref"] for f in sent if f.get("type") == "action" and f.get("ref")]
    if not refs:
        return None
    page.wait_for_function(
        "r => window.__handled.some(f => f.ref === r)", arg=refs[-1], timeout=timeout
    )
    note: dict[str, Any] = page.evaluate("r => window.__handled.find(f => f.ref === r)", refs[-1])
    return note
