"""The table on a phone (360x740): the moves bar stuck to the bottom of the screen never hides
what the player has to see or press, and the turn line speaks to the player, not about them."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import LONG_S, Server, press, settled, wait_drawn_since_connect, watch_errors
from .test_tables import BOT, HUMAN, sit, start_with

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True}

# Is the element's centre on the screen and the element itself (or a child) drawn there, not the
# bar (or anything else) over it?
SEEN = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  const top = document.elementFromPoint(x, y);
  return top === el || el.contains(top);
}"""


def seen(locator: Any) -> bool:
    return bool(locator.evaluate(SEEN))


# One synchronous look at the page, since the bots keep playing and the table is redrawn between
# any two separate questions to the browser. Scrolled to the top, or with pile i brought into view
# as focus or find in page would: where the bar starts, where each Snap pile ends, and whether each
# pile and call button is drawn where it is rather than under the bar.
LOOK = f"""(i = null) => {{
  scrollTo(0, 0);
  const piles = [...document.querySelectorAll('.sn-seat')];
  if (i !== null) piles[i].scrollIntoView({{ block: 'nearest' }});
  const seen = {SEEN};
  return {{
    scrollY: scrollY,
    bar: document.querySelector('#controls').getBoundingClientRect().top,
    piles: piles.map(el => ({{
      bottom: el.getBoundingClientRect().bottom,
      whole: seen(el),
      seen: seen(el.querySelector('.sn-piles')),
    }})),
    calls: [...document.querySelectorAll('.call')].map(seen),
  }};
}}"""


# The room scrolling leaves under the bar follows the bar's height (a ResizeObserver sets it).
BAR_ROOM = """() => getComputedStyle(document.documentElement).scrollPaddingBottom
  === `${document.querySelector('#controls').offsetHeight + 8}px`"""


def room_for_the_bar(page: Any) -> None:
    """Scrolling leaves the bar's current height (and a little more) under what it brings in."""
    bar = page.locator("#controls").evaluate("el => el.offsetHeight")
    pad = page.evaluate("getComputedStyle(document.documentElement).scrollPaddingBottom")
    assert pad == f"{bar + 8}px", (pad, bar)


