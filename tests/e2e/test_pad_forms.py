"""The pad's forms keep what the referee typed when they are drawn again (a toggle, the language
switch), and its header keeps the board's whole name and, while scoring, the match's title, on a
390 x 844 phone in Chromium."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.organiserkit import ORGANISER_KEY, organiser_headers
from tests.e2e.padkit import phone, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOARD = "第41回カロム大会 彦根市民体育センター 第17台"
TITLE = "第17台 一般（シングルス） Aリーグ 第3試合"


def test_the_setup_form_keeps_names_minutes_and_title_across_toggles_and_languages(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    made = httpx.post(f"{server_url}/api/boards", json={"name": BOARD},
                      headers=organiser_headers(), timeout=10).json()  # fmt: skip
    page = phone(browser).new_page()
    page.goto(f"{server_url}/pad/{made['id']}#t={made['token']}")
    expect(page.locator("#setup")).to_be_visible()
    page.fill("input[name=title]", TITLE)
    page.fill("input[name=minutes]", "7")
    page.fill("input[name=name0]", "田中")
    page.fill("input[name=name1]", "佐藤")
    page.tap("#setup .segmented button:nth-child(2)")  # doubles: the form is drawn again
    page.fill("input[name=name2]", "山本")
    page.fill("input[name=name3]", "鈴木")
    page.tap("#lang")  # English: drawn again
    expect(page.locator("#setup h1")).to_have_text("Match set-up")
    page.tap("#setup .segmented button:nth-child(1)")  # back to singles, then doubles again
    page.tap("#setup .segmented button:nth-child(2)")
    values = [page.input_value(f"input[name=name{s}]") for s in range(4)]
    assert values == ["田中", "佐藤", "山本", "鈴木"]
    assert page.input_value("input[name=title]") == TITLE
    assert page.input_value("input[name=minutes]") == "7"
    page.check("input[name=untimed]")
    assert page.input_value("input[name=title]") == TITLE
    page.uncheck("input[name=untimed]")
    assert page.input_value("input[name=minutes]") == "7"

    page.tap("#setup button[type=submit]")
    expect(page.locator("#turn")).to_be_visible()
    match = page.evaluate("() => window.__pad.view().setup")
    assert match["title"] == TITLE and match["match_time_s"] == 7 * 60
    # the header: the board's whole name (two lines at most) and the match's title
    expect(page.locator("#bar-board")).to_have_text(BOARD)
    expect(page.locator("#bar-match")).to_have_text(TITLE)
    whole = page.eval_on_selector("#bar-board", "e => e.scrollHeight <= e.clientHeight + 1")
    shoot(page, artifacts, "pad-header-phone-en.png")
    assert whole, "the board's name is cut"


def test_the_board_form_keeps_its_name_across_the_language_switch(
    browser: Browser, server_url: str
) -> None:
    page = phone(browser).new_page()
    page.goto(f"{server_url}/pad?key={ORGANISER_KEY}")
    page.fill("input[name=name]", BOARD[:40])
    page.tap("#lang")
    expect(page.locator("#create h1")).not_to_have_text("ボードを作る")
    assert page.input_value("input[name=name]") == BOARD[:40]
