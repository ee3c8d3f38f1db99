"""simulate_batch equals simulate run one by one."""

from __future__ import annotations

import numpy as np
import pytest

from hikone_carrom.bench.scenes import midgame_layout, random_shot
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import (
    Disk,
    InvalidLayoutError,
    InvalidShotError,
    StrikerFate,
    opening_disks,
    simulate,
    simulate_batch,
)
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics.batch import PARALLEL_MIN_SHOTS, shots_from_angles

B = BoardSpec()


def _compare(
    layout: tuple[Disk, ...], shots: np.ndarray, seeds: list[int], fly: bool, parallel: bool = False
) -> None:
    batch = simulate_batch(layout, shots, B, seeds=seeds, fly_off=fly, parallel=parallel)
    assert len(batch) == len(shots)
    for m, (x, y, vx, vy) in enumerate(shots):
        single = simulate([*layout, Disk.striker("S", x, y, vx, vy)], B, seed=seeds[m], fly_off=fly)
        assert batch.ids == single.ids
        assert batch.pocketed_ids(m) == tuple(p.id for p in single.pocketed)
        assert batch.off_board_ids(m) == single.off_board
        assert batch.first_contact_id(m) == single.first_contact.disk_id
        assert batch.first_contact_time[m] == single.first_contact.time
        assert batch.rails_before_sides(m) == single.first_contact.rails_before
        assert batch.fate(m) is single.striker_fate
        assert bool(batch.truncated[m]) == single.truncated
        assert int(batch.events_handled[m]) == single.events_handled
        final = {d.id: d for d in single.final}
        for k, pid in enumerate(batch.ids):
            if pid in final:
                d = final[pid]
                assert (batch.x[m, k], batch.y[m, k], batch.layer[m, k]) == (d.x, d.y, d.layer)
        for p in single.pocketed:
            k = batch.ids.index(p.id)
            assert (batch.pocket[m, k], batch.time_out[m, k]) == (p.pocket, p.time)


@pytest.mark.parametrize("count", [40, PARALLEL_MIN_SHOTS + 6])
def test_batch_equals_single_on_random_midgame_shots(count: int) -> None:
    rng = np.random.default_rng(count)
    for _ in range(2):
        layout = midgame_layout(rng, B)
        shots = np.array([random_shot(rng, layout, B) for _ in range(count)])
        _compare(layout, shots, list(range(count)), fly=True, parallel=True)
        _compare(layout, shots, list(range(count)), fly=True)


def test_a_batch_runs_on_one_thread_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's threads lose badly on a busy machine: only ``parallel=True`` uses them."""
    from hikone_carrom.physics import batch as batch_module

    def refuse(*args: object) -> None:
        raise AssertionError("the parallel kernel ran")

    shots = np.tile([[0.0, -0.2, 0.0, 1.0]], (PARALLEL_MIN_SHOTS + 6, 1))
    monkeypatch.setattr(batch_module.E, "run_batch_parallel", refuse)
    assert len(simulate_batch([], shots, B)) == len(shots)
    with pytest.raises(AssertionError, match="parallel kernel"):
        simulate_batch([], shots, B, parallel=True)


def test_batch_equals_single_on_opening_breaks() -> None:
    tee = B.tee_spot(Side.SOUTH)
    angles = np.pi / 2 + np.linspace(-0.3, 0.3, 12)
    shots = shots_from_angles(tee.x, tee.y, angles, 5.0)
    _compare(opening_disks(B), shots, [7] * len(shots), fly=True)


def test_one_seed_gives_each_shot_its_own_fly_off_draws() -> None:
    """With the default seed, identical hard shots into a rail do not all fly
    off or all stay: each shot draws from its own seed, derived from the one given."""
    shots = np.tile([[0.0, 0.2, 0.0, 5.0]], (200, 1))
    res = simulate_batch([], shots, B)
    flown = [res.fate(m) is StrikerFate.FLEW_OFF for m in range(len(res))]
    assert 0 < sum(flown) < len(flown)
    assert len(set(res.seeds.tolist())) == len(res)
    again = simulate_batch([], shots, B, seeds=0)
    assert np.array_equal(again.seeds, res.seeds) and np.array_equal(again.status, res.status)
    for m in (0, int(np.argmax(flown))):
        single = simulate([Disk.striker("S", 0.0, 0.2, 0.0, 5.0)], B, seed=int(res.seeds[m]))
        assert single.striker_fate is res.fate(m)


def test_explicit_seeds_and_empty_batches() -> None:
    layout = opening_disks(B)
    tee = B.tee_spot(Side.SOUTH)
    shots = shots_from_angles(tee.x, tee.y, [np.pi / 2] * 2, 5.0)
    res = simulate_batch(layout, shots, B, seeds=[3, 3])
    assert res.fate(0) is res.fate(1)
    assert isinstance(res.fate(0), StrikerFate)
    assert res.seeds.tolist() == [3, 3]
    assert len(simulate_batch(layout, np.zeros((0, 4)), B)) == 0


def test_one_compiled_kernel_for_every_batch_size() -> None:
    """A batch of one shot passes its out arrays to the kernel with the same memory layout as a
    larger one, so the kernel compiled (or loaded from the cache) at warm-up serves both: a new
    specialization would be compiled, seconds on an empty cache, inside a decision."""
    layout = opening_disks(B)
    tee = B.tee_spot(Side.SOUTH)
    for count in (1, 2, 5):
        simulate_batch(layout, shots_from_angles(tee.x, tee.y, [np.pi / 2] * count, 3.0), B)
    assert len(E.run_batch_serial.signatures) == 1


@pytest.mark.parametrize(
    "shots",
    [
        [[0.0, 0.0, 1.0, 0.0]],  # on the jack
        [[0.0, -0.3, 0.0, 1.0]],  # beyond the rail
        [[0.0, -0.21, float("nan"), 1.0]],
        [[0.0, -0.21, 1.0]],
    ],
)
def test_bad_shots_are_refused(shots: list[list[float]]) -> None:
    with pytest.raises(InvalidShotError):
        simulate_batch(opening_disks(B), shots, B)


def test_layout_holding_the_striker_id_is_refused() -> None:
    with pytest.raises(InvalidLayoutError):
        simulate_batch([Disk.puck("S", 0.0, 0.0)], [[0.1, 0.1, 0.0, 0.0]], B)
    with pytest.raises(InvalidShotError):
        simulate_batch([Disk.puck("P", 0.0, 0.0)], [[0.1, 0.1, 0.0, 0.0]], B, seeds=[1, 2])
