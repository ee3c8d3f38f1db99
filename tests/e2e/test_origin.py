"""In Chromium, a page of another site cannot open the server's WebSockets (its ``Origin`` is
refused before the handshake is accepted), while the server's own page can."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page
from tests.e2e.organiserkit import organiser_headers

pytestmark = [pytest.mark.e2e]

OPEN = """(url) => new Promise((done) => {
  const ws = new WebSocket(url);
  ws.onopen = () => { ws.close(); done("open"); };
  ws.onclose = (e) => done(`closed ${e.code}`);
})"""
"""Whether a WebSocket to ``url`` opens, from the page it runs in."""

OTHER_SITE = "http://carrom-fan.example/"


def _other_site(page: Page) -> None:
    """Open a page of another site (answered by Playwright, no network)."""
    html = "<!doctype html><title>another site</title><p>hello</p>"
    page.route(OTHER_SITE + "**", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(OTHER_SITE)


def test_a_page_of_another_site_cannot_open_a_board_s_socket_but_its_own_page_can(
    browser: Browser, server_url: str
) -> None:
    board = httpx.post(f"{server_url}/api/boards", json={"name": "第5台"},
                       headers=organiser_headers(), timeout=10).json()  # fmt: skip
    url = server_url.replace("http://", "ws://") + f"/ws/boards/{board['id']}"
    context = browser.new_context()
    own = context.new_page()
    own.goto(board["watch_url"])
    assert own.evaluate(OPEN, url) == "open"
    stranger = context.new_page()
    _other_site(stranger)
    assert stranger.evaluate("() => location.origin") == OTHER_SITE.rstrip("/")
    assert stranger.evaluate(OPEN, url) == "closed 1006"  # refused: the handshake never opens
    context.close()
