"""Helpers to drive the referee pad in Chromium: a phone context, taps, counts, entries."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

PHONE = {"width": 390, "height": 844}


def phone(browser: Browser, lang: str = "ja-JP") -> BrowserContext:
    """A 390 x 844 touch phone context (service workers allowed)."""
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=lang)


def server_board(base: str, board_id: str) -> dict[str, Any]:
    """The board as the server holds it (outside the browser, so unaffected by offline mode)."""
    with urllib.request.urlopen(f"{base}/api/boards/{board_id}", timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())["board"]
    return data


def tap_shot(page: Page, **counts: int | bool) -> None:
    """Enter one shot: step the counters, toggle the flags, tap Record; wait for the ruling."""
    before = page.evaluate("() => window.__pad.view().steps.length")
    for key, value in counts.items():
        if isinstance(value, bool):
            if value:
                page.tap(f"#t-{key}")
        else:
            if key in ("red_off", "green_off") and not page.is_visible(f".stepper.{key}"):
                page.tap("details.more summary")
            for _ in range(value):
                page.tap(f".stepper.{key} button[data-d='1']")
    page.tap("#record")
    page.wait_for_function("(n) => window.__pad.view().steps.length === n + 1", arg=before)


def last_ruling(page: Page) -> dict[str, Any]:
    ruling: dict[str, Any] = page.evaluate("() => window.__pad.view().steps.at(-1).ruling")
    return ruling


def shoot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name), full_page=False)


def both_languages(page: Page, artifacts: Path, name: str) -> None:
    """Screenshots ``name-ja.png`` and ``name-en.png`` of the screen as it is (back in Japanese)."""
    shoot(page, artifacts, f"{name}-ja.png")
    page.tap("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    shoot(page, artifacts, f"{name}-en.png")
    page.tap("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
