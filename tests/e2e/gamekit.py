"""Helpers to play the browser game from Playwright: find the striker, pull back, wait; and a
finished game made in-process on the end-to-end server's store."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Page
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.server.app import create_app
from hikone_carrom.server.config import ServerSettings

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
    page.select_option("select[name=players]", str(players))
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


def play_finished_game(db_url: str, shots: int) -> str:
    """Play ``shots`` real shots of a timed hot-seat match on the store at ``db_url``, then let
    its clock run out (R7b, R8a) until the match is over; returns the game id."""
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as client:
        made = create_room(client, mode="hotseat", players=2, minutes=2)
        rid = made["room_id"]
        room: Any = client.app.state.registry.rooms[rid]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            for n in range(shots):
                send(ws, **straight_shot(state, speed=2.2 + 0.3 * n))
                state = ws.receive_json()["event"]["state"]
            room._time.shift += 121.0
            while not ws.receive_json()["event"]["state"]["over"]:
                room._time.shift += 10.5
        return f"{rid}-1"
