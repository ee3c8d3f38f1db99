"""A scoring pad while the store is down (a SQLite file another connection holds an exclusive
lock on; a PostgreSQL server stopped): every change is refused with 503 ``store_unavailable``
in English and Japanese, the board stays exactly as it was (the pad keeps its queue), and the
same ops sent again once the store is back are applied and stored once."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.outagekit import Outage, settings
from tests.server.padkit import Pad, auth, create_board

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.pads.boards import PadRegistry
from hikone_carrom.server.storage import StoreUnavailable
from hikone_carrom.server.storage.pad_store import BoardChange, PadStore


def _unavailable(r: Any) -> None:
    assert r.status_code == 503, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "store_unavailable"
    assert "try again" in detail["en"] and "もう一度" in detail["ja"]


def _registry(client: TestClient) -> PadRegistry:
    pads: PadRegistry = client.app.state.pads  # type: ignore[attr-defined]
    return pads


def test_pad_changes_wait_for_the_store_and_are_stored_once(store: tuple[str, Outage]) -> None:
    url, outage = store
    with TestClient(create_app(settings(url))) as client:
        b = create_board(client)
        spare = create_board(client, "第2台")
        pad = Pad(client, b, "device-outage")
        pad.setup(["田中", "佐藤"], minutes=10)
        pad.send(pad.shot(red=1))
        board_url = f"/api/boards/{b['id']}"
        before = client.get(board_url).json()
        queued = [
            pad.shot(green=2),
            pad.op("undo", count=1),
            pad.op("correct", n=1, entry={"kind": "shot", "tap": {"red": 2}, "at": None}),
            pad.op("clock", clock={"elapsed": 5.0, "started": True, "running": True}),
            pad.shot(red=10),
            pad.shot(jack=True),
            pad.op("confirm"),
        ]
        with outage():
            _unavailable(
                client.post(
                    f"{board_url}/ops",
                    json={"device": pad.device, "ops": queued},
                    headers=auth(b["token"]),
                )
            )
            assert client.get(board_url).json() == before
            spare_url = f"/api/boards/{spare['id']}"
            setup = {"setup": {"names": ["山田", "鈴木"], "match_time_s": 300}}
            for path, body, token in (
                (f"{board_url}/takeover", {"device": "device-other"}, b["token"]),
                (f"{spare_url}/claim", {"device": "device-spare"}, spare["token"]),
                (f"{spare_url}/matches", setup, spare["token"]),
            ):
                _unavailable(client.post(path, json=body, headers=auth(token)))
            _unavailable(
                client.post("/api/boards", json={"name": "第3台"}, headers=organiser(client))
            )
            if url.startswith("postgresql"):  # a read the store must answer: 503, never 500
                r = client.get(f"{board_url}/matches/1/record")
                assert r.status_code == 503 and r.json()["detail"]["code"] == "store_unavailable"
            assert client.get(board_url).json() == before
            assert client.get(f"/api/boards/{spare['id']}").json()["board"]["match"] is None
        done = pad.send(*queued)  # the pad sends its queue again
        assert done["ack"] == pad.seq and done["rejected"] is None
        assert done["board"]["match"]["confirmed"] is True
        again = pad.send(*queued)  # and once more: nothing is applied twice
        assert (again["ack"], again["seq"]) == (done["ack"], done["seq"])
        kinds = [k for _, k in _registry(client).pads.event_kinds(b["id"])]
        new = ["entry", "undo", "correct", "clock", "entry", "entry", "confirm"]
        assert kinds == ["device", "match", "entry", *new]
        record = client.get(f"{board_url}/matches/1/record")
        assert record.status_code == 200
    with TestClient(create_app(settings(url))) as restarted:
        assert restarted.get(board_url).json() == client_view(done)


def client_view(answer: dict[str, Any]) -> dict[str, Any]:
    """The snapshot a board's GET gives after ``answer`` of its ops."""
    return {"type": "snapshot", "seq": answer["seq"], "board": answer["board"]}


def test_ops_before_the_one_the_store_refused_stay_applied(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store takes the confirm, then refuses the next match's set-up: the answer is 503 (not
    a rejection, which would empty the pad's queue), the confirmed match is heard of once, and
    the retry applies the rest."""
    b = create_board(client)
    pad = Pad(client, b, "device-partial")
    pad.setup(["田中", "佐藤"])
    heard: list[int] = []

    async def listener(_board: Any, number: int, _match: Any) -> None:
        heard.append(number)

    _registry(client).on_confirmed(listener)
    commit_all = PadStore.commit_all
    refused = [StoreUnavailable("database is locked")]

    def flaky(self: PadStore, board_id: str, changes: list[BoardChange]) -> None:
        if any(c.kind == "match" for c in changes) and refused:
            if len(changes) == 1:
                raise refused.pop()
            raise StoreUnavailable("database is locked")  # the request's ops stored together
        commit_all(self, board_id, changes)

    monkeypatch.setattr(PadStore, "commit_all", flaky)
    queued = [pad.shot(red=12), pad.shot(jack=True), pad.op("confirm")]
    queued.append(pad.op("setup", setup={"names": ["山田", "鈴木"], "match_time_s": None}))
    _unavailable(
        client.post(
            f"/api/boards/{b['id']}/ops",
            json={"device": pad.device, "ops": queued},
            headers=auth(b["token"]),
        )
    )
    board = client.get(f"/api/boards/{b['id']}").json()["board"]
    assert board["match"]["number"] == 1 and board["match"]["confirmed"] is True
    assert heard == [1]
    done = pad.send(*queued)
    assert done["ack"] == pad.seq and done["board"]["match"]["number"] == 2
    assert heard == [1]
