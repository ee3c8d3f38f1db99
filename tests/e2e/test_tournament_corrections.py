"""Corrections after a call (issue 47), in real headless Chromium: the director corrects GS-K1-02
while GS-K2-01, which its winner feeds, is called to board 1 and open on that board's pad. The
console shows what the correction changes and confirms it; the pad shows that its match was
withdrawn by the director, then the right players called to it. Reopening a pool whose winner is
in the called match withdraws it for good: the pad shows the match withdrawn and stops scoring,
and the hall's call banner shows the withdrawal."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.organiserkit import organiser_headers
from tests.e2e.padkit import phone
from tests.e2e.tourneykit import context, event_matches, open_and_save, page_errors, referee
from tests.server.tournamentkit import CSV

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _knockout(server_url: str) -> tuple[str, str, str]:
    """Pools closed, K1-02 won by its first side, K2-01 called to board 1 and its pad:
    (event id, director token, pad link)."""
    r = httpx.post(f"{server_url}/api/tournaments", json={"name": "訂正大会", "boards": 4},
                   headers=organiser_headers())  # fmt: skip
    r.raise_for_status()
    tid, token = r.json()["id"], r.json()["token"]
    with referee(server_url, tid, token) as c:
        c.post("/entries/import", content=CSV.encode()).raise_for_status()
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
        for i, m in enumerate(x for x in event_matches(server_url, tid) if x["stage"] == "pool"):
            c.put(f"/matches/{m['id']}/result", json={"scores": [i % 12 + 1, 0]}).raise_for_status()
        for n in (1, 2):
            c.post(f"/pools/GS/{n}/close").raise_for_status()
        c.put("/matches/GS-K1-02/result", json={"scores": [8, 3]}).raise_for_status()
        pad = c.post("/pads", json={"boards": [1]}, headers=organiser_headers()).json()["pads"][0]
        c.post("/matches/GS-K2-01/call", json={"board": 1}).raise_for_status()
    url = pad["pad_url"]
    return tid, token, url if url.startswith("http") else f"{server_url}{url}"


def test_a_correction_after_the_call_is_confirmed_and_the_pad_shows_its_match_withdrawn(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token, pad_url = _knockout(server_url)
    matches = {m["id"]: m for m in event_matches(server_url, tid)}
    winner, loser = (s["name"] for s in matches["GS-K1-02"]["sides"])
    first = matches["GS-K2-01"]["sides"][0]["name"]

    pad = phone(browser).new_page()
    pad_errors = page_errors(pad)
    pad.goto(pad_url)
    expect(pad.locator("#app")).to_contain_text(winner)

    hall = context(browser, "desktop").new_page()
    hall.goto(f"{server_url}/t/{tid}?tab=boards")

    ctx = context(browser, "desktop")
    ctx.add_init_script(f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}')")
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director")
    page.click("button[data-tab=results]")
    open_and_save(page, page.locator("#matches tr[data-match='GS-K1-02']"), 3, 8)
    changes = page.locator("#call-conflict")
    expect(changes).to_be_visible()
    row = changes.locator("tr[data-match='GS-K2-01']")
    expect(row).to_contain_text("第1台")
    expect(row).to_contain_text(f"{first} 対 {winner}")
    expect(row).to_contain_text(f"{first} 対 {loser}")
    page.screenshot(path=str(artifacts / "tournament-correction-after-call-desktop.png"))
    changes.locator("#confirm-correction").click()
    expect(page.locator("#result-dialog")).to_be_hidden()

    # the pad: the old match withdrawn by the director, the right players called to it
    notice = pad.locator("#withdrawn-before")
    expect(notice).to_contain_text(f"前の試合（{first} 対 {winner}）は取り消されました（大会本部）")
    expect(pad.locator("#app")).to_contain_text(loser)
    pad.screenshot(path=str(artifacts / "pad-match-recalled-phone.png"))

    page.click("button[data-tab=pools]")
    page.locator("tr[data-pool='GS-1'] button[data-action=reopen]").click()
    expect(changes.locator("tr[data-match='GS-K2-01']")).to_contain_text("待機")
    changes.locator("#confirm-correction").click()
    expect(page.locator("tr[data-pool='GS-1'] button[data-action=close]")).to_be_visible()

    banner = hall.locator("#banner")  # the hall's call feed shows the withdrawal
    expect(banner).to_contain_text(
        f"第1台: {first} 対 {loser} の呼び出しを取り消しました（大会本部）"
    )

    withdrawn = pad.locator("#withdrawn")
    expect(withdrawn).to_contain_text("この試合は取り消されました（大会本部）")
    expect(withdrawn).to_contain_text(f"{first} 対 {loser}")
    expect(pad.locator("#entry")).to_have_count(0)  # no more scoring
    pad.screenshot(path=str(artifacts / "pad-match-withdrawn-phone.png"))
    pad.click("#lang")
    expect(withdrawn).to_contain_text("This match was withdrawn (by the director)")

    page.click("button[data-tab=audit]")
    withdrawal = page.locator("#audit td[data-action=withdraw]").first
    expect(withdrawal).to_contain_text("呼び出し取り消し")
    assert not errors and not pad_errors
    ctx.close()
