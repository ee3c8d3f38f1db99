"""The unshootable marks in real Chromium: in doubles, the pieces the shooter may not hit directly
(R4a) are marked while aiming, by a pattern readable without colour; the server names them (the
library decides), the page only draws them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import NEXT_FRAMES, SIZES, doubles_room_with_unshootable, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LUMA_AROUND = """([id]) => {
  const g = window.__game;
  const d = g.state.layout.find(p => p.id === id);
  const [sx, sy] = g.view.toScreen(d.x, d.y);
  const R = Math.ceil(d.r * 1.45 * g.view.scale);
  const data = g.canvas.getContext('2d')
    .getImageData(Math.round(sx) - R, Math.round(sy) - R, 2 * R, 2 * R).data;
  const out = [];
  for (let i = 0; i < data.length; i += 4) {
    out.push(0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]);
  }
  return out;
}"""
"""Grey levels of the canvas around a piece: what a colour-blind player (or a grey print) sees."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_R4a_pieces_in_the_shooters_own_area_are_marked_while_aiming(
    browser: Browser, server_url: str, e2e_db_url: str, artifacts: Path, size: str
) -> None:
    rid, token = doubles_room_with_unshootable(e2e_db_url)
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('hikone-carrom.token.{rid}', '{token}')")
    page = ctx.new_page()
    page.goto(f"{server_url}/room/{rid}")
    wait_my_turn(page)
    marked = page.evaluate("() => window.__game.state.unshootable")
    assert marked  # the server says which (hikone_carrom.match.Match.unshootable)
    page.wait_for_function(
        "(ids) => { const o = window.__game.lastOverlay;"
        " return o && JSON.stringify(o.unshootable) === JSON.stringify(ids); }",
        arg=marked,
    )
    expect(page.locator("#turn")).to_contain_text("you may not hit them directly (R4a)")
    page.screenshot(path=str(artifacts / f"doubles-unshootable-{size}.png"))
    with_marks = page.evaluate(LUMA_AROUND, [marked[0]])
    # the same frame without the marks, for comparison
    page.evaluate("() => { window.__game.state.unshootable = []; }")
    page.wait_for_function("() => !(window.__game.lastOverlay.unshootable || []).length")
    page.evaluate(NEXT_FRAMES)
    without = page.evaluate(LUMA_AROUND, [marked[0]])
    changed = sum(1 for a, b in zip(with_marks, without, strict=True) if abs(a - b) > 40)
    assert changed > 0.08 * len(with_marks)  # hatching and a struck-through ring, in grey too
    ctx.close()
