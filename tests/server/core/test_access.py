"""The access table (core/access.py) covers every route and socket message, and a stranger (no
token, a wrong token) is refused by every route and message that needs a role."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount, Route
from starlette.websockets import WebSocketDisconnect
from tests.server.organiserkit import organiser
from tests.server.roomkit import create_room, hello, receive, send

from hikone_carrom.server.core.access import ROUTE_ACCESS, SOCKET_MESSAGES

WRONG = {"Authorization": "Bearer " + "x" * 43}

BODIES: dict[str, Any] = {
    "POST /api/boards": {"name": "第2台"},
    "POST /api/tournaments": {"name": "Hikone Open"},
    "POST /api/boards/{board_id}/claim": {"device": "device-0001"},
    "POST /api/boards/{board_id}/takeover": {"device": "device-0001"},
    "POST /api/boards/{board_id}/ops": {"device": "device-0001", "ops": []},
    "POST /api/boards/{board_id}/matches": {"setup": {}},
    "POST /api/tournaments/{tournament_id}/entries": {
        "division": "GS",
        "members": [{"name": "山田 花子", "reading": "やまだ はなこ"}],
    },
    "PUT /api/tournaments/{tournament_id}/entries/{entry_id}": {
        "division": "GS",
        "members": [{"name": "山田 花子", "reading": "やまだ はなこ"}],
    },
    "PUT /api/tournaments/{tournament_id}/rules": {"tiebreaks": ["match_points"]},
    "POST /api/tournaments/{tournament_id}/entries/{entry_id}/status": {"status": "withdrawn"},
    "POST /api/tournaments/{tournament_id}/divisions/{division}/draw": {},
    "POST /api/tournaments/{tournament_id}/replan": {},
    "PUT /api/tournaments/{tournament_id}/schedule": {
        "start": "09:30",
        "changeover_min": 3,
        "ceremony": "09:00",
        "ceremony_min": 30,
        "lunch": "12:00",
        "lunch_min": 45,
    },
    "PUT /api/tournaments/{tournament_id}/divisions/{division}/knockout": {"size": "cut"},
    "PUT /api/tournaments/{tournament_id}/auto": {"on": True},
    "PUT /api/tournaments/{tournament_id}/auto/holds/{division}/{number}": {"held": True},
    "POST /api/tournaments/{tournament_id}/matches/{match_id}/call": {},
    "PUT /api/tournaments/{tournament_id}/matches/{match_id}/result": {"scores": [5, 0]},
    "POST /api/tournaments/{tournament_id}/pads": {},
    "POST /api/tournaments/{tournament_id}/play/{player}": {"key": "0" * 20},
}
"""A valid body for each refused route, so that the refusal is the role's, not the body's."""


def _routes(routes: list[Any]) -> list[Any]:
    """The routes with each included router's own (FastAPI keeps those apart; ours have no
    prefix)."""
    flat: list[Any] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        flat += _routes(inner.routes) if inner is not None else [route]
    return flat


def _route_keys(client: TestClient) -> set[str]:
    keys: set[str] = set()
    for route in _routes(client.app.routes):  # type: ignore[attr-defined]
        if isinstance(route, APIWebSocketRoute):
            keys.add(f"WS {route.path}")
        elif isinstance(route, Mount):
            keys.add(f"MOUNT {route.path}")
        elif isinstance(route, APIRoute | Route):
            keys |= {f"{m} {route.path}" for m in route.methods or () if m != "HEAD"}
    return keys


def test_every_route_declares_who_may_use_it(client: TestClient) -> None:
    routes = _route_keys(client)
    assert sorted(routes - ROUTE_ACCESS.keys()) == [], "routes without a declared access"
    assert sorted(ROUTE_ACCESS.keys() - routes) == [], "access declared for no route"


@pytest.fixture
def things(client: TestClient) -> dict[str, str]:
    """Real ids: a board, an event with one entry (director-made), an online event."""
    key = organiser(client)
    board = client.post("/api/boards", json={"name": "第1台"}, headers=key).json()
    event = client.post(
        "/api/tournaments", json={"name": "Hikone Open", "boards": 4}, headers=key
    ).json()
    auth = {"Authorization": f"Bearer {event['token']}"}
    body = BODIES["POST /api/tournaments/{tournament_id}/entries"]
    entry = client.post(f"/api/tournaments/{event['id']}/entries", json=body, headers=auth)
    assert entry.status_code == 201, entry.text
    online = client.post(
        "/api/tournaments", json={"name": "Online Cup", "online": True}, headers=key
    ).json()
    return {
        "board_id": board["id"],
        "tournament_id": event["id"],
        "online_id": online["id"],
        "entry_id": entry.json()["entry"]["id"],
    }


def _url(key: str, things: dict[str, str]) -> str:
    path = key.split(" ", 1)[1]
    values = {
        "board_id": things["board_id"],
        "tournament_id": things["online_id" if "/play/" in path else "tournament_id"],
        "entry_id": things["entry_id"],
        "division": "GS",
        "match_id": "GS-P1-1",
        "number": "1",
        "action": "close",
        "board": "1",
        "player": f"{things['entry_id']}.1",
        "seek_id": "A" * 12,
    }
    return path.format(**values)


def _documented(client: TestClient, key: str) -> set[int]:
    method, path = key.split(" ", 1)
    op = client.get("/openapi.json").json()["paths"][path][method.lower()]
    return {int(s) for s in op["responses"]}


RESTRICTED = sorted(
    k for k, role in ROUTE_ACCESS.items() if role != "stranger" and not k.startswith("WS ")
)


@pytest.mark.parametrize("key", RESTRICTED)
def test_a_stranger_is_refused(client: TestClient, things: dict[str, str], key: str) -> None:
    method, _ = key.split(" ", 1)
    url = _url(key, things)
    before = client.get(f"/api/tournaments/{things['tournament_id']}").json()["seq"]
    for headers in ({}, WRONG):
        r = client.request(method, url, json=BODIES.get(key), headers=headers)
        assert r.status_code in (401, 403, 404), (key, headers, r.status_code, r.text)
        assert r.status_code in _documented(client, key)
        assert r.json()["detail"]["code"] in (
            "not_director",
            "not_organiser",
            "bad_token",
            "bad_player_link",
            "no_player",
            "not_called",
            "not_signed_in",
        ), r.text
    assert client.get(f"/api/tournaments/{things['tournament_id']}").json()["seq"] == before


def test_every_socket_message_kind_is_in_the_table() -> None:
    assert set(SOCKET_MESSAGES) == {"room", "board", "tournament", "director"}
    assert {"shot", "hint", "rematch", "draw", "resign"} <= {
        t for t, role in SOCKET_MESSAGES["room"].items() if role == "player"
    }


PLAYER_MESSAGES: dict[str, dict[str, Any]] = {
    "shot": {"seat": 0, "x": 0.0, "y": -0.3, "angle": 1.57, "speed": 1.0},
    "hint": {"seat": 0},
    "rematch": {"answer": "yes"},
    "draw": {"seat": 0, "answer": "yes"},
    "resign": {"seat": 0},
    "chat": {"text": "hello"},  # free text: players only
}


@pytest.mark.parametrize("kind", sorted(PLAYER_MESSAGES))
def test_a_spectator_is_refused_every_players_message(client: TestClient, kind: str) -> None:
    assert kind == "chat" or SOCKET_MESSAGES["room"][kind] == "player"
    made = create_room(client, mode="online", hints=True)
    rid = made["room_id"]
    before = client.get(f"/api/rooms/{rid}").json()["seq"]
    for token in (None, "x" * 24):
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, token)
            send(ws, type=kind, **PLAYER_MESSAGES[kind])
            answer = receive(ws)
            assert answer["type"] == "error", answer
            assert answer["message"]["en"] and answer["message"]["ja"]
    assert client.get(f"/api/rooms/{rid}").json()["seq"] == before


def test_a_board_watcher_may_only_watch(client: TestClient) -> None:
    board = client.post("/api/boards", json={"name": "第1台"}, headers=organiser(client)).json()
    with client.websocket_connect(f"/ws/boards/{board['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        seq = ws.receive_json()["seq"]
        ws.send_text(json.dumps({"type": "add", "entry": {}, "token": board["token"]}))
        assert ws.receive_json()["code"] == "bad_message"
    assert client.get(f"/api/boards/{board['id']}").json()["seq"] == seq


@pytest.mark.parametrize("token", [None, "x" * 43])
def test_the_whole_event_needs_the_directors_token(client: TestClient, token: str | None) -> None:
    event = client.post(
        "/api/tournaments", json={"name": "Hikone Open"}, headers=organiser(client)
    ).json()
    with client.websocket_connect(f"/ws/tournaments/{event['id']}?full=1") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert ws.receive_json()["code"] == "not_director"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4003
