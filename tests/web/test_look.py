"""How the tables look and move in a real Chromium: every game played by clicks to its end
screen, motion that runs when allowed and never under reduced motion, a bot's steps drawn at a
watchable pace, the phone layouts, the rules panel, and the screenshots of every game."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LONG_S, Server, patient, press, settled, shot, until, watch_errors
from .test_tables import BOT, HUMAN, finished_bot_game, sit, start_with

# Every game, with options that keep a game by clicks short, and a name for its screenshots.
GAMES: dict[str, dict[str, Any]] = {
    "snake-eyes": {"starting_chips": 6},
    "shake": {"rounds": 1},
    "snap": {"max_flips": 40},
    "slap-the-elephant": {"max_flips": 40},
    "gambler": {"max_turns": 10},
    "snake-eyes-casino": {"max_rolls": 4},
}
PHONE = {"width": 360, "height": 740}
TURN_LINE = "document.getElementById('turn').dataset.line"
# The moves that put a table in play for its pictures (never a purchase or an IOU).
PLAY_ON = ".act-throw, .act-roll, .act-dice, .act-flip, .act-take, .act-accept"

# Counts every animation the page starts (Web Animations API), and notes CSS ones as they run.
COUNT_MOTION = """(() => {
  window.__animated = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function () {
    window.__animated += 1;
    return animate.apply(this, arguments);
  };
  addEventListener("animationstart", () => { window.__animated += 1; }, true);
  addEventListener("transitionstart", () => { window.__animated += 1; }, true);
})();"""

# Words split over two lines inside a name, and the page's width against the window's.
BROKEN_WORDS = """(sel) => {
  const bad = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((x) => x.width > 0);
        const lines = new Set(rects.map((x) => Math.round(x.top)));
        if (lines.size > 1) bad.push(m[0]);
      }
    }
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== "visible"
        && getComputedStyle(el).textOverflow !== "ellipsis") bad.push(`cut: ${el.textContent}`);
  }
  return bad;
}"""
NAMES = ".seat-name, .sp-name, .a-name, .sw-name, .call-text, #over th, .rules summary"


def one_click(page: Any, game: str) -> None:
    """Make this seat's next move as a player would, by a click (or wait: a bot moves)."""
    page.wait_for_selector(
        "#over:not([hidden]), #controls button.act, .sw-btn, .area:enabled, .call:enabled"
    )
    if page.locator("#over:not([hidden])").count():
        return
    if game in ("snap", "slap-the-elephant"):
        # call on a pair (Snap) or on an elephant or a mouse on top (Slap), else turn a card
        call = page.locator(".call:enabled")
        text = page.locator("#turn").inner_text() + page.locator(".sn-centre").inner_text()
        spotted = "Pair showing" in text or "elephant" in text or "mouse" in text
        if spotted and call.count():
            press(page, call.first)
            return
        flip = page.locator("#controls button.act-flip")
        if flip.count():
            press(page, flip)
        else:
            page.wait_for_timeout(100)  # the bot flips: look again
        return
    casino = game == "snake-eyes-casino"
    if casino and page.locator(".area:enabled").count() and not page.locator(".has-mine").count():
        press(page, page.locator("[data-area=num6]"))
        return
    if page.locator(".sw-btn").count():
        press(page, page.locator(".sw-btn").first)
        return
    button = page.locator("#controls button.act").first
    if button.count():
        press(page, button)
    else:
        page.wait_for_timeout(100)


