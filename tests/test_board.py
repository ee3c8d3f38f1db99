"""BoardSpec: figures, seats and sides, area lines, tee spots, pockets, the opening layout."""

from __future__ import annotations

import json
import math
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest

from hikone_carrom.board import (
    DEFAULT_BOARD,
    LEGACY_FIGURES,
    BoardError,
    BoardSpec,
    PieceKind,
    Side,
)
from hikone_carrom.board_file import read_board_file, write_board_file

B = BoardSpec()


def test_default_figures_follow_the_design() -> None:
    assert B == DEFAULT_BOARD
    assert (B.half_width, B.pocket_radius, B.centre_circle_radius) == (0.3, 0.055, 0.12)
    assert (B.puck_radius, B.striker_radius, B.jack_radius) == (0.015, 0.015, 0.017)
    assert B.deceleration == pytest.approx(0.15 * 9.80665)
    with pytest.raises(FrozenInstanceError):
        B.half_width = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"friction": -0.1},
        {"half_width": float("nan")},
        {"restitution_disk": 1.5},
        {"fly_off_max_probability": 2.0},
        {"fly_off_full_speed": 2.0},
        {"area_line_offset": 0.5},
    ],
)
def test_bad_figures_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(BoardError):
        BoardSpec(**kwargs)


def test_seat_sides() -> None:
    assert [BoardSpec.seat_side(s, 2) for s in range(2)] == [Side.SOUTH, Side.NORTH]
    assert [B.seat_side(s, 4) for s in range(4)] == [Side.SOUTH, Side.WEST, Side.NORTH, Side.EAST]
    for seat, players in ((2, 2), (-1, 4), (0, 3), (True, 2)):
        with pytest.raises(BoardError):
            B.seat_side(seat, players)


@pytest.mark.parametrize("side", list(Side))
def test_area_line_tee_spot_and_rail(side: Side) -> None:
    a, b = B.area_line(side)
    assert math.dist(a, b) == pytest.approx(B.area_line_length)
    tee = B.tee_spot(side)
    assert tee == pytest.approx(((a.x + b.x) / 2, (a.y + b.y) / 2))
    assert math.hypot(*tee) == pytest.approx(B.half_width - B.area_line_offset)
    ra, rb = B.rail_of(side)
    assert math.dist(ra, rb) == pytest.approx(2 * B.half_width)
    mid = ((ra.x + rb.x) / 2, (ra.y + rb.y) / 2)
    assert math.dist(mid, tee) == pytest.approx(B.area_line_offset)
    assert B.overlaps_area_line(side, tee.x, tee.y, B.striker_radius)


def test_own_area_and_area_line_on_the_south_side() -> None:
    y_line = -(B.half_width - B.area_line_offset)
    r = B.puck_radius
    s = Side.SOUTH
    assert B.wholly_inside_own_area(s, 0.0, y_line - r - 1e-6, r)
    assert not B.wholly_inside_own_area(s, 0.0, y_line - r, r)  # touching the line
    assert B.overlaps_area_line(s, 0.0, y_line - r, r)
    assert not B.overlaps_area_line(s, 0.0, y_line - r - 1e-6, r)
    assert not B.wholly_inside_own_area(s, 0.0, y_line + 0.05, r)  # in front of the line
    assert not B.wholly_inside_own_area(s, 0.195, y_line - 0.04, r)  # past the line's end
    assert not B.wholly_inside_own_area(Side.NORTH, 0.0, y_line - 0.04, r)
    # rounded ends: beyond the end only if the footprint covers the end point
    assert B.overlaps_area_line(s, 0.2 + 0.01, y_line, r)
    assert not B.overlaps_area_line(s, 0.2 + r + 1e-6, y_line, r)
    assert B.overlaps_area_line(s, 0.2 + 0.01, y_line + 0.01, r)


def test_east_side_geometry_is_the_south_side_rotated() -> None:
    y_line = -(B.half_width - B.area_line_offset)
    r = B.puck_radius
    for x, y in ((0.0, y_line - 0.03), (0.1, y_line - 0.016), (0.19, y_line - 0.05)):
        assert B.wholly_inside_own_area(Side.SOUTH, x, y, r) == B.wholly_inside_own_area(
            Side.EAST, -y, x, r
        )
        assert B.overlaps_area_line(Side.SOUTH, x, y, r) == B.overlaps_area_line(
            Side.EAST, -y, x, r
        )


def test_pockets() -> None:
    centres = B.pocket_centres()
    assert centres[0] == (-0.3, -0.3) and centres[2] == (0.3, 0.3)
    assert B.pocket_at(0.27, 0.27) == 2
    assert B.pocket_at(-0.27, 0.27) == 3
    assert B.is_over_pocket(0.25, -0.28)
    assert not B.is_over_pocket(0.2, 0.2)
    assert not B.is_over_pocket(0.0, -0.285)


