"""A player who plays by keyboard or with a screen reader: focus keeps its place across the
redraws of every frame, and the live turn line speaks only when its words change."""

from __future__ import annotations

import json
import time
from typing import Any

from .conftest import LONG_S, Server, press, sent_actions, until, watch_errors
from .test_phone import snap_view
from .test_tables import BOT, HUMAN, finished_bot_game, sit, start_with

# Samples document.activeElement at every animation frame: did focus ever fall to <body>?
WATCH_FOCUS = """() => {
  window.__fellToBody = 0;
  const look = () => {
    if (document.activeElement === document.body) window.__fellToBody += 1;
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# Counts the rewrites of the turn line (a live region: each one is spoken).
WATCH_TURN = """() => {
  window.__turnWrites = 0;
  new MutationObserver(() => { window.__turnWrites += 1; })
    .observe(document.getElementById('turn'),
             { childList: true, characterData: true, subtree: true });
}"""

ACTIVE = """() => { const e = document.activeElement;
  return { tag: e.tagName, id: e.id, area: e.dataset?.area ?? null, chip: e.dataset?.chip ?? null,
           act: e.classList.contains('act'), text: e.textContent }; }"""


def keyboard_to(page: Any, selector: str, tabs: int = 60) -> None:
    """Tab (as a keyboard player does) until focus is on an element matching `selector`."""
    for _ in range(tabs):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_focus_waits_on_the_turn_line_while_bots_play_and_comes_back_to_the_moves(
    server: Server, context: Any
) -> None:
    """Enter on "Take" hands the turn to two bots: the moves vanish. Focus fell to <body>, so the
    player had to Tab from the top of the page at every turn and a screen reader lost its place."""
    tid, token = start_with(server, "shake", [HUMAN, BOT, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector("#controls button.act-take")
    keyboard_to(page, "#controls button.act-take")
    page.evaluate(WATCH_FOCUS)
    start = server.call("GET", f"/api/tables/{tid}/view", token=token)["move"]
    page.keyboard.press("Enter")
    # a later round: the bots have played and a decision is this player's again; nothing moves
    # until he makes it, and the page has drawn that move
    mine = until(
        lambda: server.call("GET", f"/api/tables/{tid}/view", token=token),
        lambda f: f["move"] > start and 0 in f["actors"],
    )
    page.wait_for_function(
        "m => window.__handled.some(f => f.type === 'state' && f.move === m)", arg=mine["move"]
    )
    page.wait_for_function("document.querySelector('.pad th.now')?.textContent !== '1'")
    page.wait_for_selector("body.my-turn #controls button.act")
    active = page.evaluate(ACTIVE)
    assert active["act"], active  # back on the first move, ready for Enter
    assert page.evaluate("window.__fellToBody") == 0
    assert not errors


def test_a_wager_placed_by_keyboard_keeps_focus_on_its_area_and_a_chip_on_the_rack(
    server: Server, context: Any
) -> None:
    """Enter on a wager area (or a chip of the rack) redraws the layout: focus fell to <body>, and
    the turn line was rewritten with the same words, read out again by a screen reader."""
    tid, token = start_with(server, "snake-eyes-casino", [HUMAN, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector(".area.a-num6:not([disabled])")
    page.evaluate(WATCH_TURN)
    keyboard_to(page, '.rack-chip[data-chip="5"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('.rack-chip.sel[data-chip="5"]')
    assert page.evaluate(ACTIVE)["chip"] == "5"
    assert page.evaluate("window.__turnWrites") == 0  # same turn, same words: nothing to say
    keyboard_to(page, ".area.a-num6")
    page.keyboard.press("Enter")
    page.wait_for_selector(".area.a-num6.has-mine")
    assert page.evaluate(ACTIVE)["area"] == "num6"
    assert "your wager 5" in (page.locator(".area.a-num6").get_attribute("aria-label") or "")
    assert not errors


# Every visible text node's contrast with the background it is drawn on (computed styles, the
# opacity of its ancestors included; text of a disabled control is exempt, as WCAG has it), once
# the motions under way have ended: chips sliding in fade up from nothing for a moment.
LOW_CONTRAST = r"""async () => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const rgba = (c) => { const m = c.match(/rgba?\(([^)]+)\)/);
    const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v[3] ?? 1]; };
  const lum = (rgb) => { const [r, g, b] = rgb.map((x) => { x /= 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const under = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = out.map((x, i) => c[i] * c[3] + x * (1 - c[3]));
    return out; };
  const low = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.data.trim() || el.closest("svg, :disabled") || !el.getClientRects().length) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden") continue;
    let seen = 1;
    for (let e = el; e; e = e.parentElement) seen *= Number(getComputedStyle(e).opacity);
    const bg = under(el), fg = rgba(cs.color), a = fg[3] * seen;
    const ink = fg.slice(0, 3).map((x, i) => a * x + (1 - a) * bg[i]);
    const [hi, lo] = [lum(ink), lum(bg)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
    const what = `"${n.data.trim().slice(0, 30)}" (${el.tagName}.${el.className})`;
    if (ratio < (large ? 3 : 4.5)) low.push(`${ratio.toFixed(2)}: ${what}`);
  }
  return [...new Set(low)];
}"""


def test_every_text_of_the_tables_meets_wcag_aa_contrast(server: Server, context: Any) -> None:
    """White on the Okabe-Ito green (3.4:1) and vermilion (3.9:1) was too faint to read: the
    "connected" pill, "online", Gambler's Split and Straight spaces, Snap's call keys, and the
    move numbers (dimmed to 3.9:1 on the blue of the highlighted move)."""
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#g-shake")
    assert page.evaluate(LOW_CONTRAST) == []
    for game in ("gambler", "snap", "shake"):
        tid, token = start_with(server, game, [HUMAN, BOT, BOT])
        page = sit(context, server, tid, 0, token, "Sam", page)
        page.wait_for_selector("#controls button.act, .call:not([disabled])")
        page.wait_for_selector(".dot.on")
        assert page.evaluate(LOW_CONTRAST) == [], game


def test_a_pair_showing_in_snap_is_told_in_words_not_only_by_a_coloured_glow(
    server: Server, context: Any
) -> None:
    """Two matching tops were marked only by a vermilion glow round their seats: a colour-blind
    player could miss it and a screen reader said nothing. The seats now say "pair showing" and
    the live turn line names the pair."""
    view = snap_view(2, lambda v: bool(v["matches"]))
    page = context.new_page()
    page.goto(server.base + "/")
    got = page.evaluate(
        """async (view) => {
          const snap = (await import('/static/js/games/snap.js')).default;
          const names = ['Sam', 'Kim'];
          const root = snap.render({ view, names, seat: 0, legal: [], act: () => {} });
          document.body.append(root);
          return { turn: snap.turn(view, names, 0),
                   seats: [...root.querySelectorAll('.sn-seat')].map((li) => li.innerText) };
        }""",
        view,
    )
    pair = view["players"][view["matches"][0]]["face_up"][-1]
    assert f"Pair showing ({pair}): call SNAP!" in got["turn"]
    for seat in view["matches"]:
        assert "pair showing" in got["seats"][seat]


def test_the_areas_a_roll_wins_say_so_in_words_not_only_in_yellow(
    server: Server, context: Any
) -> None:
    """The dealer has entered 3+4: the winning areas were told from the others only by their
    yellow fill (and to a screen reader by their names); now each says "wins this roll"."""
    from .test_walks import casino_for_two, play

    tid, tokens = casino_for_two(server, live=True)
    play(server, tid, tokens[1], {"type": "roll"})
    play(server, tid, tokens[2], {"type": "dice", "faces": [3, 4]})
    page = sit(context, server, tid, 0, tokens[0], "سارة")
    page.wait_for_selector(".area.lit")
    lit = page.locator(".area.lit")
    assert "a-any7" in (lit.first.get_attribute("class") or "")
    for text in lit.all_inner_texts():
        assert "wins this roll" in text.lower()
    assert page.locator(".area:not(.lit)", has_text="wins this roll").count() == 0
    dealer = sit(context, server, tid, "dealer", tokens[2], "Dee")
    dealer.wait_for_selector(".dealer-die")
    assert dealer.get_by_role("group", name="die 1").get_by_role("button").count() == 6


def test_closing_the_replay_by_keyboard_puts_focus_back_on_its_button(
    server: Server, context: Any
) -> None:
    """Close hid the replay with focus inside it: focus fell to <body> and the keyboard player
    started again from the top of the page."""
    tid = finished_bot_game(server)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    keyboard_to(page, "#replay-open")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay:not([hidden]) .replay-where")
    page.keyboard.press("ArrowLeft")  # the arrow keys step through it
    assert "step" in page.locator(".replay-where").inner_text()
    keyboard_to(page, "#replay .replay-head button:last-child", tabs=10)
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay", state="hidden")
    assert page.evaluate("document.activeElement.id") == "replay-open"
    assert not errors, errors


def test_a_rematch_set_up_by_another_player_is_announced(server: Server, new_context: Any) -> None:
    """Ann asks for a rematch: Ben's page added "Go to the rematch" silently to the result panel,
    so a screen-reader player never heard that a new game waited for him."""
    made = server.table("snake-eyes", [HUMAN, HUMAN], options={"starting_chips": 4})
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    while server.call("GET", f"/api/tables/{tid}")["status"] != "finished":
        for token in tokens:
            view = server.call("GET", f"/api/tables/{tid}/view", token=token)
            if view["legal_actions"]:
                move = {"move": view["move"], "action": view["legal_actions"][0]}
                server.call("POST", f"/api/tables/{tid}/actions", move, token)
    ben = sit(new_context(), server, tid, 1, tokens[1], "Ben")
    ben.wait_for_selector("#over:not([hidden])")
    server.call("POST", f"/api/tables/{tid}/rematch", token=tokens[0])
    ben.wait_for_selector("#rematch-join")
    live = "[role=status], [role=alert], [aria-live=polite], [aria-live=assertive]"
    assert ben.locator("#rematch-join").evaluate("(b, sel) => Boolean(b.closest(sel))", live)


def test_space_or_enter_on_a_focused_call_button_makes_that_call(
    server: Server, context: Any
) -> None:
    """Space on the focused "Snap fingers (mouse)" button slapped (the page's key for Space) and
    Enter on a focused call button turned up a card instead: a keyboard player who Tabbed to a
    call paid for a call he never made. The letter keys keep working anywhere."""
    tid, token = start_with(server, "slap-the-elephant", [HUMAN, BOT], bot_pace="human")
    page = sit(context, server, tid, 0, token, "Sam")
    # where focus is when a key goes down: a bot's call can disable the focused button (focus
    # then waits on the turn line) between the Tab to it and the key
    page.evaluate(
        """() => document.addEventListener("keydown", () => { window.__keyOn =
             document.activeElement.matches(".call-snap_fingers:not([disabled])"); }, true)"""
    )
    calls = page.locator(".call-snap_fingers:not([disabled])")
    callable_or_flip = ".call-snap_fingers:not([disabled]), #controls button.act-flip"
    for key in ("Space", "Enter"):
        made: list[str] = []
        end = time.monotonic() + LONG_S
        while not made:  # a bot may take the card first and end the calls: try again
            assert time.monotonic() < end, f"{key}: no call made on a focused button"
            page.wait_for_selector(callable_or_flip)  # turn up cards (F) until a call may be made
            if not calls.count():
                press(page, "f")
                continue
            keyboard_to(page, ".call-snap_fingers:not([disabled])")
            before = len(sent_actions(page))
            page.keyboard.press(key)
            if not page.evaluate("window.__keyOn"):
                continue  # a bot's call came first and took the focus off the button
            # the call is sent in the key's own handler: complete once the press returns
            made = sent_actions(page)[before:]
            if made:  # its answer drawn before the next look
                ref = json.loads(made[-1])["ref"]
                page.wait_for_function("r => window.__handled.some(f => f.ref === r)", arg=ref)
        assert made and all('"snap_fingers"' in f for f in made), (key, made)


def test_joining_waiting_and_starting_by_keyboard_never_drops_focus(
    server: Server, new_context: Any
) -> None:
    """Enter in the join form hid it with focus inside (focus fell to <body>); the waiting room
    is drawn anew at every seat change and every 3 s, so the button a player had Tabbed to lost
    focus under him; and "Start the game" left focus on a hidden panel."""
    made = server.table("shake", [HUMAN, HUMAN, BOT], bot_pace="instant")
    tid = made["table_id"]
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    keyboard_to(page, "#join-name")
    page.keyboard.type("Lee")
    page.keyboard.press("Enter")
    page.wait_for_selector("#leave")
    assert page.evaluate("document.activeElement.id") == "waiting-title"
    keyboard_to(page, "#copy-link")
    server.call("POST", f"/api/tables/{tid}/join", {"name": "Ola", "seat": 1})
    page.wait_for_function("document.querySelector('#waiting').innerText.includes('Ola')")
    assert page.evaluate("document.activeElement.id") == "copy-link"
    keyboard_to(page, "#start:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_function("document.activeElement !== document.body")
    assert page.evaluate("document.activeElement.closest('#controls') || document.activeElement.id")
    assert not errors, errors


def gambler_marker_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A real Gambler view (and legal moves) of a seat placing a Sweepstakes marker: seed 3."""
    import gamenight

    state = gamenight.new_game("gambler", players=2).new_state(seed=3)
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
            continue
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if any(a["type"] == "marker" for a in legal):
            return dict(state.view(seat)), list(legal)
        state.apply(([a for a in legal if a["type"] == "sweepstakes"] or legal)[0], seat)
    raise AssertionError("no Sweepstakes came up")


def test_gambler_sweepstakes_spaces_to_pick_meet_wcag_aa_contrast(
    server: Server, context: Any
) -> None:
    """The Split and Straight spaces offered as buttons kept their white text on a background
    whitened by the button (2.8:1)."""
    view, legal = gambler_marker_view()
    tid, token = start_with(server, "gambler", [HUMAN, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector(".game.gambler")
    page.evaluate(
        """async ([view, legal]) => {
          const gambler = (await import('/static/js/games/gambler.js')).default;
          const names = ['Sam', 'Kim'];
          const root = gambler.render({ view, names, seat: 0, legal, act: () => {} });
          document.getElementById('board').replaceChildren(root);
        }""",
        [view, legal],
    )
    assert page.locator(".sw-btn").count() >= 10
    assert page.evaluate(LOW_CONTRAST) == []


def test_a_finished_gambler_board_marks_the_winner_not_the_seat_whose_turn_began(
    server: Server, context: Any
) -> None:
    """The move that wins may first pass the turn on (the end checks come after it): the final
    board outlined that next player as the one to move, beside the winner."""
    import gamenight

    state = gamenight.new_game("gambler", players=3).new_state(seed=0)
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance()
            continue
        seat = state.actors()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    view = dict(state.view(0))
    assert (view["current"], view["winner"]) == (1, 0)  # seed 0: Kim's turn began, Sam won
    tid, token = start_with(server, "gambler", [HUMAN, BOT, BOT])
    page = sit(context, server, tid, 0, token, "Sam")
    page.wait_for_selector(".game.gambler")
    page.evaluate(
        """async (view) => {
          const gambler = (await import('/static/js/games/gambler.js')).default;
          const root = gambler.render({ view, names: ['Sam', 'Kim', 'Lee'], seat: 0, legal: [],
                                        act: () => {} });
          document.getElementById('board').replaceChildren(root);
        }""",
        view,
    )
    assert page.locator(".gb-players li.winner").count() == 1
    assert page.locator(".gb-players li.active").count() == 0


def test_a_player_can_quiet_the_log_a_screen_reader_reads_at_every_move(
    server: Server, new_context: Any
) -> None:
    """The event log is a live region: at a Snap table of quick bots a screen reader read every
    flip aloud, drowning the turn line. A switch quiets it, by keyboard, and stays as set."""
    tid, token = start_with(server, "snap", [HUMAN, BOT, BOT])
    ctx = new_context()
    page = sit(ctx, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    aloud = page.get_by_role("checkbox", name="Read every move aloud")
    assert aloud.is_checked()
    assert page.locator("#log").get_attribute("aria-live") == "polite"
    page.wait_for_selector("body.my-turn #controls button.act")  # Sam, seat A, turns up first
    lines = page.evaluate("document.querySelectorAll('#log li').length")
    keyboard_to(page, "#log-aloud")
    page.keyboard.press("Space")  # toggles the switch, and turns up no card
    assert not aloud.is_checked()
    assert page.locator("#log").get_attribute("aria-live") == "off"
    # a card turned up by the key would be sent in its handler, before the press returned
    assert sent_actions(page) == []
    said = page.locator("#log li").all_inner_texts()[lines:]  # a bot may call meanwhile
    assert not [line for line in said if "Sam turns up" in line], said
    page.locator("#controls button.act").first.click()  # play goes on, unread
    page.wait_for_function("document.querySelector('#log').innerText.includes('Sam turns up')")
    # a reload, or another table in this browser, keeps the log quiet
    other = sit(ctx, server, tid, 0, token, "Sam")
    assert not other.get_by_role("checkbox", name="Read every move aloud").is_checked()
    assert other.locator("#log").get_attribute("aria-live") == "off"
    other.get_by_role("checkbox", name="Read every move aloud").check()
    assert other.locator("#log").get_attribute("aria-live") == "polite"
    assert not errors
