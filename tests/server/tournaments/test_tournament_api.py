"""The tournament server over REST and WebSocket: the director's actions, the audit trail,
refusals, public views, CSV export and a restart that loses nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.tournamentkit import create, event, headers, play_pools, ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings


def test_the_director_needs_the_token(client: TestClient) -> None:
    tid, token = create(client)
    r = client.post(f"/api/tournaments/{tid}/plan", headers=headers("wrong"))
    assert r.status_code == 401
    assert r.json()["detail"]["code"] == "not_director" and r.json()["detail"]["ja"]
    assert client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).is_success


def test_csv_import_with_errors_changes_nothing_and_reports_each_row(client: TestClient) -> None:
    tid, token = create(client)
    body = (
        "部門,氏名,よみがな,年齢,学年\n"
        "GS,山田 太郎,やまだ,30,\n"
        "JA,佐藤 花子,さとう,30,\n"  # row 3: an adult in junior A
        "GS,X,abc,30,\n"  # row 4: the reading is not kana
    )
    r = client.post(
        f"/api/tournaments/{tid}/entries/import",
        content=body.encode("cp932"),
        headers=headers(token),
    )
    assert r.status_code == 200
    data = r.json()
    assert data["encoding"] == "cp932" and data["imported"] == 0
    assert [p["row"] for p in data["problems"]] == [3, 4]
    assert event(client, tid)["entries"] == []


def test_a_result_a_correction_and_the_audit_trail(client: TestClient) -> None:
    tid, token = ready_event(client)
    first = event(client, tid)["matches"][0]
    url = f"/api/tournaments/{tid}/matches/{first['id']}/result"
    assert client.put(url, json={"scores": [112, 4]}, headers=headers(token, "山田")).is_success
    r = client.put(url, json={"scores": [3, 8]}, headers=headers(token, "佐藤"))
    assert r.json()["replaced"]["scores"] == [112, 4]
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    newest = audit[0]
    assert (newest["who"], newest["action"], newest["target"]) == (
        "佐藤",
        "correction",
        first["id"],
    )
    assert newest["detail"]["before"]["scores"] == [112, 4]
    assert newest["detail"]["after"]["scores"] == [3, 8]
    assert audit[1]["who"] == "山田" and audit[1]["action"] == "result"


def test_a_bad_result_is_refused_in_both_languages(client: TestClient) -> None:
    tid, token = ready_event(client)
    first = event(client, tid)["matches"][0]
    url = f"/api/tournaments/{tid}/matches/{first['id']}/result"
    r = client.put(url, json={"scores": [5, 4], "winner": 1}, headers=headers(token))
    assert r.status_code == 422 and "R7b" in r.json()["detail"]["en"]
    assert first["id"] not in {m["id"] for m in event(client, tid)["matches"] if m["result"]}


def test_board_calls_and_live_state(client: TestClient) -> None:
    tid, token = ready_event(client)
    r = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token))
    assert r.status_code == 200, r.text
    call = r.json()
    assert call["board"] == 1 and call["text"]["ja"].startswith("第1台: ")
    assert " 対 " in call["text"]["ja"]
    again = client.post(f"/api/tournaments/{tid}/matches/{call['match']}/call", json={"board": 1},
                        headers=headers(token))  # fmt: skip
    assert again.status_code == 200  # calling the same match again is a repeat announcement
    busy = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token))
    assert busy.status_code == 409 and busy.json()["detail"]["code"] == "board_busy"
    start = client.post(
        f"/api/tournaments/{tid}/matches/{call['match']}/start", headers=headers(token)
    )
    assert start.is_success
    view = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    assert view["status"] == "playing" and view["started_at"] and view["match_time_s"] == 300


def test_a_correction_after_the_pool_closed_is_refused_until_reopened(client: TestClient) -> None:
    tid, token = ready_event(client)
    play_pools(client, tid, token)
    h = headers(token)
    assert client.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=h).is_success
    m = next(m for m in event(client, tid)["matches"] if m["pool"] == 1)
    url = f"/api/tournaments/{tid}/matches/{m['id']}/result"
    r = client.put(url, json={"scores": [0, 112]}, headers=h)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "pool_closed"
    assert client.post(f"/api/tournaments/{tid}/pools/GS/1/reopen", headers=h).is_success
    assert client.put(url, json={"scores": [0, 112]}, headers=h).is_success
    assert client.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=h).is_success


def test_search_finds_the_next_match_by_kana(client: TestClient) -> None:
    tid, _ = ready_event(client)
    r = client.get(f"/api/tournaments/{tid}/search", params={"q": "ヤマダ"})
    found = r.json()["entries"]
    assert len(found) == 1 and found[0]["name"].endswith("山田")
    nxt = found[0]["next"]
    assert nxt["planned"]["board"] >= 1 and nxt["planned"]["start"] >= "09:30"


def test_results_csv_export(client: TestClient) -> None:
    tid, token = ready_event(client)
    play_pools(client, tid, token)
    r = client.get(f"/api/tournaments/{tid}/results.csv")
    text = r.content.decode("utf-8-sig")
    rows = text.strip().splitlines()
    assert rows[0].startswith("試合ID match")
    assert len(rows) - 1 == len(event(client, tid)["matches"])
    assert any(",director" in row for row in rows[1:])


def test_spectators_get_numbered_updates_over_websocket(client: TestClient) -> None:
    tid, token = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot"
        m = snap["event"]["matches"][0]
        ws.send_json({"type": "division", "key": "GS:pools"})  # the page shows GS's pools
        assert ws.receive_json()["type"] == "division"
        client.put(f"/api/tournaments/{tid}/matches/{m['id']}/result", json={"scores": [9, 2]},
                   headers=headers(token))  # fmt: skip
        update = ws.receive_json()
        assert update["type"] == "update" and update["seq"] == snap["seq"] + 1
        changed = {x["id"]: x for x in update["matches"]}
        assert changed[m["id"]]["result"]["scores"] == [9, 2]
        assert update["pools"][0]["standings"][0]["points"] == 2


def test_a_restart_loses_nothing(db_url: str) -> None:
    app = create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))
    with TestClient(app) as c:
        tid, token = ready_event(c)
        play_pools(c, tid, token)
        c.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=headers(token))
        before = event(c, tid)
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as c:
        after = event(c, tid)
        assert after == before
        assert c.post(f"/api/tournaments/{tid}/pools/GS/2/close", headers=headers(token)).is_success


def test_closing_a_pool_sends_the_knockout_matches_it_fills(client: TestClient) -> None:
    tid, token = ready_event(client)
    play_pools(client, tid, token)
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json({"type": "hello", "token": token})
        snap = ws.receive_json()
        knockout = {m["id"] for m in snap["event"]["matches"] if m["stage"] == "knockout"}
        client.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=headers(token))
        update = ws.receive_json()
        assert update["pools"][0]["closed"] is True
        filled = [m for m in update["matches"] if m["id"] in knockout]
        assert filled and all(any(s and s["id"] for s in m["sides"]) for m in filled)
        pool_result = next(m for m in snap["event"]["matches"] if m["pool"] == 2)
        client.put(f"/api/tournaments/{tid}/matches/{pool_result['id']}/result",
                   json={"scores": [1, 0]}, headers=headers(token))  # fmt: skip
        update = ws.receive_json()
        tiles = {m for _, now, nxt in update["tiles"] for m in (now, nxt) if m}
        # the match and its board's next one, no knockout match whose entrants did not change
        assert {m["id"] for m in update["matches"]} == {pool_result["id"]} | tiles


def test_a_store_failure_changes_nothing(client: TestClient) -> None:
    tid, token = ready_event(client)
    live = client.app.state.tournaments.events[tid]  # type: ignore[attr-defined]
    first = event(client, tid)["matches"][0]
    original = live.store.save

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    live.store.save = broken
    try:
        r = client.put(f"/api/tournaments/{tid}/matches/{first['id']}/result",
                       json={"scores": [9, 1]}, headers=headers(token))  # fmt: skip
        assert r.status_code == 503 and r.json()["detail"]["code"] == "store_unavailable"
    finally:
        live.store.save = original
    assert event(client, tid)["matches"][0]["result"] is None


def test_an_event_can_rank_by_its_own_tie_breaks(client: TestClient) -> None:
    r = client.post(
        "/api/tournaments",
        json={"name": "クラブ大会", "tiebreaks": ["match_points", "pucks", "lot"],
              "points": [3, 1, 0]},
        headers=organiser(client),
    )  # fmt: skip
    assert r.status_code == 201
    data = event(client, r.json()["id"])
    assert [t["key"] for t in data["tiebreaks"]] == ["match_points", "pucks", "lot"]
    assert data["points"] == {"win": 3, "draw": 1, "loss": 0}
    bad = client.post("/api/tournaments", json={"name": "x", "tiebreaks": ["coin"]},
                      headers=organiser(client))  # fmt: skip
    assert bad.status_code == 422
    bad = client.post("/api/tournaments", json={"name": "x", "points": [1, 1, 0]},
                      headers=organiser(client))  # fmt: skip
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "bad_points"


def test_a_spectator_that_cannot_keep_up_is_let_go() -> None:
    from hikone_carrom.server.core.errors import CloseCode
    from hikone_carrom.server.tournaments.spectators import Spectator

    conn = Spectator(None)  # type: ignore[arg-type]
    update = "u" * 1000
    for _ in range(Spectator.BUFFER_CHARS // len(update) + 1):
        conn.send(update)
    assert conn.dropped.is_set() and conn.close_code == CloseCode.TOO_SLOW
    assert conn.pending_chars <= Spectator.BUFFER_CHARS


def test_replanning_keeps_running_matches_and_avoids_a_broken_board(client: TestClient) -> None:
    tid, token = ready_event(client, boards=3)
    call = client.post(f"/api/tournaments/{tid}/boards/2/call", headers=headers(token)).json()
    done = next(m for m in event(client, tid)["matches"] if m["id"] != call["match"])
    client.put(f"/api/tournaments/{tid}/matches/{done['id']}/result", json={"scores": [3, 1]},
               headers=headers(token))  # fmt: skip
    r = client.post(f"/api/tournaments/{tid}/replan", json={"now": "10:00", "out_of_service": [2]},
                    headers=headers(token))  # fmt: skip
    assert r.status_code == 200, r.text
    matches = {m["id"]: m for m in event(client, tid)["matches"]}
    assert matches[call["match"]]["planned"]["board"] == 2  # the running match stays put
    for m in matches.values():
        if m["status"] == "planned" and m["planned"] and m["stage"] == "pool":
            assert m["planned"]["board"] != 2 and m["planned"]["start_s"] >= 36000
    bad = client.post(
        f"/api/tournaments/{tid}/replan", json={"now": "25:00"}, headers=headers(token)
    )
    assert bad.status_code == 422


def test_a_snapshot_is_never_taken_in_the_middle_of_a_change(db_url: str) -> None:
    """A spectator connecting while a result is being stored sees the event before or after
    that change, never the result without its live state."""
    import asyncio
    import json
    import threading

    from tests.tournament.helpers import general_event

    from hikone_carrom.server.core.runner import Runner
    from hikone_carrom.server.storage import GameStore
    from hikone_carrom.server.storage.tournament_store import TournamentStore
    from hikone_carrom.server.tournaments.hub import TournamentHub
    from hikone_carrom.tournament import Result, TournamentSettings

    store = GameStore(db_url)
    store.migrate()
    runner = Runner(1)
    gate = threading.Event()

    async def scenario() -> dict[str, object]:
        hub = TournamentHub(TournamentStore(store.engine), runner)
        live, _ = await hub.create(TournamentSettings("途中の大会"), None)
        for entry in general_event(4).entries.values():
            live.event.add_entry(entry)
        live.event.draw("GS")
        first = live.event.matches("GS")[0].id
        save = live.store.save

        def slow_save(*args: object, **kwargs: object) -> None:
            gate.wait(10)
            save(*args, **kwargs)  # type: ignore[arg-type]

        live.store.save = slow_save  # type: ignore[method-assign]
        recording = asyncio.create_task(
            live.record_result(first, Result.from_scores(9, 2), "審判", "director")
        )
        await asyncio.sleep(0.05)  # the result is in memory, its store write is held up
        snapshot = asyncio.create_task(live.snapshot_text())
        await asyncio.sleep(0.05)
        gate.set()
        await recording
        data = json.loads(await snapshot)
        return next(m for m in data["event"]["matches"] if m["id"] == first)

    try:
        match = asyncio.run(scenario())
    finally:
        gate.set()
        runner.close()
        store.close()
    assert match["result"] is None or match["source"] == "director"
