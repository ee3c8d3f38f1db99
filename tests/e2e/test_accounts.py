"""Accounts and invited guests in real headless Chromium, desktop (1366x900) and 390x844 touch,
in English and Japanese: a guest who opens an invite is asked for a name before taking the
seat (left empty, the seat's colour and side in the page's language); two accounts signed up
on the start page find each other in the lobby, play a rated game and both ratings change by
the amounts openskill gives. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
LOCALE = {"en": "en-US", "ja": "ja-JP"}
TAKE_IT = {"en": "Take the seat", "ja": "この席に着く"}
SEAT = {"en": "Green (north)", "ja": "緑（北）"}
MARKUP = {
    "en": "A name may not contain < or > or control characters.",
    "ja": "名前に < や > や制御文字は使えません。",
}
SIGN_UP = {"en": "Sign up", "ja": "新規登録"}
SEEK = {"en": "Find an opponent", "ja": "対戦相手を探す"}
RESIGN = {"en": "Resign", "ja": "投了"}
RESIGN_YES = {"en": "Resign", "ja": "投了する"}


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


def _click(page: Page, locator: Any) -> None:
    """A tap on the touch phone, a click on the desktop."""
    if (page.viewport_size or {}).get("width") == PHONE["viewport"]["width"]:
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize(
    ("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")], ids=["desktop-en", "phone-ja"]
)
def test_an_invited_guest_is_asked_for_a_name(
    browser: Browser,
    contexts: list[BrowserContext],
    server_url: str,
    artifacts: Path,
    size: dict[str, Any],
    lang: str,
) -> None:
    guest = _open(browser, contexts, size, lang)
    made = guest.request.post(f"{server_url}/api/rooms", data={"mode": "online", "name": "Host"})
    room_id = made.json()["room_id"]
    guest.goto(f"{server_url}/room/{room_id}")
    _click(guest, guest.locator("#waiting .wait-take button[data-seat='1']"))
    dialog = guest.locator("#guest-name")
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=name]")).to_have_attribute("placeholder", SEAT[lang])
    expect(dialog).to_contain_text(SEAT[lang])  # left empty, the seat keeps its name
    dialog.locator("input[name=name]").fill("<b>")
    _click(guest, dialog.get_by_role("button", name=TAKE_IT[lang]))
    expect(dialog.locator(".form-error")).to_have_text(MARKUP[lang])
    name = "Guest Gin" if lang == "en" else "銀次"
    dialog.locator("input[name=name]").fill(name)
    guest.screenshot(path=str(artifacts / f"guest-name-{lang}.png"))
    _click(guest, dialog.get_by_role("button", name=TAKE_IT[lang]))
    guest.wait_for_function("() => window.__game && window.__game.mySeats.size === 1")
    expect(guest.locator("#seats")).to_contain_text(name)
    seats = guest.request.get(f"{server_url}/api/rooms/{room_id}").json()["room"]["seats"]
    assert [s["name"] for s in seats] == ["Host", name]


def _sign_up(page: Page, base: str, name: str, lang: str, artifacts: Path) -> None:
    page.goto(f"{base}/")
    form = page.locator("#account .account-form")
    page.screenshot(path=str(artifacts / f"account-signed-out-{lang}.png"))
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("correct horse battery")
    _click(page, form.get_by_role("button", name=SIGN_UP[lang]))
    expect(page.locator("#account .account-name")).to_have_text(name)


def test_two_accounts_play_a_rated_game_from_the_lobby(
    browser: Browser, contexts: list[BrowserContext], server_url: str, artifacts: Path
) -> None:
    desk = _open(browser, contexts, DESKTOP, "en")
    phone = _open(browser, contexts, PHONE, "ja")
    _sign_up(desk, server_url, "Rated Rin", "en", artifacts)
    _sign_up(phone, server_url, "評価 源", "ja", artifacts)
    desk.screenshot(path=str(artifacts / "account-signed-in-en.png"))
    for page, lang in ((desk, "en"), (phone, "ja")):
        page.select_option("#lobby select[name=minutes]", "5")
        _click(page, page.get_by_role("button", name=SEEK[lang]))
    desk.wait_for_url("**/room/*")
    phone.wait_for_url("**/room/*")
    assert desk.url == phone.url
    desk.wait_for_function("() => window.__game && window.__game.mySeats.size === 1")
    _click(desk, desk.locator("#actions button.resign"))
    _click(desk, desk.locator("#resign-dialog button.resign-yes"))
    expect(phone.locator("#endscreen")).to_be_visible(timeout=15_000)

    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    [loser], [winner] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    for page, lang, player in ((desk, "en", loser), (phone, "ja", winner)):
        page.goto(f"{server_url}/")
        rating = page.locator("#account .account-ratings li[data-time='5min']")
        expect(rating).to_contain_text(f"{round(player.mu)} ±{round(player.sigma)}")
        page.locator("#account").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"account-rated-{lang}.png"))
    assert round(loser.mu) < 1500 < round(winner.mu)
