"""Creating events and boards needs the organiser's key: refused without it
and nothing made; the key kept with the store is the same for every server on it; the option and
the environment variable give it; creation is rate-limited per address and boards are bounded."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from tests.server.organiserkit import organiser, organiser_key
from tests.server.tournamentkit import create, headers, ready_event

from hikone_carrom.bench.throwaway import GameServer
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ORGANISER_KEY_ENV_VAR, ServerSettings
from hikone_carrom.server.storage import GameStore
from hikone_carrom.server.storage.organiser_key import organiser_key as kept_key

CREATIONS = [
    ("/api/tournaments", {"name": "勝手な大会", "boards": 4}),
    ("/api/boards", {"name": "勝手な台"}),
]


def _rows(client: TestClient, table: str) -> int:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as db:
        return int(db.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


@pytest.mark.parametrize("auth", [None, "Bearer not-the-key", "Basic x", "Bearer "])
@pytest.mark.parametrize(("path", "body"), CREATIONS)
def test_creating_without_the_organisers_key_is_refused_and_makes_nothing(
    client: TestClient, path: str, body: dict[str, object], auth: str | None
) -> None:
    r = client.post(path, json=body, headers={"Authorization": auth} if auth else {})
    assert r.status_code == 401, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "not_organiser"
    assert "?key=" in detail["en"] and "?key=" in detail["ja"]
    assert _rows(client, "tournaments") == 0 and _rows(client, "boards") == 0
    assert client.post(path, json=body, headers=organiser(client)).status_code == 201


def test_giving_an_events_boards_pads_needs_the_organisers_key(client: TestClient) -> None:
    tid, token = ready_event(client)
    for refused in (headers(token), {}, headers("not-the-key")):
        r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=refused)
        assert r.status_code == 401 and r.json()["detail"]["code"] == "not_organiser"
    assert _rows(client, "boards") == 0
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=organiser(client))
    assert r.status_code == 200 and [p["board"] for p in r.json()["pads"]] == [1]
    assert _rows(client, "boards") == 1


def test_the_key_kept_with_the_store_is_the_same_for_every_app_on_it(db_url: str) -> None:
    keys = []
    for _ in range(2):
        with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as c:
            keys.append(organiser_key(c))
            assert c.post("/api/boards", json={}, headers=organiser(c)).status_code == 201
    assert keys[0] == keys[1] and len(keys[0]) >= 40


def test_servers_starting_together_make_one_key(any_db_url: str) -> None:
    store = GameStore(any_db_url)
    store.migrate()
    start = threading.Barrier(6)
    seen: list[str] = []

    def one() -> None:
        engine = create_engine(any_db_url)  # as a process of its own would
        start.wait()
        seen.append(kept_key(engine))
        engine.dispose()

    workers = [threading.Thread(target=one) for _ in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(seen) == 6 and len(set(seen)) == 1
    assert kept_key(store.engine) == seen[0]
    store.close()


def test_a_key_given_in_the_settings_replaces_the_kept_one(db_url: str) -> None:
    given = "a-key-of-the-organisers-choosing"
    with TestClient(create_app(ServerSettings(db_url=db_url, organiser_key=given))) as c:
        assert c.post("/api/boards", json={}, headers=organiser(c)).status_code == 201
        kept = kept_key(c.app.state.store.engine)  # type: ignore[attr-defined]
        assert kept != given
        r = c.post("/api/boards", json={}, headers={"Authorization": f"Bearer {kept}"})
        assert r.status_code == 401
    with pytest.raises(ValueError, match="at least 16"):
        create_app(ServerSettings(db_url=db_url, organiser_key="short"))


def _printed_key(server: GameServer) -> str:
    server.stop()
    found = re.search(r"sign-in link.*: (http://\S+)/\?key=(\S+)", server.log.read_text())
    assert found, server.log.read_text()
    assert found.group(1) == "http://127.0.0.1:" + str(server.port)
    return found.group(2)


def test_serve_prints_the_sign_in_link_and_takes_the_option_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    made = GameServer(db_url, log_dir=tmp_path).wait_ready()
    board = httpx.post(f"{made.base}/api/boards", json={}, headers={"Authorization": "Bearer x"})
    assert board.status_code == 401
    printed = _printed_key(made)
    store = GameStore(db_url)
    assert printed == kept_key(store.engine)  # the key kept with the store
    store.close()

    given = "organiser-key-from-the-option"
    server = GameServer(db_url, "--organiser-key", given, log_dir=tmp_path).wait_ready()
    for key, status in ((given, 201), (printed, 401)):
        r = httpx.post(f"{server.base}/api/boards", json={},
                       headers={"Authorization": f"Bearer {key}"})  # fmt: skip
        assert r.status_code == status, r.text
    assert _printed_key(server) == given

    from_env = "organiser-key-from-the-environment"
    monkeypatch.setenv(ORGANISER_KEY_ENV_VAR, from_env)
    server = GameServer(db_url, log_dir=tmp_path).wait_ready()
    r = httpx.post(f"{server.base}/api/tournaments", json={"name": "大会"},
                   headers={"Authorization": f"Bearer {from_env}"})  # fmt: skip
    assert r.status_code == 201, r.text
    assert _printed_key(server) == from_env


def test_a_short_organiser_key_is_refused_at_start(capsys: pytest.CaptureFixture[str]) -> None:
    from hikone_carrom.server.core.launch import main

    with pytest.raises(SystemExit) as stop:
        main(["--no-browser", "--organiser-key", "too-short"])
    assert stop.value.code == 2
    assert "at least 16" in capsys.readouterr().err


def test_creation_is_rate_limited_per_address(db_url: str) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0, creations_per_minute=3)
    app = create_app(settings)
    with TestClient(app) as c:
        for _ in range(2):
            assert c.post("/api/boards", json={}, headers=organiser(c)).status_code == 201
        create(c)
        r = c.post("/api/boards", json={}, headers=organiser(c))
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
        assert r.headers["retry-after"] == "20"
        assert r.json()["detail"]["ja"]
        assert _rows(c, "boards") == 2
        r = c.post("/api/tournaments", json={"name": "四つ目"}, headers=organiser(c))
        assert r.status_code == 429 and _rows(c, "tournaments") == 1
    with TestClient(app, client=("192.0.2.7", 50000)) as other:  # another address: its own
        assert other.post("/api/boards", json={}, headers=organiser(other)).status_code == 201


def test_the_boards_of_an_event_are_bounded(client: TestClient) -> None:
    r = client.post("/api/tournaments", json={"name": "大きすぎ", "boards": 201},
                    headers=organiser(client))  # fmt: skip
    assert r.status_code == 422
    tid, _ = create(client, boards=200)
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": list(range(1, 202))},
                    headers=organiser(client))  # fmt: skip
    assert r.status_code == 422 and _rows(client, "boards") == 0


def test_game_rooms_stay_open_to_anyone(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"mode": "online", "name": "誰でも"})
    assert r.status_code == 201, r.text
