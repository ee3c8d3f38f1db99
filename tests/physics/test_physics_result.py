"""ShotResult API: JSON form, tracks, positions, first contact with banks; input checks."""

from __future__ import annotations

import importlib
import json
import math
import threading

import pytest

from hikone_carrom.bench.scenes import opening_break
from hikone_carrom.board import BoardSpec, PieceKind, Side
from hikone_carrom.physics import (
    Disk,
    EventKind,
    InvalidLayoutError,
    PhysicsError,
    StrikerFate,
    opening_disks,
    simulate,
)
from hikone_carrom.physics.simulate import MAX_EVENTS_LIMIT

B = BoardSpec()


def test_to_dict_is_plain_json_and_complete() -> None:
    res = simulate(opening_break(B).disks(B), B, seed=4)
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert d["version"] == 2
    assert len(d["events"]) == len(res.events)
    assert {f["id"] for f in d["final"]} == {x.id for x in res.final}
    assert set(d["tracks"]) == set(res.ids)
    assert d["striker_fate"] == res.striker_fate
    assert d["first_contact"]["disk_id"] == res.first_contact.disk_id


def test_positions_at_follow_the_tracks_from_start_to_rest() -> None:
    disks = opening_break(B).disks(B)
    res = simulate(disks, B)
    start = res.positions_at(0.0)
    for d in disks:
        s = start[d.id]
        assert (s.x, s.y, s.layer) == (d.x, d.y, d.layer)
    end = res.positions_at(res.duration + 1.0)
    assert {i: (s.x, s.y) for i, s in end.items()} == {d.id: (d.x, d.y) for d in res.final}
    for ev in res.events:
        if ev.kind in (EventKind.DISK_DISK, EventKind.DISK_RAIL, EventKind.STOPPED):
            now = res.positions_at(ev.time)
            for s in ev.states:
                assert (now[s.id].x, now[s.id].y) == (s.x, s.y)
    mid = res.positions_at(res.duration / 2)
    assert all(math.isfinite(s.x) for s in mid.values())
    with pytest.raises(ValueError):
        res.positions_at(-1.0)


def test_tracks_segments_and_ends() -> None:
    res = simulate([Disk.shot("S", 0.0, 0.0, math.pi / 4, 2.5), Disk.puck("P", -0.1, 0.0)], B)
    tracks = res.tracks()
    assert tracks["S"].end_kind is EventKind.POCKETED
    assert tracks["S"].end_time == res.pocketed[0].time
    assert tracks["P"].end_time is None
    assert tracks["P"].segments == (tracks["P"].segments[0],)
    assert tracks["S"].segments[0].vx == pytest.approx(2.5 / math.sqrt(2))


def test_forgotten_views_are_built_again_the_same() -> None:
    res = simulate(opening_break(B).disks(B), B, seed=4)
    events, tracks = res.events, res.tracks()
    res.forget_views()
    assert "events" not in vars(res) and "_tracks" not in vars(res)
    assert res.events == events and res.events is not events
    assert res.tracks() == tracks


def test_first_contact_after_a_bank() -> None:
    # the striker goes right, banks off the east rail and comes back to the puck
    disks = [Disk.striker("S", 0.1, -0.1, 2.0, 0.8), Disk.puck("P", 0.05, 0.1)]
    res = simulate(disks, BoardSpec.legacy())
    fc = res.first_contact
    assert fc.rails_before == (Side.EAST,)
    assert fc.disk_id == "P"
    assert res.striker_fate is StrikerFate.ON_BOARD


def test_first_contact_none_and_no_striker() -> None:
    res = simulate([Disk.striker("S", 0.0, 0.0, 0.1, 0.0)], B)
    assert res.first_contact.disk_id is None and res.first_contact.rails_before == ()
    res = simulate([Disk.puck("P", 0.0, 0.0, 0.1, 0.0)], B, striker=None)
    assert res.striker_fate is None


