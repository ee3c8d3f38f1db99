"""Resigning, draw offers and rematches over the WebSocket: who may ask, who must agree, what is
shown to everyone, what the record keeps, and that bad messages change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, event, hello, receive, send, straight_shot

from hikone_carrom.records import replay


def _online(client: TestClient, players: int = 2) -> tuple[str, list[str]]:
    """An online room with every seat taken: its id and each seat's token."""
    made = create_room(client, mode="online", players=players, name="A")
    rid = made["room_id"]
    tokens = [made["token"]]
    for seat in range(1, players):
        name = "BCD"[seat - 1]
        tokens.append(
            client.post(f"/api/rooms/{rid}/seats/{seat}", json={"name": name}).json()["token"]
        )
    return rid, tokens


@pytest.fixture
def duel(client: TestClient) -> Iterator[tuple[str, Any, Any, Any]]:
    """A full online singles room: (room id, seat 0's socket, seat 1's, a spectator's)."""
    rid, tokens = _online(client)
    with ExitStack() as stack:
        a, b, watcher = (
            stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}")) for _ in range(3)
        )
        hello(a, tokens[0])
        hello(b, tokens[1])
        hello(watcher, None)
        yield rid, a, b, watcher


def _refused(ws: Any, code: str, **msg: Any) -> dict[str, Any]:
    send(ws, **msg)
    err = receive(ws)
    assert err["type"] == "error" and err["code"] == code, err
    assert err["message"]["en"] and err["message"]["ja"]
    return err


def _same_state(client: TestClient, rid: str, before: dict[str, Any]) -> None:
    now = client.get(f"/api/rooms/{rid}").json()
    assert now["seq"] == before["seq"] and now["state"] == before["state"]


def test_resign_ends_the_game_for_that_colour_and_is_recorded(
    client: TestClient, duel: tuple[str, Any, Any, Any]
) -> None:
    rid, a, b, watcher = duel
    before = client.get(f"/api/rooms/{rid}").json()
    _refused(watcher, "not_your_seat", type="resign", seat=0)
    _refused(b, "not_your_seat", type="resign", seat=0)
    for bad in (
        '{"type": "resign"}',
        '{"type": "resign", "seat": 9}',
        '{"type": "resign", "seat": 1, "x": 1}',
    ):
        b.send_text(bad)
        assert receive(b)["code"] == "bad_message", bad
    _same_state(client, rid, before)
    send(b, type="resign", seat=1)
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert ev["kind"] == "resign" and ev["seat"] == 1 and ev["color"] == "green"
        assert ev["state"]["over"] and ev["state"]["outcome"]["reason"] == "resign"
        assert ev["state"]["outcome"]["winner"] == "red"
        assert ev["explain"]["ja"] == "緑が投了し、赤の勝ちです"
    _refused(a, "game_over", type="resign", seat=0)
    record = client.get(f"/api/games/{rid}-1/record").json()
    assert record["actions"][-1] == {
        **record["actions"][-1],
        "kind": "resign",
        "seat": 1,
        "color": "green",
    }
    assert [s["color"] for s in record["seats"]] == ["red", "green"]
    assert replay(record).outcome.reason == "resign"  # type: ignore[union-attr]
    games = client.get("/api/games").json()["games"]
    assert games[0]["outcome"]["reason"] == "resign"


def test_resigning_waits_for_the_opponent(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="A")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        hello(ws, made["token"])
        _refused(ws, "waiting", type="resign", seat=0)
        _refused(ws, "waiting", type="draw", seat=0, answer="yes")


def test_a_draw_needs_the_other_side_and_an_offer_lapses_when_it_shoots(
    client: TestClient, duel: tuple[str, Any, Any, Any]
) -> None:
    rid, a, b, watcher = duel
    before = client.get(f"/api/rooms/{rid}").json()
    _refused(a, "no_offer", type="draw", seat=0, answer="no")
    _refused(watcher, "not_your_seat", type="draw", seat=1, answer="yes")
    a.send_text('{"type": "draw", "seat": 0, "answer": "maybe"}')
    assert receive(a)["code"] == "bad_message"
    _same_state(client, rid, before)
    # offered, declined: shown to everyone; no second offer before the next shot
    send(a, type="draw", seat=0, answer="yes")
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert (ev["kind"], ev["topic"], ev["seat"], ev["answer"]) == ("vote", "draw", 0, "offer")
        assert ev["state"]["votes"]["open"] == [
            {"topic": "draw", "offered_by": 0, "asked": [1], "yes": []}
        ]
    _refused(a, "draw_offered", type="draw", seat=0, answer="yes")
    send(b, type="draw", seat=1, answer="no")
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert (ev["answer"], ev["seat"]) == ("decline", 1) and ev["state"]["votes"]["open"] == []
    _refused(a, "draw_again", type="draw", seat=0, answer="yes")
    # after a shot it may offer again; the offer lapses when the other side shoots
    state = client.get(f"/api/rooms/{rid}").json()["state"]
    shooter = {0: a, 1: b}[state["shooter"]]
    send(shooter, **straight_shot(state))
    state = event(a)["event"]["state"]
    event(b), event(watcher)
    send(a, type="draw", seat=0, answer="yes")
    assert event(b)["event"]["answer"] == "offer"
    event(a), event(watcher)
    while state["shooter"] == 0:  # red keeps the turn after a success (R3a): the offer stands
        send(a, **straight_shot(state))
        state = event(b)["event"]["state"]
        event(a), event(watcher)
        assert state["votes"]["open"]
    send(b, **straight_shot(state))
    for ws in (a, b, watcher):  # one change, one event: the shot says the offer lapsed
        shot = event(ws)["event"]
        assert shot["kind"] == "shot" and shot["state"]["votes"]["open"] == []
        assert shot["lapsed"] == {"topic": "draw", "seat": 0, "answer": "lapse"}
    assert client.get(f"/api/rooms/{rid}").json()["state"]["votes"]["open"] == []