def play_out(page: Any, game: str) -> None:
    end = time.monotonic() + 3 * LONG_S
    while not page.locator("#over:not([hidden])").count():
        assert time.monotonic() < end, f"{game}: the game did not end"
        one_click(page, game)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_played_by_clicks_ends_on_a_screen_with_standings(
    server: Server, new_context: Any, game: str
) -> None:
    """Every game, Sam against a bot, by clicks only: the end screen names the winner (or says
    the game or the session is over), ranks both seats with the game's own figure, and offers
    Rematch and Replay; on a phone they come before the board, not under it."""
    tid, token = start_with(server, game, [HUMAN, BOT], options=GAMES[game])
    page = sit(new_context(viewport=PHONE), server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    play_out(page, game)
    over = page.locator("#over")
    view = server.call("GET", f"/api/tables/{tid}/view")["view"]
    # a winner is named; a session (the casino) or a drawn game is said to be over
    won = view.get("winner") is not None or bool(view.get("winners"))
    expect(over.locator(".winner-line")).to_contain_text("win" if won else "is over")
    rows = over.locator(".standings tbody tr")
    expect(rows).to_have_count(2)
    figures = [page.get_by_test_id(f"standing-{s}").inner_text() for s in (0, 1)]
    if game == "shake":
        assert figures == [f"{p['total']} points" for p in view["players"]]
    elif game == "gambler":
        assert [f.split(" ")[0] for f in figures] == [
            f"{'−' if p['cash'] < 0 else ''}${abs(p['cash'])}" for p in view["players"]
        ]
    elif game in ("snap", "slap-the-elephant"):
        held = [p["pack"] + len(p.get("face_up", [])) for p in view["players"]]
        assert [int(f.split(" ")[0]) for f in figures] == held
    elif game == "snake-eyes":
        assert [f.split(" · ")[1] for f in figures] == [
            f"{p['chips']} chips" for p in view["players"]
        ]
    else:
        chips = r"\d+ chips \((\+\d+|-\d+|0)\)"  # what each holds, and what he won or lost
        assert all(re.fullmatch(chips, f) for f in figures), figures
    # the winner, if any, is first and marked
    winner = server.call("GET", f"/api/tables/{tid}/record")
    if view.get("winner") is not None:
        assert rows.first.get_attribute("data-seat") == str(view["winner"])
        expect(rows.first.locator(".badge")).to_have_text("winner")
    # Rematch and Replay above the board on the phone
    rematch = page.get_by_role("button", name="Rematch").bounding_box()
    board = page.locator("#board").bounding_box()
    assert rematch and board and rematch["y"] < board["y"], (rematch, board)
    assert winner["moves"], "the record has the game"
    # the end screen fits the phone too, names whole
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(BROKEN_WORDS, NAMES) == []
    assert not errors, errors


def test_friends_are_moved_to_the_rematch_together(server: Server, new_context: Any) -> None:
    """Ann asks for a rematch; Ben, still on the end screen, is taken to the new table to his
    own seat after a short count, without a click; one who chooses to stay, stays."""
    made = server.table("shake", [HUMAN, HUMAN, HUMAN], bot_pace="instant", options={"rounds": 1})
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben", "Cat"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    for _ in range(400):  # the players play it out through the API
        view = server.call("GET", f"/api/tables/{tid}/view")
        if server.call("GET", f"/api/tables/{tid}")["status"] == "finished":
            break
        if not view["actors"]:
            continue
        seat = view["actors"][0]
        mine = server.call("GET", f"/api/tables/{tid}/view", token=tokens[seat])
        legal = mine["legal_actions"]  # take or stop where they may: a short game
        action = next((a for a in legal if a["type"] in ("take", "stop")), legal[0])
        body = {"move": mine["move"], "action": action}
        server.call("POST", f"/api/tables/{tid}/actions", body, token=tokens[seat])
    assert server.call("GET", f"/api/tables/{tid}")["status"] == "finished"
    ben = sit(new_context(), server, tid, 1, tokens[1], "Ben")
    cat = sit(new_context(), server, tid, 2, tokens[2], "Cat")
    for page in (ben, cat):
        page.wait_for_selector("#over:not([hidden])")
    fresh = server.call("POST", f"/api/tables/{tid}/rematch", token=tokens[0])["table_id"]
    cat.get_by_role("button", name="Stay here").click()
    ben.wait_for_url(f"**/t/{fresh}", timeout=LONG_S * 1000)
    ben.wait_for_selector("#waiting:not([hidden])")
    expect(ben.locator("#waiting .badge", has_text="you")).to_have_count(1)
    expect(cat.locator("#rematch-count")).to_have_text("You stay here. ")
    assert fresh not in cat.url


def snake_eyes_for(page_of: Any, server: Server) -> tuple[Any, str]:
    """Sam at a Snake Eyes table with a bot; his page open."""
    tid, token = start_with(server, "snake-eyes", [HUMAN, BOT], options={"first_player": 0})
    return sit(page_of, server, tid, 0, token, "Sam"), tid


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_dice_roll_and_cards_turn_unless_the_player_asked_for_less_motion(
    browser: Any, server: Server, motion: str
) -> None:
    """A throw rolls the dice and turns the card down; under prefers-reduced-motion the same
    throws draw the table at once, with no animation of any kind started."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    try:
        patient(ctx).add_init_script(COUNT_MOTION)
        page, _ = snake_eyes_for(ctx, server)
        errors = watch_errors(page)
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") == (
            motion == "reduce"
        )
        for _ in range(3):
            page.wait_for_selector("#over:not([hidden]), #controls button.act.primary")
            if page.locator("#over:not([hidden])").count():
                break
            press(page, page.locator("#controls button.act.primary"))
            settled(page)
        animated = page.evaluate("window.__animated")
        if motion == "reduce":
            assert animated == 0
            assert page.evaluate("document.getAnimations().length") == 0
        else:
            assert animated > 0
        assert not errors, errors
    finally:
        ctx.close()


def test_a_bots_turn_is_drawn_step_by_step(server: Server, new_context: Any) -> None:
    """Two instant bots and a watcher: every burst of moves is drawn, and the watcher's page
    reaches the end screen with the table as the server has it."""
    made = server.table("snake-eyes", [BOT, BOT], bot_pace="instant", options={"starting_chips": 6})
    tid = made["table_id"]
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#conn.open")
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page.wait_for_selector("#over:not([hidden])", timeout=LONG_S * 1000)
    kitty = server.call("GET", f"/api/tables/{tid}/view")["view"]["kitty"]
    expect(page.get_by_test_id("kitty")).to_have_text(str(kitty))
    assert not errors, errors


# The page's pacing, driven with frames made up here: what it draws at once, what waits its turn.
PACE = """async () => {
  const { arrive, waiting } = await import("/static/js/table/pace.js");
  const drawn = [];
  const draw = (f) => drawn.push(f.move);
  const wait = async (ok) => { while (!ok()) await new Promise((r) => setTimeout(r, 20)); };
  const seen = {};
  arrive({ move: 1 }, draw);                   // after a pause: drawn at once
  arrive({ move: 2 }, draw);                   // quick on its heels: waits its turn
  arrive({ move: 3 }, draw);
  seen.burst = [drawn.slice(), waiting()];
  await wait(() => waiting() === 0);
  seen.played = drawn.slice();
  for (let m = 4; m <= 10; m += 1) arrive({ move: m }, draw); // far behind: catches up
  seen.caught = [drawn.slice(), waiting()];
  arrive({ move: 11 }, draw);
  arrive({ move: 12 }, draw, { urgent: true }); // this seat's own answer: everything at once
  seen.urgent = [drawn.slice(), waiting()];
  return seen;
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_others_moves_are_drawn_at_a_watchable_pace(
    browser: Any, server: Server, motion: str
) -> None:
    """Steps that come in a burst wait their turn and are drawn in order; a queue grown long
    is drawn at once; an urgent frame draws everything before it; with reduced motion nothing
    waits."""
    ctx = patient(browser.new_context(reduced_motion=motion))
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        seen = page.evaluate(PACE)
    finally:
        ctx.close()
    if motion == "reduce":
        assert seen["burst"] == [[1, 2, 3], 0]
    else:  # the first is drawn; the two right behind it wait
        drawn, left = seen["burst"]
        assert drawn[0] == 1 and left >= 1 and len(drawn) + left == 3, seen
    assert seen["played"] == [1, 2, 3]
    assert seen["caught"][0][:3] == [1, 2, 3] and seen["caught"][1] <= 4
    assert seen["caught"][0] == sorted(seen["caught"][0])
    assert seen["urgent"] == [list(range(1, 13)), 0]


def test_the_rules_are_at_the_table_with_its_options_in_words(
    server: Server, new_context: Any
) -> None:
    """A "How to play" panel on every table page, in the project's words, the table's options
    as sentences; a first-timer's hint on his first move, gone once he has moved."""
    tid, token = start_with(
        server, "snap", [HUMAN, BOT], options={"max_flips": 500}, bot_pace="human"
    )
    page = sit(new_context(), server, tid, 0, token, "Sam")
    rules = page.locator("#rules")
    rules.locator("summary").click()
    expect(rules).to_contain_text("Goal: Win every card in the box.")
    expect(rules).to_contain_text("if nobody has won after 500 turned cards")
    assert "max_flips" not in rules.inner_text()
    expect(page.locator(".first-hint")).to_be_visible()
    press(page, page.locator("#controls button.act-flip"))
    expect(page.locator(".first-hint")).to_have_count(0)


def test_sounds_and_notifications_are_off_until_asked_and_the_title_tells_the_turn(
    server: Server, new_context: Any
) -> None:
    """The switches start off; the tab's title says "Your turn" while it is."""
    page, _ = snake_eyes_for(new_context(), server)
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    page.wait_for_selector("#controls button.act.primary")
    page.wait_for_function("document.title.startsWith('● Your turn')")
    page.locator("#sound").click()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('gamenight:sound')") == "on"


def test_snap_call_buttons_stay_the_same_buttons_from_frame_to_frame(
    server: Server, new_context: Any
) -> None:
    """A press that spans a frame still lands: the call button is one element for the game."""
    tid, token = start_with(server, "snap", [HUMAN, BOT], options={"max_flips": 500})
    page = sit(new_context(), server, tid, 0, token, "Sam")
    page.evaluate("window.__call = document.querySelector('.call')")
    for _ in range(3):
        flip = page.locator("#controls button.act-flip")
        page.wait_for_selector("#controls button.act-flip, #over:not([hidden])")
        if flip.count():
            press(page, flip)
    assert page.evaluate(
        "window.__call === document.querySelector('.call') && window.__call.isConnected"
    )


def test_the_replay_steps_by_arrow_keys_after_a_click_on_it(server: Server, context: Any) -> None:
    """A click on the replay's board or buttons left the arrows dead; its icons are SVG."""
    tid = finished_bot_game(server)
    page = context.new_page()
    page.goto(f"{server.base}/t/{tid}")
    page.get_by_role("button", name="Replay the game").click()
    where = page.locator(".replay-where")
    expect(where).to_contain_text("step")
    page.get_by_role("button", name="first move").click()
    assert "step 1 of" in where.inner_text()
    page.locator(".replay-board").click()
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text("step 2 of")
    assert page.locator(".replay-head svg.icon").count() == 4


@pytest.mark.parametrize("game", list(GAMES))
def test_every_table_fits_a_phone_and_breaks_no_word_and_is_pictured(
    server: Server, new_context: Any, game: str
) -> None:
    """At 360 px no page scrolls sideways and no word of a name or a space is split over two
    lines; Gambler shows every space's amount. Pictures of each table, desk and phone, for the
    README."""
    tid, token = start_with(server, game, [HUMAN, BOT], options=GAMES[game], bot_pace="human")
    desk = sit(new_context(), server, tid, 0, token, "Samantha")
    phone = sit(new_context(viewport=PHONE), server, tid, 0, token, "Samantha")
    for page in (desk, phone):
        errors = watch_errors(page)
        page.wait_for_selector("#board .game")
        if game == "snake-eyes-casino" and page.locator(".area:enabled").count():
            press(page, page.locator("[data-area=hard6]"))
        # the table in play (dice thrown, a card turned, a die rolled), as both pages show it
        first = page.locator(f"#controls button.act:is({PLAY_ON})").first
        if page is desk and first.count():
            press(page, first)
        both = (desk, page)
        until(lambda b=both: [p.evaluate(TURN_LINE) for p in b], lambda v: v[0] == v[1])
        page.wait_for_function("document.getAnimations().length === 0")
        settled(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth")
        assert page.evaluate(BROKEN_WORDS, NAMES) == []
        assert not errors, errors
    if game == "gambler":
        assert phone.locator(".space .sp-amt:visible").count() >= 10
    shot(desk, f"table-{game}")
    shot(phone, f"table-{game}-phone")
