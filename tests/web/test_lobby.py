"""The lobby in a real browser: a newcomer creates a Shake table with two bots and finishes it."""

from __future__ import annotations

import time
from typing import Any

from .conftest import LONG_S, Server, press, shot, watch_errors


def test_newcomer_creates_shake_with_two_bots_and_finishes(server: Server, context: Any) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.locator("#games").get_by_text("Shake", exact=True).click()  # its card, not a table
    assert page.get_by_role("radio", name="Shake").is_checked()
    page.get_by_label("Your name").fill("Newcomer")
    page.get_by_label("Players").fill("3")
    page.get_by_text("Rules options").click()  # each option with what it means
    assert "faces worth 10" in page.locator("#options").inner_text()
    shot(page, "lobby")
    page.get_by_text("Rules options").click()
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    # no reading needed: whatever the game offers, the first (highlighted) button is a sane move
    page.wait_for_selector("#play:not([hidden])")
    end = time.monotonic() + 2 * LONG_S
    while not page.locator("#over:not([hidden])").count():
        assert time.monotonic() < end, "the game did not end"
        page.wait_for_selector("#over:not([hidden]), #controls button.act:enabled")
        button = page.locator("#controls button.act").first
        if button.count():
            # at a person's pace (a second click soon after the first is a double click's
            # second half, which the page ignores rather than make an unseen move), waiting for
            # the answer; None: the table moved on first, look again
            press(page, button)
    page.wait_for_selector("#over:not([hidden])")
    over = page.locator("#over").inner_text()
    assert "wins" in over or "over" in over, over
    assert page.locator("table.pad tbody tr").count() == 3
    assert not errors, errors


def test_a_refused_name_creates_no_table(server: Server, context: Any) -> None:
    """A name the server refuses used to make a table anyway, left in the open list with
    nobody at it, while the lobby said it was not created; every retry made one more."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.locator("#g-snake-eyes").check()
    page.locator("#seat-1").select_option("human")  # a friend's seat: the table would wait
    page.get_by_label("Show it under Open tables").check()  # listed: counted below
    before = len(server.call("GET", "/api/tables"))
    for name in ("Wilhelmina Alexandrovna-Schmidt", "Ann \u202egel"):
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_function("document.querySelector('#create-msg').innerText.length > 0")
        assert "display name" in page.locator("#create-msg").inner_text()
        assert page.get_by_role("button", name="Create the table").is_enabled()
    assert len(server.call("GET", "/api/tables")) == before
    # a good name then creates the table as usual
    page.get_by_label("Your name").fill("Wilhelmina")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    assert len(server.call("GET", "/api/tables")) == before + 1
    assert not errors, errors


def test_a_live_casino_table_from_the_lobby_waits_for_its_dealer(
    server: Server, context: Any
) -> None:
    """With bots in every other seat the lobby starts the table itself; a live casino table
    cannot start before its dealer sits down, and the lobby reported that refusal as 'The table
    was not created' although it was, with the host seated in it. It now opens the table's
    waiting room, where the join link brings the dealer."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.locator("#g-snake-eyes-casino").check()
    page.get_by_text("Rules options").click()
    page.locator("#opt-live").check()
    page.get_by_label("Your name").fill("Liv")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#waiting:not([hidden])")
    assert "Dealer" in page.locator("#waiting").inner_text()
    assert "Liv" in page.locator("#waiting").inner_text()
    # the refused start is logged by the browser as a failed request: nothing else went wrong
    assert not [e for e in errors if "Failed to load resource" not in e], errors


def test_a_player_count_out_of_range_is_refused_in_words(server: Server, context: Any) -> None:
    """Twelve players at Shake drew twelve seat rows and came back as the validator's words
    ('seats: List should have at most 8 items after validation, not 12')."""
    page = context.new_page()
    page.goto(server.base + "/")
    page.locator("#g-shake").check()
    page.get_by_label("Your name").fill("Sam")
    before = len(server.call("GET", "/api/tables"))
    for typed in ("12", "1"):
        page.get_by_label("Players").fill(typed)
        assert page.locator(".seats-edit li").count() <= 6
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_function("document.querySelector('#create-msg').innerText.length > 0")
        assert "Shake is for 2 to 6 players" in page.locator("#create-msg").inner_text()
    assert len(server.call("GET", "/api/tables")) == before


def test_a_full_table_is_offered_to_watch_not_to_join(server: Server, context: Any) -> None:
    """Every seat taken, the host yet to start: the lobby said '0 open seats' beside a Join
    button that could only lead to watching."""
    made = server.table("shake", [{"kind": "human"}, {"kind": "human"}], listed=True)
    tid = made["table_id"]
    for seat, name in enumerate(("Ann", "Ben")):
        server.call("POST", f"/api/tables/{tid}/join", {"name": name, "seat": seat})
    page = context.new_page()
    page.goto(server.base + "/")
    row = page.locator("#tables li").filter(has=page.locator(f'a[href="/t/{tid}"]'))
    row.wait_for()
    assert "full, waiting to start" in row.inner_text()
    assert row.get_by_role("link", name="watch the").count() == 1
    assert row.get_by_role("link", name="join the").count() == 0
