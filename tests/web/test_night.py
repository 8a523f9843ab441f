"""A game night's rough edges: a phone that slept, a friend who came late, one who walked away."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LONG_S, Server, press, serving, watch_errors
from .test_tables import BOT, HUMAN, sit, until


class DeadLink:
    """A page's WebSocket that goes silent both ways while ``cut``, as a phone's does when it
    sleeps: no close, no error, the browser still counts it open; later connections pass."""

    def __init__(self, page: Any) -> None:
        self.cut = False
        self.links = 0
        page.route_web_socket(re.compile(r"/ws/"), self._link)

    def _link(self, ws: Any) -> None:
        self.links += 1
        first = self.links == 1
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if first and self.cut else server.send(m))
        server.on_message(lambda m: None if first and self.cut else ws.send(m))


def test_a_phone_that_slept_on_a_dead_connection_reconnects_when_it_wakes(
    server: Server, new_context: Any
) -> None:
    """A phone woke on a connection that had died in its sleep: the page still said
    "connected", showed the table as it was before the sleep and sent moves nobody got,
    until the player reloaded it."""
    made = server.table("shake", [HUMAN, HUMAN], bot_pace="instant")
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = watch_errors(page)
    link = DeadLink(page)
    sit(None, server, tid, 1, tokens[1], "Ben", page=page)
    page.wait_for_selector("#play:not([hidden])")
    frame = server.call("GET", f"/api/tables/{tid}/view", token=tokens[1])
    while frame["actors"] == [1]:  # Ben plays on until Ann is to move
        body = {"move": frame["move"], "action": frame["legal_actions"][0]}
        frame = server.call("POST", f"/api/tables/{tid}/actions", body, token=tokens[1])
    page.wait_for_function("!document.body.classList.contains('my-turn')")  # Ben's page has it
    link.cut = True  # the phone sleeps; meanwhile Ann moves until it is Ben's turn
    moved = 0
    while True:
        frame = server.call("GET", f"/api/tables/{tid}/view", token=tokens[0])
        if moved and 1 in frame["actors"]:
            break
        assert frame["actors"] == [0], frame
        body = {"move": frame["move"], "action": frame["legal_actions"][0]}
        server.call("POST", f"/api/tables/{tid}/actions", body, token=tokens[0])
        moved += 1
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the phone wakes
    # Ben's move is offered, as the table stands, over a new connection (once the 8 s the page
    # waits for an answer to its ping have passed)
    page.wait_for_selector("body.my-turn #controls button.act", timeout=LONG_S * 1000)
    assert page.locator("#conn").inner_text() == "connected"
    assert page.locator("#turn").inner_text().startswith("Your turn")
    assert link.links == 2
    assert not errors, errors


def test_a_friend_who_comes_when_every_seat_is_taken_is_told_they_watch(
    server: Server, new_context: Any
) -> None:
    """A friend who opened the link after the last seat was taken saw "Send this link to your
    friends; each picks a seat", a Start button greyed out and "anyone once every seat is
    taken" (every seat was), with no word that he could only watch."""
    made = server.table("shake", [HUMAN, HUMAN, {"kind": "bot"}])
    tid = made["table_id"]
    for seat, name in enumerate(("Ann", "Ben")):
        server.call("POST", f"/api/tables/{tid}/join", {"name": name, "seat": seat})
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_function("document.querySelector('#waiting').innerText.includes('Ben')")
    waiting = page.locator("#waiting").inner_text()
    assert "Every seat is taken: you are watching" in waiting, waiting
    assert "each picks a seat" not in waiting, waiting
    assert page.get_by_role("button", name="Start the game").count() == 0
    assert page.locator("#join").is_hidden()
    # nor is he told to take a seat to chat: there is none
    assert page.locator("#chat h2").inner_text() == "Chat (players only: you are watching)"
    assert not errors, errors


def ben_away_on_his_turn(server: Server, new_context: Any, **extra: Any) -> Any:
    """Ann and Ben at a Shake table; Ben's tab is closed when the move is his. Ann's page."""
    made = server.table("shake", [HUMAN, HUMAN], **extra)
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    frame = server.call("GET", f"/api/tables/{tid}/view", token=tokens[0])
    while frame["actors"] == [0]:  # Ann plays until the move is Ben's
        body = {"move": frame["move"], "action": frame["legal_actions"][0]}
        frame = server.call("POST", f"/api/tables/{tid}/actions", body, token=tokens[0])
    ann = sit(new_context(), server, tid, 0, tokens[0], "Ann")
    ben = sit(new_context(viewport={"width": 360, "height": 740}), server, tid, 1, tokens[1], "Ben")
    ben.wait_for_selector("#controls button.act")
    ann.wait_for_function("document.querySelector('#turn').innerText.startsWith('Ben')")
    assert "away" not in ann.locator("#turn").inner_text()
    ben.close()
    return ann


