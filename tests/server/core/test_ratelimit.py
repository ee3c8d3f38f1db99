"""The per-connection WebSocket message limit: a flood is dropped with one clear error (ja/en),
nothing changes, the room goes on, and a client that keeps flooding is cut off."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.ratelimit import MessageRate, RateLimitError


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_bucket_allows_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    rate = MessageRate(3, 2.0, cut_after=4, clock=clock)
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert rate.first_refusal and not rate.cut_off
    clock.now += 0.49  # 0.98 of a message refilled at 2/s
    assert not rate.allow() and not rate.first_refusal
    clock.now += 0.02
    assert rate.allow() and rate.refused_in_a_row == 0
    clock.now += 60.0  # a long pause refills only up to the burst
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert not any(rate.allow() for _ in range(3))
    assert rate.cut_off


@pytest.mark.parametrize(
    ("burst", "per_second"), [(0, 1.0), (5, 0.0), (5, -1.0), (5, float("inf")), (5, float("nan"))]
)
def test_unusable_rates_are_refused(burst: int, per_second: float) -> None:
    with pytest.raises(RateLimitError):
        MessageRate(burst, per_second)
    with pytest.raises(RateLimitError):
        create_app(ServerSettings(db_url="sqlite://", message_burst=burst, message_rate=per_second))


@pytest.fixture
def tight(db_url: str) -> Iterator[TestClient]:
    """A server whose connections may send 6 messages, then practically none."""
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0, message_burst=6, message_rate=1e-3)
    with TestClient(create_app(settings)) as c:
        yield c


def test_a_flood_is_dropped_with_one_error_and_changes_nothing(tight: TestClient) -> None:
    made = create_room(tight, mode="hotseat")
    rid = made["room_id"]
    with (
        tight.websocket_connect(f"/ws/rooms/{rid}") as ws,
        tight.websocket_connect(f"/ws/rooms/{rid}") as other,
    ):
        snap = hello(ws, made["token"])  # message 1
        hello(other, made["token"])
        for _ in range(5):  # messages 2..6
            send(ws, type="ping")
            assert ws.receive_json()["type"] == "pong"
        send(ws, **straight_shot(snap["state"]))  # message 7: over the limit
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "rate_limited"
        assert "Too many messages" in err["message"]["en"]
        assert "メッセージが多すぎます" in err["message"]["ja"]
        for _ in range(20):  # still refused, and not answered again
            send(ws, type="ping")
        # nothing changed: the other connection still plays the same room from the same state
        send(other, type="resync", last_seq=0)
        again = other.receive_json()
        assert again["seq"] == 0 and again["state"] == snap["state"]
        send(other, **straight_shot(again["state"]))
        assert other.receive_json()["seq"] == 1
        # the flooded connection only got the broadcast event, no pong and no second error
        msg = ws.receive_json()
        assert msg["type"] == "event" and msg["seq"] == 1


def test_a_client_that_keeps_flooding_is_cut_off(tight: TestClient) -> None:
    made = create_room(tight, mode="hotseat")
    with tight.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        for _ in range(6 + 200):
            ws.send_text(json.dumps({"type": "ping"}))
        answers = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                answers.append(ws.receive_json())
        assert closed.value.code == 1008
    assert [a["type"] for a in answers[:6]] == ["pong"] * 6
    assert [a["code"] for a in answers[6:]] == ["rate_limited", "rate_limited"]
    assert "Reload" in answers[-1]["message"]["en"] and answers[-1]["message"]["ja"]
