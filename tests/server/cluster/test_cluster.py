"""Several server processes on one PostgreSQL store and one Redis, as real
processes: any process serves any client of any room, every client sees every event once and
in order, and after kill -9 of a room's owner another process takes the room over from the
store: nothing stored is lost and no shot is played twice."""

from __future__ import annotations

import json
from typing import Any

import httpx
from tests.server.roomkit import straight_shot
from tests.server.serverkit import Player, online_room

from hikone_carrom.bench.throwaway import GameServer
from hikone_carrom.server.core.errors import CloseCode


def _play(players: dict[int, Player], shots: int, tag: str) -> tuple[Player, dict[str, Any]]:
    """Whoever's turn it is shoots; every player must see every event in order. Returns the
    last shooter and its message."""
    sent: tuple[Player, dict[str, Any]] | None = None
    for k in range(shots):
        state = players[0].state
        shooter = players[state["shooter"]]
        seq = max(p.seq for p in players.values())
        message = {"id": f"{tag}-{k}", **straight_shot(state, speed=2.0 + 0.3 * (k % 4))}
        shooter.send(**message)
        sent = (shooter, message)
        for p in players.values():
            p.until_seq(seq + 1)
        assert players[0].state == players[1].state
    assert sent is not None
    return sent


def test_any_process_serves_any_client_of_any_room(two_servers: tuple[GameServer, ...]) -> None:
    a, b = two_servers
    rid, token0, token1 = online_room(a, b)
    players = {0: Player(a, rid, token0), 1: Player(b, rid, token1)}
    assert players[0].seq == players[1].seq == 1  # the seat event
    spectator = Player(b, rid, None)
    shooter, last = _play(players, 5, "s")
    spectator.until_seq(players[0].seq)
    assert [e["kind"] for e in spectator.events] == ["shot"] * 5
    here = httpx.get(f"{a.base}/api/rooms/{rid}").json()
    there = httpx.get(f"{b.base}/api/rooms/{rid}").json()
    assert here["seq"] == there["seq"] == 6 and here["state"] == there["state"]
    shooter.send(**last)  # the same message again, through whichever process: played once
    assert json.loads(shooter.conn.recv(timeout=30)) == {"type": "duplicate", "id": "s-4", "seq": 6}
    for p in (*players.values(), spectator):
        p.close()


def test_kill_9_of_the_owner_hands_its_rooms_to_another_process(
    two_servers: tuple[GameServer, ...],
) -> None:
    a, b = two_servers
    rid, token0, token1 = online_room(a, b)  # made on a: a owns it
    players = {0: Player(a, rid, token0), 1: Player(b, rid, token1)}
    _play(players, 3, "before")
    stored = players[0].seq
    state = players[0].state
    shooter = state["shooter"]
    last = {"id": "last-shot", **straight_shot(state, speed=2.2)}
    players[shooter].send(**last)  # and the owner dies just as the shot is sent
    a.kill9()
    # the client of the dead process lost its connection; the other is told the room moved
    assert players[1].closed() == CloseCode.ROOM_MOVED
    players[0].closed()
    for p in players.values():
        p.connect(b)  # reconnect (a load balancer would send them to a live process)
        assert p.seq >= stored  # nothing stored is lost
    players[shooter].send(**last)  # resent with the same id: played at most once
    for p in players.values():
        p.until_seq(stored + 1)
    _play(players, 3, "after")
    snap = httpx.get(f"{b.base}/api/rooms/{rid}").json()
    assert snap["seq"] == players[0].seq == players[1].seq
    replay = httpx.get(f"{b.base}/api/games/{snap['room']['game_id']}/replay").json()
    ids = [e.get("action_id") for e in replay["events"]]
    assert ids.count("last-shot") == 1  # stored once, whether before the kill or after it
    assert len(ids) == len(set(ids)) == 7  # every shot stored once
