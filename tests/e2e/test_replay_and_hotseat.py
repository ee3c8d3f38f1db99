"""In real headless Chromium: the replay viewer at /games (step through a finished game's shots
and play one again), and four players on one device each pulling back from their own side."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import NEXT_FRAMES, wait_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SIDES = ("south", "west", "north", "east")
AHEAD = {0: math.pi / 2, 1: 0.0, 2: -math.pi / 2, 3: math.pi}
"""World direction (rad) from each doubles seat's side towards the board's centre."""


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _replay_idle(page: Page, index: int) -> None:
    page.wait_for_function(
        "(i) => window.__replay.index === i && window.__replay.anim === null",
        arg=index,
        timeout=30_000,
    )


def test_the_replay_viewer_steps_through_a_game_and_plays_a_shot_again(
    browser: Browser, server_url: str, finished_game: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors = _errors(page)
    page.goto(f"{server_url}/games")
    href = f"a[href='/replay/{finished_game}']"
    row = page.locator("#games-body tr", has=page.locator(href))
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Red (south) · Green (north)")
    link = row.locator(href)
    link.click()
    page.wait_for_url(f"**/replay/{finished_game}")
    page.wait_for_function("() => window.__replay && window.__replay.data")
    events = page.evaluate("() => window.__replay.data.events.map(e => e.kind)")
    n = len(events)
    assert events[:4] == ["shot"] * 4 and "time_called" in events
    expect(page.locator("#rp-pos")).to_have_text(f"Start position · 0 / {n}")
    expect(page.locator("#rp-play")).to_be_disabled()
    expect(page.locator("#log li")).to_have_count(0)
    board = page.locator("#board")
    start = board.screenshot()

    page.click("#rp-next")  # step to the first shot: it plays at once
    page.wait_for_function("() => window.__replay.index === 1 && window.__replay.anim !== null")
    _replay_idle(page, 1)
    expect(page.locator("#rp-pos")).to_have_text(f"1 / {n}")
    expect(page.locator("#log li")).to_have_count(1)
    expect(page.locator("#log li .rule").first).to_contain_text("R")
    after_first = board.screenshot()
    assert after_first != start  # the pieces moved

    for k in (2, 3):
        page.click("#rp-next")
        _replay_idle(page, k)
    page.click("#rp-prev")  # stepping back shows the position without playing
    page.wait_for_function("() => window.__replay.index === 2")
    assert page.evaluate("() => window.__replay.anim") is None
    expect(page.locator("#log li")).to_have_count(2)
    settled = board.screenshot()

    page.click("#rp-play")  # play shot 2 again from its start
    page.wait_for_function("() => window.__replay.anim !== null")
    page.evaluate(NEXT_FRAMES)  # frames of the shot drawn
    page.screenshot(path=str(artifacts / "replay-shot-again.png"))
    _replay_idle(page, 2)
    assert board.screenshot() == settled  # it ends where it ended the first time

    page.click("#rp-last")
    _replay_idle(page, n)
    expect(page.locator("#rp-pos")).to_have_text(f"{n} / {n}")
    expect(page.locator("#log li")).to_have_count(n)
    expect(page.locator("#log li").first).to_contain_text("R7b")
    page.screenshot(path=str(artifacts / "replay-end.png"))
    page.click(".lang-switch button[data-lang=ja]")
    expect(page.locator("#rp-play")).to_have_text("このショットをもう一度")
    page.click("#rp-first")
    expect(page.locator("#rp-pos")).to_have_text(f"開始時の配置 · 0 / {n}")
    assert board.screenshot() == start
    page.click(".lang-switch button[data-lang=en]")
    assert errors == []


DRAG_DOWN = """([back, pull]) => {
  const g = window.__game;
  const perM = g.view.scale / g.view.dpr;
  const [sx, sy] = g.view.toScreen(g.aim.x, g.aim.y);
  const r = g.canvas.getBoundingClientRect();
  const x = r.left + sx / g.view.dpr, y = r.top + sy / g.view.dpr;
  return {x, y, from: y + back * perM, to: y + (back + pull) * perM, top: r.top, h: r.height};
}"""


def test_four_players_on_one_device_each_pull_back_from_their_own_side(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors = _errors(page)
    page.goto(f"{server_url}/")
    page.check("input[name=mode][value=hotseat]")
    page.select_option("#newgame select[name=players]", "4")
    page.click("#newgame button[type=submit]")
    page.wait_for_url("**/room/*")
    page.wait_for_function("() => window.__game && window.__game.state")
    seen: set[int] = set()
    for _ in range(16):
        if len(seen) == 4:
            break
        wait_my_turn(page)
        seat = page.evaluate("() => window.__game.state.shooter")
        assert page.evaluate("() => window.__game.view.side") == SIDES[seat]
        at = page.evaluate(DRAG_DOWN, [0.0, 0.03 + 0.09])  # from the striker, 9 cm past rest
        assert at["y"] > at["top"] + 0.75 * at["h"]  # the shooter's striker is at the bottom
        before = page.evaluate("() => window.__game.log.length")
        # pull straight down the screen, towards the shooter, like a slingshot
        page.mouse.move(at["x"], at["from"])
        page.mouse.down()
        for k in range(1, 11):
            page.mouse.move(at["x"], at["from"] + (at["to"] - at["from"]) * k / 10)
        if seat not in seen:
            page.screenshot(path=str(artifacts / f"hotseat4-seat{seat}-{SIDES[seat]}.png"))
        page.mouse.up()
        page.wait_for_function(
            "(n) => window.__game.log.length > n && !window.__game.anim", arg=before
        )
        shot = page.evaluate("() => window.__game.log[0].ev")
        assert shot["kind"] == "shot" and shot["seat"] == seat
        turn = (shot["shot"]["angle"] - AHEAD[seat] + math.pi) % (2 * math.pi) - math.pi
        assert abs(turn) < 0.03, (seat, shot["shot"]["angle"])  # straight at the centre
        seen.add(seat)
    assert seen == {0, 1, 2, 3}
    assert errors == []