def test_an_accepted_draw_ends_the_game_and_is_recorded(
    client: TestClient, duel: tuple[str, Any, Any, Any]
) -> None:
    rid, a, b, watcher = duel
    send(b, type="draw", seat=1, answer="yes")
    for ws in (a, b, watcher):
        event(ws)
    send(a, type="draw", seat=0, answer="yes")
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert (ev["kind"], ev["seat"], ev["offered_by"]) == ("draw", 0, 1)
        assert ev["state"]["outcome"] == {"winner": None, "reason": "agreed", "scores": [0, 0]}
        assert "agreement" in ev["explain"]["en"] and "合意" in ev["explain"]["ja"]
    record = client.get(f"/api/games/{rid}-1/record").json()
    assert (record["actions"][-1]["kind"], record["actions"][-1]["offered_by"]) == ("draw", 1)
    assert replay(record).outcome.reason == "agreed"  # type: ignore[union-attr]


def test_doubles_draw_needs_both_opponents(client: TestClient) -> None:
    rid, tokens = _online(client, players=4)
    with ExitStack() as stack:
        ws = [stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}")) for _ in range(4)]
        for w, token in zip(ws, tokens, strict=True):
            hello(w, token)

        def everyone() -> dict[str, Any]:
            evs = [event(w)["event"] for w in ws]
            assert all(e == evs[0] for e in evs)
            return evs[0]

        send(ws[0], type="draw", seat=0, answer="yes")
        assert everyone()["state"]["votes"]["open"][0]["asked"] == [1, 3]
        _refused(ws[2], "draw_offered", type="draw", seat=2, answer="yes")  # the partner
        send(ws[1], type="draw", seat=1, answer="yes")
        first = everyone()
        assert first["kind"] == "vote" and first["state"]["votes"]["open"][0]["yes"] == [1]
        _refused(ws[1], "already_answered", type="draw", seat=1, answer="yes")
        send(ws[3], type="draw", seat=3, answer="yes")
        done = everyone()
        assert done["kind"] == "draw" and done["state"]["over"] and done["offered_by"] == 0


def test_the_computer_takes_no_draw_offer(client: TestClient) -> None:
    made = create_room(client, mode="computer", players=2, level="1")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        hello(ws, made["token"])
        _refused(ws, "draw_computer", type="draw", seat=0, answer="yes")


def test_online_rematch_needs_everyone_and_colours_alternate(
    client: TestClient, duel: tuple[str, Any, Any, Any]
) -> None:
    rid, a, b, watcher = duel
    _refused(a, "not_over", type="rematch")
    send(a, type="resign", seat=0)
    for ws in (a, b, watcher):
        event(ws)
    _refused(watcher, "not_seated", type="rematch")
    _refused(a, "no_offer", type="rematch", answer="no")
    before = client.get(f"/api/rooms/{rid}").json()
    for bad in ('{"type": "rematch", "answer": "maybe"}', '{"type": "rematch", "seat": 0}'):
        a.send_text(bad)
        assert receive(a)["code"] == "bad_message", bad
    _same_state(client, rid, before)
    send(a, type="rematch")
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert (ev["kind"], ev["topic"], ev["answer"], ev["seat"]) == (
            "vote",
            "rematch",
            "offer",
            0,
        )
        assert ev["state"]["over"]
    _refused(a, "already_answered", type="rematch")
    send(b, type="rematch", answer="no")
    assert event(a)["event"]["answer"] == "decline"
    event(b), event(watcher)
    send(b, type="rematch")
    event(a), event(b), event(watcher)
    send(a, type="rematch", answer="yes")
    for ws in (a, b, watcher):
        ev = event(ws)["event"]
        assert ev["kind"] == "rematch"
        assert ev["state"]["shooter"] == 1 and not ev["state"]["over"]  # seat 1 is red now (R1b)
        assert [s["color"] for s in ev["room"]["seats"]] == ["green", "red"]
        assert ev["room"]["game_id"] == f"{rid}-2"
        assert ev["room"]["seats"][0]["label"] == {"en": "A", "ja": "A"}
    send(b, type="resign", seat=1)
    event(a)
    record = client.get(f"/api/games/{rid}-2/record").json()
    assert record["options"]["first_seat"] == 1
    assert [s["color"] for s in record["seats"]] == ["green", "red"]
    assert record["result"]["winner"] == "green"
    replay(record)
    replay_data = client.get(f"/api/games/{rid}-2/replay").json()
    assert replay_data["start"]["shooter"] == 1


def test_doubles_partners_keep_pairs_and_the_first_team_alternates(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=4)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snap = hello(ws, made["token"])
        assert [s["color"] for s in snap["room"]["seats"]] == ["red", "green", "red", "green"]
        send(ws, type="resign", seat=3)
        event(ws)
        send(ws, type="rematch")  # one device holds every seat: one yes is everyone's
        ev = event(ws)["event"]
        assert ev["kind"] == "rematch"
        assert [s["color"] for s in ev["room"]["seats"]] == ["green", "red", "green", "red"]
        assert ev["state"]["shooter"] == 1
        assert [s["label"]["en"] for s in ev["room"]["seats"]] == [
            "Green (south)",
            "Red (west)",
            "Green (north)",
            "Red (east)",
        ]
