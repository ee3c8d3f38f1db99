"""Stacks on the jack spot (R5h, R5j, R6d, R6e): penalties pile pieces up; a hit on the pile's
bottom knocks it out and the rest drop."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from match_helpers import BOARD, aim, find_shot, position

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import all_ids, disk_for, ids_of, piece_of
from hikone_carrom.match.respot import stack_on_jack_spot
from hikone_carrom.physics import Disk, ShotResult, resting_layer
from hikone_carrom.rules import Piece

SOUTH_Y = BOARD.tee_spot(Side.SOUTH).y
NORTH_Y = BOARD.tee_spot(Side.NORTH).y


def _pile(m: Match) -> list[Disk]:
    return sorted((d for d in m.layout if math.hypot(d.x, d.y) < 1e-12), key=lambda d: d.layer)


def test_R6e_two_penalties_in_a_row_pile_up_and_R5j_jack_goes_on_top() -> None:
    # Red's jack near the south-east pocket; both sides still have pucks on the board.
    m = position(
        [("J", 0.25, -0.25), ("R0", -0.1, 0.1), ("R1", 0.1, 0.15), ("G0", 0.1, -0.05)],
    )
    # 1. Red pockets its striker (R5a): one red puck from the pockets onto the empty jack spot.
    start = (-0.19, SOUTH_Y)
    res = m.play(
        find_shot(m, start, 1.5, lambda r: r.striker_fate == "pocketed", [aim(start, (-0.3, -0.3))])
    )
    assert res.ruling.returned == (Piece.RED,)
    assert [(d.id[0], d.layer) for d in _pile(m)] == [("R", 0)]
    # 2. Green pockets its striker too: a green puck goes on top of the red one.
    start = (-0.19, NORTH_Y)
    res = m.play(
        find_shot(m, start, 1.5, lambda r: r.striker_fate == "pocketed", [aim(start, (-0.3, 0.3))])
    )
    assert res.ruling.returned == (Piece.GREEN,)
    assert [(d.id[0], d.layer) for d in _pile(m)] == [("R", 0), ("G", 1)]
    # 3. Red pockets the jack with pucks still out (R5b): 5 red pucks then the jack on top (R5j).
    start = (0.17, SOUTH_Y)

    def jack_in(r: ShotResult) -> bool:
        return [p[0] for p in r.pocketed] == ["J"] and r.striker_fate == "on_board"

    res = m.play(
        find_shot(
            m, start, 1.2, jack_in, [aim(start, (0.25, -0.25)) + k * 1e-3 for k in range(-80, 81)]
        )
    )
    assert res.ruling.penalty == 5
    assert res.ruling.returned == (Piece.RED,) * 5 + (Piece.JACK,)
    pile = _pile(m)
    assert [d.layer for d in pile] == list(range(8))
    assert pile[-1].id == "J" and pile[0].id.startswith("R") and pile[1].id.startswith("G")


def test_R6e_hitting_the_bottom_of_the_pile_knocks_it_out_and_the_rest_drop() -> None:
    # exact positions of the uncoupled physics (the legacy preset): the pile drops in place
    m = position(
        [("J", 0.0, 0.0, 2), ("R0", 0.0, 0.0, 0), ("G0", 0.0, 0.0, 1), ("G1", -0.2, 0.2)],
        board=BoardSpec.legacy(),
    )
    res = m.play(Shot(0.0, SOUTH_Y, math.pi / 2 + 0.1, 3.0))
    assert res.result.first_contact.disk_id == "R0"
    assert [e.ids for e in res.result.events if e.kind == "dropped"] == [("G0",), ("J",)]
    after = {d.id: d for d in res.after}
    assert math.hypot(after["R0"].x, after["R0"].y) > 2 * BOARD.puck_radius
    assert (after["G0"].x, after["G0"].y, after["G0"].layer) == (0.0, 0.0, 0)
    assert (after["J"].x, after["J"].y, after["J"].layer) == (0.0, 0.0, 1)


def test_R6e_disks_resting_on_the_striker_drop_when_it_leaves_the_board() -> None:
    # Straight up the middle, the striker takes the bottom disk's place under the pile; when it is
    # lifted off after the shot, the pile settles on what lies under it.
    m = position(
        [("J", 0.0, 0.0, 2), ("R0", 0.0, 0.0, 0), ("G0", 0.0, 0.0, 1), ("G1", -0.2, 0.2)],
    )
    res = m.play(Shot(0.0, SOUTH_Y, math.pi / 2, 3.0))
    for d in res.after:
        below = [
            o
            for o in res.after
            if o.layer == d.layer - 1 and math.hypot(o.x - d.x, o.y - d.y) < o.radius + d.radius
        ]
        assert (d.layer == 0) or below, f"{d.id} floats on layer {d.layer}"


def _put_down_one_by_one(
    layout: tuple[Disk, ...], returned: list[Piece], left: list[str]
) -> tuple[Disk, ...]:
    """R6e by hand: each returned piece's disk (the first of ``left`` of that piece, else its
    lowest-numbered one off the board) put down on the jack spot over the disks already there."""
    out = list(layout)
    for piece in returned:
        free = [i for i in ids_of(piece) if i not in {d.id for d in out}]
        chosen = next((i for i in left if i in free), free[0])
        radius = disk_for(BOARD, chosen, 0.0, 0.0).radius
        out.append(disk_for(BOARD, chosen, 0.0, 0.0, resting_layer(out, 0.0, 0.0, radius)))
    return tuple(out)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-0.05, 0.05), st.floats(-0.05, 0.05), st.integers(0, 3)),
        min_size=25,
        max_size=25,
    ),
    st.lists(st.booleans(), min_size=25, max_size=25),
    st.lists(st.sampled_from([Piece.RED, Piece.GREEN, Piece.JACK]), max_size=6),
    st.randoms(use_true_random=False),
)
def test_R6e_returned_pieces_stack_on_the_jack_spot_as_put_down_one_by_one(
    places: list[tuple[float, float, int]],
    on: list[bool],
    returned: list[Piece],
    rng: object,
) -> None:
    layout = tuple(
        disk_for(BOARD, i, x, y, layer)
        for i, (x, y, layer), here in zip(all_ids(), places, on, strict=True)
        if here
    )
    off = [i for i, here in zip(all_ids(), on, strict=True) if not here]
    for piece in set(returned):  # no more of a piece returned than it has off the board
        have = sum(1 for i in off if piece_of(i) is piece)
        while returned.count(piece) > have:
            returned.remove(piece)
    left = [*off[::2], "S"]
    rng.shuffle(left)  # type: ignore[attr-defined]
    got = stack_on_jack_spot(BOARD, layout, returned, left)
    assert got == _put_down_one_by_one(layout, returned, left)
