"""Screenshots of the main screens, in both languages at both sizes, for people to look at
(test-artifacts/screen-*.png): home, a room while aiming, a ruling just shown, the end screen,
the replay viewer, How to play and the no-such-room page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import SIZES, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_main_screens(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path, size: str, lang: str
) -> None:
    ctx = browser.new_context(**SIZES[size], locale="ja-JP" if lang == "ja" else "en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"screen-{name}-{size}-{lang}.png"))

    page.goto(f"{server_url}/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    shot("home")
    page.goto(f"{server_url}/howto")
    expect(page.locator(".howto h1")).to_have_text("遊び方" if lang == "ja" else "How to play")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.howto-picture')].every(c => c.width > 0)"
    )
    shot("howto")
    page.goto(f"{server_url}/room/NoSuchRoom")
    expect(page.locator(".notfound h1")).to_be_visible()
    shot("no-such-room")
    page.goto(f"{server_url}/replay/{finished_game}?shot=3")
    page.wait_for_function("() => window.__replay && window.__replay.lastPaths")
    shot("replay")
    page.goto(f"{server_url}/room/{finished_game.rsplit('-', 1)[0]}")
    expect(page.locator("#endscreen")).to_be_visible()
    shot("end")
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    page.wait_for_timeout(100)
    shot("room-aiming")
    page.locator("#board").focus()
    for _ in range(18):
        page.keyboard.press("s")  # a soft shot: the ruling comes quickly
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    expect(page.locator("#banner")).to_be_visible()
    page.wait_for_timeout(300)
    shot("ruling")
    assert errors == []
    ctx.close()
