"""The expert's hint over the WebSocket: only for the seat whose turn it is,
only to the client that asked, once per position, and without changing the game or its record."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, event, hello, receive, send, straight_shot

from hikone_carrom.ai import ShotKind
from hikone_carrom.ai import hint as library_hint
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match
from hikone_carrom.records import replay, to_record
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.rooms.hints import describe_hint, pocket_name
from hikone_carrom.server.rooms.room import Room
from hikone_carrom.server.thinking.pool import ThinkingPool, ThinkJob, Thought


def _room(client: TestClient, room_id: str) -> Room:
    room: Room = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    return room


def _ask(ws: Any, seat: int | None = None) -> dict[str, Any]:
    """Ask for a hint; the answer (or the refusal), after the event showing everyone that a
    hint was used (which a first ask of a position makes)."""
    msg: dict[str, Any] = {"type": "hint"}
    if seat is not None:
        msg["seat"] = seat
    ws.send_text(json.dumps(msg))
    return receive(ws, "event")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the hint computations the rooms send to the thinking pool (actions count at
    each)."""
    calls: list[int] = []
    run = ThinkingPool.run

    async def counting(
        pool: ThinkingPool, room_id: str, job: ThinkJob, *, urgent: bool = False
    ) -> Thought:
        if job.kind == "hint":
            calls.append(len(job.position.actions))
        return await run(pool, room_id, job, urgent=urgent)

    monkeypatch.setattr(ThinkingPool, "run", counting)
    return calls


def test_the_shooter_gets_a_legal_described_hint_and_only_they_get_it(
    client: TestClient,
) -> None:
    made = create_room(client, mode="computer", players=2, level="1")
    rid = made["room_id"]
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as player,
        client.websocket_connect(f"/ws/rooms/{rid}") as watcher,
    ):
        snap = hello(player, made["token"])
        assert snap["room"]["hints"] is True
        hello(watcher, None)
        answer = _ask(player)
        assert answer["type"] == "hint", answer
        assert answer["seat"] == 0 and answer["actions"] == 0 and answer["cached"] is False
        assert answer["game_id"] == snap["room"]["game_id"]
        shot = answer["shot"]
        tee = snap["state"]["placement"]["point"]  # first shot: from the tee spot (R2a)
        assert [shot["x"], shot["y"]] == pytest.approx(tee, abs=1e-9)
        assert 0.0 < shot["speed"] <= snap["board"]["max_speed"]
        assert answer["power"] == pytest.approx(shot["speed"] / snap["board"]["max_speed"])
        assert answer["kind"] in {kind.value for kind in ShotKind}
        assert "R2a" in answer["text"]["en"] and "R2a" in answer["text"]["ja"]
        assert "m/s" in answer["text"]["en"] and "ストライカー" in answer["text"]["ja"]
        # everyone sees that a hint was used, and which shot it suggested; not the state
        shown = event(watcher)
        assert shown["seq"] == 1 and shown["event"]["kind"] == "hint"
        assert shown["event"]["seat"] == 0 and shown["event"]["shot"] == shot
        assert shown["event"]["text"] == answer["text"] and "state" not in shown["event"]
        # adopting it is a legal shot
        send(player, type="shot", seat=0, **shot)
        for ws in (player, watcher):
            msg = event(ws)
            assert msg["seq"] == 2, msg
            assert msg["event"]["shot"] == shot
        assert msg["event"]["executed"] == shot  # a person's shot: no hand noise
        # the computer is not a person: nobody may ask for its seat
        assert _ask(player, seat=1)["code"] in {"not_your_seat", "not_your_turn"}


