"""axe-core (pinned in package.json) finds no violation on any audited page, in Japanese and in
English, on a phone (390x844, touch) and on a desktop; each page's count is printed and its
screenshot kept in test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from tests.e2e.auditkit import AXE, PLAYER, audited_pages, open_as_player
from tests.e2e.tourneykit import VIEWPORTS

pytestmark = [pytest.mark.e2e]

RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
}"""


def _violations(
    browser: Browser, name: str, url: str, lang: str, size: str, shot: Path
) -> list[Any]:
    ctx = browser.new_context(locale="ja-JP" if lang == "ja" else "en-US", **VIEWPORTS[size])
    ctx.add_init_script(f"localStorage.setItem('hikone-carrom.lang', '{lang}')")
    ctx.add_init_script(path=str(AXE))  # an init script: the page's own CSP stays as it is
    page = ctx.new_page()
    if name == PLAYER:
        open_as_player(page, url)
    else:
        page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the live pages' first snapshot drawn
    found: list[Any] = page.evaluate(RUN)
    page.screenshot(path=shot)
    ctx.close()
    return found


def test_no_page_has_an_axe_violation_in_either_language(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path
) -> None:
    assert AXE.exists(), f"{AXE} missing: npm ci"
    failures = []
    for name, url in audited_pages(server_url, finished_game).items():
        for lang in ("ja", "en"):
            for size in VIEWPORTS:
                slug = name.replace(" (", "-").rstrip(")")
                shot = artifacts / f"axe-{slug}-{lang}-{size}.png"
                found = _violations(browser, name, url, lang, size, shot)
                print(f"axe {name:17} {lang} {size:7}: {len(found)} violations")
                failures += [f"{name} ({lang}, {size}): {v}" for v in found]
    assert not failures, "\n".join(failures)
