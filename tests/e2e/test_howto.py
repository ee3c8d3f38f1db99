"""How to play (遊び方) in real Chromium: a bilingual, illustrated page of the rules with one
anchor per rule id, linked from the header, and every rule id in a ruling links to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import SIZES, drag_shot, new_game, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RULE_IDS = [
    *("R1a", "R1b", "R1c", "R2a", "R2b", "R2c", "R2d", "R3a", "R3b", "R3c", "R3d"),
    *("R4a", "R4b", "R4c", "R4d", "R4e", "R5a", "R5b", "R5c", "R5d", "R5e", "R5f"),
    *("R5g", "R5h", "R5i", "R5j", "R5k", "R6a", "R6b", "R6c", "R6d", "R6e"),
    *("R7a", "R7b", "R7c", "R7d", "R7e", "R8a"),
]
"""Every rule id of docs/rules.md."""

SRC = Path(__file__).resolve().parents[2] / "src" / "hikone_carrom"


def _cited_ids() -> set[str]:
    """Rule ids the rulings and messages players read can cite (library and page texts)."""
    texts = [p.read_text() for p in (SRC / "rules").glob("*.py")]
    texts += [p.read_text() for p in (SRC / "web" / "js").glob("*.js")]
    return set(re.findall(r"\bR[1-8][a-k]\b", "\n".join(texts)))


def _painted(canvas_selector: str) -> str:
    return f"""() => [...document.querySelectorAll('{canvas_selector}')].map(c => {{
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4 * 97) if (d[i] > 0) n++;
      return n;
    }})"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_how_to_play_explains_every_rule_in_both_languages_with_pictures(
    browser: Browser, server_url: str, artifacts: Path, size: str
) -> None:
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server_url}/")
    if size == "phone":
        page.click("#menu-toggle")
    page.click(".topnav a[href='/howto']")
    page.wait_for_url("**/howto")
    expect(page.locator(".howto h1")).to_have_text("How to play")
    anchors = set(page.evaluate("() => [...document.querySelectorAll('.rules dt')].map(d => d.id)"))
    assert anchors == set(RULE_IDS)
    assert _cited_ids() <= anchors  # every id a ruling can show has its explanation
    expect(page.locator("dt#R4a")).to_contain_text("Unshootable pieces")
    expect(page.locator("dt#R4a + dd")).to_contain_text("wholly inside your own area")
    pictures = page.locator(".howto-picture")
    assert pictures.count() >= 4
    page.wait_for_function(
        "() => [...document.querySelectorAll('.howto-picture')].every(c => c.width > 0)"
    )
    assert all(n > 100 for n in page.evaluate(_painted(".howto-picture")))
    expect(pictures.first).to_have_accessible_name(re.compile("jack on the jack spot"))
    page.screenshot(path=str(artifacts / f"howto-{size}-en.png"))
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator(".howto h1")).to_have_text("遊び方")
    expect(page.locator("dt#R4a")).to_contain_text("打てないパック")
    expect(page.locator("dt#R5a + dd")).to_contain_text("ペナルティ1個")
    page.screenshot(path=str(artifacts / f"howto-{size}-ja.png"))
    assert errors == []
    ctx.close()


def test_rule_ids_in_rulings_link_to_their_explanation(browser: Browser, server_url: str) -> None:
    ctx = browser.new_context(**SIZES["desktop"], locale="en-US")
    page = ctx.new_page()
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    drag_shot(page, pull=0.02)
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    links = page.locator("#log li a.rule")
    assert links.count() >= 1
    ids = links.all_text_contents()
    assert all(re.fullmatch(r"R[1-8][a-k]", i) for i in ids)
    first = links.first
    expect(first).to_have_attribute("href", f"/howto#{ids[0]}")
    with ctx.expect_page() as opened:
        first.click()  # opens beside the game, which goes on
    howto = opened.value
    howto.wait_for_load_state()
    assert howto.url.endswith(f"/howto#{ids[0]}")
    rule = howto.locator(f"dt#{ids[0]}")
    expect(rule).to_be_in_viewport()
    assert page.url.count("/room/") == 1  # the game stays where it was
    ctx.close()