def test_disk_constructors_use_the_board_figures() -> None:
    s = Disk.striker("S", 0.0, -0.21, 0.0, 1.0)
    assert (s.radius, s.mass) == (B.striker_radius, B.striker_mass)
    j = Disk.jack("J", 0.0, 0.0)
    assert (j.radius, j.mass) == (B.jack_radius, B.jack_mass)
    assert Disk.of_kind(PieceKind.PUCK, "R0", 0.0, 0.0) == Disk.puck("R0", 0.0, 0.0)
    shot = Disk.shot("S", 0.0, 0.0, math.pi / 2, 2.0)
    assert shot.speed == pytest.approx(2.0) and shot.vx == pytest.approx(0.0, abs=1e-15)
    assert shot.at_rest().speed == 0.0
    ids = [d.id for d in opening_disks(B)]
    assert ids[0] == "J" and len(ids) == 25


@pytest.mark.parametrize(
    ("disks", "kwargs", "message"),
    [
        ([Disk.puck("A", 0.0, 0.0), Disk.puck("A", 0.1, 0.0)], {}, "duplicate"),
        ([Disk.puck("A", 0.0, 0.0), Disk.puck("B", 0.02, 0.0)], {}, "overlap"),
        ([Disk.puck("A", 0.29, 0.0)], {}, "beyond the rails"),
        ([Disk.puck("A", float("nan"), 0.0)], {}, "finite"),
        ([Disk.puck("", 0.0, 0.0)], {}, "non-empty"),
        ([Disk("A", 0.0, 0.0, radius=-1.0)], {}, "> 0"),
        ([Disk("A", 0.0, 0.0, layer=-1)], {}, "layer"),
        ([Disk.puck("A", 0.0, 0.0)], {"striker": "S"}, "striker"),
        ([Disk.puck("A", 0.0, 0.0)], {"striker": None, "max_events": 0}, "max_events"),
        ([Disk.puck("A", 0.0, 0.0)], {"striker": None, "seed": 1.5}, "seed"),
    ],
)
def test_bad_input_is_refused(disks: list[Disk], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidLayoutError, match=message):
        simulate(disks, B, **kwargs)  # type: ignore[arg-type]
    assert issubclass(InvalidLayoutError, PhysicsError)


@pytest.mark.parametrize(
    "disk",
    [
        Disk("A", 10**400, 0.0),
        Disk("A", 0.0, 0.0, vx=-(10**400)),
        Disk("A", 0.0, 0.0, mass=10**309),
        Disk("A", 0.0, 0.0, layer=10**400),
        Disk("A", 0.0, 0.0, radius=True),  # type: ignore[arg-type]
    ],
)
def test_huge_or_odd_numbers_in_disks_are_refused_with_a_sentence(disk: Disk) -> None:
    """A 400-digit int is an InvalidLayoutError, not an OverflowError."""
    with pytest.raises(InvalidLayoutError) as err:
        simulate([disk], B, striker=None)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize(("angle", "speed"), [(10**400, 1.0), (0.0, 10**400), (math.inf, 1.0)])
def test_a_shot_with_huge_numbers_is_refused(angle: float, speed: float) -> None:
    with pytest.raises(InvalidLayoutError, match="finite"):
        Disk.shot("S", 0.0, 0.0, angle, speed)


def test_absurd_event_guards_are_refused_and_memory_follows_the_events() -> None:
    """max_events=10**9 allocates no 67 GiB: the guard is bounded and the log grows
    with the events that happen."""
    import tracemalloc

    disks = opening_break(B).disks(B)
    for bad in (10**9, 10**400):
        with pytest.raises(InvalidLayoutError, match="max_events must be at most"):
            simulate(disks, B, max_events=bad)
    tracemalloc.start()
    try:
        res = simulate(disks, B, max_events=MAX_EVENTS_LIMIT)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6
    assert res.to_dict() == simulate(disks, B).to_dict()


def test_a_log_longer_than_the_first_allocation_is_complete(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    disks = opening_break(B).disks(B)
    full = simulate(disks, B, seed=3)
    assert len(full.events) > 8
    module = importlib.import_module("hikone_carrom.physics.simulate")
    monkeypatch.setattr(module, "FIRST_LOG_ROWS", 8)
    monkeypatch.setattr(module, "_SCRATCH", threading.local())
    again = simulate(disks, B, seed=3)
    assert again.to_dict() == full.to_dict()
