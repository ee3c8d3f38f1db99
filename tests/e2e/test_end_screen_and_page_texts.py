"""The end screen, the replay links and the aiming texts in real Chromium: the end screen can be
closed and opened again; a bad replay link gets a plain page; "your tee spot" is said only to the
player whose turn it is; an empty rulings list is not a numbered item; the board has a name; free
and blocked stretches of the area line differ by shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.e2e.gamekit import SIZES, new_game, wait_my_turn
from tests.e2e.guestkit import answer_name

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_end_screen_closes_to_show_the_final_position_and_opens_again(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path, size: str
) -> None:
    room = finished_game.rsplit("-", 1)[0]
    ctx = browser.new_context(**SIZES[size], locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server_url}/room/{room}")
    end = page.locator("#endscreen")
    expect(end).to_be_visible()
    expect(page.locator("#end-title")).to_contain_text("wins")
    page.screenshot(path=str(artifacts / f"end-screen-{size}-en.png"))
    page.click("#end-close")
    expect(end).to_be_hidden()
    expect(page.locator("#end-open")).to_be_visible()
    # the board is clear to look at: no overlay over its centre
    box = page.locator("#board").bounding_box()
    assert box is not None
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).id",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit == "board"
    page.screenshot(path=str(artifacts / f"end-closed-{size}-en.png"))
    page.click("#end-open")
    expect(end).to_be_visible()
    expect(page.locator("#end-open")).to_be_hidden()
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#end-close")).to_have_attribute("aria-label", "閉じて盤を見る")
    page.screenshot(path=str(artifacts / f"end-screen-{size}-ja.png"))
    assert errors == []
    ctx.close()


def test_a_bad_replay_link_gets_a_plain_page_and_no_error(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_page(locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server_url}/replay/NoSuchGame-1")
    expect(page.locator(".notfound h1")).to_have_text("No such game")
    expect(page.locator(".notfound a[href='/games']")).to_be_visible()
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator(".notfound h1")).to_have_text("この試合はありません")
    assert errors == []
    page.close()


def test_your_tee_spot_is_said_only_to_the_player_whose_turn_it_is(
    browser: Browser, server_url: str
) -> None:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    new_game(page, server_url, "computer", level="1")
    wait_my_turn(page)
    expect(page.locator("#turn")).to_contain_text("First shot: from your tee spot (R2a).")
    page.fill("#numeric [name=speed]", "0.4")
    page.click("#numeric button[type=submit]")
    # the computer's own first shot: nobody is told "your tee spot"
    page.wait_for_function(
        "() => window.__game.state.shooter === 1 && window.__game.state.first_shot"
        " && !window.__game.anim"
    )
    expect(page.locator("#turn")).to_contain_text("Computer")
    expect(page.locator("#turn")).not_to_contain_text("tee spot")
    ctx.close()
    # a spectator of an online room is not told "your tee spot" either
    host_ctx = browser.new_context(locale="en-US")
    guest_ctx = browser.new_context(locale="en-US")
    watch_ctx = browser.new_context(locale="en-US")
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watch_ctx.new_page()
    url = new_game(host, server_url, "online")
    guest.goto(url)
    guest.click("button[data-seat='1']")
    answer_name(guest)
    host.wait_for_function("() => window.__game.myTurn()")
    expect(host.locator("#turn")).to_contain_text("your tee spot")
    watcher.goto(url)
    watcher.wait_for_function(
        "() => window.__game && window.__game.state && !window.__game.state.waiting"
    )
    expect(watcher.locator("#turn")).to_contain_text("Watching")
    expect(watcher.locator("#turn")).not_to_contain_text("tee spot")
    for c in (host_ctx, guest_ctx, watch_ctx):
        c.close()


def test_empty_rulings_board_name_and_area_line_patterns(browser: Browser, server_url: str) -> None:
    ctx = browser.new_context(**SIZES["desktop"], locale="en-US")
    page = ctx.new_page()
    new_game(page, server_url, "hotseat")
    wait_my_turn(page)
    # no shot yet: a sentence, not item 1 of a numbered list
    expect(page.locator("#log-empty")).to_have_text("No shot yet.")
    expect(page.locator("#log li")).to_have_count(0)
    expect(page.locator("#log")).to_be_hidden()
    # the board has a name, in the page's language
    expect(page.locator("#board")).to_have_accessible_name("Carrom board")
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#board")).to_have_accessible_name("カロム盤")
    expect(page.locator("#log-empty")).to_have_text("まだショットはありません。")
    # free and blocked stretches of the area line: a solid band vs a thin line with x marks
    marks = page.evaluate(
        """() => {
          const g = window.__game;
          const south = g.geometry.area_lines.find(l => l.side === 'south');
          g.state.placement = {kind: 'line', line: [south.a, south.b], free: [[0, 0.1], [0.3, 1]]};
          return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
            const r = g.geometry.puck_radius, ctx = g.canvas.getContext('2d');
            const dark = (s0, s1) => {
              let n = 0;
              for (let k = 0; k <= 200; k++) {
                const s = s0 + (s1 - s0) * k / 200;
                const x = south.a[0] + (south.b[0] - south.a[0]) * s, y = south.a[1] + 0.3 * r;
                const [px, py] = g.view.toScreen(x, y);
                const d = ctx.getImageData(Math.round(px), Math.round(py), 1, 1).data;
                if (0.299 * d[0] + 0.587 * d[1] + 0.114 * d[2] < 110) n++;
              }
              return n;
            };
            done({blocked: dark(0.12, 0.28), free: dark(0.62, 0.78)});
          })));
        }"""
    )
    assert marks["free"] == 0
    assert marks["blocked"] >= 8  # the x marks cross the row again and again
    ctx.close()
