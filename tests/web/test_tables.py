"""Every game's table in a real browser against a real server: play, race, wager, reload, escape."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import expect

from .conftest import (
    LONG_S,
    Server,
    answered,
    at_a_persons_pace,
    poll,
    press,
    sent_actions,
    shot,
    until,
    wait_all_answered,
    wait_all_sent_answered,
    wait_answered,
    wait_drawn_since_connect,
    watch_errors,
)

BOT = {"kind": "bot"}
HUMAN = {"kind": "human"}


def sit(
    context: Any, server: Server, table_id: str, seat: Any, token: str, name: str, page: Any = None
) -> Any:
    """Open the table page as the holder of `token` (as the lobby would have stored it)."""
    page = page or context.new_page()
    page.goto(server.base + "/")
    page.evaluate(
        "([id, v]) => localStorage.setItem('gamenight:seat:' + id, JSON.stringify(v))",
        [table_id, {"seat": seat, "token": token, "name": name}],
    )
    page.goto(f"{server.base}/t/{table_id}")
    page.wait_for_selector("#conn.open")
    # the welcome says the seat is known; the board is drawn from the state frame after it
    page.wait_for_selector("#board > *", state="attached")
    return page


def finished_bot_game(server: Server) -> str:
    """A short Snake Eyes game two instant bots have played to the end; its table id."""
    made = server.table("snake-eyes", [BOT, BOT], bot_pace="instant", options={"starting_chips": 4})
    tid = made["table_id"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    until(lambda: server.call("GET", f"/api/tables/{tid}")["status"], lambda s: s == "finished")
    return str(tid)


def start_with(server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> tuple:
    """A table with a human in seat 0 (joined as Sam) started; returns (table_id, token)."""
    made = server.table(game, seats, **({"bot_pace": "instant"} | extra))
    tid = made["table_id"]
    joined = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    return tid, joined["token"]


def test_two_players_join_snake_eyes_by_link_and_play_to_the_end(
    server: Server, new_context: Any
) -> None:
    made = server.table("snake-eyes", [HUMAN, HUMAN], options={"starting_chips": 30})
    tid = made["table_id"]
    pages = []
    for name in ("Ann", "Ben"):
        page = new_context().new_page()
        errors = watch_errors(page)
        page.goto(f"{server.base}/t/{tid}")  # the join link: no token in it
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join the table").click()
        page.wait_for_selector("#conn.open")
        pages.append((page, errors))
    ann, ben = pages[0][0], pages[1][0]
    # both see both names in the waiting room, and everyone is seated: anyone may start
    for page in (ann, ben):
        page.wait_for_function("document.querySelector('#waiting').innerText.includes('Ben')")
        assert "Ann" in page.locator("#waiting").inner_text()
    ben.get_by_role("button", name="Start the game").click()
    # whoever holds the dice throws (if the server leaves the throw to the seat) until a winner
    throws, end = 0, time.monotonic() + 2 * LONG_S
    while not all(p.locator("#over:not([hidden])").count() for p, _ in pages):
        assert time.monotonic() < end, f"no winner after {throws} throws"
        thrown = False
        for page, _ in pages:
            button = page.locator("#controls button.act")
            if button.count():
                if throws == 12:  # mid-game, from the seat holding the dice
                    shot(page, "snake-eyes")
                # waits for the server's answer; None: the table moved on before the click
                if press(page, button.first) is not None:
                    throws, thrown = throws + 1, True
        if not thrown:
            ann.wait_for_timeout(50)  # a frame on its way: look again
    for page, errors in pages:
        page.wait_for_selector("#over:not([hidden])")
        text = page.locator("#over").inner_text()
        assert re.search(r"(Ann|Ben) wins!", text), text
        assert not errors, errors
    assert ann.locator("#over h2").inner_text() == ben.locator("#over h2").inner_text()
    # the winner's row shows every card face down; the kitty went to the winner
    winner = ann.locator(".se-row.winner")
    assert winner.locator("svg.ncard.down").count() == 10
    assert ann.get_by_test_id("kitty").inner_text() == "0"
    shot(ann, "snake-eyes-over")
    # the replay viewer steps back through the game
    ann.get_by_role("button", name="Replay the game").click()
    last = ann.locator(".replay-where").inner_text()
    # every move of the record has its picture, from the server's replay of the game
    steps = int(re.search(r"of (\d+)\)", last).group(1))
    assert steps == len(server.call("GET", f"/api/tables/{tid}/record")["moves"]) + 1
    ann.keyboard.press("Home")
    assert "step 1 of" in ann.locator(".replay-where").inner_text()
    assert ann.locator(".replay-board .se-row svg.ncard.up").count() == 20  # every card up
    ann.keyboard.press("End")
    ann.get_by_role("button", name="previous move").click()
    assert ann.locator(".replay-where").inner_text() != last
    ann.get_by_role("button", name="Close").click()
    # a rematch: Ann asks, Ben is offered the new table, both keep their seats there
    ann.get_by_role("button", name="Rematch").click()
    ann.wait_for_url(re.compile(r"/t/(?!" + tid + ")"))
    ben.get_by_role("button", name="Go to the rematch").click()
    ben.wait_for_url(ann.url)
    for page in (ann, ben):
        page.wait_for_selector("#waiting:not([hidden])")
        expect(page.locator("#waiting .badge", has_text="you")).to_have_count(1)
    ben.get_by_role("button", name="Start the game").click()
    ann.wait_for_selector("#play:not([hidden])")


def snap_pair_showing(server: Server) -> tuple[str, list[str]]:
    """A two-player Snap table (Ann, Ben) whose cards were turned in turn until a pair shows."""
    made = server.table("snap", [HUMAN, HUMAN], bot_pace="instant")
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    for _ in range(300):
        frame = server.call("GET", f"/api/tables/{tid}/view")
        if frame["view"]["matches"]:
            return tid, tokens
        flip = {"move": frame["move"], "action": {"type": "flip"}}
        server.call("POST", f"/api/tables/{tid}/actions", flip, token=tokens[frame["view"]["turn"]])
    raise AssertionError("no pair showed in 300 flips")


class SlowLink:
    """A page whose frames from the server wait while ``holding``: a slow network, so its call
    names the same flip as another's even though that one reaches the server first."""

    def __init__(self, page: Any) -> None:
        self.held: list[Any] = []
        self.holding = False
        self.page_side: Any = None
        page.route_web_socket(re.compile(r"/ws/"), self._link)

    def _link(self, ws: Any) -> None:
        self.page_side = ws
        ws.connect_to_server().on_message(self._deliver)

    def _deliver(self, message: Any) -> None:
        if self.holding:
            self.held.append(message)
        else:
            self.page_side.send(message)

    def answered(self, ref: str) -> bool:
        """Is the server's answer to the frame sent with `ref` among the held messages?"""
        return any(json.loads(m).get("ref") == ref for m in self.held if isinstance(m, str))

    def release(self) -> None:
        """The backlog arrives, in order, once the link is fast again."""
        self.holding = False
        for message in self.held:
            self.page_side.send(message)


