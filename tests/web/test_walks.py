"""Walks a new user takes through the browser pages: right-to-left names, a finished casino
session, spectating, the record, rematch, a second tab of the same seat, back, forward, reload."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Server, wait_drawn_since_connect, watch_errors
from .test_tables import HUMAN, finished_bot_game, sit

RTL = ["سارة", "דנה"]

# Text nodes holding a name that no isolating element (<bdi>, unicode-bidi: isolate) holds alone.
UNISOLATED = """([sel, names]) => {
  const ISOLATING = ["isolate", "isolate-override", "plaintext"];
  const root = document.querySelector(sel);
  const bad = [];
  let found = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const name of names) {
      if (!n.data.includes(name)) continue;
      found += 1;
      let el = n.parentElement;
      const isolates = (e) => ISOLATING.includes(getComputedStyle(e).unicodeBidi);
      while (el && !isolates(el)) {
        el = el === root ? null : el.parentElement;
      }
      if (!el || el.textContent.trim() !== name) bad.push(n.parentElement.textContent);
    }
  }
  return { found, bad };
}"""


def unisolated(page: Any, sel: str, names: list[str]) -> list[str]:
    """Lines in `sel` where a name is not isolated; fails if `sel` shows no name at all."""
    got = page.evaluate(UNISOLATED, [sel, names])
    assert got["found"], f"no name shown in {sel}"
    return list(got["bad"])


def play(server: Server, tid: str, token: str, want: dict[str, Any]) -> None:
    """Make the seat of `token` take the action `want` (filled in from a legal one of its type
    and area: a wager lists the table minimum; the dealer's moves are not listed)."""
    view = server.call("GET", f"/api/tables/{tid}/view", token=token)
    same = [a for a in view["legal_actions"] if a["type"] == want["type"]]
    action = next((a for a in same if a.get("area") == want.get("area")), {}) | want
    move = {"move": view["move"], "action": action}
    server.call("POST", f"/api/tables/{tid}/actions", move, token)


def casino_for_two(server: Server, **options: Any) -> tuple[str, list[str]]:
    """A casino table of سارة and דנה: she declines the dice, he shoots; both wager."""
    made = server.table("snake-eyes-casino", [HUMAN, HUMAN], options=options)
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(RTL)
    ]
    if options.get("live"):  # the dealer's token follows the players'
        dealer = server.call("POST", f"/api/tables/{tid}/join", {"name": "Dee", "seat": "dealer"})
        tokens.append(dealer["token"])
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    play(server, tid, tokens[0], {"type": "decline"})
    play(server, tid, tokens[1], {"type": "accept"})
    play(server, tid, tokens[0], {"type": "wager", "area": "hard6", "amount": 25})
    play(server, tid, tokens[1], {"type": "wager", "area": "num6", "amount": 10})
    return tid, tokens


def test_right_to_left_names_are_isolated_wherever_they_show(
    server: Server, new_context: Any
) -> None:
    """ "سارة 975" next to a bankroll was drawn "975 سارة": an Arabic or Hebrew name carried the
    numbers and punctuation beside it into its own direction: turn line, seats, bankrolls, chat."""
    tid, tokens = casino_for_two(server)
    page = sit(new_context(), server, tid, 0, tokens[0], RTL[0])
    errors = watch_errors(page)
    page.wait_for_function("document.querySelector('#turn').innerText.includes('דנה')")
    page.locator("#chat-text").fill("שלום 123")
    page.locator("#chat-send").click()
    page.wait_for_selector("#chat-log li")
    for sel in ("#turn", "#seats", "#chat-log", ".purses", ".cas-who"):
        assert not unisolated(page, sel, RTL), sel
    assert not errors, errors


def finished_casino(server: Server) -> tuple[str, list[str]]:
    """A one-roll live session: the dealer enters 2 + 3, which decides neither standing wager
    (Hard 6 and the 6), and settles; the session is over with both still on the layout."""
    tid, tokens = casino_for_two(server, live=True, max_rolls=1)
    play(server, tid, tokens[1], {"type": "roll"})
    play(server, tid, tokens[2], {"type": "dice", "faces": [2, 3]})
    play(server, tid, tokens[2], {"type": "settle"})
    return tid, tokens