def test_refusals_are_clear_in_both_languages_and_change_nothing(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as player,
        client.websocket_connect(f"/ws/rooms/{rid}") as watcher,
    ):
        snap = hello(player, made["token"])
        hello(watcher, None)
        refused = _ask(player, seat=1)
        assert refused["code"] == "not_your_turn" and refused["rule"] == "R1c"
        assert refused["message"]["en"] and refused["message"]["ja"]
        assert _ask(watcher)["code"] == "not_your_seat"
        assert _ask(watcher, seat=0)["code"] == "not_your_seat"
        player.send_text('{"type": "hint", "seat": 7}')
        assert player.receive_json()["code"] == "bad_message"
        player.send_text('{"type": "hint", "seat": 0, "shot": true}')
        assert player.receive_json()["code"] == "bad_message"
        send(player, type="resync", last_seq=0)
        again = player.receive_json()
        assert again["seq"] == 0 and again["state"] == snap["state"]
        assert _room(client, rid).hint_book.computed == 0


def test_a_room_with_hints_off_refuses_them(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2, hints=False)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snap = hello(ws, made["token"])
        assert snap["room"]["hints"] is False
        refused = _ask(ws)
        assert refused["code"] == "hints_off"
        assert refused["message"]["ja"] == "この部屋ではヒントは使えません"
        send(ws, type="resync", last_seq=0)
        assert ws.receive_json()["state"] == snap["state"]
    assert _room(client, rid).hint_book.computed == 0


def test_online_rooms_have_hints_off_unless_asked(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="A")
    assert client.get(f"/api/rooms/{made['room_id']}").json()["room"]["hints"] is False
    for mode in ("computer", "hotseat"):
        other = create_room(client, mode=mode, players=2)
        assert client.get(f"/api/rooms/{other['room_id']}").json()["room"]["hints"] is True


def test_online_hints_wait_for_the_seats_and_the_turn(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="A", hints=True)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as a:
        hello(a, made["token"])
        assert _ask(a)["code"] == "waiting"
        other = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "B"}).json()["token"]
        assert event(a)["event"]["kind"] == "seat"
        with client.websocket_connect(f"/ws/rooms/{rid}") as b:
            hello(b, other)
            assert _ask(b)["code"] == "not_your_seat"  # the shooter is seat 0
            assert _ask(b, seat=1)["code"] == "not_your_turn"
            assert _ask(a)["type"] == "hint"


def test_a_finished_game_gives_no_hint(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2, minutes=1)
    rid = made["room_id"]
    room = _room(client, rid)
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        hello(ws, made["token"])
        room._time.shift += 61.0
        while not ws.receive_json()["event"]["state"]["over"]:
            room._time.shift += 10.5
        refused = _ask(ws)
        assert refused["code"] == "game_over" and refused["message"]["ja"]