def test_slap_piles_brought_into_view_show_above_the_moves_bar(
    server: Server, new_context: Any
) -> None:
    """The bar stuck at the bottom covered the lower players' piles, and scrolling a pile into
    view (what the browser does for focus, find in page, a link) put it right under the bar."""
    tid, token = start_with(server, "slap-the-elephant", [HUMAN, BOT, BOT, BOT])
    page = sit(new_context(**PHONE), server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector("#controls:not([hidden])")
    assert page.locator("#controls").evaluate("el => getComputedStyle(el).position") == "sticky"
    page.wait_for_function(BAR_ROOM)  # its observer has seen the bar as first drawn
    room_for_the_bar(page)
    settled(page)
    for i in range(4):
        look = page.evaluate(LOOK, i)
        assert len(look["piles"]) == 4, look
        assert look["piles"][i]["whole"], (f"pile {i} is under the moves bar", look)
        assert look["piles"][i]["bottom"] <= look["bar"] + 1, (i, look)
    # the call buttons the player presses are never under the bar either
    assert all(page.evaluate(LOOK)["calls"])
    assert not errors, errors


def reach_a_marker(server: Server, tid: str, token: str) -> None:
    """Play seat 0 by the API (taking any Sweepstakes offered) until it must place a marker."""
    end = time.monotonic() + LONG_S
    while time.monotonic() < end:
        frame = server.call("GET", f"/api/tables/{tid}/view", token=token)
        types = [a["type"] for a in frame.get("legal_actions") or []]
        if "marker" in types:
            return
        for want in ("sweepstakes", "roll", "claim_start", "end_turn", "throw", "dice", "die"):
            if want in types:
                action = next(a for a in frame["legal_actions"] if a["type"] == want)
                server.call("POST", f"/api/tables/{tid}/actions",
                            {"move": frame["move"], "action": action}, token=token)  # fmt: skip
                break
        else:
            time.sleep(0.05)  # the bots' turn
    raise AssertionError(f"no Sweepstakes marker to place within {LONG_S:g} s")


def test_gambler_sweepstakes_spaces_come_into_view_once(server: Server, new_context: Any) -> None:
    """While a Sweepstakes marker was asked for, the hint bar covered Pairs and Straight."""
    tid, token = start_with(server, "gambler", [HUMAN, BOT, BOT], options={"first_player": 0})
    page = new_context(**PHONE).new_page()
    links: list[Any] = []

    def link(ws: Any) -> None:  # the test cuts the first connection later on
        links.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/"), link)
    sit(None, server, tid, 0, token, "Sam", page=page)
    errors = watch_errors(page)
    page.wait_for_selector("#controls button.act")
    assert "Sam" not in page.locator("#turn").inner_text()  # "Your turn", not "Sam's turn"
    page.evaluate("window.scrollTo(0, 0)")
    reach_a_marker(server, tid, token)
    page.wait_for_selector(".sw-btn")
    page.wait_for_function(BAR_ROOM)  # its observer has seen the bar grow
    room_for_the_bar(page)  # the bar grew a hint since the start of the turn
    free = page.locator(".sw-btn").all()  # the spaces no marker took; Pairs, Straight last
    assert free
    for space in free:
        assert seen(space), f"{space.get_attribute('data-space')} is not in view"
    turn = page.locator("#turn").inner_text()
    assert turn.startswith("Your turn · place a Sweepstakes marker"), turn
    # the player looks elsewhere; a redraw of the same decision (here after a reconnect) leaves
    # the page where the player put it
    page.evaluate("window.scrollTo(0, 0)")
    links[0].close(code=1006, reason="network gone")
    page.wait_for_selector("#conn.reconnecting")
    page.wait_for_selector("#conn.open")
    wait_drawn_since_connect(page)  # the state frame after the welcome, drawn
    assert page.evaluate("scrollY") == 0
    # the marker is placed by a tap on the space, seen above the bar
    choice = free[-1].get_attribute("data-space")
    free[-1].tap()
    page.wait_for_function(f"document.querySelector('#log').innerText.includes('on {choice}')")
    assert not errors, errors


def test_the_turn_line_does_not_name_the_player_on_their_own_turn(
    server: Server, context: Any
) -> None:
    """The line read "Your turn · Sam turns up a card" to Sam."""
    for game in ("snap", "snake-eyes", "shake"):
        tid, token = start_with(server, game, [HUMAN, BOT])
        page = sit(context, server, tid, 0, token, "Sam")
        page.wait_for_selector("#turn.mine")
        turn = page.locator("#turn").inner_text()
        assert turn.startswith("Your turn") and "Sam" not in turn, (game, turn)
        page.close()


@pytest.mark.parametrize("game", ["snap", "slap-the-elephant"])
def test_every_snap_pile_shows_above_the_bar_at_the_top_of_the_page(
    server: Server, new_context: Any, game: str
) -> None:
    """At the very top of a four-player Snap page the moves bar covered the lowest piles: the
    player had to scroll to see whether a card matched, losing the race for it. The last race's
    order (once there is one) pushed them further down."""
    tid, token = start_with(server, game, [HUMAN, BOT, BOT, BOT])
    page = sit(new_context(**PHONE), server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector("#controls:not([hidden])")
    for flips in range(8):  # as first drawn, then with cards turned up, penalties, races
        # the room kept for the bar follows the bar's height at the next frame (a resize
        # observer sets it): the page as a player sees it, not in the middle of a redraw
        settled(page)
        look = page.evaluate(LOOK)
        assert look["scrollY"] == 0, look
        assert len(look["piles"]) == 4, look
        for i, pile in enumerate(look["piles"]):
            assert pile["bottom"] <= look["bar"] + 1, (flips, i, look)
            assert pile["seen"], (flips, i, look)
        assert all(look["calls"]), (flips, look)
        if page.locator("#controls button.act").count():
            press(page, page.locator("#controls button.act").first)  # and its answer drawn
    assert not errors, errors


def snap_view(players: int, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Seat 0's view of a real Snap deal (flips only) at the first point where `wanted` holds."""
    import gamenight

    for seed in range(200):
        state = gamenight.new_game("snap", players=players).new_state(seed=seed)
        while not state.is_terminal() and len(state.moves) < 200:
            if state.is_chance():
                state.sample_chance()
                continue
            view = dict(state.view(0))
            if wanted(view):
                return view
            seat = next(s for s in state.actors() if {"type": "flip"} in state.legal_actions(s))
            state.apply({"type": "flip"}, seat)
    raise AssertionError(f"no {players}-player deal of 200 came to the view wanted")


def a_pair_below_at_my_turn(view: dict[str, Any]) -> bool:
    """Seat 0 is to flip, its top matching a lower seat's (the seats under it on a phone)."""
    pair = set(view["matches"])  # the seats (None: the centre) whose tops match another's
    return view["turn"] == 0 and 0 in pair and bool(pair & {2, 3})


def test_a_pair_showing_at_a_timed_table_keeps_every_pile_above_the_bar(
    server: Server, new_context: Any
) -> None:
    """A pair showing lengthens the turn line ("Pair showing (owl): call SNAP! · ...") and badges
    each seat of the pair; with the lobby's turn timer beside the line it wrapped a word a row, and
    the lower piles, the pair among them, went under the moves bar. The page draws that state as
    the server would send it: a real frame of a timed table, its view swapped for one with a pair
    (seat 0 and a lower seat), and a notice on top."""
    view = snap_view(4, a_pair_below_at_my_turn)
    tid, token = start_with(server, "snap", [HUMAN, BOT, BOT, BOT], turn_seconds=90)
    context = new_context(**PHONE)
    context.add_init_script("localStorage.setItem('gamenight:first-move:snap', 'yes')")
    page = context.new_page()

    def link(ws: Any) -> None:
        table = ws.connect_to_server()

        def down(message: Any) -> None:
            frame = json.loads(message)
            ws.send(json.dumps(frame | {"view": view}) if frame.get("type") == "state" else message)

        table.on_message(down)

    page.route_web_socket(re.compile(r"/ws/"), link)
    sit(None, server, tid, 0, token, "Alexandra", page=page)
    errors = watch_errors(page)
    page.wait_for_selector(".sn-seat.match >> nth=1")
    page.wait_for_selector("#timer:not([hidden])")
    assert "Pair showing" in page.locator("#turn").inner_text()
    page.wait_for_function(BAR_ROOM)
    # a notice, as a timed-out seat brings: it lies over the header, the table stays put
    before = page.evaluate(LOOK)
    page.evaluate("""() => { const b = document.querySelector('#banner');
                             b.textContent = 'Time ran out for Bot B: the table played it.';
                             b.hidden = false; }""")
    for look in (before, page.evaluate(LOOK)):
        assert look["scrollY"] == 0, look
        for i, pile in enumerate(look["piles"]):
            assert pile["bottom"] <= look["bar"] + 1, (i, look)
            assert pile["seen"], (i, look)
        assert all(look["calls"]), look
    assert page.evaluate(LOOK)["piles"] == before["piles"]
    assert not errors, errors


def test_a_spectators_bar_does_not_cover_the_table(server: Server, new_context: Any) -> None:
    """Watching on a phone, a bar saying only "You are watching." stuck over the bottom of the
    table: the lowest piles stayed hidden under words with nothing to press."""
    tid, _ = start_with(server, "snap", [HUMAN, BOT, BOT, BOT])  # waits for Sam's flips
    page = new_context(**PHONE).new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#controls:not([hidden])")
    assert page.locator("#controls").inner_text() == "You are watching."
    assert page.locator("#controls").evaluate("el => getComputedStyle(el).position") == "static"
    assert page.evaluate("getComputedStyle(document.documentElement).scrollPaddingBottom") == "8px"
    assert not errors, errors