def test_the_others_are_told_when_the_player_to_move_has_gone(
    server: Server, new_context: Any
) -> None:
    """Ben closed his tab on his turn: Ann's page kept saying "Ben decides", with only a grey
    "away" in the seat list below the log, and gave no hint that nothing would happen."""
    ann = ben_away_on_his_turn(server, new_context)
    errors = watch_errors(ann)
    ann.wait_for_function("document.querySelector('#turn').innerText.includes('away')")
    line = ann.locator("#turn").inner_text()
    assert "Ben is away: the table waits for Ben to come back" in line, line
    assert not errors, errors


def test_with_a_turn_timer_the_others_are_told_it_will_move_for_the_absent_player(
    server: Server, new_context: Any
) -> None:
    ann = ben_away_on_his_turn(server, new_context, turn_seconds=60)
    ann.wait_for_function("document.querySelector('#turn').innerText.includes('away')")
    line = ann.locator("#turn").inner_text()
    assert "Ben is away: the table moves for Ben when the time runs out" in line, line


def test_at_a_table_without_a_timer_the_others_can_start_one_for_the_absent_player(
    server: Server, new_context: Any
) -> None:
    """Ben left on his turn at a table made without a turn timer: the game was stuck for good,
    and nothing on Ann's page could move it on. She starts a timer; it counts for Ben now."""
    ann = ben_away_on_his_turn(server, new_context)
    errors = watch_errors(ann)
    tid = ann.url.rsplit("/", 1)[1]
    ann.get_by_role("button", name="Start a 60-second turn timer").click()
    ann.wait_for_selector("#timer:not([hidden])")
    ann.wait_for_function("document.querySelector('#turn').innerText.includes('time runs out')")
    assert ann.locator("#set-timer").count() == 0
    summary = server.call("GET", f"/api/tables/{tid}")
    assert summary["turn_seconds"] == 60
    view = server.call("GET", f"/api/tables/{tid}/view")
    assert view["deadline"] and view["actors"] == [1]
    assert not errors, errors


def test_the_turn_timer_throws_for_a_snake_eyes_player_who_does_not(
    server: Server, new_context: Any
) -> None:
    """At a Snake Eyes table with a turn timer, the player holding the dice had no clock and
    no limit: the table waited for his throw for ever, timer or not, as the dice are his to
    throw (a chance move the table holds back for him), not a decision the timer looked at."""
    made = server.table("snake-eyes", [HUMAN, HUMAN], turn_seconds=3, bot_pace="instant")
    tid = made["table_id"]
    names = ("Ann", "Ben")
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(names)
    ]
    # both at the table before the clock starts: the page opened after the start came after
    # the 3 s on a slow machine, and then heard the next holder's time run out instead
    pages = [sit(new_context(), server, tid, s, tokens[s], names[s]) for s in (0, 1)]
    errors = [watch_errors(page) for page in pages]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    first = server.call("GET", f"/api/tables/{tid}/view")
    assert first["deadline"] is not None, "no clock for the seat holding the dice"
    holder = first["actors"][0]
    page = pages[holder]
    page.wait_for_selector("#timer:not([hidden])")
    # the banner tells each timeout in turn (the dice pass on): wait for the holder's own
    expect(page.locator("#banner")).to_contain_text(f"Time ran out for {names[holder]}")
    said = page.locator("#banner").inner_text()
    assert f"Time ran out for {names[holder]}" in said and "Throw" in said, said
    record = server.call("GET", f"/api/tables/{tid}/view")
    assert record["move"] > first["move"]
    assert not any(errors), errors


def test_a_snap_game_ended_by_the_flip_limit_still_opens_after_a_restart(
    tmp_path: Path, new_context: Any
) -> None:
    """A Snap game stopped by its flip limit could not be loaded once the server had
    restarted: the table page said "This table does not exist (the server could not answer
    that)", and its result, record and replay were gone from the browser."""
    with serving(tmp_path) as first:
        made = first.table("snap", [BOT, BOT], bot_pace="instant", options={"max_flips": 12})
        tid = made["table_id"]
        first.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
        until(lambda: first.call("GET", f"/api/tables/{tid}")["status"], lambda s: s == "finished")
        assert first.call("GET", f"/api/tables/{tid}/view")["view"]["truncated"]
    with serving(tmp_path) as again:
        page = new_context().new_page()
        errors = watch_errors(page)
        page.goto(f"{again.base}/t/{tid}")
        page.wait_for_selector("#over:not([hidden])")
        assert "flip limit" in page.locator("#turn").inner_text()
        page.get_by_role("button", name="Replay the game").click()
        page.wait_for_selector("#replay:not([hidden]) .replay-where")
        assert again.call("GET", f"/api/tables/{tid}/record")["moves"]
        assert not errors, errors


