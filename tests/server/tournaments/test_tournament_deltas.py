"""The director's console and the spectators' pages kept up to date by numbered updates: after a
series of random changes, the first snapshot with every update applied by the pages' own code
(web/js/tourney-deltas.js, under Node) is the event as a fresh snapshot shows it; the console is
sent what changed, never the whole event again. Pages that ask for compressed frames (``?z=1``)
are replayed from the frames as sent, inflated by the pages' own code; a page on a tab without
boards (``?watch=none``) holds its trimmed snapshot with every update applied."""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.tournamentkit import headers, ready_event

from hikone_carrom.server.tournaments.views import compact

NODE = shutil.which("node")
REPLAY = Path(__file__).resolve().parents[2] / "js" / "tourney-deltas-replay.mjs"
TIEBREAKS = ["match_points", "point_difference", "head_to_head", "pucks", "lot"]


class Page:
    """One live connection and every message it was sent (``wire``: as sent, a compressed
    frame as ``{"deflated": base64}``)."""

    def __init__(self, ws: Any, *, director: str | None = None, z: bool = False) -> None:
        self.ws = ws
        self.z = z
        self.messages: list[dict[str, Any]] = []
        self.wire: list[dict[str, Any]] = []
        self.director = director is not None
        if director is not None:
            ws.send_json({"type": "hello", "token": director})
        self.take()
        self._pools()

    def _pools(self) -> None:
        """A page shows GS's pools: it asks for them after each snapshot."""
        if not self.director:
            self.ws.send_json({"type": "division", "key": "GS:pools"})
            self.take()

    def take(self) -> dict[str, Any]:
        frame = self.ws.receive()
        if self.z:  # every message as a binary frame
            raw = frame["bytes"]
            msg: dict[str, Any] = json.loads(zlib.decompress(raw, -zlib.MAX_WBITS))
            self.wire.append({"deflated": base64.b64encode(raw).decode()})
        else:
            msg = json.loads(frame["text"])
            self.wire.append(msg)
        assert msg["type"] != "error", msg
        self.messages.append(msg)
        return msg

    def until(self, seq: int) -> None:
        """Take messages up to the update numbered ``seq`` (resyncing after a reload, within
        the socket's rate)."""
        while True:
            msg = self.take()
            if msg["type"] == "reload":
                time.sleep(1.0)
                self.ws.send_json({"type": "resync"})
                while msg["type"] != "snapshot":
                    msg = self.take()
                self._pools()
            if msg.get("seq", -1) >= seq and msg["type"] in ("update", "snapshot"):
                return


PLAY = ["call", "call", "start", "result", "result", "result", "clear", "clear", "pool", "status"]
"""Changes the pages get as numbered updates."""

STRUCTURE = ["edit", "add", "rules", "replan"]
"""Changes of structure (pages reload, the console gets the parts)."""


def _change(
    client: TestClient, tid: str, token: str, live: Any, rng: random.Random, kinds: list[str]
) -> None:
    """One random change by the director (refused ones change nothing)."""
    event = live.event
    base = f"/api/tournaments/{tid}"
    h = headers(token)
    matches = [m for m in event.matches() if all(m.sides) and "" not in m.sides]
    kind = rng.choice(kinds)
    if kind == "call":
        client.post(f"{base}/boards/{rng.randint(1, 4)}/call", headers=h)
    elif kind == "start":
        called = [s.match_id for s in live.live.values() if s.status == "called"]
        if called:
            client.post(f"{base}/matches/{rng.choice(called)}/start", headers=h)
    elif kind == "result" and matches:
        m = rng.choice(matches)
        a, b = rng.sample(range(0, 13), 2)
        client.put(f"{base}/matches/{m.id}/result", json={"scores": [a, b]}, headers=h)
    elif kind == "clear" and event.results:
        client.delete(f"{base}/matches/{rng.choice(sorted(event.results))}/result", headers=h)
    elif kind == "pool":
        action = rng.choice(["close", "close", "reopen"])
        client.post(f"{base}/pools/GS/{rng.randint(1, 2)}/{action}", headers=h)
    elif kind == "status":
        entry = rng.choice(sorted(event.entries))
        status = rng.choice(["checked_in", "checked_in", "withdrawn", "entered"])
        client.post(f"{base}/entries/{entry}/status", json={"status": status}, headers=h)
    elif kind == "edit":
        entry = rng.choice(sorted(event.entries))
        got = client.get(f"{base}/entries/{entry}", headers=h).json()["entry"]
        member = {**got["members"][0], "name": f"{got['members'][0]['name'][:20]}改"}
        body = {"division": got["division"], "members": [member], "seed": got.get("seed")}
        client.put(f"{base}/entries/{entry}", json=body, headers=h)
    elif kind == "add":
        n = rng.randint(100, 999)
        member = {"name": f"追加 選手{n}", "reading": "ついか", "club": "彦根", "age": "30"}
        client.post(f"{base}/entries", json={"division": "GS", "members": [member]}, headers=h)
    elif kind == "rules":
        order = rng.sample(TIEBREAKS, rng.randint(1, len(TIEBREAKS)))
        client.put(f"{base}/rules", json={"tiebreaks": order}, headers=h)
    elif kind == "replan":
        client.post(f"{base}/replan", json={"out_of_service": [rng.randint(1, 4)]}, headers=h)


