"""Connections in real Chromium: a link to a room that does not exist shows a plain
"no such room" page with ways back and opens one connection, not one every few hundred ms; a
room that exists reconnects with a visible, growing back-off and says when it is offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, WebSocket, expect
from tests.e2e.gamekit import SIZES, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_link_to_a_missing_room_says_so_and_stops_connecting(
    browser: Browser, server_url: str, artifacts: Path, size: str
) -> None:
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.clock.install()  # time runs as usual, and on demand below
    page.goto(f"{server_url}/room/NoSuchRoom42")
    expect(page.locator(".notfound h1")).to_have_text("No such room")
    expect(page.locator(".notfound .lede")).to_contain_text("no room on this server")
    page.clock.run_for(2000)  # the old client opened about 3 connections a second here
    assert len(sockets) == 1
    page.screenshot(path=str(artifacts / f"no-such-room-{size}-en.png"))
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator(".notfound h1")).to_have_text("この部屋はありません")
    expect(page.locator(".notfound .lede")).to_contain_text("このサーバーにありません")
    page.screenshot(path=str(artifacts / f"no-such-room-{size}-ja.png"))
    page.click(".lang-switch button[data-lang=en]")
    page.click(".notfound a[href='/']")  # the way back: a new game
    expect(page.locator("#newgame")).to_be_visible()
    assert len(sockets) == 1
    assert errors == []
    ctx.close()


def test_a_dropped_connection_shows_its_state_and_comes_back(
    browser: Browser, server_url: str
) -> None:
    ctx = browser.new_context(**SIZES["desktop"], locale="en-US")
    page = ctx.new_page()
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.clock.install()  # time runs as usual, and on demand below
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    conn = page.locator("#conn")
    expect(conn).to_be_hidden()
    seq = page.evaluate("() => window.__game.conn.seq")
    # the server goes away under the page (the socket closes): it says when it tries again
    page.evaluate("() => window.__game.conn.ws.close()")
    expect(conn).to_be_visible()
    expect(conn).to_contain_text("Connection lost. Trying again in")
    page.wait_for_function("() => window.__game.conn.state === 'open'", timeout=10_000)
    expect(conn).to_be_hidden()
    assert len(sockets) == 2
    assert page.evaluate("() => window.__game.conn.seq") == seq
    # offline: it waits for the network instead of trying on and on
    ctx.set_offline(True)
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")
    page.evaluate("() => window.__game.conn.ws.close()")
    expect(conn).to_contain_text("Offline: waiting for the network")
    page.click(".lang-switch button[data-lang=ja]")
    expect(conn).to_contain_text("オフラインです")
    page.clock.run_for(1500)  # the page's timers of 1.5 s run now
    assert len(sockets) == 2
    ctx.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => window.__game.conn.state === 'open'", timeout=10_000)
    expect(conn).to_be_hidden()
    assert len(sockets) == 3
    ctx.close()


def test_reconnection_backs_off_exponentially_up_to_a_cap(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_page(locale="en-US")
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    # the delays the client would wait after 0..8 failures in a row, without jitter
    delays = page.evaluate(
        """async () => {
          const net = await import('/static/js/net.js');
          return [...Array(9).keys()].map(
            k => Math.min(net.RETRY_MAX_MS, net.RETRY_FIRST_MS * 2 ** k));
        }"""
    )
    assert delays == [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000]
    # and the page counts failures: each attempt that gets no snapshot waits longer
    page.evaluate("() => { window.__game.conn.retry = 3; window.__game.conn.ws.close(); }")
    page.wait_for_function("() => window.__game.conn.state === 'reconnecting'")
    wait = page.evaluate("() => window.__game.conn.delay")
    assert 4000 * 0.8 <= wait <= 4000 * 1.2  # the fourth failure in a row waits 4 s, +-20 %
    page.close()
