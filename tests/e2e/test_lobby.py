"""The lobby in real headless Chromium: two strangers (no link between them) find each other
from the start page and are seated in the same room, one on a 1366x900 desktop, one on a
390x844 touch phone, in English and in Japanese; the live games list shows their game and a
third browser watches it. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
LOCALE = {"en": "en-US", "ja": "ja-JP"}
SEEK = {"en": "Find an opponent", "ja": "対戦相手を探す"}
WATCH = {"en": "Watch", "ja": "観戦"}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for ctx in opened:
        ctx.close()


def _open(browser: Browser, opened: list[BrowserContext], size: dict[str, Any], lang: str) -> Page:
    ctx = browser.new_context(**size, locale=LOCALE[lang])
    opened.append(ctx)
    return ctx.new_page()


def _seats(page: Page) -> list[int]:
    page.wait_for_function("() => window.__game && window.__game.state")
    seats: list[int] = page.evaluate("() => [...window.__game.mySeats]")
    return seats


@pytest.mark.parametrize(
    ("first", "second"),
    [("en", "ja"), ("ja", "en")],
    ids=["desktop-en-phone-ja", "desktop-ja-phone-en"],
)
def test_two_strangers_find_each_other_and_a_third_watches(
    browser: Browser,
    contexts: list[BrowserContext],
    server_url: str,
    artifacts: Path,
    first: str,
    second: str,
) -> None:
    desk = _open(browser, contexts, DESKTOP, first)
    phone = _open(browser, contexts, PHONE, second)
    desk.goto(f"{server_url}/")
    desk.fill("#newgame [name=name]", "Hana" if first == "en" else "花子")
    desk.select_option("#lobby select[name=minutes]", "5")
    desk.get_by_role("button", name=SEEK[first]).click()
    expect(desk.locator("#lobby .lobby-wait")).to_be_visible()
    desk.screenshot(path=str(artifacts / f"lobby-waiting-{first}.png"))

    phone.goto(f"{server_url}/")
    phone.locator("#lobby").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / f"lobby-phone-{second}.png"))
    phone.get_by_role("button", name=SEEK[second]).tap()
    phone.wait_for_url("**/room/*")
    desk.wait_for_url("**/room/*")
    assert desk.url == phone.url
    assert sorted(_seats(desk) + _seats(phone)) == [0, 1]

    watcher = _open(browser, contexts, DESKTOP, first)
    watcher.goto(f"{server_url}/")
    room_id = desk.url.rsplit("/", 1)[1]
    watch = watcher.locator(f"#lobby .lobby-live a[href='/room/{room_id}']")
    expect(watch).to_have_text(WATCH[first], timeout=10_000)
    watcher.screenshot(path=str(artifacts / f"lobby-live-{first}.png"))
    watch.click()
    watcher.wait_for_url(f"**/room/{room_id}")
    assert _seats(watcher) == []
    expect(watcher.locator("#view")).to_contain_text("Watching" if first == "en" else "観戦中")