def race_too_late(server: Server, first: Any, late: Any, link: SlowLink, tid: str) -> list[str]:
    """``first`` calls Snap, then ``late`` (its frames held) calls on the same flip; the race
    as ``first`` shows it once both calls are in."""
    for page in (first, late):
        page.wait_for_function("document.querySelector('#log').innerText.includes('turns up')")
    link.holding = True
    first.keyboard.press("Space")
    first.wait_for_function("document.querySelectorAll('[data-testid=race] li').length >= 1")
    late.get_by_role("button", name=re.compile("SNAP")).click()
    # the server has taken the late call once its answer (held on the slow link) is back
    call = json.loads(sent_actions(late)[-1])
    poll(late, lambda: link.answered(call["ref"]), "the server's answer to the late call")
    link.release()
    # the call that came too late changes no card, yet both pages show it at once: nobody flips
    move = server.call("GET", f"/api/tables/{tid}/view")["move"]
    for page in (first, late):
        page.wait_for_function("document.querySelectorAll('[data-testid=race] li').length >= 2")
    assert server.call("GET", f"/api/tables/{tid}/view")["move"] == move
    order: list[str] = first.locator("[data-testid=race] li").all_inner_texts()
    assert order == late.locator("[data-testid=race] li").all_inner_texts()
    return order


