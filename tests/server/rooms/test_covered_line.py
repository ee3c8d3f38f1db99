"""A covered area line in a room (R2b): the lane behind it is offered to the player, and
under the reading "pass" the room passes the turn by itself with a message."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.rules import RefereeState, RuleOptions
from hikone_carrom.server.rooms.room import Room

BOARD = BoardSpec()
LINE_Y = BOARD.tee_spot(Side.SOUTH).y


def _position(pucks: list[tuple[float, float]], options: RuleOptions) -> Match:
    layout = [disk_for(BOARD, "J", 0.0, 0.0), disk_for(BOARD, "G0", 0.0, 0.2)]
    layout += [disk_for(BOARD, f"R{k}", x, y) for k, (x, y) in enumerate(pucks)]
    state = RefereeState(
        players=2, options=options, pocketed=(12 - len(pucks), 11), has_shot=(True, True)
    )
    return Match.from_position(layout, state, seed=2)


def _room_with(client: TestClient, room_id: str, match: Match) -> Room:
    room: Room = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    room.match = match
    room._refresh_state()
    client.portal.call(room._after_change)  # type: ignore[union-attr]
    return room


def test_a_room_offers_the_lane_behind_a_covered_line(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    pucks = [(-0.2 + 0.05 * k, LINE_Y + 0.012) for k in range(9)]
    options = client.app.state.registry.rooms[rid].config.options()  # type: ignore[attr-defined]
    _room_with(client, rid, _position(pucks, options))
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        state = hello(ws, made["token"])["state"]
        placement = state["placement"]
        assert placement["kind"] == "line" and placement["free"]
        assert placement["line"][0][1] < LINE_Y == placement["area_line"][0][1]
        send(ws, **straight_shot(state, speed=1.0))
        msg: dict[str, Any] = ws.receive_json()
        assert msg["type"] == "event" and msg["event"]["kind"] == "shot"
        assert msg["event"]["executed"]["y"] < LINE_Y


def test_under_the_pass_reading_the_room_passes_the_turn(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    pucks = [(-0.2 + 0.035 * k, LINE_Y) for k in range(12)]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        hello(ws, made["token"])
        _room_with(client, rid, _position(pucks, RuleOptions(covered_area_line="pass")))
        msg: dict[str, Any] = ws.receive_json()
        ev = msg["event"]
        assert ev["kind"] == "skip" and ev["seat"] == 0
        assert ev["ruling"]["reasons"] == ["R2b", "R3d"] and ev["ruling"]["penalty"] == 0
        assert any("R2b" in line for line in ev["explain"]["en"])
        assert any("エリアライン" in line for line in ev["explain"]["ja"])
        assert ev["state"]["shooter"] == 1