def _replayed(sessions: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    assert NODE is not None
    run = subprocess.run(
        [NODE, str(REPLAY)],
        input=json.dumps(sessions, ensure_ascii=False),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-5000:]
    out: dict[str, Any] = json.loads(run.stdout)
    return out


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
@pytest.mark.parametrize(
    ("seed", "kinds", "z"), [(1, PLAY, False), (2, PLAY, True), (3, PLAY + STRUCTURE, True)]
)
def test_a_snapshot_with_its_updates_is_a_fresh_snapshot(
    client: TestClient, seed: int, kinds: list[str], z: bool
) -> None:
    tid, token = ready_event(client)
    live = client.app.state.tournaments.events[tid]  # type: ignore[attr-defined]
    rng = random.Random(seed)
    url = f"/ws/tournaments/{tid}"
    zq = "&z=1" if z else ""
    with (
        client.websocket_connect(f"{url}?full=1{zq}") as console_ws,
        client.websocket_connect(f"{url}?z={int(z)}") as page_ws,
        client.websocket_connect(f"{url}?watch=none{zq}") as trimmed_ws,
    ):
        console, page = Page(console_ws, director=token, z=z), Page(page_ws, z=z)
        trimmed = Page(trimmed_ws, z=z)
        for _ in range(70):
            seq = live.seq
            _change(client, tid, token, live, rng, kinds)
            if live.seq != seq:
                console.until(live.seq)
                page.until(live.seq)
                trimmed.until(live.seq)
        with (
            client.websocket_connect(f"{url}?full=1") as fresh_console,
            client.websocket_connect(url) as fresh_page,
            client.websocket_connect(f"{url}?watch=none") as fresh_trimmed,
        ):
            whole = Page(fresh_console, director=token).messages[0]["event"]
            fresh = Page(fresh_page).messages
            fresh_cut = Page(fresh_trimmed).messages[0]["event"]
    kinds = [m["type"] for m in console.messages]
    assert kinds[0] == "snapshot" and set(kinds[1:]) == {"update"}  # never the whole event again
    assert len(kinds) > 30
    sessions = {"console": console.wire, "page": page.wire, "trimmed": trimmed.wire}
    held = _replayed(sessions)
    assert held["console"] == whole

    view, pools = fresh[0]["event"], fresh[1]["data"]["division"]["pools"]
    mine = held["page"]
    assert mine["tiles"] == view["tiles"] and mine["calls"] == view["calls"]
    strip = ("pools", "loaded")
    divisions = [{k: v for k, v in d.items() if k not in strip} for d in mine["divisions"]]
    assert divisions == [{k: v for k, v in d.items() if k != "pools"} for d in view["divisions"]]
    assert next(d for d in mine["divisions"] if d["id"] == "GS")["pools"] == pools
    now = {m["id"]: compact(m) for m in whole["matches"]}
    assert {m["id"] for m in view["matches"]} <= {m["id"] for m in mine["matches"]}
    for m in mine["matches"]:
        if m["id"] in now:  # a match a re-plan or a late entry took away is never shown again
            assert m == now[m["id"]], m["id"]

    cut = held["trimmed"]  # no board's matches, but what it holds is as it is now
    assert cut["tiles"] == view["tiles"] and cut["calls"] == view["calls"]
    assert [{k: v for k, v in d.items() if k not in strip} for d in cut["divisions"]] == [
        {k: v for k, v in d.items() if k != "pools"} for d in view["divisions"]
    ]
    assert next(d for d in cut["divisions"] if d["id"] == "GS")["pools"] == pools
    assert {m["id"] for m in fresh_cut["matches"]} <= {m["id"] for m in cut["matches"]}
    for m in cut["matches"]:
        if m["id"] in now:
            assert m == now[m["id"]], m["id"]


def test_a_check_in_sends_the_console_the_entry_not_the_whole_event(client: TestClient) -> None:
    tid, token = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json({"type": "hello", "token": token})
        snapshot = ws.receive_text()
        client.post(f"/api/tournaments/{tid}/entries/GS-001/status",
                    json={"status": "checked_in"}, headers=headers(token))  # fmt: skip
        text = ws.receive_text()
    update = json.loads(text)
    assert update["type"] == "update" and update["seq"] == json.loads(snapshot)["seq"] + 1
    assert [(e["id"], e["status"]) for e in update["entries"]] == [("GS-001", "checked_in")]
    assert update["audit"]["action"] == "status" and update["audit"]["who"] == "運営 太郎"
    assert update["audit"]["detail"] == {"before": "entered", "after": "checked_in"}
    assert len(text) * 5 < len(snapshot)


def test_an_entry_correction_sends_the_console_the_parts_it_changed(client: TestClient) -> None:
    tid, token = ready_event(client)
    h = headers(token)
    got = client.get(f"/api/tournaments/{tid}/entries/GS-001", headers=h).json()["entry"]
    member = {**got["members"][0], "name": "訂正 花子"}
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json({"type": "hello", "token": token})
        snapshot = json.loads(ws.receive_text())
        r = client.put(f"/api/tournaments/{tid}/entries/GS-001", headers=h,
                       json={"division": "GS", "members": [member]})  # fmt: skip
        assert r.status_code == 200, r.text
        update = ws.receive_json()
    assert update["type"] == "update" and "header" not in update
    assert [e["name"] for e in update["entries"]] == ["訂正 花子"]
    before = {m["id"]: m for m in snapshot["event"]["matches"]}
    hers = {m for m, view in before.items() if "GS-001" in _ids(view)}
    assert hers <= {m["id"] for m in update["matches"]}  # her matches show her new name
    assert all(m != before[m["id"]] for m in update["matches"])  # and only what changed
    assert [d["id"] for d in update["divisions"]] == ["GS"]  # her pool's table too
    assert update["audit"]["action"] == "entry_edit"


def _ids(match: dict[str, Any]) -> set[str]:
    return {s["id"] for s in match["sides"] if s}