def test_snap_race_shows_the_servers_order(server: Server, new_context: Any) -> None:
    tid, tokens = snap_pair_showing(server)
    ann = sit(new_context(), server, tid, 0, tokens[0], "Ann")
    ben_page = new_context().new_page()
    link = SlowLink(ben_page)  # Ben's network is slow
    ben = sit(None, server, tid, 1, tokens[1], "Ben", page=ben_page)
    order = race_too_late(server, ann, ben, link, tid)
    race = server.call("GET", f"/api/tables/{tid}/view")["race"]
    names = {0: "Ann", 1: "Ben"}
    expect = [names[a["seat"]] for a in race["arrivals"]]
    assert [re.search(r"Ann|Ben", line).group(0) for line in order] == expect
    # the first call took the pair; the second asked for the same pair after it had gone
    assert race["arrivals"][0]["result"] == "good"
    assert race["arrivals"][1]["result"] == "too late"
    assert "too late" in order[1]
    ben.wait_for_function(
        "document.querySelector('#banner').innerText.includes('Ann called first')"
    )
    shot(ann, "snap")


def test_a_call_too_late_from_a_second_tab_says_the_seat_took_it(
    server: Server, new_context: Any
) -> None:
    """Ann's second tab, a call behind her first, read "someone else called first"."""
    tid, tokens = snap_pair_showing(server)
    ctx = new_context()  # one browser: both tabs hold Ann's seat
    ann = sit(ctx, server, tid, 0, tokens[0], "Ann")
    second = ctx.new_page()
    link = SlowLink(second)
    second = sit(None, server, tid, 0, tokens[0], "Ann", page=second)
    race_too_late(server, ann, second, link, tid)
    # the refusal and the race frame come in either order: the banner is worded from both
    expect(second.locator("#banner")).to_contain_text("you took that call already")
    text = second.locator("#banner").inner_text()
    assert "you took that call already" in text and "someone else" not in text, text


def test_snap_stopped_by_the_flip_limit_says_so(server: Server, context: Any) -> None:
    """A game stopped by `max_flips` is won by the most cards (docs/rules/snap.md), but the
    status line said the winner "holds every card", next to a log giving everyone's count."""
    tid, token = start_with(server, "snap", [HUMAN, BOT], options={"max_flips": 4})
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    end = time.monotonic() + LONG_S
    while not page.locator("#over:not([hidden])").count():
        assert time.monotonic() < end, "the flip limit did not end the game"
        # Sam's card to turn up (the bot turns its own at once), or the end
        page.wait_for_selector("#over:not([hidden]), #controls button.act-flip")
        if not page.locator("#over:not([hidden])").count():
            press(page, "f")
    assert "flip limit" in page.locator("#log").inner_text()
    turn = page.locator("#turn").inner_text()
    assert "every card" not in turn and "turns up" not in turn, turn
    assert "flip limit" in turn, turn
    assert not errors, errors


def test_casino_wager_by_click_settled_by_the_dealer(server: Server, new_context: Any) -> None:
    made = server.table("snake-eyes-casino", [HUMAN], options={"live": True})
    tid = made["table_id"]
    player = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})
    dealer = server.call("POST", f"/api/tables/{tid}/join", {"name": "Dee", "seat": "dealer"})
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    sam = sit(new_context(), server, tid, 0, player["token"], "Sam")
    dee = sit(new_context(), server, tid, "dealer", dealer["token"], "Dee")
    errors = watch_errors(sam)
    sam.get_by_role("button", name="Take the dice").click()
    sam.get_by_role("radio", name="chip of 25").click()
    sam.get_by_role("button", name=re.compile(r"^Field")).click()
    sam.wait_for_function("document.querySelector('[data-area=field]').innerText.includes('A 25')")
    assert sam.get_by_test_id("bankroll-0").inner_text() == "975"
    sam.get_by_role("button", name="Roll the dice").click()
    # the dealer reads 2 and 2 off the table, enters them, sees Field lit, and settles
    dee.wait_for_selector(".dealer .face")
    dee.get_by_role("button", name="die 1 shows 2").click()
    dee.get_by_role("button", name="die 2 shows 2").click()
    dee.get_by_role("button", name="Enter the dice").click()
    dee.wait_for_selector("[data-area=field].lit")
    shot(dee, "casino-dealer")
    dee.get_by_role("button", name="Settle").click()
    # Field pays 1 to 1 on a 4: the 25 comes back with 25 more
    sam.wait_for_function("document.querySelector('[data-testid=bankroll-0]').innerText === '1025'")
    assert "wins 25 on the Field" in sam.locator("#log").inner_text()
    shot(sam, "casino")
    # the results display, a page of its own for a screen at the table
    display = new_context().new_page()
    display.goto(f"{server.base}/t/{tid}/display")
    display.wait_for_function("document.querySelector('#disp-total').innerText === '4'")
    shot(display, "casino-display")
    assert not errors, errors