def test_a_finished_casino_session_shows_standing_wagers_returned(
    server: Server, new_context: Any
) -> None:
    """When the session ended, the wagers still standing stayed drawn on the layout as chips in
    play, and the bankrolls left them out, while the results counted them as returned."""
    tid, tokens = finished_casino(server)
    final = server.call("GET", f"/api/tables/{tid}/view", token=tokens[0])
    assert final["view"]["phase"] == "closed"
    standing = {(w["seat"], w["area"]): w["amount"] for w in final["view"]["layout"]}
    assert standing == {(0, "hard6"): 25, (1, "num6"): 10}  # what the engine still holds
    page = sit(new_context(), server, tid, 0, tokens[0], RTL[0])
    errors = watch_errors(page)
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#over .winner-line").inner_text().strip() == "The session is over"
    assert page.locator(".layout .stack").count() == 0  # nothing in play any more
    assert page.locator(".rack").count() == 0  # and no chips to place
    returned = page.get_by_test_id("returned").inner_text()
    assert "25" in returned and "Hard 6" in returned and "10" in returned, returned
    # each bankroll holds its returned wager, as the result (+/-) of each seat counts it
    for seat in (0, 1):
        bank = int(page.get_by_test_id(f"bankroll-{seat}").inner_text())
        net = (
            final["view"]["bankrolls"][seat]
            - 1000
            + sum(a for (s, _), a in standing.items() if s == seat)
        )
        assert bank == 1000 + net, (seat, bank, net)
        result = page.get_by_test_id(f"standing-{seat}").inner_text()
        assert result == f"{bank} chips ({net:+d})".replace("(+0)", "(0)"), result
    # the results display says the session is over, as the table does
    display = new_context().new_page()
    display.goto(f"{server.base}/t/{tid}/display")
    display.wait_for_function("document.querySelector('#disp-total').innerText === '5'")
    assert "session is over" in display.locator("#disp-what").inner_text()
    assert not errors, errors


def test_a_results_display_opened_mid_session_marks_the_right_hard_ways(
    server: Server, context: Any
) -> None:
    """A display opened (or reloaded) mid-session hears only the last lines of the log, so it
    knows how the newest rolls came but not the oldest of the results it shows: it laid the
    newest rolls' hard-way marks on the oldest results, outlining an easy 5 as a hard way."""
    tid, tokens = casino_for_two(server, live=True)
    shooter, dealer = tokens[1], tokens[2]
    throws = [(3, 3)] + [(2, 3)] * 14 + [(2, 2)]  # hard 6, fourteen easy 5s, hard 4
    for faces in throws:
        for area in ("any7", "craps2", "craps3"):  # one-roll losers: many log lines per roll
            play(server, tid, shooter, {"type": "wager", "area": area, "amount": 5})
        play(server, tid, shooter, {"type": "roll"})
        play(server, tid, dealer, {"type": "dice", "faces": list(faces)})
        play(server, tid, dealer, {"type": "settle"})
    page = context.new_page()
    errors = watch_errors(page)
    links: list[Any] = []

    def cut_later(ws: Any) -> None:  # the test cuts the first connection; later ones pass
        links.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/"), cut_later)
    page.goto(f"{server.base}/t/{tid}/display")
    page.wait_for_function("document.querySelector('#disp-total').innerText === '4'")
    for _ in ("opened mid-session", "after a reconnect, which sends the last lines again"):
        shown = page.locator("#disp-results li")
        assert shown.all_inner_texts() == ["4"] + ["5"] * 14 + ["6"]  # newest first
        classes = shown.evaluate_all("els => els.map(e => e.className)")
        marked = [i for i, c in enumerate(classes) if "hard" in c]
        assert 0 in marked  # the hard 4 just thrown
        assert not set(marked) & set(range(1, 15)), marked  # no easy 5 is outlined
        assert page.locator("#disp-what").inner_text() == "Hard 4"
        if len(links) == 1:
            links[0].close(code=1006, reason="network gone")
            page.wait_for_selector("#conn.reconnecting")
            page.wait_for_selector("#conn.open")
            wait_drawn_since_connect(page)  # the state frame after the welcome
    assert len(links) == 2
    assert not errors, errors


def test_leave_a_seat_and_take_another_with_two_tabs_open(server: Server, context: Any) -> None:
    """A player who took the wrong seat could not give it back; and a tab of the same browser
    kept calling itself that seat after it changed in another tab."""
    made = server.table("shake", [HUMAN, HUMAN])
    tid = made["table_id"]
    first = context.new_page()
    errors = watch_errors(first)
    first.goto(f"{server.base}/t/{tid}")
    first.get_by_label("Your name").fill("Ann")
    first.get_by_role("button", name="Join the table").click()
    first.wait_for_selector("#waiting .badge.turn")
    second = context.new_page()  # the same link in another tab: the same seat
    second.goto(f"{server.base}/t/{tid}")
    second.wait_for_selector("#waiting .badge.turn")
    second.get_by_role("button", name="Leave the seat").click()
    for page in (first, second):  # both tabs now watch, and offer the seat again
        page.wait_for_selector("#join:not([hidden])")
        assert page.locator("#waiting .badge.turn").count() == 0
    assert not server.call("GET", f"/api/tables/{tid}")["seats"][0]["taken"]
    second.locator("#join-seat").select_option("1")
    second.get_by_role("button", name="Join the table").click()
    for page in (first, second):  # the first tab follows the seat taken in the second
        page.wait_for_function(
            "document.querySelectorAll('#waiting li')[1]?.innerText.includes('you')"
        )
        assert page.locator("#join").is_hidden()
    first.reload()
    first.wait_for_function(
        "document.querySelectorAll('#waiting li')[1]?.innerText.includes('you')"
    )
    ben = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ben", "seat": 0})
    server.call("POST", f"/api/tables/{tid}/start", token=ben["token"])
    first.wait_for_selector("#play:not([hidden])")
    assert "Leave the seat" not in first.locator("#main").inner_text()  # not once it plays
    assert not errors, errors