def test_the_end_screen_gives_each_player_the_games_own_score(server: Server, context: Any) -> None:
    """Under "Bot C wins!" the end screen of Shake, Snap, Slap and Gambler listed "+1", "0",
    "-0.5": each seat's share of one win, which meant nothing to the players. It gives the
    totals of the score pad, the cards held, the money."""
    games = {
        "shake": ({"rounds": 1}, lambda p: f"{p['total']} points"),
        "snap": ({"max_flips": 12}, lambda p: f"{p['pack'] + len(p['face_up'])} cards"),
        "gambler": ({"max_turns": 10}, lambda p: f"${p['cash']}" + " (out)" * p["out"]),
    }
    page = context.new_page()
    errors = watch_errors(page)
    for game, (options, figure) in games.items():
        made = server.table(game, [BOT, BOT], bot_pace="instant", options=options)
        tid = made["table_id"]
        server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
        until(
            lambda t=tid: server.call("GET", f"/api/tables/{t}")["status"],
            lambda s: s == "finished",
        )
        players = server.call("GET", f"/api/tables/{tid}/view")["view"]["players"]
        page.goto(f"{server.base}/t/{tid}")
        page.wait_for_selector("#over:not([hidden])")
        assert page.locator("#over .standings tbody tr").count() == 2
        for seat, player in enumerate(players):
            line = page.get_by_test_id(f"standing-{seat}").inner_text()
            assert line == figure(player).replace(" 1 cards", " 1 card"), (game, line)
    assert not errors, errors


