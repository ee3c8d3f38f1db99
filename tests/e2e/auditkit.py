"""The pages the audits (axe-core, Lighthouse) check, made on the e2e server: start, a live online
room (its player and a spectator), a replay, how-to, a pad, a public championship and its hall
screen."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Page
from tests.e2e.organiserkit import organiser_headers
from tests.e2e.tourneykit import drawn_event

NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
LIGHTHOUSE = NODE_MODULES / "lighthouse" / "cli" / "index.js"
PLAYER = "room (player)"
"""The page made by :func:`open_as_player`: the room as its host sees it, waiting for a guest."""


def audited_pages(server_url: str, finished_game: str) -> dict[str, str]:
    """Page name -> URL (the player's room is made in the auditing browser: see :data:`PLAYER`)."""
    board = httpx.post(
        f"{server_url}/api/boards", json={"name": "Board 1"}, headers=organiser_headers()
    )
    board.raise_for_status()
    room = httpx.post(f"{server_url}/api/rooms", json={"mode": "online"})
    room.raise_for_status()
    tid, _ = drawn_event(server_url)
    return {
        "start": f"{server_url}/",
        PLAYER: f"{server_url}/",
        "room (spectator)": f"{server_url}/room/{room.json()['room_id']}",
        "replay": f"{server_url}/replay/{finished_game}",
        "howto": f"{server_url}/howto",
        "pad": board.json()["pad_url"],
        "championship": f"{server_url}/t/{tid}",
        "hall": f"{server_url}/t/{tid}?hall=1",
    }


def open_as_player(page: Page, start_url: str) -> None:
    """From the start page, a new online room: its host's page, the invite shown."""
    page.goto(start_url)
    page.check("input[name=mode][value=online]")
    page.click("#newgame button[type=submit]")
    page.wait_for_url("**/room/*")
    page.wait_for_function("() => window.__game && window.__game.state")
