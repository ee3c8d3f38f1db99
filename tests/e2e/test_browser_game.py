"""The game in real headless Chromium: mouse-drag shots, online rooms, reload, languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import NEXT_FRAMES, drag_shot, new_game, shots_seen, wait_my_turn
from tests.e2e.guestkit import answer_name

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PONG = """() => new Promise((done) => {
  const ws = window.__game.conn.ws;
  ws.addEventListener("message", function seen(m) {
    if (JSON.parse(m.data).type === "pong") { ws.removeEventListener("message", seen); done(); }
  });
  ws.send(JSON.stringify({ type: "ping" }));
})"""
"""Resolves on the server's answer to a ping: what it sent before on this socket has arrived
(it handles one socket's messages in order)."""


def test_mouse_drag_shot_against_the_computer_until_it_replies(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server_url, "computer", level="1")
    assert page.evaluate("() => window.__game.room.seats.map(s => s.kind)") == [
        "human",
        "computer",
    ]
    # The computer's seat is named as the home page's list names its level, not by its id.
    expect(page.locator("#seats li").nth(1)).to_contain_text("Computer (Level 1 (beginner))")
    for attempt in range(8):
        if shots_seen(page, 1):
            break
        page.wait_for_function(
            "() => window.__game.myTurn() || window.__game.log.some("
            "e => e.ev.kind === 'shot' && e.ev.seat === 1)",
            timeout=60_000,
        )
        if shots_seen(page, 1):
            break
        before = shots_seen(page, 0)
        drag_shot(page, pull=0.05 + 0.012 * attempt)
        page.wait_for_function(
            "(n) => window.__game.log.filter(e => e.ev.kind === 'shot' && e.ev.seat === 0)"
            ".length > n",
            arg=before,
            timeout=30_000,
        )
    page.wait_for_function(
        "() => window.__game.log.some(e => e.ev.kind === 'shot' && e.ev.seat === 1)"
        " && !window.__game.anim",
        timeout=60_000,
    )
    assert shots_seen(page, 0) >= 1
    page.evaluate(NEXT_FRAMES)  # the position after the shots drawn
    page.screenshot(path=str(artifacts / "board.png"))
    page.locator("#board").screenshot(path=str(artifacts / "board-canvas.png"))
    fps = page.evaluate("() => window.__game.stats.fps")
    assert fps > 0
    assert errors == []


def test_hotseat_shot_by_mouse_drag_animates_and_passes(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    page.screenshot(path=str(artifacts / "board-start.png"))
    drag_shot(page, pull=0.1)
    page.wait_for_function("() => window.__game.anim !== null || window.__game.log.length > 0")
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    assert shots_seen(page, 0) == 1
    shot = page.evaluate("() => window.__game.log[0].ev.shot")
    assert shot["angle"] == pytest.approx(1.5708, abs=0.05)  # pulled straight back: north
    assert 2.0 < shot["speed"] < 4.0
    expect(page.locator("#log li").first).to_contain_text("R")
    page.screenshot(path=str(artifacts / "board-after-shot.png"))
    assert errors == []


def test_a_shot_sent_while_the_connection_drops_is_played_once_after_reconnecting(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    # the socket closes just as the player shoots: the shot waits, with its id, for the reconnect
    sent = page.evaluate(
        "() => { const g = window.__game; g.conn.ws.close(); g.aim.power = 0.5; g.shoot();"
        " return [...g.conn.pending.keys()]; }"
    )
    assert len(sent) == 1 and len(sent[0]) == 24
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    assert page.evaluate("() => window.__game.log[0].ev.action_id") == sent[0]
    assert page.evaluate("() => window.__game.conn.pending.size") == 0
    page.evaluate(PONG)  # the server answered a ping sent after the resent shot
    assert page.evaluate("() => window.__game.log.length") == 1
    assert errors == []


def test_two_browsers_share_an_online_room_and_reload_resumes_the_seat(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    guest_ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="ja-JP")
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    url = new_game(host, server_url, "online")
    guest.goto(url)
    guest.wait_for_function("() => window.__game && window.__game.state")
    assert guest.evaluate("() => window.__game.mySeats.size") == 0  # a spectator so far
    guest.click("button[data-seat='1']")
    answer_name(guest)
    guest.wait_for_function("() => window.__game.mySeats.has(1)")
    host.wait_for_function("() => window.__game.state && !window.__game.state.waiting")
    # whoever's turn it is shoots, until each side has seen a shot of the other
    pages = {0: host, 1: guest}
    for _ in range(12):
        if shots_seen(host, 1) and shots_seen(guest, 0):
            break
        shooter = host.evaluate("() => window.__game.state.shooter")
        page = pages[shooter]
        wait_my_turn(page)
        before = shots_seen(host, shooter)
        drag_shot(page, pull=0.06 + 0.01 * before)
        host.wait_for_function(
            "([s, n]) => window.__game.log.filter(e => e.ev.kind === 'shot' && e.ev.seat === s)"
            ".length > n && !window.__game.anim",
            arg=[shooter, before],
            timeout=30_000,
        )
    assert shots_seen(host, 1) >= 1 and shots_seen(guest, 0) >= 1
    seq = guest.evaluate("() => window.__game.conn.seq")
    guest.reload()
    guest.wait_for_function("() => window.__game && window.__game.state")
    assert guest.evaluate("() => [...window.__game.mySeats]") == [1]
    assert guest.evaluate("() => window.__game.conn.seq") == seq
    guest.screenshot(path=str(artifacts / "online-guest-ja.png"))
    host_ctx.close()
    guest_ctx.close()


def test_language_follows_the_browser_and_switches(browser: Browser, server_url: str) -> None:
    ctx = browser.new_context(locale="ja-JP")
    page = ctx.new_page()
    page.goto(f"{server_url}/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#newgame button[type=submit]")).to_have_text("はじめる")
    page.click(".lang-switch button[data-lang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#newgame button[type=submit]")).to_have_text("Start")
    page.reload()
    expect(page.locator("#newgame button[type=submit]")).to_have_text("Start")  # remembered
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator(".nav-games, .topnav a[href='/games']")).to_have_text("試合記録")
    ctx.close()
