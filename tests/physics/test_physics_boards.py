"""simulate_boards(): one shot on each of many layouts equals simulate() on each, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hikone_carrom.physics import (
    ABSENT,
    BoardSet,
    Disk,
    InvalidLayoutError,
    InvalidShotError,
    opening_disks,
    simulate,
    simulate_boards,
)


def _scattered(rng: np.random.Generator, disks: tuple[Disk, ...]) -> list[Disk]:
    """A random subset of ``disks`` at random non-overlapping places (layer 0)."""
    placed: list[Disk] = []
    for d in disks:
        if rng.random() < 0.4:
            continue
        for _ in range(50):
            x, y = rng.uniform(-0.27, 0.27, 2)
            if all(math.hypot(x - p.x, y - p.y) > 0.035 for p in placed) and abs(y + 0.21) > 0.04:
                placed.append(Disk(d.id, float(x), float(y), 0.0, 0.0, d.radius, d.mass))
                break
    return placed


@pytest.mark.parametrize("parallel", [False, True])
def test_each_board_equals_simulate(parallel: bool) -> None:
    rng = np.random.default_rng(7)
    disks = opening_disks()
    boards = BoardSet(disks)
    m, n = 40, len(boards)
    layouts = [list(disks)] + [_scattered(rng, disks) for _ in range(m - 1)]
    present = np.zeros((m, n), dtype=bool)
    x = np.zeros((m, n))
    y = np.zeros((m, n))
    col = {i: k for k, i in enumerate(boards.ids)}
    for b, layout in enumerate(layouts):
        for d in layout:
            present[b, col[d.id]] = True
            x[b, col[d.id]], y[b, col[d.id]] = d.x, d.y
    angle = rng.uniform(0.3, math.pi - 0.3, m)
    speed = rng.uniform(0.5, 5.0, m)
    sx = rng.uniform(-0.2, 0.2, m)
    shots = np.stack([sx, np.full(m, -0.21), speed * np.cos(angle), speed * np.sin(angle)], 1)
    seeds = rng.integers(0, 2**62, m)
    result = simulate_boards(
        boards, present, x, y, np.zeros((m, n), int), shots, seeds, parallel=parallel
    )
    for b, layout in enumerate(layouts):
        striker = Disk.striker("S", *shots[b])
        one = simulate([*layout, striker], seed=int(seeds[b]))
        final = {d.id: d for d in one.final}
        for k, disk_id in enumerate(boards.ids):
            if disk_id in final:
                assert result.status[b, k] == 0
                assert (result.x[b, k], result.y[b, k]) == (final[disk_id].x, final[disk_id].y)
                assert result.layer[b, k] == final[disk_id].layer
            elif disk_id == "S" or present[b, k]:
                assert result.status[b, k] in (1, 2)
            else:
                assert result.status[b, k] == ABSENT and math.isnan(result.x[b, k])
        assert result.pocketed_ids(b) == tuple(p[0] for p in one.pocketed)
        assert result.off_board_ids(b) == one.off_board
        fc = one.first_contact
        assert result.first_contact_id(b) == (fc.disk_id if fc is not None else None)


def test_a_bad_board_is_refused_by_number() -> None:
    boards = BoardSet(opening_disks())
    n = len(boards)
    present = np.zeros((2, n), dtype=bool)
    present[1, boards.ids.index("J")] = True
    shots = np.array([[0.0, -0.21, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]])  # board 1: on the jack
    zeros = np.zeros((2, n))
    with pytest.raises(InvalidLayoutError, match="board 1"):
        simulate_boards(boards, present, zeros, zeros, zeros.astype(int), shots, [1, 2])
    with pytest.raises(InvalidShotError):
        simulate_boards(boards, present, zeros, zeros, zeros.astype(int), shots[:1], [1, 2])
    with pytest.raises(InvalidShotError):
        simulate_boards(boards, present[:, :3], zeros, zeros, zeros.astype(int), shots, [1, 2])
