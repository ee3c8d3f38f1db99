"""Helpers to play the browser game from Playwright: find the striker, pull back, wait; and a
finished game made in-process on the end-to-end server's store."""

from __future__ import annotations

import copy
import math
import time
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.match import Match, Shot
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings

STRIKER_AT = """([back]) => {
  const g = window.__game;
  const bx = -Math.cos(g.aim.ahead) * back, by = -Math.sin(g.aim.ahead) * back;
  const [sx, sy] = g.view.toScreen(g.aim.x + bx, g.aim.y + by);
  const r = g.canvas.getBoundingClientRect();
  return [r.left + sx / g.view.dpr, r.top + sy / g.view.dpr];
}"""


def point_behind_striker(page: Page, back: float) -> tuple[float, float]:
    """CSS pixel position ``back`` m behind the striker, on the shooter's side."""
    x, y = page.evaluate(STRIKER_AT, [back])
    return float(x), float(y)


def new_game(page: Page, base: str, mode: str, players: int = 2, level: str = "") -> str:
    """Start a game from the home page (mode, players, computer level); the room's URL."""
    page.goto(f"{base}/")
    page.check(f"input[name=mode][value={mode}]")
    if level:
        page.select_option("select[name=level]", level)
    page.select_option("#newgame select[name=players]", str(players))
    page.click("#newgame button[type=submit]")
    page.wait_for_url("**/room/*")
    page.wait_for_function("() => window.__game && window.__game.state")
    return page.url


def wait_my_turn(page: Page, timeout: float = 30_000) -> None:
    """Until this page may shoot (its seat's turn, nothing animating)."""
    page.wait_for_function("() => window.__game && window.__game.myTurn()", timeout=timeout)


REST = 0.03
"""m: the pull's rest length (gesture.js REST): pulling less than this shoots nothing."""


def drag_shot(page: Page, pull: float = 0.09) -> None:
    """Shoot by mouse like a slingshot: press on the striker, pull back ``pull`` m beyond the
    band's rest length, release."""
    x0, y0 = point_behind_striker(page, 0.0)
    x1, y1 = point_behind_striker(page, REST + pull)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10)
    page.mouse.up()


def shots_seen(page: Page, seat: int) -> int:
    """How many shots of ``seat`` this page has animated and logged."""
    n: int = page.evaluate(
        "(seat) => window.__game.log.filter(e => e.ev.kind === 'shot' && e.ev.seat === seat)"
        ".length",
        seat,
    )
    return n


def _leading_shot(match: Match, state: dict[str, Any], n: int) -> dict[str, Any]:
    """A shot for the shooter from roomkit's straight shot (its speed varied with ``n``): the
    first of a few speeds and turns that leaves one colour ahead if any does (tried on a copy of
    the match), else the straight shot."""
    plain = straight_shot(state, speed=2.2 + 0.3 * (n % 8))
    for turn in (0.0, 0.12, -0.12, 0.25, -0.25):
        for k in range(4):
            msg = {**plain, "angle": plain["angle"] + turn, "speed": 2.2 + 0.6 * k}
            trial = copy.deepcopy(match)
            trial.play(Shot(msg["x"], msg["y"], msg["angle"], msg["speed"]))
            if len(set(trial.referee.scores().values())) > 1:
                return msg
    return plain


def play_finished_game(db_url: str, shots: int) -> str:
    """Play at least ``shots`` real shots of a timed hot-seat match on the store at ``db_url``,
    chosen so that one colour leads soon (so that time decides it, R7b), then let its clock run
    out (R8a) until the match is over; returns the game id."""
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as client:
        made = create_room(client, mode="hotseat", players=2, minutes=2)
        rid = made["room_id"]
        room: Any = client.app.state.registry.rooms[rid]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            n = 0
            while n < shots or len(set(state["scores"].values())) == 1:
                assert n < shots + 40, "no colour took the lead"
                send(ws, **_leading_shot(room.match, state, n))
                state = ws.receive_json()["event"]["state"]
                n += 1
            # the shooter's clock starts once the last shot has rolled out (R8a)
            while room._turn_ready_at is not None:
                time.sleep(0.02)
            room._time.shift += 121.0
            while not ws.receive_json()["event"]["state"]["over"]:
                room._time.shift += 10.5
        return f"{rid}-1"


DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
LANDSCAPE: dict[str, Any] = {
    "viewport": {"width": 844, "height": 390},
    "has_touch": True,
    "is_mobile": True,
}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
"""Browser context options of the sizes every screen is tried at (1366x900, 390x844 touch)."""

SEND_SPY = """(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (e) { window.__sent.push(data); }
    return send.call(this, data);
  };
})()"""
"""Init script: every message the page sends over its WebSocket lands in window.__sent."""


NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Resolves once the page has drawn two more frames (what changed is on the canvas)."""


def shots_sent(page: Page) -> int:
    """How many shot messages this page has sent to the server."""
    n: int = page.evaluate("() => window.__sent.filter(m => m && m.type === 'shot').length")
    return n


def striker_on_screen(page: Page) -> tuple[float, float]:
    """CSS pixel position of the striker being aimed."""
    return point_behind_striker(page, 0.0)


class Touch:
    """Real touch input through the DevTools protocol (touchstart/move/end, several fingers)."""

    def __init__(self, page: Page) -> None:
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, points: list[tuple[float, float]]) -> None:
        self.cdp.send(
            "Input.dispatchTouchEvent",
            {
                "type": kind,
                "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
            },
        )

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
        """One finger down at start, moved to end, lifted."""
        self.send("touchStart", [start])
        for k in range(1, steps + 1):
            f = k / steps
            self.send(
                "touchMove",
                [(start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)],
            )
        self.send("touchEnd", [])


def doubles_room_with_unshootable(db_url: str) -> tuple[str, str]:
    """A doubles hot-seat room on the store at ``db_url`` whose shooter, after one real break
    shot, has a piece wholly inside their own area (R4a); returns (room id, seat token)."""
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as client:
        made = create_room(client, mode="hotseat", players=4)
        rid = made["room_id"]
        room: Any = client.app.state.registry.rooms[rid]  # type: ignore[attr-defined]
        x, y = room.match.legal_placement().point
        for k in range(64):
            shot = Shot(x, y, math.pi / 2 + (k % 8 - 4) * 0.04, 3.0 + 0.5 * (k // 8))
            trial = copy.deepcopy(room.match)
            trial.play(shot)
            if not trial.is_over and trial.unshootable():
                break
        else:
            raise AssertionError("no break shot leaves a piece in the next shooter's own area")
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            send(
                ws, type="shot", seat=state["shooter"], x=x, y=y, angle=shot.angle, speed=shot.speed
            )
            state = ws.receive_json()["event"]["state"]
            assert state["unshootable"], state
        return rid, str(made["token"])


def hotseat_page(browser: Browser, base: str, size: dict[str, Any]) -> tuple[Page, list[str]]:
    """A new English context of ``size`` whose WebSocket messages are recorded (``SEND_SPY``),
    on a new hot-seat room at the first player's turn; returns the page and its uncaught errors."""
    ctx = browser.new_context(**size, locale="en-US")
    ctx.add_init_script(SEND_SPY)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, base, "hotseat")
    wait_my_turn(page)
    return page, errors
