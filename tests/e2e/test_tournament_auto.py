"""Automatic mode in the director's console, in real headless Chromium: the director switches
it on, the free boards are called by themselves, the console says why the other matches wait,
and a result entered on a board brings the next call at once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.tourneykit import context, drawn_event, event_matches, page_errors

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _called(server_url: str, tid: str) -> dict[str, dict[str, object]]:
    return {m["id"]: m for m in event_matches(server_url, tid) if m["status"] == "called"}


def test_a_result_entered_in_automatic_mode_brings_the_next_call(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token = drawn_event(server_url)  # 5 players in one pool, 3 boards
    ctx = context(browser, "desktop")
    ctx.add_init_script(
        f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}');"
        "localStorage.setItem('hikone-carrom.operator', '本部 花子');"
    )
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director?tab=boards")
    state = page.locator("#auto-state")
    expect(state).to_have_attribute("data-on", "false")
    tiles = page.locator("#director-boards .board-tile.called")
    expect(tiles).to_have_count(0)

    page.click("#auto-toggle")
    expect(state).to_have_attribute("data-on", "true")
    expect(state).to_contain_text("自動進行中")
    expect(tiles).to_have_count(2)  # 4 of the 5 players are on two boards
    waiting = page.locator("#auto-waiting tr[data-code=entrant]").first
    expect(waiting).to_contain_text("さんが試合")
    page.screenshot(path=str(artifacts / "tournament-auto-on.png"), full_page=True)

    before = _called(server_url, tid)
    tile = tiles.first
    tile.locator("button[data-action=result]").click()
    dialog = page.locator("#result-dialog")
    dialog.locator("input[name=a]").fill("112")
    dialog.locator("input[name=b]").fill("9")
    dialog.locator("#save-result").click()
    expect(dialog).to_be_hidden()

    deadline = time.monotonic() + 10
    while (fresh := set(_called(server_url, tid)) - set(before)) == set():
        assert time.monotonic() < deadline, "no call followed the result"
        time.sleep(0.1)
    new = _called(server_url, tid)[fresh.pop()]
    sides = new["sides"]
    assert isinstance(sides, list)
    expect(page.locator("#banner")).to_contain_text(sides[0]["name"])
    board = page.locator(f"#director-boards .board-tile[data-board='{new['board']}']")
    expect(board).to_have_class("board-tile called")
    expect(tiles).to_have_count(2)
    # the reasons follow: the match just called no longer waits
    expect(page.locator(f"#auto-waiting tr[data-match='{new['id']}']")).to_have_count(0)
    page.screenshot(path=str(artifacts / "tournament-auto-next-call.png"), full_page=True)

    page.click(".lang-switch button[data-lang=en]")
    expect(state).to_contain_text("free boards get the next match")
    page.click("#auto-toggle")
    expect(state).to_have_attribute("data-on", "false")
    assert not errors
