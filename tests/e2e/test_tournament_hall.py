"""The hall's big screen of a championship-sized day (issue 47): 124 boards at 1920x1080, every
board shown within one turn of its pages, the queue of recent calls, the calls spoken aloud
(the browser's speech synthesis stubbed to record what it is asked to say), and the call banner
of a 390 px phone clear of the language switch."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from tests.e2e.organiserkit import organiser_headers
from tests.e2e.tourneykit import context, event_matches, page_errors, referee

BOARDS = 124
SURNAMES = [
    ("山田", "やまだ"), ("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"),
    ("田中", "たなか"), ("伊藤", "いとう"), ("渡辺", "わたなべ"), ("中村", "なかむら"),
    ("小林", "こばやし"), ("加藤", "かとう"), ("吉田", "よしだ"), ("山本", "やまもと"),
    ("井上", "いのうえ"), ("木村", "きむら"), ("林", "はやし"), ("清水", "しみず"),
]  # fmt: skip
GIVEN = [
    ("太郎", "たろう"), ("花子", "はなこ"), ("次郎", "じろう"), ("美咲", "みさき"),
    ("健太", "けんた"), ("陽菜", "ひな"), ("翔", "しょう"), ("結衣", "ゆい"),
    ("大輔", "だいすけ"), ("葵", "あおい"), ("蓮", "れん"), ("凛", "りん"),
    ("悠真", "ゆうま"), ("咲", "さき"), ("湊", "みなと"), ("優子", "ゆうこ"),
]  # fmt: skip
SPEECH_STUB = """
window.__spoken = [];
class StubUtterance {
  constructor(text) { this.text = text; this.lang = ""; this.onend = null; }
}
Object.defineProperty(window, "SpeechSynthesisUtterance", { value: StubUtterance });
Object.defineProperty(window, "speechSynthesis", { value: {
  speak(u) {
    window.__spoken.push({ text: u.text, lang: u.lang });
    setTimeout(() => u.onend && u.onend(), 50);
  },
  cancel() {},
} });
"""


def championship(server_url: str, name: str = "全日本選手権") -> tuple[str, str]:
    """An event on 124 boards with 256 entrants in the general singles, drawn and planned."""
    r = httpx.post(f"{server_url}/api/tournaments", json={"name": name, "boards": BOARDS},
                   headers=organiser_headers(), timeout=10)  # fmt: skip
    r.raise_for_status()
    tid, token = r.json()["id"], r.json()["token"]
    rows = ["部門,氏名,よみがな,所属,都道府県,年齢,学年"]
    for (sn, sr), (gn, gr) in itertools.product(SURNAMES, GIVEN):
        rows.append(f"GS,{sn} {gn},{sr} {gr},彦根,滋賀県,30,")
    with referee(server_url, tid, token) as c:
        c.post("/entries/import", content="\n".join(rows).encode()).raise_for_status()
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
    return tid, token


def first_round(server_url: str, tid: str) -> list[dict[str, Any]]:
    """The first match planned on each board (no entrant in two of them)."""
    first: dict[int, dict[str, Any]] = {}
    for m in event_matches(server_url, tid):
        if m["planned"] and (
            m["planned"]["board"] not in first
            or m["planned"]["start_s"] < first[m["planned"]["board"]]["planned"]["start_s"]
        ):
            first[m["planned"]["board"]] = m
    return [first[b] for b in sorted(first)]


def shown_boards(page: Page) -> set[int]:
    tiles = page.locator(".hall-tile")
    return {int(n) for n in tiles.evaluate_all("ts => ts.map((t) => t.dataset.board)")}


def test_the_hall_shows_all_124_boards_in_one_turn_lists_the_calls_and_speaks_them(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token = championship(server_url)
    matches = first_round(server_url, tid)
    called, playing = matches[10:15], matches[30:32]
    with referee(server_url, tid, token) as c:
        for m in playing + called:
            c.post(f"/matches/{m['id']}/call", json={}).raise_for_status()
        for m in playing:
            c.post(f"/matches/{m['id']}/start").raise_for_status()
    ctx = context(browser, "desktop")
    ctx.add_init_script(SPEECH_STUB)
    page = ctx.new_page()
    errors = page_errors(page)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.clock.install()  # the test turns the pages: a minute each, run through at once
    page.goto(f"{server_url}/t/{tid}?hall=1&cycle=60")
    expect(page.locator(".hall-tile").first).to_be_visible()
    # the queue: the waiting calls, newest on top, board numbers and names, division and age
    queue = page.locator("#hall-calls .call-item")
    expect(queue).to_have_count(len(called) + len(playing))
    expect(queue.first).to_have_attribute("data-board", str(called[-1]["planned"]["board"]))
    expect(queue.first).to_contain_text(f"第{called[-1]['planned']['board']}台")
    expect(queue.first).to_contain_text(called[-1]["sides"][1]["name"])
    expect(queue.first).to_contain_text("一般")
    expect(queue.first.locator(".call-age")).to_have_text("たった今")
    expect(queue.last).to_contain_text("試合中")
    pager = page.locator("#hall-page")
    expect(pager).to_have_text(re.compile(r"^1 / \d$"))
    pages = int(pager.inner_text().split("/")[1])
    assert 1 < pages <= 4
    seen: set[int] = set()
    for i in range(1, pages + 1):
        expect(pager).to_have_text(f"{i} / {pages}")
        expect(page.locator(".hall-boards")).to_have_attribute("data-page", str(i))
        on_page = shown_boards(page)
        for tile in page.locator(".hall-tile").all():  # every tile of the page is on screen
            box = tile.bounding_box()
            assert box is not None and box["x"] >= 0 and box["y"] >= 0
            assert box["x"] + box["width"] <= 1920 - 400 and box["y"] + box["height"] <= 1080
        assert not on_page & seen
        seen |= on_page
        if i == 1:
            page.screenshot(path="/tmp/hall-1920x1080.png")
            page.screenshot(path=str(artifacts / "tournament-hall-124-boards.png"))
            no = page.locator(".hall-tile .hall-no").first
            assert float(no.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 32
            name = page.locator(".hall-tile .hall-name").first
            assert float(name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 18
            tile = page.locator(f".hall-tile[data-board='{called[0]['planned']['board']}']")
            expect(tile).to_have_attribute("data-state", "called")
            expect(tile).to_contain_text("呼び出し中")
            expect(tile).to_contain_text(called[0]["sides"][0]["name"])
            tile = page.locator(f".hall-tile[data-board='{playing[0]['planned']['board']}']")
            expect(tile).to_have_attribute("data-state", "playing")
            expect(tile).to_contain_text("試合中")
            expect(page.locator(".hall-tile[data-state=next]").first).to_contain_text("次 ")
        page.clock.run_for(60_000)
    assert seen == set(range(1, BOARDS + 1))
    expect(pager).to_have_text("予選リーグ")  # then the pools, then the boards again
    expect(page.locator("section.pool").first).to_be_visible()
    page.clock.run_for(60_000)
    expect(pager).to_have_text(f"1 / {pages}")
    # spoken calls: off by default, on with the toggle (remembered), one call after the other
    toggle = page.locator("#hall-speech")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.__spoken") == []
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    later = matches[50:52]
    with referee(server_url, tid, token) as c:
        for m in later:
            c.post(f"/matches/{m['id']}/call", json={}).raise_for_status()
    said = [f"第{m['planned']['board']}台、{m['sides'][0]['name']}さん、{m['sides'][1]['name']}さん"
            for m in later]  # fmt: skip
    page.wait_for_function("(n) => window.__spoken.length >= n", arg=1 + len(later))
    spoken = page.evaluate("window.__spoken")
    assert [u["text"] for u in spoken] == ["音声案内を始めます", *said]
    assert {u["lang"] for u in spoken} == {"ja-JP"}
    expect(queue.first).to_contain_text(f"第{later[-1]['planned']['board']}台")
    page.reload()
    expect(page.locator("#hall-speech")).to_have_attribute("aria-pressed", "true")
    # the browser speaks once the page is clicked again: the toggle says so until then
    expect(page.locator("#hall-speech")).to_have_text(
        "音声案内：オン（画面をクリックすると始まります）"
    )
    page.click(".lang-switch button[data-lang=en]")
    expect(page.locator("#hall-calls h2")).to_have_text("Calls")
    expect(page.locator("#hall-speech")).to_have_text("Spoken calls：on")
    with referee(server_url, tid, token) as c:
        c.post(f"/matches/{matches[60]['id']}/call", json={}).raise_for_status()
    m = matches[60]
    page.wait_for_function("() => window.__spoken.some((u) => u.lang === 'en-US')")
    english = [u["text"] for u in page.evaluate("window.__spoken") if u["lang"] == "en-US"]
    board = m["planned"]["board"]
    assert english == [f"Board {board}: {m['sides'][0]['name']}, {m['sides'][1]['name']}"]
    assert not errors
    ctx.close()


def test_the_call_banner_of_a_phone_is_clear_of_the_language_switch(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token = championship(server_url, "第41回カロム全日本選手権大会")  # too long for one line
    m = first_round(server_url, tid)[0]
    with referee(server_url, tid, token) as c:
        c.post(f"/matches/{m['id']}/call", json={}).raise_for_status()
    ctx = context(browser, "phone")
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}")
    banner = page.locator("#banner")
    expect(banner).to_contain_text("呼び出し：")
    page.screenshot(path="/tmp/hall-390x844.png")
    page.screenshot(path=str(artifacts / "tournament-call-banner-phone.png"))
    top = banner.bounding_box()
    assert top is not None
    for button in page.locator(".lang-switch button").all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= top["y"], (box, top)
    assert not errors
    ctx.close()
