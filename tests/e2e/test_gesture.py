"""The shooting gesture in real Chromium: a shot only comes from a deliberate pull that starts on
the striker (or its aim handle), travels past the band's rest length and is let go. Taps, clicks
away from the striker, right clicks, a second finger, Escape, letting go back on the striker and
swipes over the board send nothing; one proper pull sends exactly one shot."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import Browser, Page
from tests.e2e.gamekit import (
    DESKTOP,
    NEXT_FRAMES,
    PHONE,
    REST,
    Touch,
    hotseat_page,
    point_behind_striker,
    shots_sent,
    striker_on_screen,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HANDLE_AT = """() => {
  const g = window.__game;
  const d = 0.03 + g.aim.power * 0.16;
  const [sx, sy] = g.view.toScreen(
    g.aim.x - Math.cos(g.aim.angle) * d, g.aim.y - Math.sin(g.aim.angle) * d);
  const r = g.canvas.getBoundingClientRect();
  return [r.left + sx / g.view.dpr, r.top + sy / g.view.dpr];
}"""


SETTLED = """() => new Promise(done => {
  let last = scrollY, still = 0;
  const look = () => {
    still = scrollY === last ? still + 1 : 0;
    last = scrollY;
    if (still >= 6) done(); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})"""
"""Resolves once the page has not scrolled for six frames."""


def _aim(page: Page) -> tuple[float, float]:
    angle, power = page.evaluate("() => [window.__game.aim.angle, window.__game.aim.power]")
    return float(angle), float(power)


def test_mouse_taps_right_clicks_escape_and_letting_go_on_the_striker_never_shoot(
    browser: Browser, server_url: str
) -> None:
    page, errors = hotseat_page(browser, server_url, DESKTOP)
    sx, sy = striker_on_screen(page)
    before = _aim(page)
    # a plain click on the board away from the striker (the old game shot from here)
    bx, by = point_behind_striker(page, 0.08)
    page.mouse.click(bx, by)
    page.mouse.click(sx + 150, sy - 250)
    # a drag that starts away from the striker, like the old slingshot anywhere
    page.mouse.move(bx, by)
    page.mouse.down()
    page.mouse.move(bx, by + 60, steps=6)
    page.mouse.up()
    # a tap on the striker
    page.mouse.click(sx, sy)
    # a right click on the striker, and a right-button drag from it
    page.mouse.click(sx, sy, button="right")
    page.mouse.move(sx, sy)
    page.mouse.down(button="right")
    page.mouse.move(sx, sy + 80, steps=6)
    page.mouse.up(button="right")
    assert shots_sent(page) == 0
    # Escape in the middle of a pull calls it off and puts the aim back
    x1, y1 = point_behind_striker(page, REST + 0.08)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    assert page.evaluate("() => window.__game.aim.armed") is True
    page.keyboard.press("Escape")
    page.mouse.up()
    assert _aim(page) == before
    # pulled back, then brought back onto the striker: letting go there cancels
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.move(sx + 3, sy + 3, steps=8)
    assert page.evaluate("() => window.__game.lastOverlay.note").startswith("Let go here to cancel")
    page.mouse.up()
    # a second button pressed during a pull calls it off as well
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.down(button="right")
    page.mouse.up(button="right")
    page.mouse.up()
    page.evaluate(NEXT_FRAMES)  # the release is handled and drawn
    assert shots_sent(page) == 0
    assert _aim(page) == before
    assert page.evaluate("() => window.__game.pendingShot") is False
    # a proper pull: exactly one shot, straight ahead, its power set by the pull
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=10)
    page.mouse.up()
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 1")
    shot = page.evaluate("() => window.__sent.find(m => m.type === 'shot')")
    assert shot["angle"] == pytest.approx(math.pi / 2, abs=0.02)
    assert shot["speed"] == pytest.approx(0.08 / 0.16 * 5.0, rel=0.1)
    page.evaluate(NEXT_FRAMES)
    assert shots_sent(page) == 1
    assert errors == []
    page.context.close()


def test_the_aim_handle_is_a_second_grip(browser: Browser, server_url: str) -> None:
    page, _ = hotseat_page(browser, server_url, DESKTOP)
    hx, hy = page.evaluate(HANDLE_AT)
    page.mouse.click(hx, hy)  # a click on the handle is a tap: nothing
    assert shots_sent(page) == 0
    # pull the handle further back and a little to the left: aims a little to the right
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(hx - 25, hy + 40, steps=8)
    page.mouse.up()
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 1")
    shot = page.evaluate("() => window.__sent.find(m => m.type === 'shot')")
    assert shot["angle"] < math.pi / 2 - 0.02  # turned clockwise: to the shooter's right
    page.context.close()


def test_touch_taps_swipes_and_a_second_finger_never_shoot(
    browser: Browser, server_url: str
) -> None:
    page, errors = hotseat_page(browser, server_url, PHONE)
    touch = Touch(page)
    sx, sy = striker_on_screen(page)
    box = page.locator("#board").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = _aim(page)
    # swipes over the board as if to scroll the page, up and down, and sideways
    touch.drag((cx, cy + 60), (cx, cy - 120))
    touch.drag((cx, cy - 100), (cx + 10, cy + 150))
    touch.drag((box["x"] + 20, cy), (box["x"] + box["width"] - 20, cy))
    # taps on the board and on the striker
    touch.drag((cx, cy), (cx, cy), steps=1)
    touch.drag((sx, sy), (sx + 2, sy + 1), steps=1)
    assert shots_sent(page) == 0
    # a pull from the striker, then a second finger on the board: called off
    x1, y1 = point_behind_striker(page, REST + 0.08)
    touch.send("touchStart", [(sx, sy)])
    for k in range(1, 9):
        touch.send("touchMove", [(sx + (x1 - sx) * k / 8, sy + (y1 - sy) * k / 8)])
    touch.send("touchStart", [(x1, y1), (cx, cy)])
    touch.send("touchEnd", [])
    page.evaluate(NEXT_FRAMES)  # the release is handled and drawn
    assert shots_sent(page) == 0
    assert _aim(page) == before
    # one finger, pulled back from the striker and let go: one shot
    touch.drag((sx, sy), (x1, y1))
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 1")
    page.evaluate(NEXT_FRAMES)
    assert shots_sent(page) == 1
    assert errors == []
    page.context.close()


def test_on_a_page_that_scrolls_a_swipe_over_the_board_scrolls_and_a_pull_shoots(
    browser: Browser, server_url: str
) -> None:
    tablet = {"viewport": {"width": 800, "height": 1000}, "has_touch": True, "is_mobile": True}
    page, _ = hotseat_page(browser, server_url, tablet)
    assert page.evaluate("() => document.documentElement.scrollHeight > innerHeight")
    touch = Touch(page)
    box = page.locator("#board").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch.drag((cx, cy + 150), (cx, cy - 150), steps=10)
    page.wait_for_function("() => scrollY > 100")  # the page scrolled under the finger
    page.evaluate(SETTLED)  # the fling is over
    assert shots_sent(page) == 0
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(SETTLED)
    sx, sy = striker_on_screen(page)
    touch.drag((sx, sy), point_behind_striker(page, REST + 0.08), steps=10)
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 1")
    assert page.evaluate("() => scrollY") == 0  # a pull from the striker is not a scroll
    page.context.close()
