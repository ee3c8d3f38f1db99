"""The director's secret: a chosen password has at least 12 characters, and wrong
secrets are throttled per client address and per event, while the right secret from another
address still works."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send
from tests.server.organiserkit import organiser
from tests.server.tournamentkit import create, headers

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.organiser import FailureThrottle, SignInGuard


class FromAddress:
    """The app as seen from the client address :attr:`host` (changed between requests)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.host = "192.0.2.1"

    @property
    def state(self) -> Any:
        return self.app.state  # type: ignore[attr-defined]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "client": (self.host, 50000)}
        await self.app(scope, receive, send)


@pytest.fixture
def seen(db_url: str) -> Iterator[tuple[TestClient, FromAddress]]:
    wrapped = FromAddress(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0)))
    with TestClient(wrapped) as c:
        yield c, wrapped


def _event(client: TestClient, password: str | None) -> Any:
    return client.post("/api/tournaments", json={"name": "大会", "password": password},
                       headers=organiser(client))  # fmt: skip


def test_a_chosen_password_has_at_least_12_characters(client: TestClient) -> None:
    assert _event(client, "8chars!!").status_code == 422
    assert _event(client, "elevenchars").status_code == 422
    r = _event(client, "twelve chars")
    assert r.status_code == 201 and r.json()["token"] == "twelve chars"
    tid = r.json()["id"]
    assert client.get(f"/api/tournaments/{tid}/director",
                      headers=headers("twelve chars")).status_code == 200  # fmt: skip
    made = _event(client, None).json()["token"]  # none chosen: a generated token
    assert len(made) >= 16


def test_guessing_is_refused_after_a_few_failures_while_the_director_signs_in_elsewhere(
    seen: tuple[TestClient, FromAddress],
) -> None:
    client, app = seen
    tid, token = create(client)
    url = f"/api/tournaments/{tid}/director"
    app.host = "198.51.100.66"  # the guesser
    for n in range(5):
        r = client.get(url, headers=headers(f"guess-number-{n}"))
        assert r.status_code == 401 and r.json()["detail"]["code"] == "not_director"
    r = client.get(url, headers=headers("guess-number-5"))
    assert r.status_code == 429, r.text
    assert r.json()["detail"]["code"] == "too_many_failures"
    assert r.json()["detail"]["ja"] and int(r.headers["retry-after"]) >= 1
    assert client.get(url, headers=headers(token)).status_code == 429  # not even checked
    app.host = "192.0.2.10"  # the director, at the desk
    assert client.get(url, headers=headers(token)).status_code == 200
    r = client.post(f"/api/tournaments/{tid}/plan", headers=headers(token))
    assert r.status_code != 429
    app.host = "198.51.100.66"
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:  # the console too
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["code"] == "too_many_failures"
        assert ws.receive_json()["code"] == "not_director"


def test_wrong_hellos_of_the_directors_console_count_as_failures(
    seen: tuple[TestClient, FromAddress],
) -> None:
    client, app = seen
    tid, token = create(client)
    app.host = "198.51.100.77"
    for n in range(5):
        with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
            ws.send_json({"type": "hello", "token": f"guess-{n}"})
            assert ws.receive_json()["code"] == "not_director"
    r = client.get(f"/api/tournaments/{tid}/director", headers=headers(token))
    assert r.status_code == 429
    app.host = "192.0.2.11"
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "snapshot"


def test_many_addresses_guessing_one_event_are_slowed_down_together(
    seen: tuple[TestClient, FromAddress],
) -> None:
    client, app = seen
    tid, _ = create(client)
    url = f"/api/tournaments/{tid}/director"
    statuses = []
    for n in range(24):
        app.host = f"203.0.113.{n}"  # four guesses each from six addresses
        for k in range(4):
            statuses.append(client.get(url, headers=headers(f"g{n}-{k}")).status_code)
    assert statuses[:20] == [401] * 20 and 429 in statuses[20:]


def test_the_back_off_doubles_and_a_success_forgets() -> None:
    now = [0.0]
    throttle = FailureThrottle(5, base_s=1.0, max_s=8.0, clock=lambda: now[0])
    for _ in range(5):
        assert throttle.wait_s("a") == 0.0
        throttle.failed("a")
    waits = []
    for _ in range(5):
        waits.append(throttle.wait_s("a"))
        now[0] += waits[-1]
        throttle.failed("a")
    assert waits == [1.0, 2.0, 4.0, 8.0, 8.0]
    throttle.succeeded("a")
    assert throttle.wait_s("a") == 0.0 and len(throttle) == 0


def test_one_address_guessing_for_hours_never_holds_the_director_back() -> None:
    now = [0.0]
    guard = SignInGuard(clock=lambda: now[0])
    checked = 0
    while now[0] < 3 * 3600.0:
        try:
            guard.check("198.51.100.66", "event")
        except RoomError as refused:
            assert refused.status == 429 and refused.retry_after_s
            now[0] += 1.0
        else:
            guard.failed("198.51.100.66", "event")
            checked += 1
        guard.check("192.0.2.10", "event")  # the director, elsewhere: never refused
    assert checked <= 24 + 2 * 12  # 24 in the first hour, then one each 5 minutes
