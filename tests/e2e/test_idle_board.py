"""An idle board in real Chromium: a game page draws its board only when what it shows
changed. An idle room or replay draws nothing while a player thinks; moving the aim (pointer,
touch or key), a resize, a language or contrast switch and a shot's animation draw at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from tests.e2e.gamekit import (
    NEXT_FRAMES,
    REST,
    SIZES,
    Touch,
    drag_shot,
    hotseat_page,
    point_behind_striker,
    shots_sent,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOM_DRAWS = "() => window.__game.stats.draws"
REPLAY_DRAWS = "() => window.__replay.stats.draws"
RAF_COUNT = """() => new Promise(done => {
  let n = 0;
  const start = performance.now();
  const tick = (now) => (now - start < 1000 ? (n++, requestAnimationFrame(tick)) : done(n));
  requestAnimationFrame(tick);
})"""
"""Display frames over one second (the page's own frame loop runs beside it)."""


def draws(page: Page, counter: str = ROOM_DRAWS) -> int:
    """Boards the page has drawn (its stats counter)."""
    n: int = page.evaluate(counter)
    return n


def assert_idle(page: Page, counter: str = ROOM_DRAWS) -> None:
    """Over one second of display frames with nothing happening, the board is not drawn."""
    page.evaluate(NEXT_FRAMES)  # what just happened is drawn
    before = draws(page, counter)
    frames = page.evaluate(RAF_COUNT)
    assert frames > 20  # the page is alive and its frames run
    assert draws(page, counter) == before


def assert_draws_at_once(page: Page, before: int, counter: str = ROOM_DRAWS) -> None:
    """The board is drawn again within two display frames."""
    page.evaluate(NEXT_FRAMES)
    assert draws(page, counter) > before


def switch_contrast(page: Page) -> None:
    """Press the high-contrast switch (on a phone it sits in the ☰ menu)."""
    toggle = page.locator("button[data-pref=contrast]")
    in_menu = not toggle.is_visible()
    if in_menu:
        page.click("#menu-toggle")
    toggle.click()
    if in_menu and page.get_attribute("#menu-toggle", "aria-expanded") == "true":
        page.click("#menu-toggle")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_idle_room_draws_nothing_and_every_change_draws_at_once(
    browser: Browser, server_url: str, artifacts: Path, size: str
) -> None:
    page, errors = hotseat_page(browser, server_url, SIZES[size])
    page.evaluate(NEXT_FRAMES)
    assert draws(page) >= 1  # the board is there
    assert_idle(page)
    page.screenshot(path=str(artifacts / f"idle-room-{size}.png"))

    # the pointer (mouse or finger) takes the striker and pulls: drawn at once, every move
    sx, sy = point_behind_striker(page, 0.0)
    px, py = point_behind_striker(page, REST + 0.06)
    touch = Touch(page) if size == "phone" else None
    before = draws(page)
    if touch:
        touch.send("touchStart", [(sx, sy)])
        touch.send("touchMove", [(px, py)])
    else:
        page.mouse.move(sx, sy)
        page.mouse.down()
        page.mouse.move(px, py, steps=4)
    assert_draws_at_once(page, before)
    assert page.evaluate("() => window.__game.lastOverlay.aim.pull") is not None
    page.screenshot(path=str(artifacts / f"idle-room-pulling-{size}.png"))
    assert_idle(page)  # holding still draws nothing either
    before = draws(page)
    if touch:  # back onto the striker and let go: cancelled, no shot
        touch.send("touchMove", [(sx, sy)])
        touch.send("touchEnd", [])
    else:
        page.mouse.move(sx, sy, steps=4)
        page.mouse.up()
    assert_draws_at_once(page, before)
    assert page.evaluate("() => window.__game.lastOverlay.aim.pull") is None
    assert shots_sent(page) == 0

    # a key turns the aim
    page.locator("#board").focus()
    angle = page.evaluate("() => window.__game.lastOverlay.aim.angle")
    before = draws(page)
    page.keyboard.press("d")
    assert_draws_at_once(page, before)
    assert page.evaluate("() => window.__game.lastOverlay.aim.angle") < angle
    assert_idle(page)

    # a resize (a phone turned, a window made narrower)
    w, h = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    width = page.evaluate("() => window.__game.canvas.width")
    before = draws(page)
    page.set_viewport_size(
        {"width": h, "height": w} if size == "phone" else {"width": 900, "height": 700}
    )
    assert_draws_at_once(page, before)
    assert page.evaluate("() => window.__game.canvas.width") != width
    page.screenshot(path=str(artifacts / f"idle-room-resized-{size}.png"))
    page.set_viewport_size({"width": w, "height": h})
    assert_idle(page)

    # the language and the high-contrast switch
    before = draws(page)
    page.click(".lang-switch button[data-lang=ja]")
    assert_draws_at_once(page, before)
    assert_idle(page)
    before = draws(page)
    switch_contrast(page)
    assert_draws_at_once(page, before)
    switch_contrast(page)
    assert_idle(page)

    # a shot: its animation is drawn frame by frame, then the board rests again
    stats = page.evaluate("() => ({ ...window.__game.stats })")
    sx, sy = point_behind_striker(page, 0.0)
    if touch:
        touch.drag((sx, sy), point_behind_striker(page, REST + 0.09), steps=10)
    else:
        drag_shot(page)
    page.wait_for_function("() => window.__game.anim !== null", timeout=30_000)
    page.wait_for_function(
        "() => window.__game.log.some(e => e.ev.kind === 'shot') && !window.__game.anim",
        timeout=30_000,
    )
    after = page.evaluate("() => ({ ...window.__game.stats })")
    animated = after["animTime"] - stats["animTime"]
    frames = after["animFrames"] - stats["animFrames"]
    assert animated > 0.3
    assert frames > 10 * animated  # drawn on (nearly) every display frame while it rolls
    assert after["draws"] - stats["draws"] >= frames
    page.screenshot(path=str(artifacts / f"idle-room-after-shot-{size}.png"))
    assert_idle(page)
    assert errors == []
    page.context.close()


def test_an_idle_replay_draws_nothing_and_a_step_draws_at_once(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path
) -> None:
    page = browser.new_page(**SIZES["desktop"], locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server_url}/replay/{finished_game}?shot=2")
    page.wait_for_function("() => window.__replay && window.__replay.stats.draws > 0")
    assert_idle(page, REPLAY_DRAWS)
    before = draws(page, REPLAY_DRAWS)
    page.keyboard.press("ArrowRight")  # plays shot 3
    assert_draws_at_once(page, before, REPLAY_DRAWS)
    page.wait_for_function("() => !window.__replay.anim", timeout=30_000)
    assert draws(page, REPLAY_DRAWS) - before > 10  # the shot rolled out frame by frame
    page.screenshot(path=str(artifacts / "idle-replay.png"))
    assert_idle(page, REPLAY_DRAWS)
    before = draws(page, REPLAY_DRAWS)
    page.keyboard.press("ArrowLeft")  # back to shot 2: no animation, drawn once at once
    page.evaluate(NEXT_FRAMES)
    assert draws(page, REPLAY_DRAWS) == before + 1
    assert_idle(page, REPLAY_DRAWS)
    assert errors == []
    page.close()
