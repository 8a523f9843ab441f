"""The browser hardening headers (issue 28) do not break a page: the lobby, a seated table, a
casino results display and a finished game's replay all load and draw under the server's
Content-Security-Policy, with no violation reported."""

from __future__ import annotations

from typing import Any

from .conftest import Server, watch_errors
from .test_tables import BOT, HUMAN, finished_bot_game, sit, start_with

RECORD = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_every_page_type_draws_under_the_content_security_policy(
    server: Server, new_context: Any
) -> None:
    context = new_context(bypass_csp=False)  # the other tests' profiles bypass the policy
    context.add_init_script(RECORD)
    tid, token = start_with(server, "snake-eyes", [HUMAN, BOT], options={"starting_chips": 30})
    page = sit(context, server, tid, 0, token, "Sam")
    errors = watch_errors(page)
    page.wait_for_selector(".seat-dot")  # drawn with an inline style attribute (seat colour)
    casino = server.table("snake-eyes-casino", [HUMAN, HUMAN])["table_id"]
    done = finished_bot_game(server)
    for path, ready in [
        ("/", "#games, #game, form"),
        (f"/t/{casino}/display", "body > *"),
        (f"/t/{done}", "#board > *"),
    ]:
        answer = page.goto(server.base + path)
        assert answer is not None
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
    page.get_by_role("button", name="Replay the game").click()  # on the finished game's page
    page.wait_for_selector("#replay:not([hidden])")
    page.get_by_role("button", name="first move").click()
    assert page.evaluate("window.__csp") == []
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector(".seat-dot")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__csp") == []
    assert not errors, errors
