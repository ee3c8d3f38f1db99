"""The replay viewer in real Chromium: a link opens any shot, the keyboard
steps through the game, autoplay plays it by itself, and each shot's paths are drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_a_link_opens_a_shot_keys_step_and_autoplay_plays_on(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path
) -> None:
    ctx = browser.new_context(**SIZES["desktop"], locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()  # time runs as usual, and on demand below
    page.goto(f"{server_url}/replay/{finished_game}?shot=3")
    page.wait_for_function("() => window.__replay && window.__replay.data")
    n = page.evaluate("() => window.__replay.data.events.length")
    expect(page.locator("#rp-pos")).to_have_text(f"3 / {n}")
    expect(page.locator("#log li")).to_have_count(3)
    # shot 3's paths are drawn: the striker's and every piece it moved
    page.wait_for_function(
        "() => window.__replay.lastPaths && window.__replay.lastPaths.length > 0"
    )
    kinds = page.evaluate("() => window.__replay.lastPaths.map(p => p.kind)")
    assert "striker" in kinds
    assert all(
        len(p) >= 2 for p in page.evaluate("() => window.__replay.lastPaths.map(p => p.points)")
    )
    page.screenshot(path=str(artifacts / "replay-paths-desktop-en.png"))
    # keys: back, forward (which plays the shot), first, last; the address follows
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#rp-pos")).to_have_text(f"2 / {n}")
    assert page.url.endswith(f"/replay/{finished_game}?shot=2")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__replay.index === 3 && window.__replay.anim !== null")
    page.keyboard.press("Home")
    expect(page.locator("#rp-pos")).to_have_text(f"Start position · 0 / {n}")
    assert page.url.endswith(f"/replay/{finished_game}")
    page.keyboard.press("End")
    expect(page.locator("#rp-pos")).to_have_text(f"{n} / {n}")
    # autoplay from the start: it steps on by itself, then stops at the end or on Space
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    expect(page.locator("#rp-auto")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#rp-auto")).to_have_text("Pause")
    page.wait_for_function("() => window.__replay.index >= 2", timeout=20_000)
    page.keyboard.press("Space")
    expect(page.locator("#rp-auto")).to_have_attribute("aria-pressed", "false")
    stopped = page.evaluate("() => window.__replay.index")
    page.clock.run_for(1500)  # the page's timers and frames of 1.5 s run now
    assert page.evaluate("() => window.__replay.index") == stopped
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#rp-auto")).to_have_text("自動再生")
    expect(page.locator("#rp-next")).to_have_accessible_name("次のショット")
    assert errors == []
    ctx.close()
