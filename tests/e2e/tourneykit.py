"""Helpers of the tournament end-to-end tests: browser contexts at both viewports, the
director's steps, the REST client of a test that plays the referee."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect
from tests.e2e.organiserkit import ORGANISER_KEY, organiser_headers

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                         "is_mobile": True, "device_scale_factor": 2}  # fmt: skip
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

BAD_CSV = (
    "部門,氏名,よみがな,所属,年齢,学年\n"
    "GS,山田 太郎,やまだ たろう,彦根,30,\n"
    "JA,佐藤 花子,さとう はなこ,長浜,30,\n"  # row 3: an adult in junior A
    "GS,鈴木 次郎,Suzuki,米原,30,\n"  # row 4: the reading is not kana
)
GOOD_CSV = (
    "部門,氏名,よみがな,所属,都道府県,年齢,学年\n"
    "GS,山田 太郎,やまだ たろう,彦根,滋賀県,30,\n"
    "GS,佐藤 花子,さとう はなこ,長浜,滋賀県,41,\n"
    "GS,鈴木 次郎,すずき じろう,米原,滋賀県,25,\n"
    "GS,高橋 三郎,たかはし さぶろう,彦根,京都府,52,\n"
    "GS,田中 四郎,たなか しろう,長浜,岐阜県,15,中3\n"
)


def context(browser: Browser, kind: str) -> BrowserContext:
    ctx = browser.new_context(locale="ja-JP", **VIEWPORTS[kind])
    ctx.add_init_script("localStorage.setItem('hikone-carrom.lang', 'ja')")
    return ctx


def page_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def create_event(page: Page, server_url: str, name: str, boards: int = 3) -> str:
    page.goto(f"{server_url}/director?key={ORGANISER_KEY}")
    form = page.locator("#create")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=boards]").fill(str(boards))
    form.locator("input[name=operator]").fill("運営 花子")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/director")
    expect(page.locator("#new-token")).to_contain_text("運営トークン")
    return page.url.split("/")[4]


def upload(page: Page, text: str, encoding: str) -> None:
    page.locator("#csv-file").set_input_files(
        {"name": "entries.csv", "mimeType": "text/csv", "buffer": text.encode(encoding)}
    )
    page.click("#csv-import")


def director_token(page: Page, tid: str) -> str:
    token: str = page.evaluate(f"localStorage.getItem('hikone-carrom.director.{tid}')")
    return token


def referee(server_url: str, tid: str, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=f"{server_url}/api/tournaments/{tid}",
        headers={"Authorization": f"Bearer {token}", "X-Operator": quote("審判 一郎")},
        timeout=10,
    )


def open_and_save(page: Page, match_row: Any, a: int, b: int) -> None:
    """Type both scores into a match's result dialog and save (it may be refused)."""
    match_row.locator("button[data-action=result]").click()
    dialog = page.locator("#result-dialog")
    dialog.locator("input[name=a]").fill(str(a))
    dialog.locator("input[name=b]").fill(str(b))
    dialog.locator("#save-result").click()


def enter_result(page: Page, match_row: Any, a: int, b: int) -> None:
    """Enter a result that is taken: the dialog closes."""
    open_and_save(page, match_row, a, b)
    expect(page.locator("#result-dialog")).to_be_hidden()


def event_matches(server_url: str, tid: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{server_url}/api/tournaments/{tid}", timeout=10)
    r.raise_for_status()
    matches: list[dict[str, Any]] = r.json()["event"]["matches"]
    return matches


def drawn_event(server_url: str) -> tuple[str, str]:
    r = httpx.post(f"{server_url}/api/tournaments", json={"name": "ライブ大会", "boards": 3},
                   headers=organiser_headers())  # fmt: skip
    r.raise_for_status()
    tid, token = r.json()["id"], r.json()["token"]
    with referee(server_url, tid, token) as c:
        c.post("/entries/import", content=GOOD_CSV.encode()).raise_for_status()
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
    return tid, token


def pad_ops(server_url: str, pad_url: str, device: str, ops: list[dict[str, Any]]) -> None:
    pad_id, token = pad_url.split("/pad/")[1].split("#t=")
    r = httpx.post(f"{server_url}/api/boards/{pad_id}/ops",
                   json={"device": device, "ops": ops},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)  # fmt: skip
    r.raise_for_status()
    assert r.json()["rejected"] is None, r.json()
