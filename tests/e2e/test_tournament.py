"""A small championship in real headless Chromium: the director creates the event, imports
entries from CSV (errors first, then a Shift_JIS file), checks in, draws and plans, calls boards,
enters every result by hand, closes the pool (a correction is refused, then made after reopening),
plays the knockout and prints the certificates; the public pages follow live on a phone."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.organiserkit import KEY_STORE, ORGANISER_KEY, organiser_env
from tests.e2e.tourneykit import (
    BAD_CSV,
    GOOD_CSV,
    context,
    create_event,
    director_token,
    drawn_event,
    enter_result,
    event_matches,
    open_and_save,
    pad_ops,
    page_errors,
    referee,
    upload,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_csv_import_reports_bad_rows_then_takes_a_shift_jis_file(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    ctx = context(browser, kind)
    page = ctx.new_page()
    errors = page_errors(page)
    create_event(page, server_url, f"取り込みテスト {kind}")
    upload(page, BAD_CSV, "utf-8")
    report = page.locator("#import-report")
    expect(report).to_contain_text("2行に問題があります")
    expect(report.locator("li[data-row='3']")).to_contain_text("ジュニアA")
    expect(report.locator("li[data-row='4']")).to_contain_text("かな")
    expect(page.locator("#entries tr")).to_have_count(0)  # all or nothing
    page.screenshot(path=str(artifacts / f"tournament-import-errors-{kind}.png"), full_page=True)
    upload(page, GOOD_CSV, "cp932")
    expect(page.locator("#import-report")).to_contain_text("5件取り込みました（cp932）")
    expect(page.locator("#entries tr")).to_have_count(5)
    expect(page.locator("#entries")).to_contain_text("田中 四郎")
    page.screenshot(path=str(artifacts / f"tournament-import-ok-{kind}.png"), full_page=True)
    assert not errors
    ctx.close()


def test_a_small_event_from_check_in_to_certificates(
    browser: Browser, server_url: str, artifacts: Path, tmp_path: Path
) -> None:
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    errors = page_errors(page)
    tid = create_event(page, server_url, "彦根カロム春季大会")
    upload(page, GOOD_CSV, "utf-8")
    expect(page.locator("#entries tr")).to_have_count(5)
    for row in page.locator("#entries tr").all()[:4]:  # check-in at the desk
        row.locator("button[data-action=checkin]").click()
        expect(page.locator("#flash")).to_have_text("保存しました")
    expect(page.locator("text=受付済み 4")).to_be_visible()

    # the fifth never comes: withdrawn before the draw, so left out of it
    page.locator("#entries tr").nth(4).locator("button[data-action=withdraw]").click()
    expect(page.locator("#entries tr").nth(4).locator("button[data-action=undo]")).to_be_visible()

    page.click("button[data-tab=draw]")
    page.locator("tr[data-division=GS] button[data-action=draw]").click()
    expect(page.locator("tr[data-division=GS]")).to_contain_text("1リーグ")
    page.click("#make-plan")
    expect(page.locator("#flash")).to_contain_text("台割り：8試合")  # 6 in the pool, 2 knockout
    page.screenshot(path=str(artifacts / "tournament-director-draw.png"), full_page=True)

    # boards: call, start, enter every pool result by hand
    page.click("button[data-tab=boards]")
    tile = page.locator(".board-tile[data-board='1']")
    tile.locator("button[data-action=call]").click()
    expect(page.locator("#banner")).to_contain_text("第1台: ")
    tile.locator("button[data-action=start]").click()
    expect(tile).to_contain_text("残り")
    page.screenshot(path=str(artifacts / "tournament-director-boards.png"), full_page=True)
    enter_result(page, tile, 112, 5)
    expect(tile).not_to_contain_text("残り")

    page.click("button[data-tab=results]")
    rng = random.Random(4)
    while page.locator("#matches tr:has(button:text('結果入力'))").count():
        row = page.locator("#matches tr:has(button:text('結果入力'))").first
        a, b = rng.randint(0, 12), rng.randint(0, 12)
        if a == b:
            a += 1
        enter_result(page, row, a, b)

    page.click("button[data-tab=pools]")
    pool = page.locator("tr[data-pool='GS-1']")
    expect(pool).to_contain_text("全試合終了")
    pool.locator("button[data-action=close]").click()
    expect(pool).to_contain_text("確定")

    # knockout: a semi-final (the winner has a bye) and the final
    page.click("button[data-tab=results]")
    for _ in range(2):
        row = page.locator("#matches tr[data-match^='GS-K'], #matches tr[data-match='GS-F']")
        row = row.filter(has=page.locator("button:text('結果入力')")).first
        enter_result(page, row, 112, 3)
    expect(page.locator("#matches tr[data-match='GS-F']")).to_contain_text("112 - 3")

    page.click("button[data-tab=print]")
    link = page.locator("a[data-print=certificates]").first
    href = link.get_attribute("href")
    assert href
    pdf = page.request.get(f"{server_url}{href}")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    path = tmp_path / "certificates.pdf"
    path.write_bytes(pdf.body())
    assert shutil.which("pdftoppm"), "apt-get install -y poppler-utils"
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(path),
                    str(artifacts / "tournament-e2e-certificate")], check=True)  # fmt: skip
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True).stdout.decode()  # fmt: skip
    for word in ("第1位", "第2位", "第3位", "殿", "彦根カロム春季大会"):
        assert word in text
    csv = page.request.get(f"{server_url}/api/tournaments/{tid}/results.csv").text()
    assert "GS-F" in csv and "112" in csv

    page.click("button[data-tab=audit]")
    expect(page.locator("#audit")).to_contain_text("運営 花子")
    expect(page.locator("#audit td[data-action=result]").first).to_have_text("結果入力")
    expect(page.locator("#audit")).to_contain_text("— → 112 - 3")
    page.screenshot(path=str(artifacts / "tournament-director-audit.png"), full_page=True)
    assert not errors
    ctx.close()


def test_a_correction_after_the_pool_closed_is_refused_then_made_after_reopening(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token = drawn_event(server_url)
    with referee(server_url, tid, token) as c:
        matches = event_matches(server_url, tid)
        for i, m in enumerate(x for x in matches if x["stage"] == "pool"):
            c.put(f"/matches/{m['id']}/result", json={"scores": [i % 12 + 1, 0]}).raise_for_status()
        c.post("/pools/GS/1/close").raise_for_status()
    ctx = context(browser, "phone")
    ctx.add_init_script(
        f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}');"
        "localStorage.setItem('hikone-carrom.operator', '訂正係');"
    )
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director")
    page.click("button[data-tab=results]")
    row = page.locator("#matches tr[data-match='GS-A-01']")
    open_and_save(page, row, 0, 112)
    expect(page.locator("#result-dialog .form-error")).to_contain_text("確定済み")
    page.screenshot(path=str(artifacts / "tournament-correction-refused-phone.png"))
    page.locator("#result-dialog button:text('やめる')").click()
    page.click("button[data-tab=pools]")
    page.locator("tr[data-pool='GS-1'] button[data-action=reopen]").click()
    expect(page.locator("tr[data-pool='GS-1'] button[data-action=close]")).to_be_visible()
    page.click("button[data-tab=results]")
    enter_result(page, page.locator("#matches tr[data-match='GS-A-01']"), 0, 112)
    expect(page.locator("#matches tr[data-match='GS-A-01']")).to_contain_text("0 - 112")
    page.click("button[data-tab=audit]")
    newest = page.locator("#audit tbody tr").first
    expect(newest).to_contain_text("訂正係")
    expect(newest).to_contain_text("訂正")
    expect(newest).to_contain_text("1 - 0 → 0 - 112")
    assert not errors
    ctx.close()


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_the_public_pages_follow_the_event_live(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    tid, token = drawn_event(server_url)
    ctx = context(browser, kind)
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}")
    expect(page.locator("#event-name")).to_have_text("ライブ大会")
    page.locator("#find").fill("ヤマダ")
    card = page.locator("article.person")
    expect(card).to_contain_text("山田 太郎")
    expect(card.locator(".matches.next .where")).to_contain_text("第")
    with referee(server_url, tid, token) as c:
        mine = [m for m in event_matches(server_url, tid)
                if any(s and s["name"] == "山田 太郎" for s in m["sides"])]  # fmt: skip
        first = min(mine, key=lambda m: m["planned"]["start_s"])
        c.post(f"/matches/{first['id']}/call", json={}).raise_for_status()
        expect(page.locator("#banner")).to_contain_text(f"第{first['board']}台: ")
        expect(card.locator(".matches.next .status")).to_have_text("呼び出し中")
        page.screenshot(path=str(artifacts / f"tournament-public-find-{kind}.png"), full_page=True)
        c.put(f"/matches/{first['id']}/result", json={"scores": [9, 4]}).raise_for_status()
        expect(page.locator("#banner")).to_be_hidden()  # the call is over once the match is
        page.click("button[data-tab=pools]")
        table = page.locator("section[data-pool='GS-1'] table.standings")
        expect(table.locator("tbody tr").first).to_contain_text("2")  # a win: 2 match points
        page.click("button[data-tab=boards]")
        page.screenshot(
            path=str(artifacts / f"tournament-public-boards-{kind}.png"), full_page=True
        )
        second = next(m for m in mine if m["id"] != first["id"])
        c.post(f"/matches/{second['id']}/call", json={}).raise_for_status()
        c.post(f"/matches/{second['id']}/start").raise_for_status()
        tile = page.locator(f".board-tile[data-board='{second['board']}']")
        expect(tile).to_contain_text("試合中")
        expect(tile).to_contain_text("残り")
        page.click("button[data-tab=pools]")
        expect(page.locator("section[data-pool='GS-1']")).to_contain_text("山田 太郎")
        page.screenshot(path=str(artifacts / f"tournament-public-pools-{kind}.png"), full_page=True)
        page.click("button[data-tab=bracket]")
        expect(page.locator(".bracket")).to_contain_text("決勝")
    page.click(".lang-switch button[data-lang=en]")  # every string in English too
    expect(page.locator("button[data-tab=find]")).to_have_text("My next match")
    expect(page.locator(".bracket")).to_contain_text("Final")
    page.click("button[data-tab=pools]")
    expect(page.locator("section[data-pool='GS-1'] h3")).to_contain_text("Pool A")
    expect(page.locator("section[data-pool='GS-1'] thead")).to_contain_text("Pts")
    page.screenshot(path=str(artifacts / f"tournament-public-pools-en-{kind}.png"), full_page=True)
    for b in page.locator("button.tab").all():
        box = b.bounding_box()
        assert box is not None and box["height"] >= 44
    hall = ctx.new_page()
    hall.goto(f"{server_url}/t/{tid}?hall=1")
    # the hall shows every board now, not only those in play: the one being played says so
    expect(hall.locator(f".board-tile[data-board='{second['board']}']")).to_contain_text("試合中")
    hall.screenshot(path=str(artifacts / f"tournament-hall-{kind}.png"))
    assert not errors
    ctx.close()


def test_a_board_call_reaches_the_pad_and_the_pads_result_the_standings(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token = drawn_event(server_url)
    director = context(browser, "desktop")
    director.add_init_script(f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}')")
    director.add_init_script(f"localStorage.setItem('{KEY_STORE}', '{ORGANISER_KEY}')")
    page = director.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/t/{tid}/director?tab=boards")
    page.click("button[data-tab=boards]")
    page.click("#make-pads")
    expect(page.locator("#pads .pad-link")).to_have_count(3)
    pad_url = page.locator("#pads .pad-link[data-pad='1'] a").get_attribute("href")
    assert pad_url and "#t=" in pad_url
    page.locator(".board-tile[data-board='1'] button[data-action=call]").click()
    expect(page.locator("#flash")).to_have_text("保存しました")
    tile = page.locator(".board-tile[data-board='1']")
    expect(tile.locator("a[data-action=watch-pad]")).to_be_visible()

    phone = context(browser, "phone").new_page()
    phone.goto(f"{server_url}/t/{tid}?tab=boards")
    public_tile = phone.locator(".board-tile[data-board='1']")
    expect(public_tile).to_contain_text("呼び出し中")

    device = "e2e-pad-device-1"
    pad_id, pad_token = pad_url.split("/pad/")[1].split("#t=")
    claim = httpx.post(
        f"{server_url}/api/boards/{pad_id}/claim",
        json={"device": device},
        headers={"Authorization": f"Bearer {pad_token}"},
        timeout=10,
    )
    claim.raise_for_status()
    shot = {"kind": "shot", "at": None}
    pad_ops(server_url, pad_url, device, [
        {"seq": 1, "op": "add", "match": 1, "entry": {**shot, "tap": {}}},
        {"seq": 2, "op": "add", "match": 1, "entry": {**shot, "tap": {"green": 4}}},
    ])  # fmt: skip
    expect(public_tile.locator("[data-score]")).to_have_text(" 0 - 4")  # live from the pad
    expect(tile.locator("[data-score]")).to_have_text("0 - 4")
    phone.screenshot(path=str(artifacts / "tournament-public-pad-live-phone.png"), full_page=True)
    pad_ops(server_url, pad_url, device, [
        {"seq": 3, "op": "add", "match": 1, "entry": {**shot, "tap": {}}},
        {"seq": 4, "op": "add", "match": 1, "entry": {**shot, "tap": {"red": 12}}},
        {"seq": 5, "op": "add", "match": 1, "entry": {**shot, "tap": {"jack": True}}},
        {"seq": 6, "op": "confirm", "match": 1},
    ])  # fmt: skip
    expect(tile).to_contain_text("次を呼ぶ")  # the board is free again
    phone.click("button[data-tab=pools]")
    expect(phone.locator("section[data-pool='GS-1'] tbody tr").first).to_contain_text("2")
    page.click("button[data-tab=results]")
    called = page.locator("#matches tr", has=page.locator("text=112 - 4"))
    expect(called).to_have_count(1)
    page.click("button[data-tab=audit]")
    expect(page.locator("#audit tbody tr").first).to_contain_text("pad:")
    page.screenshot(path=str(artifacts / "tournament-director-pad-audit.png"), full_page=True)
    assert not errors
    director.close()


def _serve(port: int, db_url: str) -> subprocess.Popen[bytes]:
    import sys
    import time

    code = (
        "from hikone_carrom.server import main; "
        f"raise SystemExit(main(['--port', '{port}', '--no-browser', '--db', {db_url!r}]))"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=organiser_env())  # fmt: skip
    deadline = time.monotonic() + 180  # a busy machine, as the suite's own server
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).is_success:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def test_the_pages_resume_after_a_server_restart(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db_url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    url = f"http://127.0.0.1:{port}"
    proc = _serve(port, db_url)
    try:
        tid, token = drawn_event(url)
        first, second = [m for m in event_matches(url, tid) if m["stage"] == "pool"][:2]
        with referee(url, tid, token) as c:
            c.put(f"/matches/{first['id']}/result", json={"scores": [7, 3]}).raise_for_status()
        page = context(browser, "phone").new_page()
        page.goto(f"{url}/t/{tid}?tab=pools")
        expect(page.locator("section[data-pool='GS-1'] tbody tr").first).to_contain_text("2")
        proc.terminate()
        proc.wait(timeout=15)
        expect(page.locator("#live-dot")).to_have_class("live-dot off")
        proc = _serve(port, db_url)
        expect(page.locator("#live-dot")).to_have_class("live-dot", timeout=20_000)
        with referee(url, tid, token) as c:  # nothing was lost: the director carries on
            c.put(f"/matches/{second['id']}/result", json={"scores": [112, 0]}).raise_for_status()
        page.click("button[data-tab=bracket]")
        page.click("button[data-tab=pools]")
        table = page.locator("section[data-pool='GS-1'] table.standings")
        expect(table).to_contain_text("112")
        points = [int(x) for x in table.locator("td.pts").all_inner_texts()]
        assert sum(points) == 4  # both results: two wins
        page.screenshot(path=str(artifacts / "tournament-after-restart-phone.png"), full_page=True)
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_an_online_event_takes_each_player_to_their_seat(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    director = context(browser, "desktop")
    page = director.new_page()
    errors = page_errors(page)
    page.goto(f"{server_url}/director?key={ORGANISER_KEY}")
    form = page.locator("#create")
    form.locator("input[name=name]").fill("オンライン春の大会")
    form.locator("input[name=boards]").fill("2")
    form.locator("#online").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/t/*/director")
    tid = page.url.split("/")[4]
    token = director_token(page, tid)
    with referee(server_url, tid, token) as c:
        c.post("/entries/import", content=GOOD_CSV.encode()).raise_for_status()
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
    page.reload()
    page.click("button[data-tab=print]")
    links = page.locator("#player-links tr")
    expect(links).to_have_count(5)
    first = min((m for m in event_matches(server_url, tid) if m["stage"] == "pool"),
                key=lambda m: m["planned"]["start_s"])  # fmt: skip
    red, green = (s["name"] for s in first["sides"])
    red_link = links.filter(has_text=red).locator("a").get_attribute("href")
    green_link = links.filter(has_text=green).locator("a").get_attribute("href")
    assert red_link and green_link and "#k=" in red_link

    phone = context(browser, "phone").new_page()
    phone_errors = page_errors(phone)
    phone.goto(red_link)
    expect(phone.locator("article.person")).to_contain_text(red)
    expect(phone.locator("#play")).to_have_count(0)  # not called yet
    with referee(server_url, tid, token) as c:
        r = c.post(f"/matches/{first['id']}/call", json={})
        r.raise_for_status()
        assert r.json()["text"]["ja"].startswith("対局")
    phone.locator("#play").click()
    phone.wait_for_url("**/room/*")
    expect(phone.locator("#seats")).to_contain_text(red)
    phone.screenshot(path=str(artifacts / "tournament-online-seat-phone.png"))

    other = context(browser, "desktop").new_page()
    other.goto(green_link)
    other.locator("#play").click()
    other.wait_for_url("**/room/*")
    expect(other.locator("#seats")).to_contain_text(green)
    page.click("button[data-tab=boards]")
    expect(page.locator("a[data-action=watch-room]")).to_have_count(1)
    page.screenshot(path=str(artifacts / "tournament-online-director.png"), full_page=True)
    assert not errors and not phone_errors
    director.close()
