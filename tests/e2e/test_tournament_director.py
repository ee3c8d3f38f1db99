"""The director's console in real headless Chromium, on a 390x844 touch phone and a 1366x900
desktop: one entry added, refused, corrected and entered late after the draw; the ranking rules
reordered in the settings with the public standings following live; a match on a scoring pad
shown as playing, with its time left and live score, from the moment the pad starts it."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.organiserkit import ORGANISER_KEY, organiser_headers
from tests.e2e.tourneykit import (
    GOOD_CSV,
    context,
    create_event,
    drawn_event,
    event_matches,
    pad_ops,
    page_errors,
    referee,
    upload,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _fill_member(page: Page, i: int, **fields: str) -> None:
    for key, value in fields.items():
        page.fill(f"#entry-{key}-{i}", value)


def _logged_in(browser: Browser, kind: str, tid: str, token: str) -> Page:
    ctx = context(browser, kind)
    ctx.add_init_script(
        f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}');"
        "localStorage.setItem('hikone-carrom.operator', '受付 花子');"
    )
    return ctx.new_page()


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_one_entry_is_added_refused_corrected_and_entered_late(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    ctx = context(browser, kind)
    page = ctx.new_page()
    errors = page_errors(page)
    tid = create_event(page, server_url, f"受付テスト {kind}")
    form = page.locator("#entry-form")
    expect(form.locator("h3")).to_have_text("エントリーを追加")

    page.select_option("#entry-division", "JA")  # junior A: an adult is refused with a sentence
    _fill_member(page, 0, name="佐藤 一郎", reading="さとう いちろう", club="長浜", age="40")
    page.click("#entry-save")
    expect(page.locator("#entry-error")).to_contain_text("ジュニアA")
    expect(page.locator("#entries tr")).to_have_count(0)
    page.screenshot(path=str(artifacts / f"tournament-entry-refused-{kind}.png"), full_page=True)
    _fill_member(page, 0, name="山田 太郎", reading="やまだ たろう", age="8", grade="小2")
    page.click("#entry-save")
    expect(page.locator("#flash")).to_have_text("JA-001 を追加しました")
    expect(page.locator("#entries tr[data-entry='JA-001']")).to_contain_text("山田 太郎")

    page.select_option("#entry-division", "FP")  # family pairs: the partner's fields appear
    expect(form.locator("fieldset.member")).to_have_count(2)
    _fill_member(page, 0, name="山田 一郎", reading="やまだ いちろう", club="彦根", age="41")
    _fill_member(page, 1, name="山田 太郎", reading="やまだ たろう", age="8", grade="小2")
    page.click("#entry-save")
    expect(page.locator("#flash")).to_have_text("FP-001 を追加しました")
    expect(page.locator("#entries tr[data-entry='FP-001']")).to_contain_text("山田 一郎・山田 太郎")

    upload(page, GOOD_CSV, "utf-8")
    expect(page.locator("#entries tr")).to_have_count(7)
    page.locator("#entries tr[data-entry='GS-002'] button[data-action=edit]").click()
    expect(form.locator("h3")).to_have_text("エントリーを訂正（GS-002）")
    expect(page.locator("#entry-name-0")).to_have_value("佐藤 花子")
    _fill_member(page, 0, name="佐藤 華子")
    page.click("#entry-save")
    expect(page.locator("#flash")).to_have_text("GS-002 を訂正しました")
    expect(page.locator("#entries tr[data-entry='GS-002']")).to_contain_text("佐藤 華子")

    token: str = page.evaluate(f"localStorage.getItem('hikone-carrom.director.{tid}')")
    with referee(server_url, tid, token) as c:
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
    page.select_option("#entry-division", "GS")
    expect(form).to_contain_text("まだ始まっていないリーグ")  # the late-entry rule, in words
    _fill_member(page, 0, name="遅刻 次郎", reading="ちこく じろう", club="米原", age="33")
    page.click("#entry-save")
    expect(page.locator("#flash")).to_have_text(
        "GS-006 を追加しました（Aリーグに入り、台割りに加えました）"
    )
    late = [m for m in event_matches(server_url, tid)
            if any(s and s["id"] == "GS-006" for s in m["sides"])]  # fmt: skip
    assert len(late) == 5 and all(m["planned"] for m in late)
    page.screenshot(path=str(artifacts / f"tournament-entry-late-{kind}.png"), full_page=True)
    for button in form.locator("button, input, select").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44
    page.click("button[data-tab=audit]")
    expect(page.locator("#audit tbody tr").first).to_contain_text("エントリー追加")
    expect(page.locator("#audit tbody tr").first).to_contain_text("遅刻 次郎 → Aリーグ")
    expect(page.locator("#audit")).to_contain_text("佐藤 花子 (41) → 佐藤 華子 (41)")
    assert not errors
    ctx.close()


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_the_ranking_rules_are_reordered_and_the_standings_follow_live(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    tid, token = drawn_event(server_url)
    with referee(server_url, tid, token) as c:
        for i, m in enumerate(m for m in event_matches(server_url, tid) if m["stage"] == "pool"):
            c.put(f"/matches/{m['id']}/result", json={"scores": [i % 12 + 1, i % 3]})
    public = context(browser, "phone").new_page()
    public.goto(f"{server_url}/t/{tid}?tab=pools")
    note = public.locator("p.note")
    expect(note).to_contain_text("勝ち点 → 得失点差 → 直接対決 → パック数 → 抽選")
    top = public.locator("section[data-pool='GS-1'] td.pts").first
    expect(top).to_have_text("8")  # four wins at 2 points

    page = _logged_in(browser, kind, tid, token)
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director")
    page.click("button[data-tab=settings]")
    rules = page.locator("#rules")
    expect(rules.locator("li.tiebreak")).to_have_count(5)
    rules.locator("li[data-key=pucks] button[data-move=up]").click()
    rules.locator("li[data-key=pucks] button[data-move=up]").click()
    rules.locator("li[data-key=head_to_head] input[type=checkbox]").uncheck()
    keys = rules.locator("li.tiebreak").evaluate_all("els => els.map(e => e.dataset.key)")
    assert keys == ["match_points", "pucks", "point_difference", "head_to_head", "lot"]
    rules.locator("input[name=win]").fill("3")
    page.screenshot(path=str(artifacts / f"tournament-settings-rules-{kind}.png"), full_page=True)
    page.click("#rules-save")
    expect(page.locator("#flash")).to_have_text("保存しました")
    expect(note).to_contain_text("勝ち点 → パック数 → 得失点差 → 抽選")  # live, no reload
    expect(top).to_have_text("12")  # four wins at 3 points
    # the console's own live copy too: its update must not re-render the form under the next fill
    expect(rules.locator("input[name=win]")).to_have_value("3")

    rules.locator("input[name=draw]").fill("5")  # a draw worth more than a win: refused
    page.click("#rules-save")
    expect(page.locator("#rules-error")).to_contain_text("勝ち点は 勝ち > 引き分け >= 負け")
    page.click("button[data-tab=settings]")
    with referee(server_url, tid, token) as c:
        c.post("/pools/GS/1/close").raise_for_status()
    page.click("#rules-save")
    expect(page.locator("#rules-error")).to_contain_text("確定を取り消して")
    page.click("button[data-tab=audit]")
    expect(page.locator("#audit")).to_contain_text("勝ち点 → パック数 → 得失点差 → 抽選（3/1/0）")
    public.click(".lang-switch button[data-lang=en]")
    expect(note).to_contain_text("match points → pucks pocketed → point difference → lot")
    assert not errors


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_a_match_is_playing_from_the_moment_its_pad_starts_it(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    tid, token = drawn_event(server_url)
    with referee(server_url, tid, token) as c:
        pad = c.post("/pads", json={"boards": [1]}, headers=organiser_headers()).json()["pads"][0]
        call = c.post("/boards/1/call").json()
    page = _logged_in(browser, kind, tid, token)
    errors = page_errors(page)
    page.clock.install()  # time runs as usual, and on demand at the end
    page.goto(f"{server_url}/t/{tid}/director?tab=boards")
    page.click("button[data-tab=boards]")
    tile = page.locator(".board-tile[data-board='1']")
    expect(tile).to_have_class("board-tile called")
    public = context(browser, "phone" if kind == "desktop" else "desktop").new_page()
    public.goto(f"{server_url}/t/{tid}?tab=boards")
    public_tile = public.locator(".board-tile[data-board='1']")
    expect(public_tile).to_contain_text("呼び出し中")

    pad_id, pad_token = pad["pad_url"].split("/pad/")[1].split("#t=")
    claim = httpx.post(f"{server_url}/api/boards/{pad_id}/claim", json={"device": f"pad-{kind}"},
                       headers={"Authorization": f"Bearer {pad_token}"}, timeout=10)  # fmt: skip
    claim.raise_for_status()
    clock = {"limit": 300, "elapsed": 60.0, "started": True, "running": True, "countdown": None}
    pad_ops(server_url, pad["pad_url"], f"pad-{kind}", [
        {"seq": 1, "op": "clock", "match": 1, "clock": clock, "wall_ms": time.time() * 1000},
        {"seq": 2, "op": "add", "match": 1, "entry": {"kind": "shot", "at": 61.0,
                                                       "tap": {"green": 3}}},
    ])  # fmt: skip
    for t in (tile, public_tile):
        expect(t).to_have_class("board-tile playing")
        expect(t).to_contain_text("試合中" if t is public_tile else call["sides"][0])
        expect(t.locator("[data-left]")).to_contain_text("残り 3:")  # 4 minutes left, then 3
        expect(t.locator("[data-score]")).to_contain_text("0 - 3")
    page.screenshot(path=str(artifacts / f"tournament-pad-playing-director-{kind}.png"),
                    full_page=True)  # fmt: skip
    public.screenshot(path=str(artifacts / f"tournament-pad-playing-public-{kind}.png"),
                      full_page=True)  # fmt: skip
    pad_ops(server_url, pad["pad_url"], f"pad-{kind}", [
        {"seq": 3, "op": "clock", "match": 1, "wall_ms": time.time() * 1000,
         "clock": {**clock, "elapsed": 75.0, "running": False}},
    ])  # fmt: skip
    left = tile.locator("[data-left]")  # the referee paused the clock: the time stands still
    expect(left).to_contain_text("残り 3:45")
    page.clock.run_for(2500)  # the page's second timer draws the time left twice more
    expect(left).to_contain_text("残り 3:45")
    assert not errors


def test_the_sign_in_link_keeps_the_organisers_key_in_the_browser(
    browser: Browser, server_url: str
) -> None:
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/director")  # no key yet: the form says how to get it
    expect(page.locator("#no-key")).to_contain_text("サインイン用リンク")
    page.goto(f"{server_url}/pad")
    expect(page.locator("#no-key")).to_contain_text("サインイン用リンク")
    page.goto(f"{server_url}/?key={ORGANISER_KEY}")  # the link the server printed
    page.wait_for_function("() => !location.search.includes('key=')")
    assert "key=" not in page.url
    page.goto(f"{server_url}/director")
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator("#no-key")).to_have_count(0)
    form = page.locator("#create")
    form.locator("input[name=name]").fill("キーの大会")
    form.locator("input[name=boards]").fill("2")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/t/*/director")
    assert not errors
    ctx.close()