def test_gambler_turn_with_a_decision(server: Server, context: Any) -> None:
    tid, token = start_with(server, "gambler", [HUMAN, BOT, BOT], options={"first_player": 0})
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector("#controls button.act-buy_ticket")
    assert "$50" in page.locator("#controls .hint").inner_text()  # the decision's odds
    page.get_by_role("button", name=re.compile("Buy a lottery ticket")).click()
    page.wait_for_function("document.querySelector('[data-testid=cash-0]').innerText === '$90'")
    assert page.locator(".gb-players li").first.locator(".ticket").count() == 1
    page.get_by_role("button", name="Roll the dice").click()
    page.wait_for_function("document.querySelector('#log').innerText.includes('Sam rolls')")
    shot(page, "gambler")
    assert not errors, errors


def test_space_on_someone_elses_gambler_turn_takes_no_iou(server: Server, context: Any) -> None:
    """Off turn a Gambler seat may still take an IOU, the only move offered; it was drawn as
    "Your move" in the highlighted button, and Space (which presses a lone move) took a $200
    IOU that costs $20 and stops the player from winning while it is held."""
    made = server.table("gambler", [HUMAN, HUMAN], options={"first_player": 1})
    tid = made["table_id"]
    token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/join", {"name": "Kim", "seat": 1})
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector("#controls button.act-take_iou")
    assert page.locator("#turn").inner_text().startswith("Kim's turn")  # (Kim is not connected)
    assert page.locator("#controls h2").inner_text() != "Your move"
    assert page.locator("#controls button.act.primary").count() == 0
    page.keyboard.press(" ")
    # a move is sent in the key's own handler: none was, so the server has nothing to take
    assert sent_actions(page) == []
    assert page.get_by_test_id("cash-0").inner_text() == "$100"
    # the button itself still takes one, on purpose
    press(page, page.locator("#controls button.act-take_iou"))
    expect(page.get_by_test_id("cash-0")).to_have_text("$300")


# The clicks on the moves, as the page's double-click guard sees them (detail, time).
WATCH_CLICKS = """() => {
  window.__clicks = [];
  document.addEventListener("click", (e) => {
    if (e.target.closest(".act")) window.__clicks.push({ detail: e.detail, at: performance.now() });
  }, true);
}"""


