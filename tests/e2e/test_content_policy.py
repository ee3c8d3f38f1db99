"""The Content-Security-Policy in real Chromium: inline script and inline style are
blocked and the suite's watcher sees it; the page's own WebSocket opens under ``connect-src
'self'``; the pages cannot be framed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

pytestmark = pytest.mark.e2e

OPEN_SOCKET = """(url) => new Promise((done) => {
  let ws;
  try { ws = new WebSocket(url); } catch (e) { done("thrown"); return; }
  ws.onopen = () => { ws.close(); done("open"); };
  ws.onerror = () => done("error");
})"""


def test_inline_code_is_blocked_and_reported(
    browser: Browser, server_url: str, _csp_violations: list[str]
) -> None:
    page = browser.new_context(locale="en-US").new_page()  # a context's pages are watched too
    page.goto(f"{server_url}/howto")
    page.evaluate("""() => {
      const s = document.createElement("script");
      s.textContent = "window.__inline = true";
      document.body.append(s);
      document.body.setAttribute("style", "background: red");
    }""")
    page.wait_for_timeout(300)  # let the violations reach the console
    assert page.evaluate("() => window.__inline") is None
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != (
        "rgb(255, 0, 0)"
    )
    seen = list(_csp_violations)
    _csp_violations.clear()  # expected here: this test makes them
    assert any("script-src" in v for v in seen), seen
    assert any("style-src" in v for v in seen), seen


def test_the_pages_own_websocket_opens_and_no_other_host(
    browser: Browser, server_url: str, _csp_violations: list[str]
) -> None:
    page = browser.new_page(locale="en-US")
    page.goto(f"{server_url}/")
    own = server_url.replace("http", "ws", 1) + "/ws/rooms/nosuchroom"
    assert page.evaluate(OPEN_SOCKET, own) == "open"
    assert not _csp_violations
    other = own.replace("127.0.0.1", "localhost")  # same machine, another origin
    assert page.evaluate(OPEN_SOCKET, other) in ("error", "thrown")
    page.wait_for_timeout(200)
    assert any("connect-src" in v for v in _csp_violations), _csp_violations
    _csp_violations.clear()


def test_no_other_page_can_frame_the_console(
    browser: Browser, server_url: str, _csp_violations: list[str]
) -> None:
    page = browser.new_page(locale="en-US")
    page.set_content(f'<iframe id="f" src="{server_url}/director"></iframe>')
    page.wait_for_timeout(1000)
    framed = [f.url for f in page.frames if f != page.main_frame]
    assert framed and not any(url.startswith(server_url) for url in framed), framed
    seen = list(_csp_violations)
    _csp_violations.clear()  # expected here: Chromium reports the refused frame
    assert any("frame-ancestors" in v for v in seen), seen
