"""Chat, presence, names, the invitation QR code, "my games", refused requests in words, and
that all of it survives a restart."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, event, hello, receive, send, straight_shot

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.invite import invite_svg, room_url
from hikone_carrom.server.rooms.chat import MAX_TEXT, PRESETS


def _refused(ws: Any, code: str, **msg: Any) -> None:
    send(ws, **msg)
    err = receive(ws)
    assert err["type"] == "error" and err["code"] == code, err
    assert err["message"]["en"] and err["message"]["ja"]


def _take(client: TestClient, rid: str, seat: int, name: str) -> str:
    token: str = client.post(f"/api/rooms/{rid}/seats/{seat}", json={"name": name}).json()["token"]
    return token


def test_chat_presets_and_text_escaping_and_limits(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    rid = made["room_id"]
    other = _take(client, rid, 1, "Ben")
    with ExitStack() as stack:
        a, b, watcher = (
            stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}")) for _ in range(3)
        )
        snap = hello(a, made["token"])
        assert {p["id"] for p in snap["chat"]["presets"]} == set(PRESETS)
        nice = next(p for p in snap["chat"]["presets"] if p["id"] == "nice")
        assert nice == {"id": "nice", "en": "Nice shot", "ja": "ナイスショット"}
        hello(b, other)
        hello(watcher, None)
        before = client.get(f"/api/rooms/{rid}").json()
        _refused(watcher, "spectator_text", type="chat", text="hi")
        _refused(a, "chat_too_long", type="chat", text="x" * (MAX_TEXT + 1))
        _refused(a, "chat_control", type="chat", text="bell\x07")
        _refused(a, "chat_control", type="chat", text="\u202eevil")
        _refused(a, "chat_empty", type="chat", text="   ")
        _refused(a, "chat_preset", type="chat", preset="insult")
        _refused(a, "bad_message", type="chat", preset="nice", text="both")
        _refused(a, "bad_message", type="chat")
        a.send_text(json.dumps({"type": "chat", "text": "y" * 1001}))
        assert receive(a)["code"] == "bad_message"
        after = client.get(f"/api/rooms/{rid}").json()
        assert after["seq"] == before["seq"] and after["chat"]["recent"] == []
        # a set phrase from a spectator, free text (kept as it is) from a player
        send(watcher, type="chat", preset="nice")
        for ws in (a, b, watcher):
            line = event(ws)["event"]
            assert line["kind"] == "chat" and "state" not in line
            assert line["phrase"] == {"en": "Nice shot", "ja": "ナイスショット"}
            assert line["seat"] is None and line["name"] is None
        script = "<script>alert('x')</script> よろしく"
        send(b, type="chat", text=f"  {script}  ")
        for ws in (a, b, watcher):
            line = event(ws)["event"]
            assert line["text"] == script and line["seat"] == 1
            assert line["name"] == {"en": "Ben", "ja": "Ben"}
    # a client that comes back sees the recent chat
    with client.websocket_connect(f"/ws/rooms/{rid}") as again:
        recent = hello(again, None)["chat"]["recent"]
        assert [line["text"] for line in recent] == [None, script]


def test_chat_is_rate_limited_per_connection(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        hello(ws, made["token"])
        codes = []
        for _ in range(6):
            send(ws, type="chat", preset="hello")
            msg = receive(ws)
            codes.append(msg["event"]["kind"] if msg["type"] == "event" else msg["code"])
        assert codes[:4] == ["chat"] * 4 and codes[4:] == ["chat_rate"] * 2


def test_a_chat_line_resent_with_its_id_is_said_once(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        hello(ws, made["token"])
        send(ws, type="chat", preset="hello", id="c-1")
        said = event(ws)
        assert said["event"]["action_id"] == "c-1"
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:  # the browser came back
        hello(ws, made["token"])
        send(ws, type="chat", preset="hello", id="c-1")
        assert receive(ws) == {"type": "duplicate", "id": "c-1", "seq": said["seq"]}
        assert len(hello(ws, made["token"])["chat"]["recent"]) == 1


def test_chat_is_for_online_rooms(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        hello(ws, made["token"])
        _refused(ws, "no_chat", type="chat", preset="hello")


def test_presence_of_every_seat_is_live(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as a:
        snap = hello(a, made["token"])
        assert [p["online"] for p in snap["presence"]] == [True, False]
        assert snap["presence"][0]["since"] is not None and snap["presence"][1]["since"] is None
        other = _take(client, rid, 1, "Ben")
        assert event(a)["event"]["kind"] == "seat"
        with client.websocket_connect(f"/ws/rooms/{rid}") as b:
            hello(b, other)
            came = a.receive_json()
            assert came["type"] == "presence" and [p["online"] for p in came["seats"]] == [
                True,
                True,
            ]
            with client.websocket_connect(f"/ws/rooms/{rid}") as watcher:
                hello(watcher, None)  # spectators change nobody's presence
                with client.websocket_connect(f"/ws/rooms/{rid}") as b2:
                    hello(b2, other)  # a second tab of seat 1 changes nothing either
                send(watcher, type="chat", preset="hello")
                assert event(a)["event"]["kind"] == "chat"  # the next message: no presence
        left = a.receive_json()
        assert left["type"] == "presence" and [p["online"] for p in left["seats"]] == [True, False]
        assert left["seats"][1]["since"] > came["seats"][1]["since"]


def test_hotseat_names_are_shown_used_in_rulings_and_recorded(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2, names=["花子", "  "], minutes=1)
    rid = made["room_id"]
    snap = client.get(f"/api/rooms/{rid}").json()
    assert [s["name"] for s in snap["room"]["seats"]] == ["花子", ""]
    assert snap["room"]["seats"][1]["label"] == {"en": "Green (north)", "ja": "緑（北）"}
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        state = hello(ws, made["token"])["state"]
        send(ws, **straight_shot(state))
        shot = event(ws)["event"]
        text = " ".join(shot["explain"]["en"] + shot["explain"]["ja"])
        assert "seat" not in text.lower() and "席" not in text
        if shot["state"]["shooter"] == 1:
            assert "Green (north)" in text and "緑（北）" in text
        else:
            assert "花子" in text
        send(ws, type="resign", seat=0)
        event(ws)
    record = client.get(f"/api/games/{rid}-1/record").json()
    assert [(s["name"], s["color"]) for s in record["seats"]] == [
        ("花子", "red"),
        ("Green (north)", "green"),
    ]


@pytest.mark.parametrize(
    ("body", "field", "en", "ja"),
    [
        (
            {"mode": "online", "minutes": 0},
            "minutes",
            "Minutes must be a number more than 0.",
            "試合時間（分）は0より大きい数にしてください。",
        ),
        (
            {"mode": "online", "minutes": 500},
            "minutes",
            "Minutes must be a number at most 120.",
            "試合時間（分）は120以下の数にしてください。",
        ),
        (
            {"mode": "online", "minutes": "five"},
            "minutes",
            "Minutes must be a number.",
            "試合時間（分）は数で入力してください。",
        ),
        (
            {"mode": "online", "name": "<b>"},
            "name",
            "Your name cannot contain <, > or control characters.",
            "名前に < や > 、制御文字は使えません。",
        ),
        (
            {"mode": "online", "name": "x" * 30},
            "name",
            "Your name may be at most 24 characters long.",
            "名前は24文字までです。",
        ),
        (
            {"mode": "online", "players": 3},
            "players",
            "Players must be 2 or 4.",
            "人数は2か4にしてください。",
        ),
        ({"players": 2}, "mode", "Mode is required.", "モードを入力してください。"),
        (
            {"mode": "online", "colour": "red"},
            "colour",
            "colour is not a field of this request.",
            "colourという項目はこのリクエストにはありません。",
        ),
        (
            {"mode": "hotseat", "names": ["a", "<"]},
            "names.1",
            "The name of player 2 cannot contain <, > or control characters.",
            "プレイヤー2の名前に < や > 、制御文字は使えません。",
        ),
    ],
)
def test_refused_requests_say_why_field_by_field(
    client: TestClient, body: dict[str, Any], field: str, en: str, ja: str
) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["code"] == "bad_request" and detail["rule"] is None
    said = [{k: f[k] for k in ("field", "en", "ja")} for f in detail["fields"]]
    assert {"field": field, "en": en, "ja": ja} in said
    assert en in detail["en"] and ja in detail["ja"]
    assert client.get("/api/games").json()["total"] == 0


def test_several_bad_fields_and_bad_json_are_each_named(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"mode": "solo", "minutes": -2, "name": "<>"})
    fields = [f["field"] for f in r.json()["detail"]["fields"]]
    assert fields == ["mode", "minutes", "name"]
    bad = client.post(
        "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 422
    assert bad.json()["detail"]["fields"][0]["en"] == "The request is not valid JSON."
    q = client.get("/api/games?limit=0").json()["detail"]
    assert [{k: f[k] for k in ("field", "en", "ja")} for f in q["fields"]] == [
        {
            "field": "limit",
            "en": "Number of games must be a number at least 1.",
            "ja": "試合の数は1以上の数にしてください。",
        }
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"mode": "online", "names": ["a", "b"]}, "names_hotseat"),
        ({"mode": "hotseat", "players": 4, "names": ["a", "b"]}, "names_count"),
    ],
)
def test_names_belong_to_hotseat_rooms_one_per_player(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422 and r.json()["detail"]["code"] == code
    assert r.json()["detail"]["ja"]


def test_the_invitation_qr_code_is_the_rooms_link(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    rid = made["room_id"]
    r = client.get(f"/api/rooms/{rid}/invite.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(r.text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
    assert r.text == invite_svg(room_url("http://testserver/", rid))
    assert room_url("http://testserver/", rid) == f"http://testserver/room/{rid}"
    assert client.get("/api/rooms/nothere/invite.svg").status_code == 404


def test_my_rooms_lists_seats_held_and_names_stale_ones(client: TestClient) -> None:
    online = create_room(client, mode="online", players=2, name="Aki")
    hot = create_room(client, mode="hotseat", players=2)
    asked = {
        "rooms": [
            {"room_id": online["room_id"], "token": online["token"]},
            {"room_id": hot["room_id"], "token": hot["token"]},
            {"room_id": hot["room_id"], "token": "not-the-token"},
            {"room_id": "gone", "token": "x"},
        ]
    }
    mine = client.post("/api/my-rooms", json=asked).json()
    assert sorted(mine["stale"]) == sorted([hot["room_id"], "gone"])
    rooms = {r["room_id"]: r for r in mine["rooms"]}
    assert rooms[online["room_id"]]["waiting"] and not rooms[online["room_id"]]["your_turn"]
    assert rooms[hot["room_id"]]["seats"] == [0, 1] and rooms[hot["room_id"]]["your_turn"]
    assert rooms[online["room_id"]]["names"] == ["Aki", ""]
    with client.websocket_connect(f"/ws/rooms/{hot['room_id']}") as ws:
        hello(ws, hot["token"])
        send(ws, type="resign", seat=1)
        event(ws)
    after = client.post("/api/my-rooms", json=asked).json()
    done = next(r for r in after["rooms"] if r["room_id"] == hot["room_id"])
    assert done["over"] and not done["your_turn"]
    too_many = {"rooms": [{"room_id": "a", "token": "t"}] * 51}
    assert client.post("/api/my-rooms", json=too_many).status_code == 422


def test_chat_votes_and_hints_survive_a_restart(db_url: str) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as first:
        made = create_room(first, mode="online", players=2, name="Aki", hints=True)
        rid = made["room_id"]
        other = _take(first, rid, 1, "Ben")
        with first.websocket_connect(f"/ws/rooms/{rid}") as a:
            hello(a, made["token"])
            send(a, type="chat", text="お願いします")
            event(a)
            send(a, type="hint")
            assert event(a)["event"]["kind"] == "hint"
            assert receive(a)["type"] == "hint"
            send(a, type="draw", seat=0, answer="yes")
            event(a)
    with TestClient(create_app(settings)) as second:
        snap = second.get(f"/api/rooms/{rid}").json()
        assert [line["text"] for line in snap["chat"]["recent"]] == ["お願いします"]
        assert snap["state"]["votes"]["open"][0]["topic"] == "draw"
        assert [e["kind"] for e in snap["log"]] == ["hint", "vote"]
        with second.websocket_connect(f"/ws/rooms/{rid}") as b:
            hello(b, other)
            send(b, type="draw", seat=1, answer="yes")
            assert event(b)["event"]["kind"] == "draw"
        record = second.get(f"/api/games/{rid}-1/record").json()
        assert [h["seat"] for h in record["hints"]] == [0]
        assert record["actions"][-1]["kind"] == "draw"
