"""The puzzles page (詰めカロム) in real Chromium, on a desktop and a 390x844 touch phone, in
Japanese and English: the list with today's puzzle first and a goal filter; a puzzle solved by
typing the shipped solution; one failed by a real pull-back gesture (the same shot checked to
fail in-process); give-up plays the solution; the progress kept by the browser."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import REST, SIZES, Touch

from hikone_carrom.learn import Puzzle, goal_reached, goal_text, load_shipped
from hikone_carrom.learn.drills import DRILLS, Drill
from hikone_carrom.match import Shot
from hikone_carrom.match.pieces import STRIKER_ID

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PUZZLES = load_shipped()

BEHIND = """([back]) => {
  const g = window.__puzzle;
  const bx = -Math.cos(g.frame.ahead) * back, by = -Math.sin(g.frame.ahead) * back;
  const [sx, sy] = g.view.toScreen(g.aim.x + bx, g.aim.y + by);
  const r = g.canvas.getBoundingClientRect();
  return [r.left + sx / g.view.dpr, r.top + sy / g.view.dpr];
}"""
"""CSS pixel position ``back`` m behind the striker, on the shooter's side."""


def _most_robust(seat: int) -> Puzzle:
    """The shipped puzzle of ``seat``'s shot (0 south, 1 north) whose solution holds best."""
    return max((p for p in PUZZLES if p.match().shooter == seat), key=lambda p: p.robustness)


def _typed(puzzle: Puzzle) -> dict[str, str]:
    """The solution as the typed form takes it, in the shooter's own frame: position (mm, + to
    the shooter's right of the tee spot), angle (°, 0 straight ahead, + to the right), speed."""
    match = puzzle.match()
    line = match.legal_placement().line
    assert line is not None
    (ax, ay), (bx, by) = line
    tx, ty = (ax + bx) / 2, (ay + by) / 2
    ahead = math.pi / 2 if match.shooter == 0 else -math.pi / 2
    rx, ry = math.sin(ahead), -math.cos(ahead)
    s = puzzle.solution
    pos = ((s.x - tx) * rx + (s.y - ty) * ry) * 1000
    angle = (math.degrees(ahead - s.angle) + 180) % 360 - 180
    return {"pos": repr(pos), "angle": repr(angle), "speed": repr(s.speed)}


def _open(browser: Browser, base: str, size: str, locale: str, path: str) -> tuple[Page, list[str]]:
    ctx = browser.new_context(**SIZES[size], locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}{path}")
    return page, errors


def _ready(page: Page) -> None:
    page.wait_for_function("() => window.__puzzle && window.__puzzle.phase === 'aim'")


def _progress(page: Page) -> dict[str, Any]:
    raw = page.evaluate("() => localStorage.getItem('hikone-carrom.puzzles')")
    out: dict[str, Any] = json.loads(raw or "{}")
    return out


