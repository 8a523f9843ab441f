"""Table manners in a real browser: a seat taken back from another browser, a bot standing in
for an away player until he is back, the host freeing a seat and cancelling, names shown as
typed, the lobby's options in words, the results display and the not-found page; the table's own
log (away, back, a seat freed) on a page opened later and in the replay."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server, watch_errors
from .test_tables import BOT, HUMAN, sit, until


def seats_of(server: Server, tid: str) -> list[dict[str, Any]]:
    return list(server.call("GET", f"/api/tables/{tid}")["seats"])


def open_seat(page: Any, server: Server, tid: str, token: str, name: str) -> None:
    """Open the waiting table as the holder of seat 0's ``token``, as the lobby stores it."""
    page.goto(server.base + "/")
    page.evaluate(
        "([id, v]) => localStorage.setItem('gamenight:seat:' + id, JSON.stringify(v))",
        [tid, {"seat": 0, "token": token, "name": name}],
    )
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#conn.open")


def test_a_player_takes_his_seat_back_from_a_second_browser(
    server: Server, new_context: Any
) -> None:
    made = server.table("shake", [HUMAN, HUMAN], options={"rounds": 3})
    tid = made["table_id"]
    ann = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ann", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/join", {"name": "Ben", "seat": 1})
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    first = sit(new_context(), server, tid, 0, ann, "Ann")
    first.get_by_text("Play from another device").click()
    link = first.get_by_label("your seat link").input_value()
    assert f"/t/{tid}#seat=" in link
    # a second browser (a phone, a cleared one) with nothing stored opens the link
    phone = new_context().new_page()
    errors = watch_errors(phone)
    phone.goto(link)
    phone.wait_for_selector("#conn.open")
    me = phone.locator("#seats li").filter(has=phone.locator(".badge.turn"))
    expect(me).to_contain_text("Ann")
    assert "#seat=" not in phone.url  # the token left the address bar
    kept = phone.evaluate(f"JSON.parse(localStorage.getItem('gamenight:seat:{tid}'))")
    assert kept["token"] == ann and kept["seat"] == 0  # kept by the page: a reload resumes
    phone.reload()
    phone.wait_for_selector("#conn.open")
    expect(phone.locator("#seats li").filter(has=phone.locator(".badge.turn"))).to_contain_text(
        "Ann"
    )
    expect(phone.locator("#join")).to_be_hidden()
    assert not errors, errors


def test_an_away_players_seat_is_played_by_a_bot_until_he_is_back(
    server: Server, new_context: Any
) -> None:
    # Snake Eyes: the dice pass round, so Ann's turn comes soon (a Shake bot may shake on a while)
    made = server.table("snake-eyes", [HUMAN, BOT], turn_seconds=3)
    tid = made["table_id"]
    ann = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ann", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page = sit(new_context(), server, tid, 0, ann, "Ann")
    errors = watch_errors(page)
    # Ann does nothing: her timer runs out, a bot plays her seat and the log says so
    back = page.get_by_role("button", name="I'm back")
    back.wait_for()
    away = "Ann is away: a bot plays for them until they are back"
    expect(page.locator("#log li.note")).to_have_text([away])
    assert seats_of(server, tid)[0]["away"] is True
    expect(page.locator("#seats")).to_contain_text("away · a bot plays")
    moves = server.call("GET", f"/api/tables/{tid}")["move"]
    until(
        lambda: server.call("GET", f"/api/tables/{tid}"),
        lambda t: t["move"] > moves or t["status"] != "playing",
    )
    # the timer off, so she cannot run out of time again while the test looks
    server.call("POST", f"/api/tables/{tid}/timer", {"turn_seconds": None}, made["host_token"])
    # the server keeps the line: a page opened now shows it, among the game's lines after it
    later = new_context().new_page()
    later.goto(f"{server.base}/t/{tid}")
    later.wait_for_selector("#conn.open")
    expect(later.locator("#log li.note")).to_have_text([away])
    expect(later.locator("#log li.note + li:not(.note)")).to_have_count(1)
    back.click()
    expect(back).to_be_hidden()
    for seen in (page, later):
        expect(seen.locator("#log li.note")).to_have_text([away, "Ann is back and plays again"])
    until(lambda: seats_of(server, tid)[0]["away"], lambda away: away is False)
    assert not errors, errors