def double_click_shake(server: Server, context: Any, touch: bool) -> list[str] | None:
    """Double click (or double tap) Shake at a Shake table, the second press once the next
    decision's buttons are drawn where the first was pressed; the log lines that follow. None
    when the machine was too slow for the two taps to make a double tap at all (the second
    came 350 ms or more after the first and the browser did not count it as a second one: a
    press of its own, by the page's rule and the browser's): try another table."""
    tid, token = start_with(server, "shake", [HUMAN, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector("#controls button.act")
    while not page.locator("#controls button.act-shake").count():
        # take, until a round offers a shake
        press(page, page.locator("#controls button.act").first)
        page.wait_for_selector("#controls button.act-shake")
    before = len(page.locator("#log li").all_inner_texts())
    box = page.locator("#controls button.act-shake").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(WATCH_CLICKS)
    at_a_persons_pace(page)  # the first press is not the second half of the last one
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.move(x, y)
        page.mouse.down(click_count=1)
        page.mouse.up(click_count=1)
    # the shake is answered and the next decision drawn: the second press lands on it
    wait_all_sent_answered(page)
    if touch:  # the browser counts the second of two quick taps as detail 2
        page.touchscreen.tap(x, y)
    else:  # what the system sends for a double click: the second click counts 2
        page.mouse.down(click_count=2)
        page.mouse.up(click_count=2)
    clicks = page.evaluate("window.__clicks")  # dispatched before the tap or click returned
    if len(clicks) == 2 and clicks[1]["detail"] == 1 and clicks[1]["at"] - clicks[0]["at"] >= 350:
        return None
    # each click sends its move in its own handler: once every move sent is answered and
    # drawn, the log holds whatever the two clicks did
    wait_all_sent_answered(page)
    return page.locator("#log li").all_inner_texts()[before:]


def test_a_double_click_on_a_move_makes_one_move(server: Server, new_context: Any) -> None:
    """The second click of a double click (or tap) landed on the next decision's button, drawn
    where the first was: a double click on Shake also pressed 'Stop and keep', banking points
    the player never saw."""
    for touch in (False, True):
        for _ in range(5):  # a shake of six blanks (1 in 64) ends the turn: try another table
            said = double_click_shake(server, new_context(has_touch=touch), touch)
            if said is not None and not any("craps out" in line for line in said):
                break
        assert said is not None, "no two presses within a double click's time in 5 tries"
        assert any(line.startswith("Sam shakes") for line in said), said
        assert not any(line.startswith("Sam scores") for line in said), said


def test_reload_mid_game_resumes(server: Server, context: Any) -> None:
    tid, token = start_with(server, "shake", [HUMAN, BOT, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector("#controls button.act")
    start = server.call("GET", f"/api/tables/{tid}/view", token=token)["move"]
    page.locator("#controls button.act").first.click()
    # bots play until the table waits for Sam again: then nothing moves until he does (the
    # click travels over the WebSocket: a view read before it lands still shows his turn)
    before = until(
        lambda: server.call("GET", f"/api/tables/{tid}/view", token=token),
        lambda f: f["move"] > start and 0 in f["actors"],
    )
    # the page has drawn that last move (frames may skip moves, never the one that stays)
    page.wait_for_function(
        "m => window.__handled.some(f => f.type === 'state' && f.move === m)", arg=before["move"]
    )
    page.wait_for_selector("#turn.mine")
    pad = page.locator("table.pad").inner_text()
    log_tail = page.locator("#log li").last.inner_text()
    page.reload()
    page.wait_for_selector("#conn.open")
    page.wait_for_selector("#board > *", state="attached")  # drawn from the state after it
    page.wait_for_selector("#turn.mine")
    assert page.locator("table.pad").inner_text() == pad
    assert page.locator("#log li").last.inner_text() == log_tail
    assert server.call("GET", f"/api/tables/{tid}/view", token=token)["move"] == before["move"]
    # still Sam's seat: his moves are offered and accepted
    labels = page.locator("#controls button.act").all_inner_texts()
    assert len(labels) == len(before["legal_actions"])
    page.locator("#controls button.act").first.click()
    page.wait_for_function(
        "m => fetch(location.pathname.replace('/t/', '/api/tables/') + '/view')"
        ".then(r => r.json()).then(f => f.move > m)",
        arg=before["move"],
    )


def test_markup_in_a_display_name_stays_text(server: Server, context: Any) -> None:
    """Any printable name is taken (escaping is the defence): markup in one is shown as the
    characters typed, everywhere it appears."""
    made = server.table("shake", [HUMAN, HUMAN])
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{made['table_id']}")
    evil = "<img src=x onerror=f()>"
    page.get_by_label("Your name").fill(evil)
    page.get_by_role("button", name="Join the table").click()
    waiting = page.locator("#waiting")
    page.wait_for_function(
        "n => document.querySelector('#waiting').innerText.includes(n)", arg=evil
    )
    assert evil in waiting.inner_text()  # shown as the characters typed
    assert page.locator("img").count() == 0
    assert not [e for e in errors if "dialog" in e or "pageerror" in e], errors


def test_a_typed_name_survives_the_waiting_rooms_refreshes(server: Server, context: Any) -> None:
    made = server.table("shake", [HUMAN, HUMAN, HUMAN])
    tid = made["table_id"]
    page = context.new_page()
    page.goto(f"{server.base}/t/{tid}")
    page.get_by_label("Your name").fill("Sa")
    page.locator("#join-seat").select_option("2")
    # the page asks for the seats every 3 s: a refresh with the same seats leaves the form alone
    summary = f"/api/tables/{tid}"
    wait_answered(page, summary, answered(page, summary))  # one more, read after the typing
    assert page.get_by_label("Your name").input_value() == "Sa"
    # another player takes seat A: the form is redrawn without it, and keeps the typing and choice
    server.call("POST", f"/api/tables/{tid}/join", {"name": "Kim", "seat": 0})
    page.wait_for_function("!document.querySelector('#join-seat option[value=\"0\"]')")
    assert page.get_by_label("Your name").input_value() == "Sa"
    assert page.locator("#join-seat").input_value() == "2"
    page.get_by_label("Your name").press_sequentially("m")
    page.get_by_role("button", name="Join the table").click()
    # the page watched already (#conn was open before the join): wait for the seat itself
    seats = until(
        lambda: server.call("GET", f"/api/tables/{tid}")["seats"], lambda s: s[2].get("name")
    )
    assert [s.get("name") for s in seats] == ["Kim", None, "Sam"], seats


def test_a_dropped_connection_says_reconnecting_and_resumes(server: Server, context: Any) -> None:
    tid, token = start_with(server, "shake", [HUMAN, BOT])
    page = context.new_page()
    links: list[Any] = []

    def flaky(ws: Any) -> None:  # the first connection is cut by the test, later ones pass
        links.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/"), flaky)
    sit(None, server, tid, 0, token, "Sam", page=page)
    page.wait_for_selector("#controls button.act")
    links[0].close(code=1006, reason="network gone")
    # read in the same look as the class: the reconnect may follow within half a second
    said = page.wait_for_function(
        "() => document.querySelector('#conn.reconnecting')?.innerText"
    ).json_value()
    assert said == "reconnecting…"
    page.wait_for_selector("#conn.open")
    wait_drawn_since_connect(page)
    assert len(links) >= 2
    # the number keys press the offered moves, and the table takes them after the reconnect
    move = server.call("GET", f"/api/tables/{tid}/view", token=token)["move"]
    page.keyboard.press("1")
    until(
        lambda: server.call("GET", f"/api/tables/{tid}/view", token=token)["move"],
        lambda m: m > move,
    )


def test_turn_timer_counts_down_and_the_table_moves_on(server: Server, context: Any) -> None:
    tid, token = start_with(server, "shake", [HUMAN, BOT], turn_seconds=3)
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector("#timer:not([hidden])")
    # in words every font has: the stopwatch sign "⏱" showed as an empty box without an emoji font
    assert re.fullmatch(r"\d s left", page.locator("#timer").inner_text())
    expect(page.locator("#banner")).to_contain_text("Time ran out for Sam")


def test_a_double_click_on_start_is_no_error(server: Server, context: Any) -> None:
    """The second click of a double click used to ask to start a started table: a red
    banner said "the table is playing, not waiting" just as the game began."""
    made = server.table("shake", [HUMAN, HUMAN])
    tid = made["table_id"]
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate(
        "([id, t]) => localStorage.setItem('gamenight:host:' + id, t)", [tid, made["host_token"]]
    )
    token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})["token"]
    sit(None, server, tid, 0, token, "Sam", page=page)
    page.get_by_role("button", name="Start the game").dblclick()
    page.wait_for_selector("#play:not([hidden])")
    wait_all_answered(page, f"/api/tables/{tid}/start")  # each click's answer, taken in
    assert page.locator("#banner").is_hidden(), page.locator("#banner").inner_text()
    assert server.call("GET", f"/api/tables/{tid}")["status"] == "playing"


def test_the_results_display_names_players_who_sit_down_later(server: Server, context: Any) -> None:
    """A results display is set up before the players arrive; it named the shooter "Seat A"
    for the whole session because it read the names only once, when it connected."""
    made = server.table("snake-eyes-casino", [HUMAN, BOT], bot_pace="instant")
    tid = made["table_id"]
    display = context.new_page()
    errors = watch_errors(display)
    display.goto(f"{server.base}/t/{tid}/display")
    display.wait_for_selector("#conn.open")
    token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Pat", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    view = until(
        lambda: server.call("GET", f"/api/tables/{tid}/view", token=token),
        lambda v: 0 in v["actors"],
    )
    accept = next(a for a in view["legal_actions"] if a["type"] == "accept")
    move = {"move": view["move"], "action": accept}
    server.call("POST", f"/api/tables/{tid}/actions", move, token)
    display.wait_for_function("document.querySelector('#disp-shooter').innerText.length > 0")
    assert display.locator("#disp-shooter").inner_text() == "Shooter: Pat"
    assert not errors, errors


def chat_lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#chat-log li .chat-text").all_inner_texts()]


def test_two_players_chat_and_markup_stays_text(server: Server, new_context: Any) -> None:
    tid, sam_token = start_with(server, "shake", [HUMAN, HUMAN], bot_pace="human")
    kim_token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Kim", "seat": 1})["token"]
    sam = sit(new_context(), server, tid, 0, sam_token, "Sam")
    kim = sit(new_context(has_touch=True), server, tid, 1, kim_token, "Kim")
    errors = [watch_errors(sam), watch_errors(kim)]
    evil = "<img src=x onerror=alert(1)>"
    # Sam types a line of markup and presses Enter
    sam.get_by_label("Message to the table").fill(evil)
    sam.get_by_label("Message to the table").press("Enter")
    for page in (sam, kim):
        page.wait_for_function("document.querySelectorAll('#chat-log li').length === 1")
        assert chat_lines(page) == [evil]  # shown as the characters typed
        assert "Sam:" in page.locator("#chat-log li").first.inner_text()
        assert page.locator("#chat img, #chat-log script").count() == 0
    assert sam.get_by_label("Message to the table").input_value() == ""
    # Kim answers by touch: taps the field, types, taps Send
    kim.get_by_label("Message to the table").tap()
    kim.keyboard.type("nice try & <b>bold</b>?")
    kim.get_by_role("button", name="Send").tap()
    for page in (sam, kim):
        page.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
        assert chat_lines(page) == [evil, "nice try & <b>bold</b>?"]
        assert page.locator("#chat b").count() == 0
    # typing in the chat is not a move: the game's keys are off while the field has focus
    move = server.call("GET", f"/api/tables/{tid}/view")["move"]
    sam.get_by_label("Message to the table").fill("")
    sam.get_by_label("Message to the table").press("1")
    sam.get_by_label("Message to the table").press("Backspace")
    # a refused line comes back as the server's reason, and the text stays to be fixed
    sam.get_by_label("Message to the table").fill("abc\u202edef")
    sam.get_by_role("button", name="Send").click()
    sam.wait_for_function("document.querySelector('#chat-note').innerText.includes('control')")
    assert sam.get_by_label("Message to the table").input_value() == "abc\u202edef"
    assert len(chat_lines(sam)) == 2
    assert server.call("GET", f"/api/tables/{tid}/view")["move"] == move
    # a reload shows the recent chat; a spectator reads it but has no field to write in
    kim.reload()
    kim.wait_for_selector("#conn.open")
    kim.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
    assert chat_lines(kim) == [evil, "nice try & <b>bold</b>?"]
    watcher = new_context().new_page()
    errors.append(watch_errors(watcher))
    watcher.goto(f"{server.base}/t/{tid}")
    watcher.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
    assert watcher.locator("#chat-form").is_hidden()
    assert watcher.locator("img").count() == 0
    shot(sam, "chat")
    for found in errors:
        assert not found, found


def test_chat_at_a_phone_width(server: Server, new_context: Any) -> None:
    made = server.table("snap", [HUMAN, BOT])
    tid = made["table_id"]
    token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Sam", "seat": 0})["token"]
    phone = sit(new_context(viewport={"width": 360, "height": 740}, has_touch=True), server, tid, 0,
                token, "Sam")  # fmt: skip
    # in the waiting room the chat sits under the seats, usable before the game starts
    phone.wait_for_selector("#chat:not([hidden])")
    phone.get_by_label("Message to the table").tap()
    phone.keyboard.type("ready when you are " * 8)
    phone.get_by_role("button", name="Send").tap()
    phone.wait_for_function("document.querySelectorAll('#chat-log li').length === 1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    box = phone.locator("#chat-send").bounding_box()
    assert box and box["x"] + box["width"] <= 360 and box["height"] >= 44
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    phone.wait_for_selector("#play:not([hidden])")
    phone.wait_for_selector("#side #chat:not([hidden])")  # moved beside the table
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert len(chat_lines(phone)) == 1
    shot(phone, "chat-phone")


def test_only_a_seated_player_is_offered_turn_notices(server: Server, new_context: Any) -> None:
    """A spectator has no turn: his status bar offers sounds, not "tell me when it is my turn";
    the player's offers both."""
    tid, token = start_with(server, "shake", [HUMAN, BOT])
    player = sit(new_context(), server, tid, 0, token, "Sam")
    watcher = new_context().new_page()
    errors = watch_errors(watcher)
    watcher.goto(f"{server.base}/t/{tid}")
    watcher.wait_for_selector("#conn.open")
    watcher.wait_for_selector("#board > *", state="attached")
    expect(watcher.locator("#prefs #sound")).to_be_visible()
    assert watcher.locator("#prefs #notify").count() == 0
    expect(player.locator("#prefs #sound")).to_be_visible()
    expect(player.locator("#prefs #notify")).to_be_visible()
    assert not errors, errors
