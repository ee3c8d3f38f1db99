"""The director's console while the store is down (a SQLite file another connection holds an
exclusive lock on; a PostgreSQL server stopped): every change is refused with 503
``store_unavailable`` in English and Japanese, the event stays exactly as it was in memory
(never reloaded from the store that just failed, as the undo of a result used to be), and the
same change made again once the store is back is stored once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.outagekit import Outage, settings
from tests.server.padkit import Pad
from tests.server.tournamentkit import event, headers, ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.storage import StoreUnavailable
from hikone_carrom.server.storage.tournament_store import TournamentStore
from hikone_carrom.server.tournaments import store_retry

ENTRY = {"division": "GS", "members": [{"name": "後藤", "reading": "ごとう", "age": "30"}]}
EDIT = {"division": "GS", "members": [{"name": "選手01 佐藤", "reading": "さとう", "age": "31"}]}
CSV_ROW = "部門,氏名,よみがな,所属,都道府県,年齢,学年\nGS,選手20 森,もり,彦根,滋賀県,40,\n"
RULES = {"tiebreaks": ["match_points", "pucks", "lot"], "points": [3, 1, 0]}


def _unavailable(r: Any) -> None:
    assert r.status_code == 503, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "store_unavailable"
    assert "nothing changed" in detail["en"] and "何も変わっていません" in detail["ja"]


def test_director_changes_wait_for_the_store_and_are_stored_once(
    store: tuple[str, Outage],
) -> None:
    url, outage = store
    with TestClient(create_app(settings(url))) as client:
        tid, token = ready_event(client)
        h = headers(token)
        base = f"/api/tournaments/{tid}"
        matches = event(client, tid)["matches"]
        first, second, third = [m["id"] for m in matches[:3]]
        assert client.put(f"{base}/matches/{first}/result", json={"scores": [5, 3]},
                          headers=h).status_code == 200  # fmt: skip
        before = event(client, tid)
        live = client.app.state.tournaments.events[tid]  # type: ignore[attr-defined]
        held = (live.event.to_dict(), dict(live.live), live.seq)
        changes: list[tuple[str, str, dict[str, Any]]] = [
            ("PUT", f"/matches/{second}/result", {"json": {"scores": [7, 2]}}),
            ("DELETE", f"/matches/{first}/result", {}),  # the undo of a result
            ("POST", f"/matches/{third}/call", {"json": {"board": 3}}),
            ("POST", "/entries", {"json": ENTRY}),
            ("POST", "/entries/import", {"content": CSV_ROW.encode()}),
            ("PUT", "/entries/GS-002", {"json": EDIT}),
            ("PUT", "/rules", {"json": RULES}),
            ("POST", "/entries/GS-001/status", {"json": {"status": "withdrawn"}}),
            ("POST", "/replan", {"json": {"now": "10:00"}}),
            ("POST", "/pads", {"json": {"boards": [1]}, "headers": organiser(client)}),
        ]
        with outage():
            for method, path, body in changes:
                _unavailable(client.request(method, base + path, **{"headers": h, **body}))
                assert event(client, tid) == before, (method, path)
                assert (live.event.to_dict(), live.live, live.seq) == held, (method, path)
            _unavailable(
                client.post(
                    "/api/tournaments", json={"name": "新しい大会"}, headers=organiser(client)
                )
            )
            if url.startswith("postgresql"):  # a read the store must answer: 503, never 500
                r = client.get(f"{base}/director", headers=h)
                assert r.status_code == 503 and r.json()["detail"]["code"] == "store_unavailable"
        for method, path, body in changes:
            r = client.request(method, base + path, **{"headers": h, **body})
            assert r.status_code in (200, 201), (method, path, r.text)
        called = event(client, tid)
        held = (live.event.to_dict(), dict(live.live), live.seq)
        with outage():  # the called match cannot begin either
            _unavailable(client.post(f"{base}/matches/{third}/start", headers=h))
            assert event(client, tid) == called
            assert (live.event.to_dict(), live.live, live.seq) == held
        assert client.post(f"{base}/matches/{third}/start", headers=h).status_code == 200
        after = event(client, tid)
        audit = client.get(f"{base}/director", headers=h).json()["audit"]
        actions = [a["action"] for a in reversed(audit)]
        done = ["result", "clear", "call", "entry_add", "import", "entry_edit"]
        done += ["rules", "status", "replan"]
        assert actions[-len(done) - 2 :] == [*done, "pads", "start"]
        assert actions.count("clear") == 1 and actions.count("result") == 2
    with TestClient(create_app(settings(url))) as restarted:
        rebuilt = event(restarted, tid)
        assert {**rebuilt, "calls": []} == {**after, "calls": []}  # the hall's calls: memory
        matches = {m["id"]: m for m in after["matches"]}
        assert matches[first]["result"] is None
        assert matches[second]["result"]["scores"] == [7, 2]
        assert matches[third]["status"] == "playing"


def test_a_pad_result_the_event_could_not_store_is_recorded_once_the_store_takes_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pad's confirm is stored, the event's store then refuses the result twice (as when
    it goes down between the two): the result is recorded again until it is stored."""
    monkeypatch.setattr(store_retry, "RETRY_PAUSES_S", (0.05,) * 20)
    tid, token = ready_event(client)
    h = headers(token)
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=organiser(client))
    link = r.json()["pads"][0]
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=h).json()
    pad = Pad(
        client, {"id": link["pad_board"], "token": link["pad_url"].split("#t=")[1]}, "device-0001"
    )
    pad.match = 1
    pad.send(pad.shot(red=12), pad.shot(jack=True))
    refusals = [StoreUnavailable("connection refused")] * 2
    save = TournamentStore.save

    def flaky(self: TournamentStore, *args: Any, **kwargs: Any) -> None:
        if refusals and kwargs["audit"][0][1] == "result":
            raise refusals.pop()
        save(self, *args, **kwargs)

    monkeypatch.setattr(TournamentStore, "save", flaky)
    assert pad.send(pad.op("confirm"))["rejected"] is None  # the pad's result stands
    deadline = time.monotonic() + 10.0
    done = None
    while time.monotonic() < deadline:
        done = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
        if done["status"] == "finished":
            break
        time.sleep(0.05)
    assert done is not None and done["status"] == "finished" and done["source"] == "pad"
    assert not refusals
    audit = client.get(f"/api/tournaments/{tid}/director", headers=h).json()["audit"]
    results = [a for a in audit if a["action"] in ("result", "pad_refused")]
    assert [(a["action"], a["target"]) for a in results] == [("result", call["match"])]