def test_a_seat_token_refused_at_hello_falls_back_to_watching(server: Server, context: Any) -> None:
    """A token the table no longer knows (its seat given back from another browser) is
    forgotten: the page watches and offers the seats, not "disconnected" for good."""
    made = server.table("shake", [HUMAN, HUMAN])
    tid = made["table_id"]
    gone = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ann", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/leave", token=gone)
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate(
        "([id, v]) => localStorage.setItem('gamenight:seat:' + id, JSON.stringify(v))",
        [tid, {"seat": 0, "token": gone, "name": "Ann"}],
    )
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#join:not([hidden])")
    page.wait_for_selector("#conn.open")
    assert page.evaluate(f"localStorage.getItem('gamenight:seat:{tid}')") is None
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Join the table").click()
    page.wait_for_selector("#waiting .badge.turn")


def test_a_spectator_of_a_finished_game_gets_the_result_and_the_replay(
    server: Server, new_context: Any
) -> None:
    """The watch link of a finished game still said "You are watching." in a moves box (on a
    phone, stuck over the table), and the replay's first and last buttons were empty boxes."""
    tid = finished_bot_game(server)
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#controls").is_hidden()
    assert page.get_by_role("button", name="Rematch").count() == 0  # no seat, no host: no rematch
    page.get_by_role("button", name="Replay the game").click()
    # words, and icons drawn as SVG (no glyph a font may lack)
    for name, word in (("first move", "First"), ("last move", "Last")):
        button = page.get_by_role("button", name=name)
        assert button.inner_text() == word
        assert button.locator("svg.icon").count() == 1
    page.get_by_role("button", name="first move").click()
    assert "step 1 of" in page.locator(".replay-where").inner_text()
    assert not errors, errors


def test_browser_back_closes_the_replay_and_forward_or_reload_reopen_it(
    server: Server, context: Any
) -> None:
    """Back, pressed in the replay of a finished game, left the table for the page before it
    (the lobby) instead of closing the replay; a reload of the replay lost it."""
    tid = finished_bot_game(server)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.goto(f"{server.base}/t/{tid}")
    page.get_by_role("button", name="Replay the game").click()
    page.wait_for_selector("#replay:not([hidden])")
    page.go_back()
    page.wait_for_selector("#replay", state="hidden")
    assert page.url == f"{server.base}/t/{tid}"
    assert page.locator("#over").is_visible()
    page.go_forward()
    page.wait_for_selector("#replay:not([hidden])")
    page.reload()
    page.wait_for_selector("#replay:not([hidden]) .replay-where")
    page.get_by_role("button", name="Close").click()  # loaded with #replay: Close stays here
    page.wait_for_selector("#replay", state="hidden")
    assert page.url == f"{server.base}/t/{tid}"
    page.get_by_role("button", name="Replay the game").click()
    page.get_by_role("button", name="Close").click()
    page.wait_for_selector("#replay", state="hidden")
    assert page.url == f"{server.base}/t/{tid}"
    assert not errors, errors


def test_a_voided_entry_leaves_the_results_display_on_the_last_real_roll(
    server: Server, context: Any
) -> None:
    """The dealer entered 4 + 4 and then called no roll: the display went back to the last
    real total, 5, but kept drawing the voided 4 and 4 beside it."""
    tid, tokens = casino_for_two(server, live=True)
    shooter, dealer = tokens[1], tokens[2]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}/display")
    page.wait_for_selector("#conn.open")
    play(server, tid, shooter, {"type": "roll"})
    play(server, tid, dealer, {"type": "dice", "faces": [2, 3]})
    play(server, tid, dealer, {"type": "settle"})
    play(server, tid, shooter, {"type": "roll"})
    play(server, tid, dealer, {"type": "dice", "faces": [4, 4]})
    page.wait_for_function("document.querySelector('#disp-total').innerText === '8'")
    play(server, tid, dealer, {"type": "void", "reason": "a die left the table"})
    page.wait_for_function("document.querySelector('#disp-total').innerText === '5'")
    pips = page.locator("#disp-dice svg").evaluate_all(
        "svgs => svgs.map(s => s.querySelectorAll('circle').length)"
    )
    assert pips == [2, 3], pips  # the 5's own dice, not the voided 4 and 4
    assert not errors, errors


def test_the_replay_of_a_live_casino_session_names_the_dealer(
    server: Server, new_context: Any
) -> None:
    """The record of a live table listed the dealer's entered dice and settlement as moves of
    "chance", as if the table had drawn them."""
    tid, tokens = finished_casino(server)
    page = sit(new_context(), server, tid, 0, tokens[0], RTL[0])
    page.get_by_role("button", name="Replay the game").click()
    page.locator(".replay details summary").click()
    moves = page.locator(".replay-moves li").all_inner_texts()
    assert moves[-2:] == ["the dealer: dice 2 and 3", "the dealer: settle"], moves
    assert not any(m.startswith("chance") for m in moves), moves
