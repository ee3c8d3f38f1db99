"""The typed shot in real Chromium: it is in the shooter's own frame (position and
angle positive to the shooter's right, angle 0 straight ahead) for every seat, and the board
shows it while it is typed, before Shoot."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import SIZES, hotseat_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DRAWN = """() => {
  const o = window.__game.lastOverlay;
  return o && o.aim ? {from: o.aim.from, angle: o.aim.angle} : null;
}"""
"""Where the last drawn frame put the striker and which way its guide line points."""

STRIKER_PIXEL = """([x, y]) => {
  const g = window.__game;
  const [sx, sy] = g.view.toScreen(x, y);
  const px = g.canvas.getContext('2d').getImageData(Math.round(sx), Math.round(sy), 1, 1).data;
  return [px[0], px[1], px[2]];
}"""


def _type(page: Page, pos: str, angle: str, speed: str) -> None:
    page.fill("#numeric [name=pos]", pos)
    page.fill("#numeric [name=angle]", angle)
    page.fill("#numeric [name=speed]", speed)


def _drawn_at(page: Page, x: float, y: float, angle: float) -> None:
    page.wait_for_function(
        """([x, y, a]) => { const o = window.__game.lastOverlay;
           return o && o.aim && Math.abs(o.aim.from[0] - x) < 1e-6
             && Math.abs(o.aim.from[1] - y) < 1e-6 && Math.abs(o.aim.angle - a) < 1e-6; }""",
        arg=[x, y, angle],
    )


def _first_shot_typed(page: Page) -> list[float]:
    """Seat 0's first shot typed, 10 degrees to its right, checked drawn and sent; its tee."""
    tee: list[float] = page.evaluate("() => window.__game.state.placement.point")
    # the first shot is from the tee spot (R2a): only angle and speed can be typed
    expect(page.locator("#numeric [name=pos]")).to_be_disabled()
    expect(page.locator("#numeric [name=angle]")).to_have_value("0.0")  # straight ahead
    page.fill("#numeric [name=angle]", "10")
    page.fill("#numeric [name=speed]", "0.4")
    # seat 0 sits south facing north: 10 degrees to its right is clockwise from north
    _drawn_at(page, tee[0], tee[1], math.pi / 2 - math.radians(10))
    page.click("#numeric button[type=submit]")
    page.wait_for_function("() => window.__sent.some(m => m.type === 'shot')")
    shot = page.evaluate("() => window.__sent.find(m => m.type === 'shot')")
    assert shot["seat"] == 0
    assert (shot["x"], shot["y"]) == (tee[0], tee[1])
    assert shot["angle"] == pytest.approx(math.pi / 2 - math.radians(10), abs=1e-9)
    assert shot["speed"] == pytest.approx(0.4)
    return tee


def test_a_typed_shot_is_shown_while_typed_on_a_phone(browser: Browser, server_url: str) -> None:
    page, errors = hotseat_page(browser, server_url, SIZES["phone"])
    _first_shot_typed(page)
    assert errors == []
    page.context.close()


def test_typed_shot_is_in_the_shooters_frame_for_seats_facing_both_ways(
    browser: Browser, server_url: str
) -> None:
    page, errors = hotseat_page(browser, server_url, SIZES["desktop"])
    tee = _first_shot_typed(page)
    # a gentle shot: the turn passes to seat 1, north, facing south
    page.wait_for_function("() => window.__game.state.shooter === 1 && window.__game.myTurn()")
    assert errors == []
    # its first shot too is from its tee spot; play it gently to reach the area lines
    tee1 = page.evaluate("() => window.__game.state.placement.point")
    page.fill("#numeric [name=angle]", "-10")
    page.fill("#numeric [name=speed]", "0.4")
    _drawn_at(page, tee1[0], tee1[1], -math.pi / 2 + math.radians(10))
    page.click("#numeric button[type=submit]")
    page.wait_for_function("() => window.__game.state.shooter === 0 && window.__game.myTurn()")
    # now on the area line: 40 mm to the shooter's right, 15 degrees to the right
    line = page.evaluate("() => window.__game.state.placement")
    assert line["kind"] == "line"
    _type(page, "40", "15", "0.5")
    y0 = tee[1]
    _drawn_at(page, tee[0] + 0.04, y0, math.pi / 2 - math.radians(15))  # south: right = +x
    assert page.evaluate(STRIKER_PIXEL, [tee[0] + 0.04, y0]) != page.evaluate(
        STRIKER_PIXEL, [tee[0], y0]
    )  # the striker is drawn at the typed place, not at the tee spot any more
    page.click("#numeric button[type=submit]")
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 3")
    shot = page.evaluate("() => window.__sent.filter(m => m.type === 'shot')[2]")
    assert shot["x"] == pytest.approx(tee[0] + 0.04, abs=1e-9)
    assert shot["y"] == pytest.approx(y0, abs=1e-9)
    assert shot["angle"] == pytest.approx(math.pi / 2 - math.radians(15), abs=1e-9)
    page.wait_for_function("() => window.__game.state.shooter === 1 && window.__game.myTurn()")
    # seat 1 faces the other way: its right hand is west (-x), its right turn is towards -x
    _type(page, "40", "15", "0.5")
    _drawn_at(page, tee1[0] - 0.04, tee1[1], -math.pi / 2 - math.radians(15))
    page.click("#numeric button[type=submit]")
    page.wait_for_function("() => window.__sent.filter(m => m.type === 'shot').length === 4")
    shot = page.evaluate("() => window.__sent.filter(m => m.type === 'shot')[3]")
    assert shot["seat"] == 1
    assert shot["x"] == pytest.approx(tee1[0] - 0.04, abs=1e-9)
    turn = (shot["angle"] - (-math.pi / 2 - math.radians(15)) + math.pi) % (2 * math.pi) - math.pi
    assert abs(turn) < 1e-9
    assert errors == []
    page.context.close()


def test_a_typed_figure_out_of_range_gets_a_sentence_next_to_it(
    browser: Browser, server_url: str
) -> None:
    page, _ = hotseat_page(browser, server_url, SIZES["desktop"])
    page.fill("#numeric [name=speed]", "")
    page.fill("#numeric [name=angle]", "400")
    page.click("#numeric button[type=submit]")
    expect(page.locator("#err-speed")).to_have_text("Speed: a number of m/s above 0, up to 5.0.")
    expect(page.locator("#err-angle")).to_have_text("Angle: a number of degrees from -180 to 180.")
    expect(page.locator("#numeric [name=speed]")).to_have_attribute("aria-invalid", "true")
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#err-speed")).to_have_text(
        "速さは 0 より大きく 5.0 までの m/s で入力してください。"
    )
    assert page.evaluate("() => window.__sent.filter(m => m.type === 'shot').length") == 0
    page.context.close()
