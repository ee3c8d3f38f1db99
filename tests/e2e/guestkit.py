"""A guest taking a seat of an online room answers the name dialog (#guest-name) first."""

from __future__ import annotations

from playwright.sync_api import Page


def answer_name(page: Page, name: str = "") -> None:
    """Give ``name`` in the guest's name dialog (empty: the seat keeps its colour and side) and
    take the seat, with a tap on a touch screen and a click elsewhere."""
    dialog = page.locator("#guest-name")
    dialog.locator("input[name=name]").fill(name)
    take = dialog.locator("button[value=take]")
    if page.evaluate("() => navigator.maxTouchPoints > 0"):
        take.tap()
    else:
        take.click()
