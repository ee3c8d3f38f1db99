"""The pool table on a phone, a desktop and the hall screen: every number stands under its own
header (left-aligned headers over right-aligned numbers put the point difference under
「パック」 and left the puck column with no header)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.tourneykit import context, drawn_event, event_matches, page_errors, referee

pytestmark = [pytest.mark.e2e]

HEADERS = ["順位", "名前", "勝", "分", "負", "勝点", "得失点差", "パック"]

READ = """(pool) => {
  const box = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    const shown = getComputedStyle(el).display !== "none";
    return { text: el.textContent, shown, left: r.left, right: r.right };
  };
  const rows = document.querySelectorAll(`section[data-pool='${pool}'] table.standings tr`);
  return [...rows].map((tr) => [...tr.children].map(box));
}"""


def _table(page: Page) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = page.evaluate(READ, "GS-1")
    return rows


def _check_columns(rows: list[list[dict[str, Any]]], shown: int) -> None:
    """Each shown number's text is nearest to its own header's text and overlaps it."""
    head, *body = rows
    assert [c["text"] for c in head] == HEADERS
    assert [c["shown"] for c in head] == [True] * shown + [False] * (len(HEADERS) - shown)
    centre = [(c["left"] + c["right"]) / 2 for c in head[:shown]]
    for row in body:
        assert len(row) == len(HEADERS)
        for i, cell in enumerate(row[:shown]):
            if i == 1:
                continue  # the name: left-aligned with its header, it may run long
            mid = (cell["left"] + cell["right"]) / 2
            nearest = min(range(shown), key=lambda j: abs(centre[j] - mid))
            assert nearest == i, (head[i]["text"], cell["text"], head[nearest]["text"])
            assert cell["left"] <= head[i]["right"] and cell["right"] >= head[i]["left"], (
                head[i]["text"],
                cell["text"],
            )


@pytest.mark.parametrize(
    ("kind", "hall", "shown"),
    [("phone", False, 7), ("desktop", False, 8), ("desktop", True, 8)],
    ids=["phone", "desktop", "hall"],
)
def test_every_number_of_a_pool_table_stands_under_its_header(
    browser: Browser, server_url: str, artifacts: Path, kind: str, hall: bool, shown: int
) -> None:
    tid, token = drawn_event(server_url)
    with referee(server_url, tid, token) as c:
        first = min(event_matches(server_url, tid), key=lambda m: m["planned"]["start_s"])
        c.post(f"/matches/{first['id']}/call", json={}).raise_for_status()
        c.put(f"/matches/{first['id']}/result", json={"scores": [9, 4]}).raise_for_status()
    winner = first["sides"][0]["name"]
    ctx = context(browser, kind)
    page = ctx.new_page()
    errors = page_errors(page)
    if hall:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(f"{server_url}/t/{tid}?hall=1&cycle=1")  # the hall turns to the pools itself
    else:
        page.goto(f"{server_url}/t/{tid}")
        page.click("button[data-tab=pools]")
    first_row = page.locator("section[data-pool='GS-1'] table.standings tbody tr").first
    expect(first_row).to_contain_text(winner)
    rows = _table(page)
    top = [c["text"] for c in rows[1]]
    assert top[0] == "1" and top[1].startswith(winner)
    assert top[2:] == ["1", "0", "0", "2", "5", "9"]  # W D L, 2 match points, 9-4: +5, 9 pucks
    _check_columns(rows, shown)
    name = "hall" if hall else kind
    page.screenshot(path=str(artifacts / f"tournament-pool-table-{name}.png"))
    assert not errors
