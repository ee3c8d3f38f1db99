"""Presence as the owner of a room keeps it: clients here and clients other processes relay, each
holding seats; a seat is online while any of them holds it, and "since" is when that last
changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hikone_carrom.server.rooms.presence import Presence, Relayed

KINDS = ["human", "human", "computer", "open"]


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 4, 29, 14, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def tick(self, minutes: int) -> datetime:
        self.now += timedelta(minutes=minutes)
        return self.now


def _online(p: Presence) -> list[bool]:
    return [s["online"] for s in p.view(KINDS)]


def test_a_seat_is_online_while_any_client_here_or_relayed_holds_it() -> None:
    clock = _Clock()
    p = Presence(clock)
    tab, relayed = object(), Relayed("node-b", 7)
    assert p.connect(tab, [0]) and _online(p) == [True, False, True, False]
    assert p.connect(relayed, [0, 1])  # seat 1 came online
    assert not p.disconnect(tab)  # seat 0 still held through the other process
    went = clock.tick(3)
    assert p.disconnect(relayed) and _online(p) == [False, False, True, False]
    assert p.view(KINDS)[0]["since"] == went.isoformat()
    assert not p.disconnect(relayed)  # told twice: nothing more


def test_a_second_hello_moves_the_client_s_seats_without_flicker() -> None:
    clock = _Clock()
    p = Presence(clock)
    tab = object()
    p.connect(tab, [0])
    came = clock.now
    clock.tick(1)
    assert not p.connect(tab, [0])  # the same seats again: nothing changes, not even since
    assert p.view(KINDS)[0]["since"] == came.isoformat()
    assert p.connect(tab, [1]) and _online(p)[:2] == [False, True]


def test_a_stopped_process_takes_only_its_own_clients_away() -> None:
    clock = _Clock()
    p = Presence(clock)
    p.connect(Relayed("b", 1), [0])
    p.connect(Relayed("b", 2), [1])
    p.connect(Relayed("c", 1), [1])
    assert sorted(p.relayed()) == [Relayed("b", 1), Relayed("b", 2), Relayed("c", 1)]
    assert p.forget_node("b")  # seat 0 went offline; seat 1 still held through c
    assert _online(p)[:2] == [False, True] and p.relayed() == [Relayed("c", 1)]
    assert not p.forget_node("b")


def test_a_new_owner_resumes_from_the_presence_the_last_one_told() -> None:
    clock = _Clock()
    old = Presence(clock)
    old.connect(object(), [0])
    gone = object()
    old.connect(gone, [1])
    old.disconnect(gone)
    told = old.view(KINDS)
    taken_over = clock.tick(5)
    new = Presence(clock)
    new.resume(told)
    view = new.view(KINDS)
    assert _online(new) == [False, False, True, False]  # nobody is back yet
    assert view[0]["since"] == taken_over.isoformat()  # was online: away since the takeover
    assert view[1]["since"] == told[1]["since"]  # was away: since the same time
    assert view[2]["since"] is None and view[3]["since"] is None
