"""Presence and the other unnumbered messages across server processes, on real processes, a real
PostgreSQL and a real Redis: a seat held through any process is online for everyone, goes offline
when its client leaves or its process is killed, presence is rebuilt on the process that takes a
room over after kill -9 of its owner, and an analysis's progress reaches the clients of every
process. Presence never disturbs the numbering of the events."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from tests.server.roomkit import straight_shot
from tests.server.serverkit import Player, online_room, running_servers

from hikone_carrom.bench.throwaway import GameServer, RedisServer
from hikone_carrom.server.core.errors import CloseCode

GONE_BOUND_S = 10.0
"""A killed process's seats must be offline this soon (generous: a shared, busy machine; a
lease renewal, 4/3 s, on a quiet one)."""

WAIT_S = 60.0
"""How long a client waits for what it must see (a busy machine)."""


@pytest.fixture
def three_servers(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> Iterator[tuple[GameServer, ...]]:
    with running_servers(3, pg_url, redis_server.url, tmp_path) as servers:
        yield servers


def _online(*seats: bool) -> Callable[[Player], bool]:
    """Until a client was told that exactly these seats are online."""
    want = list(seats)
    return lambda p: p.online() == want


def _rest_online(server: GameServer, rid: str) -> list[bool]:
    snap = httpx.get(f"{server.base}/api/rooms/{rid}", timeout=30).json()
    return [bool(p["online"]) for p in snap["presence"]]


def _since(player: Player, seat: int) -> datetime:
    since = player.presence[seat]["since"]
    assert since is not None, player.presence
    return datetime.fromisoformat(since)


def test_seats_held_through_either_process_are_online_for_everyone(
    two_servers: tuple[GameServer, ...],
) -> None:
    a, b = two_servers
    rid, token0, token1 = online_room(a, b)
    here = Player(a, rid, token0)  # a client of the owner
    there = Player(b, rid, token1)  # a client served through the relay
    watcher = Player(b, rid, None)
    for p in (here, there, watcher):
        p.until(_online(True, True), WAIT_S)
    assert _rest_online(a, rid) == _rest_online(b, rid) == [True, True]

    there.close()  # the relayed seat leaves: everyone sees since when
    for p in (here, watcher):
        p.until(_online(True, False), WAIT_S)
        assert abs((datetime.now(UTC) - _since(p, 1)).total_seconds()) < WAIT_S
    there.connect(b)
    assert there.online() == [True, True]  # its snapshot already counts it
    here.close()  # the owner's own client leaves: the relayed clients are told too
    for p in (there, watcher):
        p.until(_online(False, True), WAIT_S)
    assert _rest_online(b, rid) == [False, True]

    here.connect(a)  # presence never disturbs the events' numbering
    for p in (here, there, watcher):
        p.until(_online(True, True), WAIT_S)
    here.send(id="first", **straight_shot(here.state, speed=2.0))
    for p in (here, there, watcher):
        p.until_seq(2, WAIT_S)
        assert [e["kind"] for e in p.events] == ["shot"]
    for p in (here, there, watcher):
        p.close()


def test_kill_9_of_a_relaying_process_takes_its_seats_offline(
    two_servers: tuple[GameServer, ...],
) -> None:
    a, b = two_servers
    rid, token0, token1 = online_room(a, b)
    here = Player(a, rid, token0)
    watcher = Player(a, rid, None)
    there = Player(b, rid, token1)
    for p in (here, watcher):
        p.until(_online(True, True), WAIT_S)
    b.kill9()
    killed = datetime.now(UTC)
    took = here.until(_online(True, False), GONE_BOUND_S)
    watcher.until(_online(True, False), GONE_BOUND_S)
    print(f"seat of the killed process offline after {took:.2f} s")
    assert abs((_since(here, 1) - killed).total_seconds()) < GONE_BOUND_S
    assert _rest_online(a, rid) == [True, False]
    there.close()
    for p in (here, watcher):
        p.close()


def test_kill_9_of_the_owner_rebuilds_presence_where_the_room_is_taken_over(
    three_servers: tuple[GameServer, ...],
) -> None:
    """a owns the room; seat 0 is held through b, seat 1 through c (gone before the kill), and
    a spectator watches on a. After kill -9 of a, b takes the room over: seat 0 is online again
    as soon as its client is back, seat 1 is still "disconnected since" the time a told, and
    the seat that comes back through c is online for everyone."""
    a, b, c = three_servers
    rid, token0, token1 = online_room(a, c)
    first = Player(b, rid, token0)
    second = Player(c, rid, token1)
    watcher = Player(a, rid, None)
    for p in (first, second, watcher):
        p.until(_online(True, True), WAIT_S)
    second.close()
    first.until(_online(True, False), WAIT_S)
    went = first.presence[1]["since"]

    a.kill9()
    assert first.closed() == CloseCode.ROOM_MOVED
    watcher.closed()
    first.connect(b)  # b takes the room over from the store
    assert first.online() == [True, False]
    assert first.presence[1]["since"] == went  # as the dead owner last told it
    second.connect(c)  # relayed by c to the new owner
    for p in (first, second):
        p.until(_online(True, True), WAIT_S)
    assert _rest_online(b, rid) == _rest_online(c, rid) == [True, True]
    second.close()
    first.until(_online(True, False), WAIT_S)
    first.close()


def test_an_analysis_asked_through_a_relay_reports_progress_to_every_process(
    two_servers: tuple[GameServer, ...],
) -> None:
    a, b = two_servers
    made = httpx.post(f"{a.base}/api/rooms", json={"mode": "hotseat"}).json()  # a owns it
    rid, token = made["room_id"], made["token"]
    here = Player(a, rid, token)
    here.send(id="only", **straight_shot(here.state, speed=2.0))
    here.until_seq(1, WAIT_S)
    here.send(type="resign", seat=here.state["shooter"], id="bye")
    here.until_seq(2, WAIT_S)
    there = Player(b, rid, None)  # a spectator served through b asks
    there.send(type="analyse", id="an-1")
    for p in (there, here):
        p.until(lambda p: any(m.get("status") == "done" for m in p.answers), 600.0)
        progress = [(m["status"], m["done"]) for m in p.answers if m["type"] == "analysis"]
        assert ("running", 0) in progress and progress[-1] == ("done", 1), progress
    assert [m["id"] for m in there.answers if "id" in m] == ["an-1"]
    done = [m for m in there.answers if m.get("status") == "done"]
    assert len(done) == 1 and done[0]["total"] == 1 and done[0]["result"]["shots"]
    stored = httpx.get(f"{b.base}/api/games/{rid}-1/analysis", timeout=30).json()
    assert stored["status"] == "done" and stored["result"] == done[0]["result"]
    for p in (here, there):
        p.close()