def test_a_seat_freed_mid_game_is_said_in_the_log_and_in_the_replay(
    server: Server, new_context: Any
) -> None:
    made = server.table("snake-eyes", [HUMAN, BOT], bot_pace="instant")
    tid, host = made["table_id"], made["host_token"]
    server.call("POST", f"/api/tables/{tid}/join", {"name": "<i>Ann</i>", "seat": 0})
    server.call("POST", f"/api/tables/{tid}/start", token=host)
    server.call("POST", f"/api/tables/{tid}/kick", {"seat": 0}, host)  # bots play it out
    until(lambda: server.call("GET", f"/api/tables/{tid}"), lambda t: t["status"] == "finished")
    (note,) = server.call("GET", f"/api/tables/{tid}")["notes"]
    freed = "The host freed seat A (<i>Ann</i>): a bot plays it until someone takes it"
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")  # opened once it is all over: the line is there
    page.wait_for_selector("#over:not([hidden])")
    expect(page.locator("#log li.note")).to_have_text([re.compile(re.escape(freed))])
    assert page.locator("#log i").count() == 0  # the name is text, not markup
    # the replay shows it beside the events of the move it followed, and there only
    page.get_by_role("button", name="Replay the game").click()
    page.get_by_role("button", name="first move").click()

    def shown() -> int:  # the move the replay shows
        return int(re.findall(r"\d+", page.locator(".replay-where").inner_text())[0])

    while shown() < note["move"]:  # (a long game's replay may skip moves)
        page.get_by_role("button", name="next move").click()
    expect(page.locator(".replay-events li.note")).to_have_text([re.compile(re.escape(freed))])
    page.get_by_role("button", name="next move").click()
    expect(page.locator(".replay-events li.note")).to_have_count(0)
    assert not errors, errors


def test_the_host_frees_a_seat_seats_a_bot_and_cancels(server: Server, new_context: Any) -> None:
    made = server.table("shake", [HUMAN, HUMAN, HUMAN, HUMAN])
    tid = made["table_id"]
    host = server.call("POST", f"/api/tables/{tid}/join", {"name": "Hana", "seat": 0})["token"]
    ben = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ben", "seat": 1})["token"]
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('gamenight:host:{tid}', {made['host_token']!r})")
    page = ctx.new_page()
    errors: list[str] = []  # (not watch_errors: it dismisses the host's "are you sure?")
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    open_seat(page, server, tid, host, "Hana")
    # a friend's browser without the host's token has no host controls
    guest = new_context().new_page()
    guest.goto(f"{server.base}/t/{tid}")
    guest.wait_for_selector("#conn.open")
    expect(guest.locator("#waiting")).to_contain_text("Ben")
    assert guest.get_by_role("button", name="Cancel the table").count() == 0
    assert guest.locator("[data-kick]").count() == 0
    # the host frees Ben's seat: his token stops working, the seat is open again
    page.get_by_role("button", name="free Ben (seat B)").click()
    until(lambda: seats_of(server, tid)[1]["taken"], lambda taken: taken is False)
    expect(guest.locator("#join")).to_be_visible()  # the freed seat is offered to take
    with pytest.raises(AssertionError, match="401"):  # the freed seat's token is refused
        server.call("POST", f"/api/tables/{tid}/leave", token=ben)
    # and gives the third seat to a bot
    page.get_by_role("button", name="a bot plays seat C").click()
    until(lambda: seats_of(server, tid)[2]["kind"], lambda kind: kind == "bot")
    expect(guest.locator("#waiting li").nth(2)).to_contain_text("bot")
    assert seats_of(server, tid)[2]["bot"] == "sensible"
    # and the fourth to the search bot, which the guest sees named as such
    page.get_by_role("button", name="a search bot plays seat D").click()
    until(lambda: seats_of(server, tid)[3]["bot"], lambda bot: bot == "search")
    expect(guest.locator("#waiting li").nth(3)).to_contain_text("bot · search")
    page.get_by_role("button", name="Cancel the table").click()
    expect(page.locator("#waiting")).to_contain_text("This table was cancelled")
    expect(guest.locator("#waiting")).to_contain_text("This table was cancelled")
    assert server.call("GET", f"/api/tables/{tid}")["status"] == "cancelled"
    assert not errors, errors


