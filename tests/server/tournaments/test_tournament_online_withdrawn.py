"""A withdrawn call served by an online room tells the room: its players and spectators are
shown 「この試合は取り消されました（大会本部）」, the room takes no more shots, and nothing it gives
is credited to the event (docs/tournament.md)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.roomkit import hello, receive, send, straight_shot
from tests.server.tournamentkit import event, headers
from tests.server.tournaments.test_tournament_online import _links, _online_event, _seat


def _match(client: TestClient, tid: str, match_id: str) -> dict[str, Any]:
    return next(m for m in event(client, tid)["matches"] if m["id"] == match_id)


def test_a_withdrawn_online_call_tells_the_room_which_takes_no_more_shots(
    client: TestClient,
) -> None:
    tid, token = _online_event(client)
    links = _links(client, tid, token)
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    red, green = call["sides"]
    seat_red = _seat(client, tid, links[red])
    _seat(client, tid, links[green])
    room: Any = client.app.state.registry.rooms[call["room"]]  # type: ignore[attr-defined]
    entrant = _match(client, tid, call["match"])["sides"][0]["id"]
    url = f"/api/tournaments/{tid}/entries/{entrant}/status"
    with (
        client.websocket_connect(f"/ws/rooms/{call['room']}") as player,
        client.websocket_connect(f"/ws/rooms/{call['room']}") as spectator,
    ):
        state = hello(player, seat_red["token"])["state"]
        hello(spectator, None)
        r = client.post(f"{url}?confirm=true", json={"status": "withdrawn"}, headers=headers(token))
        assert r.status_code == 200, r.text
        for ws in (player, spectator):
            told = receive(ws)
            assert told["type"] == "event" and told["event"]["kind"] == "withdrawn"
            assert told["event"]["message"] == {
                "ja": "この試合は取り消されました（大会本部）",
                "en": "This match was withdrawn (by the director)",
            }
        send(player, **straight_shot(state))
        refused = receive(player)
        assert refused["type"] == "error" and refused["code"] == "match_withdrawn", refused
        assert refused["message"]["ja"].startswith("この試合は取り消されました（大会本部）")
        again = hello(spectator, None)  # a page that reconnects is shown it too
        assert again["withdrawn"]["ja"] == "この試合は取り消されました（大会本部）"
        assert again["log"][-1]["kind"] == "withdrawn"  # and its log ends with it
    assert room.match.outcome is None  # no shot was played
    done = _match(client, tid, call["match"])
    assert done["status"] == "forfeit" and done["source"] != "online"
