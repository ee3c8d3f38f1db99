"""The room on a phone in real Chromium: on a 390x844 phone (and held sideways, 844x390) the room
opens at the top with the whole board and the shot controls on screen and nothing to scroll; the
header does not overflow; every button is at least 44 CSS px; the ruling never covers the board
while the next player aims."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import LANDSCAPE, PHONE, drag_shot, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RECTS = """() => {
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height};
  };
  const shown = (el) =>
    el && el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  const header = document.querySelector('.topbar');
  return {
    vw: innerWidth, vh: innerHeight, scrollY, scrollH: document.documentElement.scrollHeight,
    scrollW: document.documentElement.scrollWidth,
    header: box(header), headerOverflow: header.scrollWidth - header.clientWidth,
    board: box(document.querySelector('#board')),
    controls: ['#numeric', '.power', '#numeric button[type=submit]', '#hint-ask']
      .map(s => document.querySelector(s)).filter(shown).map(box),
    turn: box(document.querySelector('#turn')),
    lang: [...document.querySelectorAll('.lang-switch button')].map(
      b => ({...box(b), text: b.textContent, full: b.scrollWidth <= b.clientWidth})),
    small: [...document.querySelectorAll(
      'button, .button, a.button, .topnav a, select, input:not([type=hidden])')]
      .filter(shown)
      // a radio button's or a checkbox's target is its whole label
      .map(el => (el.matches('[type=radio], [type=checkbox]') && el.closest('label')) || el)
      .map(el => ({id: el.id || el.textContent.trim().slice(0, 20), ...box(el)}))
      .filter(b => b.w < 44 - 0.5 || b.h < 44 - 0.5),
  };
}"""


def _inside(r: dict[str, float], vw: float, vh: float) -> bool:
    return (
        r["x"] >= -0.5
        and r["y"] >= -0.5
        and r["x"] + r["w"] <= vw + 0.5
        and r["y"] + r["h"] <= vh + 0.5
    )


def _check_room(m: dict[str, Any]) -> None:
    vw, vh = m["vw"], m["vh"]
    assert m["scrollY"] == 0
    assert m["scrollH"] <= vh, m["scrollH"]  # nothing to scroll: no swipe over the board needed
    assert m["scrollW"] <= vw
    assert _inside(m["board"], vw, vh), m["board"]
    assert m["board"]["w"] >= 0.75 * min(vw, vh - m["header"]["h"])  # and it is not tiny
    assert m["controls"] and all(_inside(r, vw, vh) for r in m["controls"]), m["controls"]
    assert _inside(m["turn"], vw, vh)
    assert m["headerOverflow"] <= 0
    assert all(_inside(b, vw, vh) and b["full"] for b in m["lang"]), m["lang"]
    assert [b["text"] for b in m["lang"]] == ["日本語", "English"]
    assert m["small"] == []


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )


def _open_room_from_a_scrolled_home(page: Page, base: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("() => scrollY") > 0  # the start page is taller than the phone
    page.click("label.mode:has(input[value=hotseat])")
    page.click("#newgame button[type=submit]")
    page.wait_for_url("**/room/*")
    wait_my_turn(page)


def test_portrait_phone_room_fits_the_screen_and_rulings_stay_off_the_board(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ctx = browser.new_context(**PHONE, locale="en-US")
    page = ctx.new_page()
    _open_room_from_a_scrolled_home(page, server_url)
    _check_room(page.evaluate(RECTS))
    page.screenshot(path=str(artifacts / "phone-room-aiming-en.png"))
    # a shot; when its ruling shows, the next player aims with the whole board free
    drag_shot(page, pull=0.02)
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    wait_my_turn(page)
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    m = page.evaluate(RECTS)
    _check_room(m)
    bb = banner.bounding_box()
    assert bb is not None
    b = {"x": bb["x"], "y": bb["y"], "w": bb["width"], "h": bb["height"]}
    assert not _overlaps(b, m["board"])
    assert _inside(b, m["vw"], m["vh"])
    page.screenshot(path=str(artifacts / "phone-room-ruling-en.png"))
    # the folded menu opens, its links are big enough, and it folds away on a choice
    page.click("#menu-toggle")
    expect(page.locator(".topnav a[href='/howto']")).to_be_visible()
    assert page.evaluate(RECTS)["small"] == []
    page.keyboard.press("Escape")
    expect(page.locator(".topnav a[href='/howto']")).to_be_hidden()
    ctx.close()


def test_landscape_phone_room_fits_the_screen(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ctx = browser.new_context(**LANDSCAPE, locale="ja-JP")
    page = ctx.new_page()
    _open_room_from_a_scrolled_home(page, server_url)
    m = page.evaluate(RECTS)
    _check_room(m)
    assert m["board"]["x"] + m["board"]["w"] <= m["turn"]["x"]  # the panel beside the board
    page.screenshot(path=str(artifacts / "landscape-room-aiming-ja.png"))
    ctx.close()


def test_phone_home_and_pages_have_big_enough_targets_and_no_sideways_scroll(
    browser: Browser, server_url: str, finished_game: str
) -> None:
    ctx = browser.new_context(**PHONE, locale="ja-JP")
    page = ctx.new_page()
    for path in ("/", "/games", f"/replay/{finished_game}", "/howto"):
        page.goto(f"{server_url}{path}")
        page.wait_for_load_state("networkidle")
        m = page.evaluate(RECTS)
        assert m["scrollW"] <= m["vw"], path
        assert m["headerOverflow"] <= 0, path
        assert m["small"] == [], (path, m["small"])
    ctx.close()
