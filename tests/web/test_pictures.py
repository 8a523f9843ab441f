"""Screenshots of every table for the README, at desktop and phone widths, and the page weight."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from .conftest import LONG_S, Server, press, shot, watch_errors
from .test_tables import BOT, HUMAN, sit, start_with

PHONE = {"width": 360, "height": 740}


def play_a_little(page: Any, moves: int) -> None:
    """Press the first offered move a few times, as a player would."""
    for _ in range(moves):
        button = page.locator("#controls button.act").first
        if button.count():
            press(page, button)  # at a person's pace, and answered


def test_shake_table_at_desktop_and_phone_width(server: Server, new_context: Any) -> None:
    tid, token = start_with(server, "shake", [HUMAN, BOT, BOT, BOT])
    page = sit(new_context(), server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    play_a_little(page, 2)
    # a decision, with its crap-out chance: three bots may first shake a few hundred moves,
    # each committed before it is shown, which takes a while on a loaded CI machine
    page.wait_for_selector("#controls button.act", timeout=120_000)
    page.wait_for_selector("[data-testid=crap-chance]")
    shot(page, "shake")
    phone = sit(
        new_context(viewport=PHONE, is_mobile=True, has_touch=True), server, tid, 0, token, "Sam"
    )
    phone.wait_for_selector("table.pad")
    # readable at 360 px: nothing wider than the screen except the score pad's own scroller
    overflow = phone.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], overflow
    shot(phone, "shake-phone")
    assert not errors, errors


PHONE_TABLES = {
    "snake-eyes": [HUMAN, BOT, BOT, BOT],
    "gambler": [HUMAN, BOT, BOT],
    "snake-eyes-casino": [HUMAN, BOT],
    "snap": [HUMAN, BOT, BOT],
    "slap-the-elephant": [HUMAN, BOT, BOT],
}


def test_every_table_and_the_lobby_fit_a_phone(server: Server, new_context: Any) -> None:
    ctx = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    lobby = ctx.new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#games .game-pick")
    assert lobby.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(lobby, "lobby-phone")
    for game, seats in PHONE_TABLES.items():
        tid, token = start_with(server, game, seats, bot_pace="human")
        page = sit(ctx, server, tid, 0, token, "Sam")
        page.wait_for_selector("#board .game")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (game, width)
        # the offered moves are reachable without scrolling: the controls stick to the bottom
        if page.locator("#controls button.act").count():
            box = page.locator("#controls button.act").first.bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], game
        if game in ("snake-eyes", "gambler", "snake-eyes-casino"):
            shot(page, f"{game}-phone")
        page.close()


def test_slap_the_elephant_table(server: Server, context: Any) -> None:
    tid, token = start_with(server, "slap-the-elephant", [HUMAN, BOT, BOT], bot_pace="human")
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    for _ in range(3):  # a few of Sam's turns, the bots playing theirs at a person's pace
        page.wait_for_selector("#controls button.act-flip")
        press(page, "f")
    page.wait_for_selector("button.call-slap")
    assert page.locator("button.call-snap_fingers").count() == 1
    end = time.monotonic() + LONG_S
    while not page.locator(".sn-centre svg.scard").count():  # cards in the middle: a better
        assert time.monotonic() < end, "no card came to the middle"  # picture
        page.wait_for_selector(".sn-centre svg.scard, #controls button.act-flip")
        if not page.locator(".sn-centre svg.scard").count():
            press(page, "f")
    shot(page, "slap-the-elephant")
    assert not errors, errors


def test_casino_layout_with_chips(server: Server, context: Any) -> None:
    seats = [
        HUMAN,
        {"kind": "bot", "strategy": "every_area"},
        {"kind": "bot", "strategy": "hardways"},
    ]
    tid, token = start_with(server, "snake-eyes-casino", seats)
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector("[data-area=num6]:not([disabled])")
    for chip, area in (("chip of 25", "num6"), ("chip of 10", "hard8"), ("chip of 5", "field")):
        page.get_by_role("radio", name=chip, exact=True).click()
        page.locator(f"[data-area={area}]").click()
        page.wait_for_function(
            f"document.querySelector('[data-area={area}]').innerText.includes('A ')"
        )
    shot(page, "casino-layout")


def test_table_page_weight_is_under_300_kb(server: Server, context: Any) -> None:
    tid, token = start_with(server, "gambler", [HUMAN, BOT])
    page = context.new_page()
    sizes: dict[str, int] = {}

    def count(response: Any) -> None:
        if response.url.startswith(server.base) and "/api/" not in response.url:
            with contextlib.suppress(PlaywrightError):
                sizes[response.url] = len(response.body())

    page.on("response", count)
    sit(None, server, tid, 0, token, "Sam", page=page)
    page.wait_for_selector("#board .game")
    page.wait_for_load_state("networkidle")  # every file the page asked for has come
    total = sum(sizes.values())
    print(f"table page: {len(sizes)} files, {total / 1024:.1f} KiB")
    assert any(url.endswith("/js/games/gambler.js") for url in sizes)
    assert total < 300 * 1024, sizes
