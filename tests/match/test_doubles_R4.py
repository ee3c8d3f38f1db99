"""Doubles R4: pieces the shooter may not hit directly, from hand-placed layouts (R4a-R4e)."""

from __future__ import annotations

from collections.abc import Callable

from match_helpers import BOARD, aim, find_shot, position

from hikone_carrom.board import Side
from hikone_carrom.physics import ShotResult
from hikone_carrom.records import layout_hash

Y = BOARD.tee_spot(Side.SOUTH).y
INSIDE = (0.05, Y - 0.04)  # wholly behind seat 0's area line (R4a)
TOUCHING = (0.05, Y - 0.01)  # touches the line: may be hit (R4a)


def _layout(
    target: tuple[float, float], extra: tuple[tuple[str, float, float], ...] = ()
) -> list[tuple[str, float, float]]:
    return [("J", 0.0, 0.1), ("R0", *target), ("G0", -0.15, 0.15), *extra]


def _direct(result: ShotResult) -> bool:
    fc = result.first_contact
    return fc is not None and fc.disk_id == "R0" and not fc.rails_before


def test_R4a_R4c_direct_hit_on_unshootable_puck_is_restored_and_turn_passes() -> None:
    m = position(_layout(INSIDE), players=4)
    assert BOARD.wholly_inside_own_area(Side.SOUTH, *INSIDE, BOARD.puck_radius)
    before = layout_hash(m.layout)
    start = (-0.1, Y)
    res = m.play(find_shot(m, start, 1.0, _direct, [aim(start, INSIDE)]))
    assert res.report.unshootable_hit
    assert res.ruling.restored and not res.ruling.continues
    assert "R4c" in res.ruling.reasons
    assert layout_hash(m.layout) == before
    assert m.shooter == 1


def test_R4e_in_singles_the_same_hit_is_legal() -> None:
    m = position(_layout(INSIDE), players=2)
    start = (-0.1, Y)
    res = m.play(find_shot(m, start, 1.0, _direct, [aim(start, INSIDE)]))
    assert not res.report.unshootable_hit and not res.ruling.restored


def test_R4a_piece_touching_the_area_line_may_be_hit() -> None:
    m = position(_layout(TOUCHING), players=4)
    assert not BOARD.wholly_inside_own_area(Side.SOUTH, *TOUCHING, BOARD.puck_radius)
    start = (-0.1, Y)
    res = m.play(find_shot(m, start, 1.0, _direct, [aim(start, TOUCHING)]))
    assert not res.report.unshootable_hit and not res.ruling.restored


def _banked(side: Side) -> Callable[[ShotResult], bool]:
    def wanted(result: ShotResult) -> bool:
        fc = result.first_contact
        return fc is not None and fc.disk_id == "R0" and tuple(fc.rails_before) == (side,)

    return wanted


def test_R4b_bank_off_a_side_rail_is_legal() -> None:
    m = position(_layout((0.22, Y - 0.05)), players=4)
    res = m.play(find_shot(m, (0.1, Y), 2.0, _banked(Side.EAST)))
    assert not res.report.unshootable_hit and not res.ruling.restored


def test_R4b_bank_off_the_shooters_own_rail_is_still_a_direct_hit() -> None:
    m = position(_layout(INSIDE), players=4)
    res = m.play(find_shot(m, (-0.1, Y), 2.0, _banked(Side.SOUTH)))
    assert res.report.unshootable_hit and res.ruling.restored


def test_R4b_via_a_legal_piece_first_is_legal() -> None:
    # A green puck beyond the line, in front of the unshootable red one.
    m = position(_layout(INSIDE, (("G1", 0.02, Y + 0.03),)), players=4)
    start = (-0.12, Y)

    def wanted(result: ShotResult) -> bool:
        fc = result.first_contact
        moved = {e.ids for e in result.events if e.kind == "disk_disk"}
        return (
            fc is not None
            and fc.disk_id == "G1"
            and any("R0" in ids and "S" not in ids for ids in moved)
        )

    scan = [aim(start, (0.02, Y + 0.03)) + k * 2e-3 for k in range(-200, 201)]
    res = m.play(find_shot(m, start, 2.0, wanted, scan))
    assert not res.report.unshootable_hit and not res.ruling.restored
    assert "R4c" not in res.ruling.reasons


def test_R4a_unshootable_lists_the_pieces_wholly_inside_the_shooters_own_area() -> None:
    m = position(_layout(INSIDE, (("G1", *TOUCHING),)), players=4)
    assert m.shooter == 0
    assert m.unshootable() == ("R0",)  # G1 touches the line: it may be hit
    assert m.unshootable(2) == ()  # the partner's own area is the north band


def test_R4e_unshootable_is_empty_in_singles() -> None:
    m = position(_layout(INSIDE), players=2)
    assert m.unshootable() == ()
