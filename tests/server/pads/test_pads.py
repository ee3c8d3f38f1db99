"""The scoring pads on the server: boards with a token and QR code, one device per board, ops
applied in order exactly once, live spectators, restart, board calls, PDF and CSV sheets."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.padkit import Pad, auth, create_board

from hikone_carrom.records import replay
from hikone_carrom.scoring import RefereedMatch
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings


def test_a_board_has_a_token_link_and_qr_code(client: TestClient) -> None:
    b = create_board(client)
    assert b["pad_url"].endswith(f"/pad/{b['id']}#t={b['token']}")
    assert b["watch_url"].endswith(f"/boards/{b['id']}")
    assert b["qr_svg"].startswith("<svg") and "path" in b["qr_svg"]
    r = client.get(f"/api/boards/{b['id']}/qr.svg", headers=auth(b["token"]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert client.get(f"/api/boards/{b['id']}/qr.svg").status_code == 403
    assert client.get(f"/pad/{b['id']}").status_code == 200
    assert client.get("/pad/sw.js").headers["content-type"].startswith("text/javascript")


def test_wrong_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    b = create_board(client)
    r = client.post(
        f"/api/boards/{b['id']}/claim", json={"device": "device-aaaa"}, headers=auth("nope")
    )
    assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_token"
    assert r.json()["detail"]["ja"]
    assert client.get(f"/api/boards/{b['id']}").json()["board"]["device_bound"] is False


def test_a_second_device_is_refused_until_the_referee_takes_the_board_over(
    client: TestClient,
) -> None:
    b = create_board(client)
    first, second = Pad(client, b, "device-first"), Pad(client, b, "device-second")
    url = f"/api/boards/{b['id']}"
    assert (
        client.post(f"{url}/claim", json={"device": first.device}, headers=auth(b["token"])).json()[
            "ack"
        ]
        == 0
    )
    first.setup(["田中", "佐藤"])
    r = client.post(f"{url}/claim", json={"device": second.device}, headers=auth(b["token"]))
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail["code"] == "other_device" and "another device" in detail["en"]
    assert "別の端末" in detail["ja"]
    second.match = 1
    queued = second.shot(red=1)
    refused = second.send(queued, status=409)
    assert refused["detail"]["code"] == "other_device"
    assert client.get(url).json()["board"]["match"]["steps"] == []
    took = client.post(f"{url}/takeover", json={"device": second.device}, headers=auth(b["token"]))
    assert took.status_code == 200 and took.json()["ack"] == 0
    assert second.send(queued)["ack"] == 1  # the queued entry, numbered from the new start
    assert first.send(first.shot(), status=409)["detail"]["code"] == "other_device"


def test_ops_are_applied_in_order_exactly_once(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-order")
    setup = pad.op("setup", setup={"names": ["田中", "佐藤"], "match_time_s": None})
    a, c, d = pad.shot(red=2), pad.shot(striker_pocketed=True), pad.shot(green=1)
    got = pad.send(setup, a, d)  # d arrives before c: it waits
    assert got["ack"] == 2 and got["rejected"] is None
    got = pad.send(setup, a, c, d)  # a retry of everything: only c and d are new
    assert got["ack"] == 4
    steps = got["board"]["match"]["steps"]
    assert [s["ruling"]["reasons"] for s in steps] == [
        ["R3a"],
        ["R3d", "R5a", "R5h", "R6e"],
        ["R3a"],
    ]
    assert got["board"]["match"]["state"]["pocketed"] == {"red": 1, "green": 1}
    assert pad.send(setup, a, c, d)["seq"] == got["seq"]  # nothing new: no new event


def test_an_impossible_entry_is_rejected_with_its_reason_and_changes_nothing(
    client: TestClient,
) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-bad")
    pad.setup(["田中", "佐藤"])
    before = pad.send(pad.shot(red=10))
    got = pad.send(pad.shot(red=3))
    rejected = got["rejected"]
    assert rejected["seq"] == 3 and rejected["code"] == "bad_entry"
    assert "only 2" in rejected["en"] and "2個" in rejected["ja"]
    assert got["ack"] == 2 and got["board"] == before["board"] and got["seq"] == before["seq"]
    pad.seq = 2
    got = pad.send(pad.shot(unshootable_hit=True))
    assert "R4e" in got["rejected"]["en"]  # a doubles-only foul in singles


def test_undo_correct_and_confirm_through_ops(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-undo")
    pad.setup(["田中", "佐藤"])
    pad.send(pad.shot(red=12), pad.shot(striker_off=True))
    got = pad.send(pad.op("undo", count=1))
    assert len(got["board"]["match"]["steps"]) == 1
    got = pad.send(pad.op("correct", n=1, entry={"kind": "shot", "tap": {"red": 11}}))
    assert got["board"]["match"]["state"]["pocketed"]["red"] == 11
    got = pad.send(pad.shot(red=1), pad.shot(jack=True), pad.op("confirm"))
    match = got["board"]["match"]
    assert match["confirmed"] and match["state"]["outcome"]["reason"] == "R7a"
    assert pad.send(pad.shot())["rejected"]["code"] == "bad_entry"  # after the end


def test_spectators_see_every_numbered_event_live(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-live")
    with client.websocket_connect(f"/ws/boards/{b['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_seq": 0}))
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["board"]["match"] is None
        pad.setup(["田中", "山本", "佐藤", "鈴木"], minutes=5)
        events = [ws.receive_json() for _ in range(2)]  # device bound, match set up
        assert [e["event"]["kind"] for e in events] == ["device", "match"]
        pad.send(pad.shot(red=1, unshootable_hit=True))
        ev = ws.receive_json()
        assert ev["seq"] == events[-1]["seq"] + 1 and ev["event"]["kind"] == "entry"
        (step,) = ev["event"]["steps"]
        assert step["ruling"]["restored"] and any("R4c" in t for t in step["explain"]["ja"])
        ws.send_text(json.dumps({"type": "shot"}))
        assert ws.receive_json()["code"] == "bad_message"


def test_a_restarted_server_rebuilds_the_board(any_db_url: str) -> None:
    settings = ServerSettings(db_url=any_db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as client:
        b = create_board(client)
        pad = Pad(client, b, "device-restart")
        pad.setup(["田中", "佐藤"], minutes=5, deadlock="lot")
        before = pad.send(pad.shot(red=2), pad.shot(green=1, striker_off=True))
    with TestClient(create_app(settings)) as client:
        pad.client = client
        assert client.get(f"/api/boards/{b['id']}").json()["board"] == before["board"]
        again = pad.send(pad.shot(red=1), pad.shot(red=1))  # a retry after the restart
        assert again["ack"] == 5 and len(again["board"]["match"]["steps"]) == 4
        r = client.post(
            f"/api/boards/{b['id']}/claim",
            json={"device": "device-other"},
            headers=auth(b["token"]),
        )
        assert r.status_code == 409


def test_the_server_opens_a_called_match_on_a_board(client: TestClient) -> None:
    b = create_board(client, "第17台")
    url = f"/api/boards/{b['id']}/matches"
    setup = {"names": ["田中", "佐藤"], "match_time_s": 300, "title": "予選A"}
    r = client.post(url, json={"setup": setup}, headers=auth(b["token"]))
    assert r.status_code == 201 and r.json()["number"] == 1
    assert r.json()["board"]["match"]["setup"]["title"] == "予選A"
    pad = Pad(client, b, "device-called")
    pad.match = 1
    pad.send(pad.shot(red=1))
    r = client.post(url, json={"setup": setup}, headers=auth(b["token"]))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "match_in_progress"
    bad = client.post(url, json={"setup": {"names": ["a"]}}, headers=auth(b["token"]))
    assert bad.status_code == 422 and bad.json()["detail"]["ja"]


def test_finished_match_record_csv_and_printable_pdf(client: TestClient, tmp_path: Path) -> None:
    b = create_board(client, "第3台")
    pad = Pad(client, b, "device-sheet")
    pad.setup(["田中 一郎", "佐藤 花子"], title="決勝")
    url = f"/api/boards/{b['id']}/matches/1"
    pad.send(pad.shot(red=3), pad.shot(striker_pocketed=True))
    assert client.get(f"{url}/sheet.pdf").status_code == 409  # not over yet
    pad.send(pad.shot(green=12), pad.shot(jack=True), pad.op("confirm"))
    record = client.get(f"{url}/record").json()
    game = replay(record)
    assert isinstance(game, RefereedMatch) and game.outcome is not None
    assert [a["kind"] for a in record["actions"]] == ["refereed"] * 4
    csv = client.get(f"{url}/sheet.csv?lang=ja")
    assert csv.headers["content-type"].startswith("text/csv")
    lines = csv.text.lstrip("\ufeff").splitlines()
    assert lines[0].startswith("番号,時間,席,選手") and len(lines) == 5 and "R5a" in lines[2]
    pdf = client.get(f"{url}/sheet.pdf?lang=ja")
    assert pdf.headers["content-type"] == "application/pdf"
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf.content)
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(path), str(tmp_path / "page")], check=True)
    assert (tmp_path / "page-1.png").stat().st_size > 5000
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "田中 一郎" in text and "佐藤 花子" in text and "R5a" in text and "記録用紙" in text
    english = client.get(f"{url}/sheet.pdf?lang=en").content
    (tmp_path / "en.pdf").write_bytes(english)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "en.pdf"), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "score sheet" in text and "R7a" in text


@pytest.mark.parametrize("body", [{"device": "x"}, {"device": "device-ok", "extra": 1}])
def test_malformed_requests_are_refused(client: TestClient, body: dict[str, object]) -> None:
    b = create_board(client)
    r = client.post(f"/api/boards/{b['id']}/claim", json=body, headers=auth(b["token"]))
    assert r.status_code == 422
