"""Forms and refusals in real Chromium: no "[object Object]" anywhere; every refusal
of the new-game form is a sentence in the page's language next to its field; a name with < or
> is refused with a sentence and never shown as HTML."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _no_object_object(page: Page) -> None:
    assert "[object Object]" not in page.locator("body").inner_text()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_empty_minutes_and_a_name_with_angle_brackets_get_sentences_by_their_fields(
    browser: Browser, server_url: str, size: str
) -> None:
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    page = ctx.new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{server_url}/")
    page.click("label.check:has(input[name=timed])")
    page.fill("input[name=minutes]", "")
    page.fill("#newgame input[name=name]", "<b>Taro</b>")
    page.click("#newgame button[type=submit]")
    expect(page.locator("#err-minutes")).to_have_text(
        "Enter the match time in whole minutes, from 1 to 60."
    )
    expect(page.locator("#err-name")).to_have_text(
        "A name may not contain < or > or control characters."
    )
    expect(page.locator("input[name=minutes]")).to_have_attribute("aria-invalid", "true")
    # the sentence sits next to its field
    field = page.locator("label.field:has(input[name=minutes])").bounding_box()
    err = page.locator("#err-minutes").bounding_box()
    assert (
        field
        and err
        and err["y"] >= field["y"]
        and err["y"] + err["height"] <= field["y"] + field["height"] + 1
    )
    _no_object_object(page)
    assert posts == []  # nothing was sent: the page said what to fix
    assert page.locator("b", has_text="Taro").count() == 0  # never shown as HTML
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#err-minutes")).to_have_text("試合時間は1〜60の分で入力してください。")
    expect(page.locator("#err-name")).to_have_text("名前に < や > や制御文字は使えません。")
    _no_object_object(page)
    # fixed: the room opens
    page.fill("input[name=minutes]", "3")
    page.fill("#newgame input[name=name]", "Taro")
    page.click("#newgame button[type=submit]")
    page.wait_for_url("**/room/*")
    ctx.close()


def test_the_servers_refusals_become_sentences_too(browser: Browser, server_url: str) -> None:
    page = browser.new_page(locale="ja-JP")
    page.goto(f"{server_url}/")
    # a name longer than the field allows (typed past maxlength by a script): the server's 422
    page.evaluate(
        "() => { document.querySelector('#newgame input[name=name]').value = 'x'.repeat(30); }"
    )
    page.click("#newgame button[type=submit]")
    expect(page.locator("#err-name")).to_have_text("名前は24文字までです。")
    _no_object_object(page)
    page.fill("#newgame input[name=name]", "")
    # a computer level this server does not have: the server's own sentence, in Japanese
    page.evaluate(
        "() => { const o = document.querySelector('select[name=level] option'); o.value = 'nope'; "
        "document.querySelector('select[name=level]').value = 'nope'; }"
    )
    page.click("#newgame button[type=submit]")
    expect(page.locator("#newgame .form-error")).to_contain_text("コンピュータ 'nope' はありません")
    page.click(".lang-switch button[data-lang=en]")
    expect(page.locator("#newgame .form-error")).to_contain_text("No computer player 'nope'")
    _no_object_object(page)
    page.close()