def _no_overflow(page: Page) -> None:
    """Nothing on the page is wider than the screen."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, wide


@pytest.mark.parametrize(
    ("size", "locale", "seat"),
    [
        ("desktop", "en-US", 0),
        ("phone", "ja-JP", 1),
        ("phone", "en-US", 0),
        ("desktop", "ja-JP", 1),
    ],
)
def test_a_puzzle_is_solved_by_typing_its_solution(
    browser: Browser, server_url: str, artifacts: Path, size: str, locale: str, seat: int
) -> None:
    puzzle = _most_robust(seat)
    ja = locale.startswith("ja")
    page, errors = _open(browser, server_url, size, locale, "/puzzles")
    # the list: today's puzzle first, every shipped puzzle with its goal and difficulty
    items = page.locator("#puzzle-list .puzzle-item")
    expect(items).to_have_count(len(PUZZLES))
    expect(page.locator("#daily")).to_be_visible()
    daily = page.locator("#daily .puzzle-item").get_attribute("data-id")
    assert items.first.get_attribute("data-id") == daily
    expect(page.locator("h1")).to_have_text("詰めカロム" if ja else "Puzzles")
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"puzzles-list-{size}-{locale}.png"))
    # the goal filter keeps one goal
    page.select_option("#goal-filter", "jack-last")
    jack = sum(1 for p in PUZZLES if p.goal.value == "jack-last")
    expect(items).to_have_count(jack)
    page.select_option("#goal-filter", "")
    page.click(f"#puzzle-list .puzzle-item[data-id={puzzle.id}]")
    page.wait_for_url(f"**/puzzles/{puzzle.id}")
    _ready(page)
    expect(page.locator("#pz-goal")).to_contain_text(goal_text(puzzle.goal)[0 if ja else 1])
    # the typed form is one tap away, not the main view
    expect(page.locator("#numeric")).to_be_hidden()
    page.click("#typed summary")
    for name, value in _typed(puzzle).items():
        page.fill(f"#numeric [name={name}]", value)
    with page.expect_response(f"**/api/puzzles/{puzzle.id}/attempts") as answer:
        page.click("#numeric button[type=submit]")
    assert answer.value.json()["reached"] is True
    result = page.locator("#result")
    expect(result).to_have_attribute("data-outcome", "solved", timeout=30_000)
    expect(page.locator("#result-title")).to_have_text("正解です！" if ja else "Solved!")
    assert puzzle.id in _progress(page)["solved"]
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"puzzles-solved-{size}-{locale}.png"))
    # back on the list, the puzzle is marked solved
    page.click(".pz-actions a[href='/puzzles']")
    mark = page.locator(f"#puzzle-list .puzzle-item[data-id={puzzle.id}]")
    expect(mark).to_have_class("puzzle-item solved")
    expect(page.locator("#progress")).to_contain_text("1")
    assert errors == []


def _pull(page: Page, size: str, back: float) -> None:
    """Press the striker, pull ``back`` m beyond the band's rest length, let go: by touch on
    the phone, by mouse on the desktop."""
    x0, y0 = page.evaluate(BEHIND, [0.0])
    x1, y1 = page.evaluate(BEHIND, [REST + back])
    if size == "phone":
        Touch(page).drag((x0, y0), (x1, y1), steps=10)
        return
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10)
    page.mouse.up()


@pytest.mark.parametrize(("size", "locale"), [("phone", "ja-JP"), ("desktop", "en-US")])
def test_a_wrong_shot_fails_and_giving_up_plays_the_solution(
    browser: Browser, server_url: str, artifacts: Path, size: str, locale: str
) -> None:
    puzzle = next(p for p in PUZZLES if p.goal.value == "pot-two")
    ja = locale.startswith("ja")
    page, errors = _open(browser, server_url, size, locale, f"/puzzles/{puzzle.id}")
    _ready(page)
    page.screenshot(path=str(artifacts / f"puzzles-aim-{size}-{locale}.png"))
    with page.expect_request(f"**/api/puzzles/{puzzle.id}/attempts") as sent:
        _pull(page, size, 0.04)  # a soft straight shot
    shot = Shot(**json.loads(sent.value.post_data or "{}"))
    # the same shot played in-process misses the goal: the page says what the referee said
    match = puzzle.match()
    color = match.color(match.shooter)
    play = match.play(shot)
    assert not goal_reached(puzzle.goal, color, play.report, match.referee.state)
    result = page.locator("#result")
    expect(result).to_have_attribute("data-outcome", "failed", timeout=30_000)
    expect(page.locator("#result-title")).to_contain_text("残念" if ja else "Not this time")
    expect(page.locator("#result-lines li").first).to_be_visible()
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"puzzles-failed-{size}-{locale}.png"))
    # try again: the position is back and the shot can be aimed again
    page.click("#pz-retry")
    _ready(page)
    # the aim is drawn over the puzzle's position again
    page.wait_for_function("() => Boolean(window.__puzzle.lastOverlay?.aim)")
    # give up: the solution is played and its figures are given
    with page.expect_response(f"**/api/puzzles/{puzzle.id}/give-up") as given:
        page.click("#pz-giveup")
    assert given.value.json()["solution"]["shot"]["speed"] == pytest.approx(puzzle.solution.speed)
    expect(result).to_have_attribute("data-outcome", "given", timeout=30_000)
    typed = _typed(puzzle)
    figures = page.locator("#result-shot")
    expect(figures).to_contain_text(f"{float(typed['speed']):.2f} m/s")
    expect(figures).to_contain_text(f"{round(float(typed['pos']))} mm")
    assert puzzle.id in _progress(page)["given"]
    # the board shows where the solution left the pieces
    after = page.evaluate("() => window.__puzzle.after.map(d => d.id)")
    solved = puzzle.match()
    solved.play(puzzle.solution)
    assert set(after) - {STRIKER_ID} == {d.id for d in solved.layout}
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"puzzles-solution-{size}-{locale}.png"))
    assert errors == []


def test_an_unknown_puzzle_says_so_with_the_way_back(browser: Browser, server_url: str) -> None:
    page, errors = _open(browser, server_url, "desktop", "ja-JP", "/puzzles/p9999")
    missing = "その問題はありません。入力を確かめてください。"
    expect(page.locator(".notfound p")).to_have_text(missing)
    page.click(".notfound a")
    page.wait_for_url("**/puzzles")
    expect(page.locator("#puzzle-list .puzzle-item")).to_have_count(len(PUZZLES))
    assert errors == []


def test_the_start_page_links_to_the_puzzles(browser: Browser, server_url: str) -> None:
    page, errors = _open(browser, server_url, "desktop", "ja-JP", "/")
    link = page.locator(".topnav a[href='/puzzles']")
    expect(link).to_have_text("詰めカロム")
    link.click()
    page.wait_for_url("**/puzzles")
    expect(page.locator("#puzzle-list .puzzle-item").first).to_be_visible()
    assert errors == []


def _drill_typed(drill: Drill) -> dict[str, str]:
    """A drill's shot as typed by red, south: position mm right of the tee spot, angle ° right
    of straight ahead, speed m/s."""
    s = drill.solution
    angle = (math.degrees(math.pi / 2 - s.angle) + 180) % 360 - 180
    return {"pos": repr(s.x * 1000), "angle": repr(angle), "speed": repr(s.speed)}


@pytest.mark.parametrize(("size", "locale"), [("phone", "ja-JP"), ("desktop", "en-US")])
def test_a_drill_is_scored_with_stars_by_its_strikes(
    browser: Browser, server_url: str, artifacts: Path, size: str, locale: str
) -> None:
    drill = DRILLS[2]  # off a rail
    ja = locale.startswith("ja")
    page, errors = _open(browser, server_url, size, locale, "/puzzles")
    page.click(".pz-tabs a[data-tab=drills]")
    page.wait_for_url("**/puzzles/drills")
    items = page.locator("#drill-list .drill-item")
    expect(items).to_have_count(len(DRILLS))
    expect(items.nth(2)).to_contain_text(drill.name[0 if ja else 1])
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"drills-list-{size}-{locale}.png"))
    items.nth(2).click()
    page.wait_for_url(f"**/puzzles/drills/{drill.id}")
    _ready(page)
    expect(page.locator("#pz-tip")).to_have_text(drill.tip[0 if ja else 1])
    expect(page.locator("#pz-giveup")).to_be_hidden()
    # the first strike, a soft pull straight ahead, misses: the drill goes on
    with page.expect_response(f"**/api/drills/{drill.id}/attempts") as first:
        _pull(page, size, 0.04)
    assert first.value.json()["reached"] is False
    expect(page.locator("#result")).to_have_attribute("data-outcome", "failed", timeout=30_000)
    page.click("#pz-retry")
    _ready(page)
    # the second strike, typed: reached in two strikes, two stars kept by the browser
    page.click("#typed summary")
    for name, value in _drill_typed(drill).items():
        page.fill(f"#numeric [name={name}]", value)
    page.click("#numeric button[type=submit]")
    expect(page.locator("#result")).to_have_attribute("data-outcome", "solved", timeout=30_000)
    expect(page.locator("#result-title")).to_have_text(
        "2打でできました！ ★★☆" if ja else "Done in 2 strikes! ★★☆"
    )
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('hikone-carrom.drills'))")
    assert stored == {drill.id: 2}
    _no_overflow(page)
    page.screenshot(path=str(artifacts / f"drills-done-{size}-{locale}.png"))
    page.click(".pz-actions a")
    page.wait_for_url("**/puzzles/drills")
    expect(page.locator(f"#drill-list .drill-item[data-id={drill.id}] .stars")).to_have_text("★★☆")
    assert errors == []
