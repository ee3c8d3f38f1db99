"""Corrections after a call (issue 47): GS-K1-02's winner feeds GS-K2-01. Correcting K1-02 once
K2-01 is called is refused with what it would change; confirmed, the call is withdrawn, the pad
told, the hall's call feed shows it, and the right players are called to the same board. A pad
result is credited only to the entrants whose names the pad showed."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.padkit import Pad
from tests.server.tournamentkit import event, headers, play_pools, ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.storage import StoreUnavailable


def _knockout(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """An event whose pools are closed, K1-02 won by its first side and K2-01 called to board
    1, which has a pad; returns the event id, token and the pad link of board 1."""
    tid, token = ready_event(client)
    play_pools(client, tid, token)
    h = headers(token)
    for n in (1, 2):
        assert client.post(f"/api/tournaments/{tid}/pools/GS/{n}/close", headers=h).is_success
    r = client.put(f"/api/tournaments/{tid}/matches/GS-K1-02/result", json={"scores": [8, 3]},
                   headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]},
                    headers=organiser(client))  # fmt: skip
    link = r.json()["pads"][0]
    r = client.post(f"/api/tournaments/{tid}/matches/GS-K2-01/call", json={"board": 1}, headers=h)
    assert r.status_code == 200 and r.json()["pad"]["match"] == 1, r.text
    return tid, token, link


def _match(client: TestClient, tid: str, match_id: str) -> dict[str, Any]:
    return next(m for m in event(client, tid)["matches"] if m["id"] == match_id)


def _names(match: dict[str, Any]) -> list[str]:
    return [s["name"] if s else "" for s in match["sides"]]


def _device(client: TestClient, link: dict[str, Any]) -> Pad:
    token = link["pad_url"].split("#t=")[1]
    pad = Pad(client, {"id": link["pad_board"], "token": token}, "device-0001")
    r = client.post(f"/api/boards/{link['pad_board']}/claim", json={"device": pad.device},
                    headers={"authorization": f"Bearer {token}"})  # fmt: skip
    pad.match = r.json()["board"]["match"]["number"]
    return pad


def _board(client: TestClient, link: dict[str, Any]) -> dict[str, Any]:
    board: dict[str, Any] = client.get(f"/api/boards/{link['pad_board']}").json()["board"]
    return board


def _audit(client: TestClient, tid: str, token: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/tournaments/{tid}/director", headers=headers(token))
    audit: list[dict[str, Any]] = r.json()["audit"]
    return audit


def test_a_correction_that_changes_a_called_match_is_refused_with_what_it_changes(
    client: TestClient,
) -> None:
    tid, token, _ = _knockout(client)
    k1 = _match(client, tid, "GS-K1-02")
    called = _match(client, tid, "GS-K2-01")
    assert _names(called)[1] == _names(k1)[0]
    r = client.put(f"/api/tournaments/{tid}/matches/GS-K1-02/result", json={"scores": [3, 8]},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail["code"] == "call_would_change"
    assert "GS-K2-01" in detail["ja"] and "第1台" in detail["ja"] and "board 1" in detail["en"]
    assert detail["changes"] == [{
        "match": "GS-K2-01", "board": 1, "status": "called",
        "before": {"ja": _names(called), "en": _names(called)},
        "after": {"ja": [_names(called)[0], _names(k1)[1]],
                  "en": [_names(called)[0], _names(k1)[1]]},
        "recall": True,
    }]  # fmt: skip
    assert _match(client, tid, "GS-K1-02")["result"]["winner"] == 0  # nothing changed
    assert _names(_match(client, tid, "GS-K2-01")) == _names(called)
    r = client.delete(f"/api/tournaments/{tid}/matches/GS-K1-02/result", headers=headers(token))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "call_would_change"
    r = client.post(f"/api/tournaments/{tid}/pools/GS/1/reopen", headers=headers(token))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "call_would_change"


def test_a_confirmed_correction_withdraws_the_call_tells_the_pad_and_calls_the_right_players(
    client: TestClient,
) -> None:
    tid, token, link = _knockout(client)
    k1 = _match(client, tid, "GS-K1-02")
    old = _names(_match(client, tid, "GS-K2-01"))
    pad = _device(client, link)
    pad.send(pad.shot(red=2))  # the old players have begun on the pad
    assert _match(client, tid, "GS-K2-01")["status"] == "playing"
    r = client.put(f"/api/tournaments/{tid}/matches/GS-K1-02/result?confirm=true",
                   json={"scores": [3, 8]}, headers=headers(token))  # fmt: skip
    assert r.status_code == 200, r.text
    now = _match(client, tid, "GS-K2-01")
    assert _names(now) == [old[0], _names(k1)[1]]
    assert (now["status"], now["board"]) == ("called", 1)  # called again, same board
    board = _board(client, link)
    assert board["match"]["number"] == 2 and board["match"]["withdrawn"] is None
    assert board["match"]["setup"]["names"] == _names(now)
    ack = pad.send(pad.shot(red=3))  # the old match on the pad takes nothing more
    assert ack["rejected"]["code"] == "stale_match"
    calls = event(client, tid)["calls"]
    assert calls[0]["match"] == "GS-K2-01" and not calls[0].get("withdrawn")
    assert calls[1]["withdrawn"] is True and "取り消し" in calls[1]["text"]["ja"]
    assert calls[1]["sides"] == old and "withdrawn" in calls[1]["text"]["en"]
    audit = _audit(client, tid, token)
    withdraw = next(a for a in audit if a["action"] == "withdraw")
    assert withdraw["target"] == "GS-K2-01" and withdraw["detail"]["because"] == "GS-K1-02"
    assert withdraw["detail"]["before"]["ja"] == old
    assert withdraw["detail"]["by"] == {"ja": "大会本部", "en": "the director"}


def test_a_withdrawn_match_the_players_cannot_play_waits_and_its_pad_shows_it_withdrawn(
    client: TestClient,
) -> None:
    tid, token, link = _knockout(client)
    pad = _device(client, link)
    r = client.delete(f"/api/tournaments/{tid}/matches/GS-K1-02/result?confirm=true",
                      headers=headers(token))  # fmt: skip
    assert r.status_code == 200, r.text
    assert _match(client, tid, "GS-K2-01")["status"] == "planned"
    board = _board(client, link)
    assert board["match"]["number"] == 1
    assert board["match"]["withdrawn"] == {"ja": "大会本部", "en": "the director"}
    ack = pad.send(pad.shot(red=2))
    assert ack["rejected"]["code"] == "match_withdrawn"
    assert "取り消されました" in ack["rejected"]["ja"]


def test_a_pad_result_for_other_players_than_the_match_now_has_is_not_credited(
    client: TestClient,
) -> None:
    tid, token, link = _knockout(client)
    k1 = _match(client, tid, "GS-K1-02")
    called = _names(_match(client, tid, "GS-K2-01"))
    pad = _device(client, link)
    # the pad's players are not the match's: the loser of K1-02 instead of its winner
    pad.send({"seq": 1, "op": "setup", "match": 1, "setup": {"names": [called[0], _names(k1)[1]],
              "match_time_s": 300}})  # fmt: skip
    pad.seq = 1
    pad.send(pad.shot(red=12), pad.shot(jack=True))
    ack = pad.send(pad.op("confirm"))
    assert ack["rejected"] is None  # the pad's own record stands
    after = _match(client, tid, "GS-K2-01")
    assert after["result"] is None and after["status"] != "finished"
    refused = _audit(client, tid, token)[0]
    assert refused["action"] == "pad_refused" and refused["target"] == "GS-K2-01"
    assert refused["detail"]["reason"]["code"] == "pad_sides_changed"


def test_a_withdrawn_pad_match_stays_withdrawn_after_a_restart(db_url: str) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as client:
        tid, token, link = _knockout(client)
        r = client.delete(f"/api/tournaments/{tid}/matches/GS-K1-02/result?confirm=true",
                          headers=headers(token))  # fmt: skip
        assert r.status_code == 200, r.text
    with TestClient(create_app(settings)) as client:
        board = _board(client, link)
        assert board["match"]["withdrawn"] == {"ja": "大会本部", "en": "the director"}
        pad = _device(client, link)
        ack = pad.send(pad.shot(red=2))
        assert ack["rejected"]["code"] == "match_withdrawn"


def test_withdrawing_an_entrant_whose_match_is_called_needs_confirming_and_withdraws_the_call(
    client: TestClient,
) -> None:
    tid, token = ready_event(client)
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    entrant = _match(client, tid, call["match"])["sides"][0]["id"]
    url = f"/api/tournaments/{tid}/entries/{entrant}/status"
    r = client.post(url, json={"status": "withdrawn"}, headers=headers(token))
    assert r.status_code == 409
    change = r.json()["detail"]["changes"][0]
    assert (change["match"], change["board"], change["recall"]) == (call["match"], 1, False)
    assert _match(client, tid, call["match"])["status"] == "called"
    r = client.post(f"{url}?confirm=true", json={"status": "withdrawn"}, headers=headers(token))
    assert r.status_code == 200, r.text
    assert _match(client, tid, call["match"])["status"] == "forfeit"
    assert event(client, tid)["calls"][0]["withdrawn"] is True


def test_a_match_typed_on_the_pad_over_a_withdrawn_one_is_not_withdrawn_after_a_restart(
    db_url: str,
) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as client:
        tid, token, link = _knockout(client)
        r = client.delete(f"/api/tournaments/{tid}/matches/GS-K1-02/result?confirm=true",
                          headers=headers(token))  # fmt: skip
        assert r.status_code == 200, r.text
        pad = _device(client, link)  # the referee types a friendly match in its place
        pad.send({"seq": 1, "op": "setup", "match": 1, "setup": {"names": ["甲", "乙"],
                  "match_time_s": 300}})  # fmt: skip
    with TestClient(create_app(settings)) as client:
        board = _board(client, link)
        assert board["match"]["setup"]["names"] == ["甲", "乙"]
        assert board["match"]["withdrawn"] is None


def test_a_confirmed_correction_and_the_withdrawal_of_its_call_are_stored_together(
    client: TestClient,
) -> None:
    tid, token, _ = _knockout(client)
    store = client.app.state.tournaments.store  # type: ignore[attr-defined]
    save = store.save
    writes: list[str] = []

    def stops_after_one_write(*args: Any, **kwargs: Any) -> None:
        if writes:  # the store stops after the request's first write
            raise StoreUnavailable("the store stopped")
        writes.append(kwargs["audit"][0][1])
        save(*args, **kwargs)

    store.save = stops_after_one_write
    try:
        r = client.put(f"/api/tournaments/{tid}/matches/GS-K1-02/result?confirm=true",
                       json={"scores": [3, 8]}, headers=headers(token))  # fmt: skip
    finally:
        store.save = save
    stored = store.load(tid)
    corrected = stored.live["GS-K1-02"].result["scores"] == [3, 8]
    still_called = "GS-K2-01" in stored.live
    assert corrected != still_called  # the store has both or neither
    assert r.status_code == 200 and corrected, r.text
    audit = [a.action for a in store.audit(tid)]
    assert audit[:2] == ["withdraw", "correction"]  # one change, its two entries
