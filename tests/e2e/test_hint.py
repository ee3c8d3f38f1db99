"""The expert's hint in real headless Chromium: ask, see the guide drawn, adopt it, shoot it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import NEXT_FRAMES, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HINT_INK = """() => {
  const c = window.__game.canvas;
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 170 && data[i + 1] > 170 && data[i + 2] > 205) n++;
  }
  return n;
}"""
"""How many canvas pixels have the hint's light blue ink (the board itself is warm wood)."""


def test_ask_for_a_hint_see_the_guide_adopt_it_and_shoot(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server_url, "computer", level="1")
    wait_my_turn(page)
    page.wait_for_function("() => window.__game.lastOverlay && window.__game.lastOverlay.aim")
    ink_before = page.evaluate(HINT_INK)
    ask = page.locator("#hint-ask")
    expect(ask).to_have_text("Hint")
    expect(ask).to_be_enabled()
    ask.click()
    page.wait_for_function(
        "() => window.__game.hint && window.__game.lastOverlay && window.__game.lastOverlay.hint",
        timeout=30_000,
    )  # set in the frame that draws it
    page.screenshot(path=str(artifacts / "hint-guide.png"))
    page.locator("#board").screenshot(path=str(artifacts / "hint-guide-canvas.png"))
    assert page.evaluate(HINT_INK) > ink_before + 200  # the dashed guide and rings are drawn
    hint = page.evaluate("() => window.__game.hint")
    assert hint["seat"] == 0 and hint["actions"] == 0
    overlay = page.evaluate("() => window.__game.lastOverlay.hint")
    assert overlay["from"] == [hint["shot"]["x"], hint["shot"]["y"]]
    assert overlay["label"].endswith(f"{round(hint['power'] * 100)}%")
    expect(page.locator("#hint-text")).to_contain_text("m/s")
    expect(page.locator("#hint-text")).to_contain_text("tee spot (R2a)")
    # Japanese: the same suggestion in the rule terms
    page.click(".lang-switch button[data-lang=ja]")
    expect(ask).to_have_text("ヒント")
    expect(page.locator("#hint-use")).to_have_text("この手を使う")
    expect(page.locator("#hint-text")).to_contain_text("ストライカー")
    page.screenshot(path=str(artifacts / "hint-guide-ja.png"))
    page.click(".lang-switch button[data-lang=en]")
    # adopt it with one click: the aim takes the suggested placement, angle and power
    page.click("#hint-use")
    status = page.locator("#hint-status")
    expect(status).to_have_text("Suggested shot set: shoot when ready.")
    page.click(".lang-switch button[data-lang=ja]")  # every status follows the language
    expect(status).to_have_text("おすすめの手をセットしました。準備ができたらショット。")
    page.click(".lang-switch button[data-lang=en]")
    expect(status).to_have_text("Suggested shot set: shoot when ready.")
    aim = page.evaluate("() => window.__game.aim")
    assert (aim["x"], aim["y"], aim["angle"]) == (
        hint["shot"]["x"],
        hint["shot"]["y"],
        hint["shot"]["angle"],
    )
    assert aim["power"] == pytest.approx(hint["power"], abs=1e-12)
    # the aim shows it now: the next frames draw no separate guide
    page.wait_for_function("() => window.__game.lastOverlay.hint === null")
    page.locator("#board").screenshot(path=str(artifacts / "hint-adopted-canvas.png"))
    page.click("#numeric button[type=submit]")
    page.wait_for_function(
        "() => window.__game.log.some(e => e.ev.kind === 'shot' && e.ev.seat === 0)"
        " && !window.__game.anim",
        timeout=30_000,
    )
    shot = page.evaluate(
        "() => window.__game.log.find(e => e.ev.kind === 'shot' && e.ev.seat === 0).ev.shot"
    )
    assert shot == hint["shot"]  # exactly the suggested shot went to the server
    # the hint belongs to the position it was asked for: it is gone after the shot
    assert page.evaluate("() => window.__game.hint") is None
    page.evaluate(NEXT_FRAMES)  # frames drawn after the shot
    assert page.evaluate("() => window.__game.lastOverlay && window.__game.lastOverlay.hint") in (
        None,
        False,
    )
    page.screenshot(path=str(artifacts / "hint-after-shot.png"))
    assert errors == []
