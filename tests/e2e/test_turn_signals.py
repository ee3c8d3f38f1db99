"""Your turn, in real Chromium: when the turn comes back the title says so,
a chime plays and a phone vibrates; shots sound (hits, rails, pockets, synthesised with Web
Audio); one mute switch silences everything and is remembered by the browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import PHONE, new_game, shots_seen, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

VIBRATE_SPY = """Object.defineProperty(Navigator.prototype, 'vibrate', {
  configurable: true,
  value(pattern) { (window.__vibrated ||= []).push(pattern); return true; },
});"""

# the page's own module (its URL carries the build's prefix: server/core/assets.py)
SOUNDS = """async () => (await import(
  document.querySelector('script[src$="/js/main.js"]').src.replace('main.js', 'sound.js')
)).soundLog().map(s => s.kind)"""


def _shoot_softly_and_wait_for_the_computer(page: Page) -> None:
    page.fill("#numeric [name=speed]", "0.4")
    page.click("#numeric button[type=submit]")
    page.wait_for_function("() => window.__game.state.shooter === 1", timeout=30_000)
    expect(page).not_to_have_title("● Your shot · Hikone Carrom · 彦根カロム")
    wait_my_turn(page, timeout=120_000)  # the computer thinks longer on a busy machine


def test_the_turn_coming_back_is_signalled_and_shots_are_heard_unless_muted(
    browser: Browser, server_url: str
) -> None:
    ctx = browser.new_context(**PHONE, locale="en-US")
    ctx.add_init_script(VIBRATE_SPY)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server_url, "computer", level="1")
    wait_my_turn(page)
    expect(page).to_have_title("● Your shot · Hikone Carrom · 彦根カロム")
    assert page.evaluate("() => window.__vibrated || []") == []  # not on arrival
    sound = page.locator("button[data-pref=muted]")
    expect(sound).to_have_attribute("aria-pressed", "true")  # sound on
    _shoot_softly_and_wait_for_the_computer(page)
    expect(page).to_have_title("● Your shot · Hikone Carrom · 彦根カロム")
    assert page.evaluate("() => window.__vibrated") == [[120, 60, 120]]
    heard = page.evaluate(SOUNDS)
    assert "turn" in heard
    assert {"hit", "rail", "pocket"} & set(heard)  # the computer's shot was heard
    # one switch silences it all, and the browser remembers it
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_my_turn(page)
    expect(page.locator("button[data-pref=muted]")).to_have_attribute("aria-pressed", "false")
    # a hard shot of the player's own, full of hits: not a sound
    before = shots_seen(page, 0)
    page.fill("#numeric [name=speed]", "3")
    page.click("#numeric button[type=submit]")
    page.wait_for_function(
        "(n) => window.__game.log.filter(e => e.ev.kind === 'shot' && e.ev.seat === 0).length > n"
        " && !window.__game.anim",
        arg=before,
        timeout=60_000,
    )
    hits = page.evaluate(
        "() => window.__game.log.find(e => e.ev.kind === 'shot' && e.ev.seat === 0).ev.sounds"
    )
    assert any(s["kind"] == "hit" for s in hits)
    assert page.evaluate(SOUNDS) == []
    assert errors == []
    ctx.close()
