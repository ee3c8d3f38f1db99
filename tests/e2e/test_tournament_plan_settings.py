"""The director sets the day's times and breaks and chooses a knockout size in Chromium, seeing
each choice's consequences before confirming (Japanese and English)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.tourneykit import context, drawn_event, event_matches, page_errors

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_the_plan_settings_and_the_knockout_size(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    tid, token = drawn_event(server_url)  # 5 entrants: one pool, its best 3 qualify
    ctx = context(browser, kind)
    ctx.add_init_script(
        f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}');"
        "localStorage.setItem('hikone-carrom.operator', '運営 花子');"
    )
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director")
    page.click("button[data-tab=settings]")
    card = page.locator("#plan-settings")
    expect(card.locator("#plan-lunch")).to_have_value("12:00")
    expect(card.locator("#plan-changeover_min")).to_have_value("3")
    card.locator("#plan-start").fill("09:00")
    card.locator("#plan-ceremony_min").fill("0")
    card.locator("#plan-lunch").fill("09:10")
    card.locator("#plan-lunch_min").fill("60")
    page.click("#plan-save")
    expect(page.locator("#plan-note")).to_contain_text("台割りを作り直しました")
    for m in event_matches(server_url, tid):
        if m["planned"]:
            start, end = m["planned"]["start_s"], m["planned"]["end_s"]
            assert not (start < 9 * 3600 + 70 * 60 and end > 9 * 3600 + 10 * 60)

    ko = page.locator("#knockout-GS")
    expect(ko.locator("li[data-size=full] .ko-consequence")).to_contain_text("4枠・出場3・不戦勝1")
    expect(ko.locator("li[data-size=cut] .ko-consequence")).to_contain_text(
        "2枠・出場2・不戦勝0・全1試合（1回戦1試合）。3位以下の1組は出場しません"
    )
    confirm = ko.locator("button[data-action=knockout-confirm]")
    expect(confirm).to_be_disabled()  # the current size
    ko.locator("li[data-size=cut] input[type=radio]").check()
    page.screenshot(path=str(artifacts / f"tournament-plan-settings-{kind}.png"), full_page=True)
    confirm.click()
    expect(ko.locator("li[data-size=cut]")).to_contain_text("現在")
    knockout = [m for m in event_matches(server_url, tid) if m["stage"] == "knockout"]
    assert [m["id"] for m in knockout] == ["GS-F"]  # 2 lines: the final only

    page.locator(".lang-switch button[data-lang=en]").first.click()
    expect(ko.locator("li[data-size=cut] .ko-consequence")).to_contain_text(
        "the 1 placed 3rd or lower do not play"
    )
    card.locator("#plan-lunch").fill("25:00")  # a browser time field refuses it: stays empty
    page.click("#plan-save")
    expect(page.locator("#plan-note")).not_to_contain_text("Saved")
    assert not errors
