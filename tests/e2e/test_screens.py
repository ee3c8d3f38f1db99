"""Screenshots of the main screens, in both languages at both sizes, for people to look at:
test-artifacts/screen-{home,room-aiming,ruling,replay}-{desktop,phone}-{en,ja}.png here; the end
screen, How to play and the no-such-room page are written by their own tests (end-screen-*,
howto-*, no-such-room-*). The language is switched on the page, as a player would."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import SIZES, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_main_screens_in_both_languages(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path, size: str
) -> None:
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def both(name: str) -> None:
        """A screenshot in English, then the same screen switched to Japanese, and back."""
        page.screenshot(path=str(artifacts / f"screen-{name}-{size}-en.png"))
        page.click(".lang-switch button[data-lang=ja]")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        page.screenshot(path=str(artifacts / f"screen-{name}-{size}-ja.png"))
        page.click(".lang-switch button[data-lang=en]")

    page.goto(f"{server_url}/replay/{finished_game}?shot=3")
    page.wait_for_function("() => window.__replay && window.__replay.lastPaths")
    both("replay")
    expect(page.locator("#rp-auto")).to_have_text("Autoplay")
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    both("room-aiming")
    page.locator("#board").focus()
    for _ in range(18):
        page.keyboard.press("s")  # a soft shot: its ruling comes quickly
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    text = banner.text_content()
    both("ruling")
    assert banner.text_content() == text  # the ruling came back in English with the page
    page.goto(f"{server_url}/")
    both("home")
    assert errors == []
    ctx.close()
