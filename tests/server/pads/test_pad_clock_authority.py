"""The server's clock is the authority for what it shows: a pad phone whose
clock is an hour behind shows the right time left on the board's watch view and the event's
pages; the pad's own times only tell how long an op waited on it (bounded); times out of range
or not finite are refused with 422 before anything is stored, and the watchers keep getting
the events that follow."""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.padkit import Pad, auth, create_board
from tests.server.tournamentkit import changed, event, headers, ready_event

from hikone_carrom.server.pads.boards import MAX_QUEUED_S, PadRegistry

HOUR_MS = 3_600_000.0
READING = {"limit": 300, "elapsed": 20.0, "started": True, "running": True, "countdown": None}


def _send(pad: Pad, ops: list[dict[str, Any]], sent_ms: float) -> dict[str, Any]:
    r = pad.client.post(
        f"/api/boards/{pad.board['id']}/ops",
        json={"device": pad.device, "ops": ops, "sent_ms": sent_ms},
        headers=auth(pad.board["token"]),
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _event_pad(client: TestClient) -> tuple[str, str, Pad]:
    """An event whose board 1 has a pad with the called match open on it."""
    tid, token = ready_event(client)
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=organiser(client))
    link = r.json()["pads"][0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    board = {"id": link["pad_board"], "token": link["pad_url"].split("#t=")[1]}
    pad = Pad(client, board, "device-0001")
    pad.match = 1
    return tid, call["match"], pad


def test_a_phone_an_hour_behind_shows_the_right_time_left(client: TestClient) -> None:
    tid, match_id, pad = _event_pad(client)
    phone_ms = time.time() * 1000 - HOUR_MS  # the phone's clock
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        ws.receive_json()  # the snapshot
        before_ms = time.time() * 1000
        answer = _send(pad, [pad.op("clock", clock=READING, wall_ms=phone_ms)], phone_ms)
        after_ms = time.time() * 1000
        reading = answer["board"]["match"]["clock"]
        assert before_ms <= reading["wall_ms"] <= after_ms  # the server's clock
        watched = client.get(f"/api/boards/{pad.board['id']}").json()["board"]["match"]["clock"]
        assert watched == reading
        update = ws.receive_json()
        while update["type"] != "update":
            update = ws.receive_json()
        shown = changed(update)[match_id]
        started = datetime.fromisoformat(shown["started_at"]).timestamp() * 1000
        assert before_ms - 20_000 - 1 <= started <= after_ms - 20_000 + 1  # 20 s ago, not 1 h
        pad.send(pad.shot(green=3))
        live = ws.receive_json()
        while live["type"] != "live":
            live = ws.receive_json()
        clock = live["clocks"][match_id]
        assert before_ms <= clock["at_ms"] <= after_ms
    view = next(m for m in event(client, tid)["matches"] if m["id"] == match_id)
    left_s = view["match_time_s"] - (time.time() * 1000 - started) / 1000
    assert 270 < left_s <= 280  # 300 s less the 20 s used (and this test's own time)


def test_an_op_queued_offline_keeps_its_age_bounded(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-queue")
    pad.setup(["田中", "佐藤"], minutes=5)
    phone_ms = time.time() * 1000 - HOUR_MS
    cases = [
        (phone_ms - 120_000, 120.0),  # taken two minutes before it could be sent
        (phone_ms - 86_400_000, MAX_QUEUED_S),  # a day ago: counted as the longest wait
        (phone_ms + 60_000, 0.0),  # "after" it was sent: the phone's clock moved
    ]
    for wall_ms, age_s in cases:
        before_ms = time.time() * 1000
        answer = _send(pad, [pad.op("clock", clock=READING, wall_ms=wall_ms)], phone_ms)
        after_ms = time.time() * 1000
        taken = answer["board"]["match"]["clock"]["wall_ms"]
        assert before_ms - age_s * 1000 <= taken <= after_ms - age_s * 1000, (wall_ms, age_s)


BAD_BODIES = [
    ("op wall_ms 1e17", {"wall_ms": 1e17}, None),
    ("op wall_ms -1e300", {"wall_ms": -1e300}, None),
    ("op wall_ms 1e300", {"wall_ms": 1e300}, None),
    ("clock wall_ms 1e17", {"clock": {**READING, "wall_ms": 1e17}}, None),
    ("elapsed 1e300", {"clock": {**READING, "elapsed": 1e300}}, None),
    ("countdown -1", {"clock": {**READING, "countdown": -1}}, None),
    ("limit true", {"clock": {**READING, "limit": True}}, None),
    ("unknown key", {"clock": {**READING, "at": 1}}, None),
    ("sent_ms 1e300", {}, 1e300),
    ("sent_ms -1", {}, -1.0),
]


@pytest.mark.parametrize(("name", "fields", "sent_ms"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES])
def test_times_out_of_range_are_refused_before_anything_is_stored(
    client: TestClient, name: str, fields: dict[str, Any], sent_ms: float | None
) -> None:
    tid, match_id, pad = _event_pad(client)
    pads: PadRegistry = client.app.state.pads  # type: ignore[attr-defined]
    board_url = f"/api/boards/{pad.board['id']}"
    with client.websocket_connect(f"/ws/boards/{pad.board['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_seq": 0}))
        snap = ws.receive_json()
        kinds = pads.pads.event_kinds(pad.board["id"])
        bad = {**pad.op("clock", clock=READING, wall_ms=time.time() * 1000), **fields}
        body: dict[str, Any] = {"device": pad.device, "ops": [bad]}
        if sent_ms is not None:
            body["sent_ms"] = sent_ms
        r = pad.client.post(f"{board_url}/ops", json=body, headers=auth(pad.board["token"]))
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert detail["code"] == "bad_request" and detail["en"] and detail["ja"]
        assert pads.pads.event_kinds(pad.board["id"]) == kinds  # nothing stored
        assert client.get(board_url).json()["seq"] == snap["seq"]
        pad.seq -= 1  # the refused op was not applied: its number is used again
        pad.send(pad.op("clock", clock=READING, wall_ms=time.time() * 1000))
        seq, kind = snap["seq"], ""
        while kind != "clock":  # the device's binding, then the reading: none missed
            ev = ws.receive_json()
            assert ev["type"] == "event" and ev["seq"] == seq + 1, ev
            seq, kind = ev["seq"], ev["event"]["kind"]
    shown = next(m for m in event(client, tid)["matches"] if m["id"] == match_id)
    assert shown["status"] == "playing"


def test_non_finite_times_are_refused(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-nan")
    pad.setup(["田中", "佐藤"], minutes=5)
    for literal in ("NaN", "Infinity", "-Infinity"):
        for where in (
            '"wall_ms": {}',
            '"clock": {{"elapsed": {}, "started": true, "running": true}}',
        ):
            op = '{"seq": 2, "op": "clock", "match": 1, ' + where.format(literal) + "}"
            text = '{"device": "device-nan", "ops": [' + op + "]}"
            sent = {**auth(b["token"]), "content-type": "application/json"}
            r = client.post(f"/api/boards/{b['id']}/ops", content=text.encode(), headers=sent)
            assert r.status_code == 422, (literal, where, r.text)
    assert client.get(f"/api/boards/{b['id']}").json()["board"]["match"]["clock"] is None