def test_at_a_race_game_the_host_is_offered_no_search_bot(server: Server, new_context: Any) -> None:
    """Snap's bots race by a reaction level and the server refuses a search bot there, so the
    host's seat controls offer the sensible bot alone."""
    made = server.table("snap", [HUMAN, HUMAN, HUMAN])
    tid = made["table_id"]
    host = server.call("POST", f"/api/tables/{tid}/join", {"name": "Hana", "seat": 0})["token"]
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('gamenight:host:{tid}', {made['host_token']!r})")
    page = ctx.new_page()
    errors = watch_errors(page)
    open_seat(page, server, tid, host, "Hana")
    expect(page.get_by_role("button", name="a bot plays seat B")).to_be_visible()
    assert page.locator("[data-kind=search]").count() == 0
    with pytest.raises(AssertionError, match="400|422"):  # and the server says no anyway
        server.call(
            "POST", f"/api/tables/{tid}/bot", {"seat": 1, "bot": "search"}, token=made["host_token"]
        )
    assert not errors, errors


def test_names_with_apostrophes_and_ampersands_are_shown_as_typed(
    server: Server, new_context: Any
) -> None:
    made = server.table("snake-eyes", [HUMAN] * 4)
    tid = made["table_id"]
    server.call("POST", f"/api/tables/{tid}/join", {"name": "Tom & Jerry", "seat": 1})
    server.call("POST", f"/api/tables/{tid}/join", {"name": "<img src=x onerror=f()>"})
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.get_by_label("Your name").fill("O'Brien")
    page.get_by_role("button", name="Join the table").click()
    waiting = page.locator("#waiting")
    for name in ("O'Brien", "Tom & Jerry", "<img src=x onerror=f()>"):
        expect(waiting).to_contain_text(name)  # the characters typed, as text
    assert page.locator("img").count() == 0
    # a second Tom & Jerry is told apart from the first, and told so
    other = new_context().new_page()  # another friend's browser
    other.goto(f"{server.base}/t/{tid}")
    other.get_by_label("Your name").fill("Tom & Jerry")
    other.get_by_role("button", name="Join the table").click()
    expect(other.locator("#banner")).to_contain_text("you are Tom & Jerry 2")
    expect(waiting).to_contain_text("Tom & Jerry 2")
    assert not [e for e in errors if "dialog" in e or "pageerror" in e], errors


def test_the_lobby_offers_options_in_words_and_a_timer(server: Server, context: Any) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.locator("#g-snake-eyes").check()
    assert page.get_by_label("Turn timer").input_value() == "90"  # a timer unless one says not
    page.get_by_text("Rules options").click()
    first = page.get_by_label("Who goes first")
    page.get_by_label("Players").fill("3")
    expect(first.locator("option")).to_have_text(
        ["throw the dice for it, as the rules say", "seat A", "seat B", "seat C"]
    )
    labels = page.locator("#options label").all_inner_texts()
    assert labels and not [t for t in labels if "_" in t], labels
    # data options are named in words and left to the API
    page.locator("#g-gambler").check()
    expect(page.locator(".data-note")).to_contain_text("Fortune cards")
    assert page.locator("#opt-board").count() == 0
    # a blank name and a bad pair of options are refused in words, no table made
    page.locator("#g-snake-eyes-casino").check()
    page.get_by_label("Your name").fill("")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator("#create-msg")).to_contain_text("type your name first")
    page.get_by_label("Your name").fill("Liv")
    page.get_by_label("Smallest wager on one area").fill("50")
    page.get_by_label("Largest wager on one area").fill("10")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator("#create-msg")).to_contain_text("“Smallest wager on one area”")
    assert "option 'options'" not in page.locator("#create-msg").inner_text()
    # a table made here is not listed unless asked: only friends with its link sit down
    page.locator("#g-shake").check()
    page.locator("#seat-1").select_option("human")  # a friend's seat: the table waits
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    assert tid not in {t["table_id"] for t in server.call("GET", "/api/tables")}
    assert server.call("GET", f"/api/tables/{tid}")["turn_seconds"] == 90
    page.get_by_label("Show it under Open tables").check()
    until(lambda: {t["table_id"] for t in server.call("GET", "/api/tables")}, lambda s: tid in s)
    # (the refused table is logged by the browser as a failed request: nothing else went wrong)
    assert not [e for e in errors if "Failed to load resource" not in e], errors


