"""Accessibility in real Chromium: the game played by keyboard alone from
the page's first Tab, rulings and turn changes said in the live region, and a high-contrast
option remembered by the browser."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import DESKTOP, NEXT_FRAMES, hotseat_page, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_the_game_is_played_by_keyboard_alone_and_said_aloud(
    browser: Browser, server_url: str
) -> None:
    page, errors = hotseat_page(browser, server_url, DESKTOP)
    # the keys are written on the page, next to the board
    expect(page.locator("#board-keys")).to_be_visible()
    expect(page.locator("#board-keys")).to_contain_text("Space shoot")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(30):  # Tab from the top of the page until the board has the focus
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "board":
            break
    assert page.evaluate("() => document.activeElement.id") == "board"
    power = page.evaluate("() => window.__game.aim.power")
    for _ in range(5):
        page.keyboard.press("d")  # 1 degree to the shooter's right each
    for _ in range(5):
        page.keyboard.press("w")  # 2 % more power each
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__sent.some(m => m.type === 'shot')")
    shot = page.evaluate("() => window.__sent.find(m => m.type === 'shot')")
    assert shot["angle"] == pytest.approx(math.pi / 2 - math.radians(5), abs=1e-9)
    assert shot["speed"] == pytest.approx((power + 0.1) * 5.0, abs=1e-9)
    # the ruling and the turn change are said in the live region
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    live = page.locator("#live")
    expect(live).to_have_attribute("aria-live", "polite")
    page.wait_for_function("() => /\\(R\\d/.test(document.getElementById('live').textContent)")
    expect(live).to_contain_text("to shoot")
    wait_my_turn(page)
    # soft shots by keyboard until the shooter stands on an area line (after the first shots)
    for _ in range(3):
        if page.evaluate("() => window.__game.state.placement.kind") == "line":
            break
        n = page.evaluate("() => window.__game.log.length")
        page.locator("#board").focus()
        for _ in range(20):
            page.keyboard.press("s")
        page.keyboard.press("Space")
        page.wait_for_function("(n) => window.__game.log.length > n && !window.__game.anim", arg=n)
        wait_my_turn(page)
    assert page.evaluate("() => window.__game.state.placement.kind") == "line"
    # the arrows move the striker along the line to the shooter's own right (-x for north)
    seat = page.evaluate("() => window.__game.state.shooter")
    x0 = page.evaluate("() => window.__game.aim.x")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    x1 = page.evaluate("() => window.__game.aim.x")
    assert x1 - x0 == pytest.approx(0.02 if seat == 0 else -0.02, abs=1e-9)
    assert errors == []
    page.context.close()


def test_high_contrast_is_an_option_remembered_by_the_browser(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ja-JP")
    page = ctx.new_page()
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    toggle = page.locator("button[data-pref=contrast]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text("ハイコントラスト")
    before = page.locator("#board").screenshot()
    toggle.click()
    expect(page.locator("html")).to_have_class("hc")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.evaluate(NEXT_FRAMES)
    assert page.locator("#board").screenshot() != before  # the board is drawn for contrast too
    page.screenshot(path=str(artifacts / "high-contrast-ja.png"))
    page.reload()
    page.wait_for_function("() => window.__game && window.__game.state")
    expect(page.locator("html")).to_have_class("hc")
    page.locator("button[data-pref=contrast]").click()
    expect(page.locator("html")).not_to_have_class("hc")
    ctx.close()
