"""A championship with scoring pads: a board call opens the match on that board's pad; the
result the pad's referee confirms lands in the standings through the same path as the
director's form; a pad result the event refuses stays on the pad and is noted for the director."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.padkit import Pad
from tests.server.tournamentkit import changed, event, headers, play_pools, ready_event

from hikone_carrom.server.pads import boards


def _pads(client: TestClient, tid: str, boards: list[int]) -> list[dict[str, Any]]:
    r = client.post(
        f"/api/tournaments/{tid}/pads", json={"boards": boards}, headers=organiser(client)
    )
    assert r.status_code == 200, r.text
    pads: list[dict[str, Any]] = r.json()["pads"]
    return pads


def _device(client: TestClient, link: dict[str, Any]) -> Pad:
    token = link["pad_url"].split("#t=")[1]
    pad = Pad(client, {"id": link["pad_board"], "token": token}, "device-0001")
    r = client.post(f"/api/boards/{link['pad_board']}/claim", json={"device": pad.device},
                    headers={"authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status_code == 200, r.text
    pad.match = r.json()["board"]["match"]["number"]
    return pad


def test_pads_are_made_once_per_board_with_their_links(client: TestClient) -> None:
    tid, _ = ready_event(client)
    first = _pads(client, tid, [1, 2])
    assert [p["board"] for p in first] == [1, 2]
    assert all("#t=" in p["pad_url"] and p["qr_svg"].startswith("<svg") for p in first)
    again = _pads(client, tid, [2, 3])
    assert [p["pad_board"] for p in again[:2]] == [p["pad_board"] for p in first]
    assert client.get(f"/api/tournaments/{tid}/pads").status_code == 401


def test_a_call_opens_the_match_on_the_pad_and_its_result_comes_back(client: TestClient) -> None:
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    assert call["pad"] == {"board": link["pad_board"], "match": 1}
    board = client.get(f"/api/boards/{link['pad_board']}").json()["board"]
    match = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    names = [s["name"] for s in match["sides"]]
    assert board["match"]["setup"]["names"] == names  # side 1 red and first until janken (R1b)
    assert board["match"]["setup"]["match_time_s"] == 300
    assert (match["pad"]["board"], match["pad"]["match"]) == (link["pad_board"], 1)

    pad = _device(client, link)
    pad.send(
        pad.shot(),  # red misses
        pad.shot(green=4),  # green pockets 4 and goes on (R3a)
        pad.shot(),  # green misses
        pad.shot(red=12),  # red pockets all twelve
        pad.shot(jack=True),  # and the jack: R7a
    )
    pad.send(pad.op("confirm"))
    done = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert done["status"] == "finished" and done["source"] == "pad"
    assert done["result"] == {"scores": [112, 4], "pucks": [12, 4], "winner": 0, "forfeit": None}
    record = client.get(done["pad"]["record"])  # the pad's match record, from the event's link
    assert record.status_code == 200 and record.json()["players"]
    csv_rows = client.get(f"/api/tournaments/{tid}/results.csv").text.splitlines()
    assert any(done["pad"]["record"] in row and ",pad," in row for row in csv_rows)
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    assert (audit[0]["who"], audit[0]["action"]) == ("pad:テスト大会 第1台", "result")
    assert audit[0]["detail"]["source"] == "pad"


def test_the_red_side_follows_the_pads_set_up(client: TestClient) -> None:
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    pad = _device(client, link)
    side0, side1 = call["sides"]
    # the referee records that side 2 won rock-paper-scissors: it plays red (R1b)
    pad.send({"seq": 1, "op": "setup", "match": 1, "setup": {"names": [side1, side0],
              "match_time_s": 300}})  # fmt: skip
    pad.seq = 1
    pad.send(pad.shot(red=12), pad.shot(jack=True))
    pad.send(pad.op("confirm"))
    done = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert done["result"]["scores"] == [0, 112] and done["result"]["winner"] == 1


def test_a_pad_result_for_a_closed_pool_is_noted_not_taken(client: TestClient) -> None:
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    play_pools(client, tid, token)  # the director typed every result meanwhile
    client.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=headers(token))
    client.post(f"/api/tournaments/{tid}/pools/GS/2/close", headers=headers(token))
    before = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    pad = _device(client, link)
    pad.send(pad.shot(red=12), pad.shot(jack=True))
    ack = pad.send(pad.op("confirm"))
    assert ack["rejected"] is None  # the pad's own record stands
    after = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert after["result"] == before["result"]
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    assert audit[0]["action"] == "pad_refused"
    assert audit[0]["detail"]["reason"]["code"] == "pool_closed"


def test_a_pad_with_a_match_going_leaves_the_call_standing(client: TestClient) -> None:
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    pad = _device(client, link)
    pad.send(pad.shot(red=2))  # the match on the pad has entries and is not confirmed
    other = next(m for m in event(client, tid)["matches"]
                 if m["status"] == "planned" and call["sides"][0] not in
                 [s["name"] for s in m["sides"]] and call["sides"][1] not in
                 [s["name"] for s in m["sides"]])  # fmt: skip
    client.put(f"/api/tournaments/{tid}/matches/{call['match']}/result", json={"scores": [2, 0]},
               headers=headers(token))  # fmt: skip
    r = client.post(f"/api/tournaments/{tid}/matches/{other['id']}/call", json={"board": 1},
                    headers=headers(token))  # fmt: skip
    assert r.status_code == 200
    assert r.json()["pad"] is None and r.json()["pad_error"]["code"] == "match_in_progress"


def test_a_match_is_playing_from_the_moment_its_pad_starts_the_clock(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "server_ms", lambda: 1_800_000_000_000.0)  # the server's clock
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    pad = _device(client, link)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        snap = ws.receive_json()
        reading = {"limit": 300, "elapsed": 20.0, "started": True, "running": True,
                   "countdown": None}  # fmt: skip
        pad.send(pad.op("clock", clock=reading, wall_ms=1_800_000_000_000.0))
        update = ws.receive_json()
        assert update["type"] == "update"
        match = changed(update)[call["match"]]
        assert match["status"] == "playing"
        assert match["started_at"] == "2027-01-15T07:59:40+00:00"  # the reading less 20 s
        tiles = {t[0]: t for t in [*snap["event"]["tiles"], *update.get("tiles", [])]}
        assert [1, call["match"]] == tiles[1][:2]  # the page's board 1, sent when it changes
        pad.send(pad.shot(green=3))
        live = ws.receive_json()
        while live["type"] != "live":
            live = ws.receive_json()
        assert live["scores"][call["match"]] == [0, 3]
        assert live["clocks"][call["match"]] == {
            "elapsed": 20.0,
            "running": True,
            "at_ms": 1_800_000_000_000.0,
        }
    view = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert view["status"] == "playing"  # stored: a restart keeps it
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    assert (audit[0]["action"], audit[0]["who"]) == ("begin", "pad:テスト大会 第1台")


def test_a_match_is_playing_from_its_first_entry_on_the_pad(client: TestClient) -> None:
    tid, token = ready_event(client)
    link = _pads(client, tid, [1])[0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    pad = _device(client, link)
    before = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert before["status"] == "called"
    pad.send(pad.shot(red=1))
    for _ in range(50):
        now = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
        if now["status"] == "playing":
            break
        client.get("/api/health")
    assert now["status"] == "playing" and now["started_at"]