def test_surface_helpers() -> None:
    assert B.inside_surface(0.285, -0.285, 0.015)
    assert not B.inside_surface(0.2851, 0.0, 0.015)
    assert B.clamp_to_surface(0.4, -0.4, 0.015) == pytest.approx((0.285, -0.285))
    with pytest.raises(BoardError):
        B.clamp_to_surface(0.0, 0.0, 0.5)
    assert B.radius_of(PieceKind.JACK) == B.jack_radius
    assert B.mass_of(PieceKind.STRIKER) == B.striker_mass


def test_opening_layout_r1a() -> None:
    pieces = B.opening_layout()
    assert len(pieces) == 25
    assert pieces[0].id == "J" and (pieces[0].x, pieces[0].y) == (0.0, 0.0)
    pucks = pieces[1:]
    assert [p.id[0] for p in pucks] == ["R", "G"] * 12
    assert {p.id for p in pucks} == {f"R{k}" for k in range(12)} | {f"G{k}" for k in range(12)}
    for p in pucks:
        assert math.hypot(p.x, p.y) == pytest.approx(B.centre_circle_radius)
    gaps = [
        math.dist((pucks[k].x, pucks[k].y), (pucks[(k + 1) % 24].x, pucks[(k + 1) % 24].y))
        - 2 * B.puck_radius
        for k in range(24)
    ]
    assert min(gaps) > 0.001 and max(gaps) < 0.0015
    # no puck centre on a line from a tee spot to the jack (the x and y axes)
    assert min(min(abs(p.x), abs(p.y)) for p in pucks) > 0.015


@pytest.mark.parametrize(
    "kwargs",
    [
        {"half_width": 10**400},  # an OverflowError once
        {"friction": -(10**400)},
        {"puck_mass": 1e300},
        {"stack_friction": -0.1},
        {"disk_friction": float("inf")},
        {"rail_friction": "0.1"},
        {"merge_grazing_pairs": 1},
        {"gravity": True},
    ],
)
def test_huge_absurd_or_mistyped_figures_are_refused_with_a_sentence(
    kwargs: dict[str, object],
) -> None:
    with pytest.raises(BoardError) as err:
        BoardSpec(**kwargs)  # type: ignore[arg-type]
    assert len(str(err.value)) < 200


def test_integer_figures_are_stored_as_floats() -> None:
    b = BoardSpec(half_width=1)
    assert b.half_width == 1.0 and isinstance(b.half_width, float)
    assert b == BoardSpec(half_width=1.0)


def test_the_friction_models_have_defaults_and_the_legacy_preset_switches_them_off() -> None:
    assert (B.stack_friction, B.disk_friction, B.rail_friction) == (0.25, 0.10, 0.15)
    assert B.merge_grazing_pairs is False
    legacy = BoardSpec.legacy()
    assert (legacy.stack_friction, legacy.disk_friction, legacy.rail_friction) == (0.0, 0.0, 0.0)
    assert legacy.merge_grazing_pairs is True
    assert BoardSpec.legacy(friction=0.1).friction == 0.1
    assert replace(legacy, **LEGACY_FIGURES) == legacy


def test_a_board_round_trips_through_its_dict() -> None:
    b = BoardSpec(friction=0.13, rail_friction=0.2)
    assert BoardSpec.from_dict(b.to_dict()) == b
    assert BoardSpec.from_dict({"friction": 0.1}, complete=False) == BoardSpec(friction=0.1)
    with pytest.raises(BoardError, match="lacks the figures"):
        BoardSpec.from_dict({"friction": 0.1})
    with pytest.raises(BoardError, match="unknown board figures: spin"):
        BoardSpec.from_dict({**b.to_dict(), "spin": 1.0})
    with pytest.raises(BoardError, match="JSON object"):
        BoardSpec.from_dict([1, 2])


def test_board_files_are_written_and_read(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    board = BoardSpec(friction=0.11, stack_friction=0.3)
    write_board_file(path, board, note="measured at the club")
    assert read_board_file(path) == board
    assert json.loads(path.read_text())["note"] == "measured at the club"
    path.write_text(
        json.dumps({"format": "hikone-carrom-board", "version": 1, "board": {"friction": 0.2}})
    )
    assert read_board_file(path) == BoardSpec(friction=0.2)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "not a hikone-carrom-board file"),
        ('{"format": "hikone-carrom-board", "version": 9, "board": {}}', "version 9"),
        ('{"format": "hikone-carrom-board", "version": 1, "board": {"friction": -1}}', "friction"),
        ('{"format": "hikone-carrom-board", "version": 1, "board": {"wind": 1}}', "unknown"),
        ('{"format": "hikone-carrom-board", "version": 1, "board": 3}', "JSON object"),
        ("[" * 100_000, "not valid JSON"),
    ],
)
def test_bad_board_files_are_refused_with_a_sentence(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(BoardError, match=message):
        read_board_file(path)


def test_board_files_must_be_small_regular_files(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="cannot read"):
        read_board_file(tmp_path / "missing.json")
    with pytest.raises(BoardError, match="not a regular file"):
        read_board_file(tmp_path)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20))
    with pytest.raises(BoardError, match="too large"):
        read_board_file(big)
    with pytest.raises(BoardError, match="cannot write"):
        write_board_file(tmp_path / "no" / "such" / "folder.json", B)