def test_the_results_display_names_bots_and_says_the_session_is_over(
    server: Server, context: Any
) -> None:
    # bots at a person's pace: the display names the shooter as the table page does
    slow = server.table("snake-eyes-casino", [BOT, BOT], options={"max_rolls": 500})
    server.call("POST", f"/api/tables/{slow['table_id']}/start", token=slow["host_token"])
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{slow['table_id']}/display")
    expect(page.locator("#disp-shooter")).to_have_text(re.compile(r"^Shooter: Bot [AB]$"))
    server.call("POST", f"/api/tables/{slow['table_id']}/cancel", token=slow["host_token"])
    expect(page.locator("#disp-what")).to_contain_text("the table was cancelled")
    made = server.table(
        "snake-eyes-casino", [BOT, BOT], bot_pace="instant", options={"max_rolls": 3}
    )
    tid = made["table_id"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    until(lambda: server.call("GET", f"/api/tables/{tid}")["status"], lambda s: s == "finished")
    page.goto(f"{server.base}/t/{tid}/display")
    expect(page.locator("#disp-what")).to_contain_text("the session is over")
    expect(page.locator("#disp-count")).to_have_text("3 rolls so far")
    text = page.locator("body").inner_text()
    assert "Seat " not in text and "undefined" not in text and "Roll 0" not in text, text
    # another game's table has no results to show: said plainly, with the way to the table
    other = server.table("snake-eyes", [BOT, BOT])["table_id"]
    page.goto(f"{server.base}/t/{other}/display")
    expect(page.locator("#disp-what")).to_contain_text("the results display is for")
    expect(page.locator("#conn")).not_to_have_text("connecting…")
    # a table nobody made: the not-found page, not a display stuck on "connecting…"
    page.goto(f"{server.base}/t/nosuchtable/display")
    expect(page.locator("h1")).to_have_text("That page is not here")
    page.goto(f"{server.base}/no/such/page")
    expect(page.get_by_role("link", name="Go to the lobby")).to_be_visible()
    assert not [e for e in errors if "404" not in e and "Failed to load" not in e], errors


def test_the_lobby_offers_a_search_bot_with_its_thinking_time(
    server: Server, new_context: Any
) -> None:
    """At the turn-based games a seat may be a search bot, labelled with the thinking time the
    server gives (`--bot-seconds`, 1 s by default); Snap's bots race by level instead. The long
    label does not widen a phone's lobby."""
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    seconds = {g["id"]: g["bots"]["search_seconds"] for g in server.call("GET", "/api/games")}
    page.locator("#g-snap").check()
    assert page.locator("#seat-1 option[value='bot:search']").count() == 0
    page.locator("#g-gambler").check()
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Players").fill("3")
    search = page.locator("#seat-1 option[value='bot:search']")
    expect(search).to_have_text(f"Search bot — thinks up to {seconds['gambler']:g} s a move")
    page.locator("#seat-1").select_option("bot:search")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("#seat-2").select_option("human")  # a friend's seat: the table waits
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    assert [s["bot"] for s in seats_of(server, tid)] == [None, "search", None]
    expect(page.locator("#waiting .seat-list")).to_contain_text("bot · search")
    assert not errors, errors
