"""The referee pad on a 390 x 844 touch phone in Chromium: a whole timed doubles match with
penalties, debt, a jack-spot pile and a lost shot under R8a (the pad's clock driven by
Playwright's clock), offline in the middle and back, the server equal to the pad, a second
device refused, a spectator watching live; screenshots of every screen in Japanese and English."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.organiserkit import ORGANISER_KEY, organiser_headers
from tests.e2e.padkit import both_languages, last_ruling, phone, server_board, shoot, tap_shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _in_sync(page: Page, base: str, board_id: str) -> None:
    """Everything sent; the server's match equals the pad's (steps, rulings, counts, state)."""
    page.wait_for_function("() => window.__pad.pending() === 0 && window.__pad.online()")
    mine = page.evaluate("() => window.__pad.view()")
    theirs = server_board(base, board_id)["match"]
    assert theirs["steps"] == mine["steps"]
    assert theirs["state"] == mine["state"] and theirs["setup"] == mine["setup"]


def _min_target(page: Page, selector: str) -> float:
    sizes = page.eval_on_selector_all(
        selector, "els => els.map(e => Math.min(e.offsetWidth, e.offsetHeight))"
    )
    return float(min(sizes))


def test_a_referee_scores_a_timed_doubles_match_offline_and_back(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ctx = phone(browser)
    ctx.clock.install()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())

    # a board is created; its QR code and links are shown
    page.goto(f"{server_url}/pad?key={ORGANISER_KEY}")
    expect(page.locator("#create h1")).to_have_text("ボードを作る")
    both_languages(page, artifacts, "pad-create")
    page.fill("input[name=name]", "第17台")
    page.tap("#create button[type=submit]")
    expect(page.locator("#made .qr svg")).to_be_visible()
    both_languages(page, artifacts, "pad-board-qr")
    pad_url = page.get_attribute("#pad-link", "href")
    assert pad_url and "#t=" in pad_url
    board_id = pad_url.split("/pad/")[1].split("#")[0]

    # the pad: set-up of a 2-minute doubles match
    page.goto(pad_url)
    expect(page.locator("#setup h1")).to_have_text("試合の設定")
    assert "#t=" not in page.url  # the token leaves the address bar
    page.tap("#setup .segmented button:nth-child(2)")
    for seat, name in enumerate(["田中", "佐藤", "山本", "鈴木"]):
        page.fill(f"input[name=name{seat}]", name)
    page.fill("input[name=minutes]", "2")
    page.check("input[name=deadlock][value=lot]")
    shoot(page, artifacts, "pad-setup-ja.png")
    page.tap("#setup button[type=submit]")
    expect(page.locator("#turn")).to_contain_text("田中（南・赤）")
    assert _min_target(page, "#entry button.step, #entry .toggle, #record, #no-pocket") >= 56

    page.tap("#clock-start")
    tap_shot(page, red=2)  # R3a: red A continues
    assert last_ruling(page)["continues"]
    tap_shot(page, red=1, striker_pocketed=True)  # R5a: penalty 1, own puck voided
    r = last_ruling(page)
    assert r["penalty"] == 1 and r["returned"] == ["red", "red"]
    expect(page.locator("#penalty")).to_have_text("ペナルティ 1個")
    expect(page.locator("#pile svg ellipse")).to_have_count(2)
    shoot(page, artifacts, "pad-ruling-penalty-ja.png")
    tap_shot(page, red_off=1, green_off=1, striker_off=True)  # green A: R5c debt, R6c/R6d pile
    r = last_ruling(page)
    assert r["debt_added"] == 1 and r["returned"] == ["red", "green"] and "R6d" in r["reasons"]
    expect(page.locator("#debt-green")).to_have_text("1")
    _in_sync(page, server_url, board_id)

    # the Wi-Fi drops: scoring goes on, the entries wait on the device
    ctx.set_offline(True)
    page.tap("#no-pocket")  # red B: no pocket (one tap)
    page.wait_for_function("() => window.__pad.view().steps.length === 4")
    tap_shot(page, green=1)  # green B pays green's debt (R5i) and continues
    assert last_ruling(page)["debt_paid"] == ["green"]
    tap_shot(page, red=3)  # a mis-tap ...
    page.tap("#undo")  # ... undone
    page.wait_for_function("() => window.__pad.view().steps.length === 5")
    page.tap("#history li[data-n='5'] button.fix")  # correction of entry 5: two greens, not one
    page.tap(".stepper.green button[data-d='1']")
    both_languages(page, artifacts, "pad-correct")
    page.tap("#record")
    page.wait_for_function("() => window.__pad.view().steps[4].tap.green === 2")
    assert page.evaluate("() => window.__pad.view().state.pocketed.green") == 1
    expect(page.locator("#status")).to_contain_text("オフライン")
    assert page.evaluate("() => window.__pad.pending()") >= 4
    both_languages(page, artifacts, "pad-offline")
    page.reload()  # the service worker serves the pad without the network
    expect(page.locator("#turn")).to_be_visible()
    assert page.evaluate("() => window.__pad.view().steps.length") == 5
    tap_shot(page)  # green B: nothing
    ctx.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    _in_sync(page, server_url, board_id)

    # the last minute: the 10-second countdown, seen and heard; it runs out: a lost shot (R8a)
    ctx.clock.run_for(61_000)
    expect(page.locator("#ten")).to_be_enabled()
    page.tap("#ten")
    ctx.clock.run_for(3_000)
    expect(page.locator("#countdown .n")).to_have_text("7")
    both_languages(page, artifacts, "pad-countdown")
    shooter = page.evaluate("() => window.__pad.view().state.shooter")
    ctx.clock.run_for(7_500)
    page.wait_for_function("() => window.__pad.view().steps.at(-1).kind === 'skip'")
    r = last_ruling(page)
    assert r["skipped"] and r["seat"] == shooter and "R8a" in r["reasons"]
    beeps = page.evaluate("() => window.__pad.beeps.map(b => b.freq)")
    assert beeps.count(880) >= 4 and 440 in beeps  # start, 3-2-1, and the long last beep

    # time is called (R7b): the round is finished to the last seat (east)
    ctx.clock.run_for(60_000)
    page.wait_for_function("() => window.__pad.view().state.time_called")
    expect(page.locator("#called")).to_contain_text("鈴木")
    both_languages(page, artifacts, "pad-time-called")
    # level 1-1: the round, then three more (R7c), all without a pocket; then the lot (R7d)
    rounds = 0
    while not page.evaluate("() => window.__pad.view().state.awaiting_lot"):
        n = page.evaluate("() => window.__pad.view().steps.length")
        page.tap("#no-pocket")
        page.wait_for_function("(n) => window.__pad.view().steps.length === n + 1", arg=n)
        rounds += 1
    assert rounds == 4 * 4 - 1  # seats W, N, E of the called round, then 3 extra rounds
    expect(page.locator("#lot h2")).to_contain_text("じゃんけん")
    both_languages(page, artifacts, "pad-lot")
    page.tap("#lot-red")
    page.wait_for_function("() => window.__pad.view().state.outcome !== null")
    outcome = page.evaluate("() => window.__pad.view().state.outcome")
    assert outcome["reason"] == "R7d" and outcome["winner"] == "red"
    expect(page.locator("#final-red")).to_have_text(str(outcome["scores"][0]))
    both_languages(page, artifacts, "pad-end")
    page.tap("#confirm")
    expect(page.locator("#confirmed")).to_be_visible()
    _in_sync(page, server_url, board_id)
    shoot(page, artifacts, "pad-confirmed-ja.png")
    pdf = page.request.get(f"{server_url}{page.get_attribute('#pdf', 'href')}")
    assert pdf.status == 200 and pdf.body()[:4] == b"%PDF"

    # English
    page.tap("#lang")
    expect(page.locator("#end h2")).to_contain_text("Red wins")
    shoot(page, artifacts, "pad-confirmed-en.png")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    shoot(page, artifacts, "pad-history-en.png")

    # a second device on the same board is refused
    other = phone(browser)
    second = other.new_page()
    second.goto(pad_url)
    expect(second.locator("#blocked h1")).to_have_text("このボードは別の端末で記録中です")
    shoot(second, artifacts, "pad-second-device-ja.png")
    second.tap("#lang")
    expect(second.locator("#blocked h1")).to_have_text(
        "This board is being scored on another device"
    )
    shoot(second, artifacts, "pad-second-device-en.png")
    assert server_board(server_url, board_id)["match"]["confirmed"]
    other.close()
    assert errors == []
    ctx.close()


def test_spectators_watch_a_board_live_and_the_pad_in_english(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ctx = phone(browser, "en-US")
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('hikone-carrom.lang', 'en')")
    made = page.request.post(
        f"{server_url}/api/boards", data={"name": "Board 3"}, headers=organiser_headers()
    ).json()
    page.goto(made["pad_url"])
    expect(page.locator("#setup h1")).to_have_text("Match set-up")
    page.fill("input[name=name0]", "Tanaka")
    page.fill("input[name=name1]", "Sato")
    page.check("input[name=untimed]")
    shoot(page, artifacts, "pad-setup-en.png")
    page.tap("#setup button[type=submit]")
    watcher = ctx.new_page()
    watcher.goto(made["watch_url"])
    expect(watcher.locator("#watch-turn")).to_contain_text("Tanaka")
    tap_shot(page, red=4)
    tap_shot(page, jack=True)  # R5b: jack before all own pucks
    r = last_ruling(page)
    assert r["penalty"] == 5 and r["returned"][-1] == "jack"
    expect(page.locator("#penalty")).to_have_text("Penalty 5")
    shoot(page, artifacts, "pad-ruling-penalty-en.png")
    expect(watcher.locator("#watch-score-red")).to_have_text("-1")
    expect(watcher.locator(".ruling .sentences")).to_contain_text("R5b")
    shoot(watcher, artifacts, "pad-watch-en.png")
    watcher.tap("#lang")
    expect(watcher.locator("#watch-turn")).to_contain_text("Sato")
    shoot(watcher, artifacts, "pad-watch-ja.png")
    ctx.close()