def test_one_computation_per_turn_and_repeat_asks_are_cached(
    client: TestClient, counted: list[int]
) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as a,
        client.websocket_connect(f"/ws/rooms/{rid}") as b,
    ):
        state = hello(a, made["token"])["state"]
        hello(b, made["token"])  # the same player in a second tab
        send(a, type="hint")
        send(b, type="hint")  # while the first is being computed
        first, second = receive(a, "event"), receive(b, "event")
        assert first["type"] == second["type"] == "hint"
        assert first["shot"] == second["shot"]
        assert sorted([first["cached"], second["cached"]]) == [False, True]
        for _ in range(3):
            again = _ask(a)
            assert again["cached"] is True and again["shot"] == first["shot"]
            assert again["text"] == first["text"]
        assert counted == [0]
        send(a, **straight_shot(state))
        state = event(a)["event"]["state"]
        event(b)
        fresh = _ask(a)
        assert fresh["cached"] is False and fresh["actions"] == 1
        assert fresh["seat"] == state["shooter"]
        assert _ask(b)["cached"] is True
        assert counted == [0, 1]
        assert _room(client, rid).hint_book.computed == 2


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every new room gets the same seed, so two rooms can play the same game."""
    monkeypatch.setattr(secrets, "randbelow", lambda _n: 424242)  # the registry's room seed
    yield


def _play_against_the_computer(client: TestClient, ask: bool, turns: int) -> dict[str, Any]:
    """Play ``turns`` human turns (straight shots) and the computer's replies; with ``ask`` the
    human asks for a hint (twice) before every shot. Returns the record and the stored events."""
    made = create_room(client, mode="computer", players=2, level="2", name="Hana")
    rid = made["room_id"]
    hints: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        state = hello(ws, made["token"])["state"]
        human_turns = 0
        while not state["over"]:
            if state["shooter"] == 0:
                if human_turns == turns:
                    break
                if ask:
                    hints.append(_ask(ws))
                    assert hints[-1]["type"] == "hint", hints[-1]
                    assert _ask(ws)["cached"] is True
                send(ws, **straight_shot(state, speed=1.6 + 0.4 * human_turns))
                human_turns += 1
            msg = event(ws)
            if msg["event"]["kind"] != "hint":
                state = msg["event"]["state"]
    room = _room(client, rid)
    events = room.store.game_events(room.game_id)
    return {
        "record": to_record(room.match, room._players_info(), room.hints_used),
        "events": [(e.kind, e.payload.get("shot"), e.payload.get("ruling")) for e in events],
        "hints": hints,
    }


def test_asking_for_hints_changes_neither_the_game_nor_its_record(
    db_url: str, fixed_seed: None
) -> None:
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as client:
        plain = _play_against_the_computer(client, ask=False, turns=3)
        hinted = _play_against_the_computer(client, ask=True, turns=3)
    assert len(hinted["hints"]) == 3
    # the game is the same; the record and the events only add the hints used
    used = hinted["record"].pop("hints")
    assert plain["record"].pop("hints") == []
    assert hinted["record"] == plain["record"]
    assert [(h["seat"], h["shot"]) for h in used] == [(0, h["shot"]) for h in hinted["hints"]]
    assert [e for e in hinted["events"] if e[0] != "hint"] == plain["events"]
    shown = [e[1] for e in hinted["events"] if e[0] == "hint"]
    assert shown == [h["shot"] for h in hinted["hints"]]
    replay(hinted["record"] | {"hints": used})
    assert any(kind == "shot" and shot for kind, shot, _ in plain["events"])
    seats = [a["seat"] for a in plain["record"]["actions"]]
    assert 1 in seats  # the computer played in between, with the same decisions
    # and it shot again after its own success (R3a): its turn task hands over to the next one
    assert any(a == b == 1 for a, b in pairwise(seats))


def test_the_hints_option_survives_a_restart(any_db_url: str) -> None:
    settings = ServerSettings(db_url=any_db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as first:
        off = create_room(first, mode="online", players=2, hints=False)["room_id"]
        on = create_room(first, mode="computer", players=2, level="1")["room_id"]
    with TestClient(create_app(settings)) as second:
        assert second.get(f"/api/rooms/{off}").json()["room"]["hints"] is False
        assert second.get(f"/api/rooms/{on}").json()["room"]["hints"] is True


def test_pockets_and_placement_are_named_as_the_shooter_sees_them() -> None:
    board = BoardSpec()
    # pocket 0 is the south-west corner
    assert pocket_name(board, Side.SOUTH, 0) == ("near-left", "左手前")
    assert pocket_name(board, Side.NORTH, 0) == ("far-right", "右奥")
    assert pocket_name(board, Side.WEST, 0) == ("near-right", "右手前")
    assert pocket_name(board, Side.EAST, 0) == ("far-left", "左奥")
    m = Match(2, seed=3)
    plan = library_hint(m, seed=1)
    text = describe_hint(plan, board, Side.SOUTH, m.color(0), first_shot=True)
    assert text["en"].endswith(".") and text["ja"].endswith("。")
    assert f"{plan.shot.speed:.2f} m/s" in text["en"] and f"{plan.shot.speed:.2f} m/s" in text["ja"]
    assert library_hint(m, seed=1) == plan  # deterministic for a position and seed


def test_every_kind_of_candidate_is_described_in_both_languages() -> None:
    board = BoardSpec()
    m = Match(2, seed=3)
    plan = library_hint(m, seed=1)
    texts = set()
    for kind in ShotKind:
        described = replace(plan, info={**plan.info, "kind": kind.value})
        text = describe_hint(described, board, Side.SOUTH, m.color(0), first_shot=True)
        assert "The expert's shot." not in text["en"] and "上級者のショット" not in text["ja"]
        texts.add(text["ja"])
    assert len(texts) == len(ShotKind)