def test_the_shake_totals_stay_in_view_on_a_phone(server: Server, new_context: Any) -> None:
    """On a phone the Shake score pad was cut after round 9: the All Shake round and the
    Total column, what decides the game, were off the right of the screen with nothing to
    say they were there."""
    made = server.table("shake", [BOT, BOT], bot_pace="instant", options={"rounds": 10})
    tid = made["table_id"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    until(lambda: server.call("GET", f"/api/tables/{tid}")["status"], lambda s: s == "finished")
    players = server.call("GET", f"/api/tables/{tid}/view")["view"]["players"]
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector(".pad")
    totals = page.locator(".pad .total")
    assert totals.all_inner_texts() == ["Total"] + [str(p["total"]) for p in players]
    for i in range(totals.count()):
        box = totals.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (i, box)
    assert not errors, errors


def test_the_event_log_names_the_players_instead_of_seat_letters(
    server: Server, new_context: Any
) -> None:
    """The log read "C rolls 11; C wins 5 on field", "A shakes 20: 40 in hand", "Game over: C
    wins with 5920": seat letters, while everything else on the page named the players."""
    made = server.table("shake", [HUMAN, HUMAN], bot_pace="instant", options={"rounds": 1})
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page = sit(new_context(), server, tid, 0, tokens[0], "Ann")
    errors = watch_errors(page)
    frame = server.call("GET", f"/api/tables/{tid}/view")
    while frame["status"] == "playing":  # each takes the points (or stops) when it is theirs
        seat = frame["actors"][0]
        mine = server.call("GET", f"/api/tables/{tid}/view", token=tokens[seat])
        body = {"move": mine["move"], "action": mine["legal_actions"][-1]}
        frame = server.call("POST", f"/api/tables/{tid}/actions", body, token=tokens[seat])
    page.wait_for_selector("#over:not([hidden])")
    for lines in (
        page.locator("#log li").all_inner_texts(),
        replay_lines(page),
    ):
        assert any("Ann" in line for line in lines) and any("Ben" in line for line in lines)
        letters = [line for line in lines if re.search(r"(^|[\s,(])[AB]([\s,.:;')]|$)", line)]
        assert not letters, letters
    # words that only look like a seat stay as written
    said = page.evaluate(
        """async () => {
          const { seatNames } = await import('/static/js/dom.js');
          return [
            seatNames('A reads a Fortune card: "A cab ride: move ahead 3 spaces."', ['Ann', 'Ben']),
            seatNames("No roll: A die left the table (the roll is void)", ['Ann', 'Ben']),
            seatNames("A's turn; Colored dice: A 10, B 40, C 30.", ['Ann', 'Ben']),
          ];
        }"""
    )
    assert said == [
        'Ann reads a Fortune card: "A cab ride: move ahead 3 spaces."',
        "No roll: A die left the table (the roll is void)",
        "Ann's turn; Colored dice: Ann 10, Ben 40, C 30.",
    ], said
    assert not errors, errors


def replay_lines(page: Any) -> list[str]:
    """Every line the replay shows under "This move", step by step from the first."""
    page.get_by_role("button", name="Replay the game").click()
    page.wait_for_selector("#replay:not([hidden]) .replay-where")
    page.get_by_role("button", name="first move").click()
    lines: list[str] = []
    while True:
        lines += page.locator(".replay-events li").all_inner_texts()
        where = page.locator(".replay-where").inner_text()
        step = re.search(r"step (\d+) of (\d+)", where)
        assert step, where
        if step.group(1) == step.group(2):
            return lines
        page.get_by_role("button", name="next move").click()


def test_the_throw_for_first_player_names_the_players(server: Server, context: Any) -> None:
    """Snake Eyes opened with "Throwing for high dice to see who throws first: A 7 B … C …"."""
    made = server.table("snake-eyes", [HUMAN, HUMAN])
    tid = made["table_id"]
    tokens = [
        server.call("POST", f"/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(("Ann", "Ben"))
    ]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    page = sit(context, server, tid, 0, tokens[0], "Ann")
    errors = watch_errors(page)
    note = page.locator(".note", has_text="who throws first").inner_text()
    assert note.endswith("who throws first: Ann …, Ben …"), note
    page.get_by_role("button", name="Throw the dice").click()
    page.wait_for_function(
        "/first: Ann \\d+, Ben …/.test(document.querySelector('#board').innerText)"
    )
    assert not errors, errors


def test_a_friend_late_for_a_game_started_without_him_takes_the_open_seat(
    server: Server, new_context: Any
) -> None:
    """The host started before Ben arrived: Ben's seat stayed open and the game waited on it,
    but the link showed Ben only the table to watch, with no way to sit down (the server
    takes a join while the game plays); Ann's page said "Seat B decides" and nothing moved."""
    made = server.table("shake", [HUMAN, HUMAN, BOT], bot_pace="instant")
    tid = made["table_id"]
    ann_token = server.call("POST", f"/api/tables/{tid}/join", {"name": "Ann", "seat": 0})["token"]
    server.call("POST", f"/api/tables/{tid}/start", token=made["host_token"])
    ann = sit(new_context(), server, tid, 0, ann_token, "Ann")
    ben = new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = [watch_errors(ben), watch_errors(ann)]
    ben.goto(f"{server.base}/t/{tid}")
    ben.wait_for_selector("#play:not([hidden])")
    end = time.monotonic() + LONG_S
    while True:  # Ann takes her points until Seat B is the one holding the game up
        actors = server.call("GET", f"/api/tables/{tid}/view")["actors"]
        if actors == [1]:
            break
        assert time.monotonic() < end, actors
        if actors == [0] and ann.locator("#controls button.act").count():
            press(ann, ann.locator("#controls button.act").first)  # answered before we look
        else:
            ann.wait_for_timeout(50)  # the bot's move on its way
    assert actors == [1], actors
    ann.wait_for_function("document.querySelector('#turn').innerText.includes('open')")
    assert "Seat B is open" in ann.locator("#turn").inner_text()
    ben.get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Join the table").click()
    ben.wait_for_selector("#controls button.act")
    assert ben.locator("#turn").inner_text().startswith("Your turn")
    before = server.call("GET", f"/api/tables/{tid}/view")["move"]
    ben.locator("#controls button.act").first.click()
    until(lambda: server.call("GET", f"/api/tables/{tid}/view")["move"], lambda m: m > before)
    ann.wait_for_function("document.querySelector('#log').innerText.includes('Ben ')")
    assert ben.locator("#join").is_hidden()
    assert not any(errors), errors


def test_an_absent_player_who_could_call_snap_is_not_said_to_hold_the_table_up(
    server: Server, new_context: Any
) -> None:
    """With a pair showing every seat may call Snap, so the absent Ben was among the seats to
    act and the line said "Ben is away: the table waits for Ben", while the table waited only
    for Ann to turn up her card."""
    from .test_tables import snap_pair_showing

    tid, tokens = snap_pair_showing(server)
    frame = server.call("GET", f"/api/tables/{tid}/view")
    turn = frame["view"]["turn"]
    assert set(frame["actors"]) == {0, 1}  # both may call; neither has a page open
    page = new_context().new_page()  # Carl watches
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_function("document.querySelector('#turn').innerText.includes('away')")
    line = page.locator("#turn").inner_text()
    mover = ("Ann", "Ben")[turn]
    assert f"{mover} is away: the table waits for {mover} to come back" in line, line
    assert ("Ann", "Ben")[1 - turn] not in line.split("·")[-1], line
    assert not errors, errors


def test_the_lobby_does_not_say_snap_bots_play_at_once(server: Server, context: Any) -> None:
    """The seat editor said "Bots play at once" for Snap and Slap, whose bots react at a
    person's pace unless the table is set to instant."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    for game, fast in (("snap", False), ("slap-the-elephant", False), ("shake", True)):
        page.locator(f"#g-{game}").check()
        note = page.locator("#seat-editor p.muted").inner_text()
        assert ("Bots play at once" in note) is fast, (game, note)
    assert not errors, errors
