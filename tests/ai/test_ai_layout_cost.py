"""The pot table and the layout's cost in the solo clear: stored figures are what the
simulation gives, the map turns with the seat, and a shot's gain follows the rules (R5h, R6b)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.ai import BASE_NOISE, LEVELS, TableView, make_player, search
from hikone_carrom.ai.layout_cost import (
    BLOCKED,
    OPEN,
    STUCK,
    failed_in_a_row,
    layout_costs,
    layout_gain,
)
from hikone_carrom.ai.noise import decision_rng
from hikone_carrom.ai.outcomes import run_shots
from hikone_carrom.ai.players import SearchPlayer
from hikone_carrom.ai.pot_table import (
    ACROSS_CPUS,
    FLOOR,
    KINDS,
    STEP,
    chance,
    grid,
    load,
    pot_table,
)
from hikone_carrom.ai.search import _Search
from hikone_carrom.board import DEFAULT_BOARD, BoardSpec, PieceKind, Side
from hikone_carrom.cli import main as cli_main
from hikone_carrom.match import Match, PlacementKind, Shot
from hikone_carrom.match.pieces import JACK_ID, disk_for
from hikone_carrom.physics import BatchResult

PUCK, JACK = PieceKind.PUCK, PieceKind.JACK


@pytest.mark.parametrize("board", [DEFAULT_BOARD, BoardSpec.legacy()], ids=["default", "legacy"])
def test_stored_pot_table_is_what_the_simulation_gives(board: BoardSpec) -> None:
    """One table for the default board, one for the legacy physics (the board the stored
    evaluation results were measured on, docs/measured/); computed again on this CPU, the
    chances agree with the stored ones to the last bits numpy's vectorised maths may change."""
    table = pot_table(board)
    xs, ys = grid(board)
    assert table.board == board
    assert np.array_equal(table.xs, xs) and np.array_equal(table.ys, ys)
    for kind, i, j in ((PUCK, 10, 40), (JACK, 5, 33), (PUCK, 20, 10)):
        fresh = chance(board, kind, xs[i], ys[j])
        np.testing.assert_allclose(fresh, table.chances[kind][i, j], rtol=ACROSS_CPUS, atol=0)
    for p in table.chances.values():
        assert p.shape == (len(xs), len(ys), 4) and np.all((p >= 0.0) & (p <= 1.0))
        corner = (len(xs) - 1, 0)  # over the south-east pocket (index 1)
        assert DEFAULT_BOARD.pocket_at(xs[corner[0]], ys[corner[1]]) == 1
        assert p[corner].tolist() == [0.0, 1.0, 0.0, 0.0]
        # far from the area line the far pockets are the easier ones (R2b)
        far = p[:, ys > 0.15]
        assert far[..., 2].mean() > far[..., 1].mean() + 0.2


@pytest.mark.parametrize(
    ("board", "most"), [(BoardSpec.legacy(), 3.0), (DEFAULT_BOARD, 6.0)], ids=["legacy", "default"]
)
def test_pieces_far_from_the_area_line_are_harder_to_pocket_R2b(
    board: BoardSpec, most: float
) -> None:
    """A lone piece costs between one and a few strikes (up to 3 on the frictionless legacy
    board; rail friction and throw make the hardest spots of the default board cost about 5)."""
    table = pot_table(board)
    for pockets in table.chances.values():
        p = pockets.max(axis=-1)
        near, far = p[:, table.ys < -0.05].mean(), p[:, table.ys > 0.05].mean()
        assert far < near - 0.1
        assert 1.0 < 1.0 / p.min() < most


_coord = st.floats(-0.28, 0.28, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(x=_coord, y=_coord, jack=st.booleans())
def test_the_cost_map_turns_with_the_seat(x: float, y: float, jack: bool) -> None:
    table, kind = pot_table(), JACK if jack else PUCK

    def cost(side: Side, px: float, py: float) -> float:
        return float(table.strikes(kind, np.array([px]), np.array([py]), side)[0])

    south = cost(Side.SOUTH, x, y)
    assert south == cost(Side.SOUTH, -x, y)  # the board is mirror-symmetric
    assert cost(Side.NORTH, -x, -y) == south
    # a seat's map is the south seat's turned so that its own rail is south (R2b)
    assert math.isclose(cost(Side.WEST, y, -x), cost(Side.SOUTH, x, y), abs_tol=1e-12)
    assert math.isclose(cost(Side.EAST, -y, x), cost(Side.SOUTH, x, y), abs_tol=1e-12)
    assert 1.0 - 1e-9 <= south <= 1.0 / 0.15  # interpolation may round just below one
    near_west = cost(Side.WEST, -0.25, 0.0)
    assert near_west == cost(Side.SOUTH, 0.0, -0.25) < cost(Side.EAST, -0.25, 0.0)

    def pockets(side: Side, px: float, py: float) -> np.ndarray:
        return table.pocket_strikes(kind, np.array([px]), np.array([py]), side)[0]

    # pockets turn with the seat (index 0 south-west, counter-clockwise) and swap in the mirror
    south_pockets = pockets(Side.SOUTH, x, y)
    assert south_pockets.min() == south
    assert np.array_equal(pockets(Side.SOUTH, -x, y), south_pockets[[1, 0, 3, 2]]) or x == 0.0
    assert np.allclose(pockets(Side.NORTH, -x, -y), np.roll(south_pockets, 2), atol=1e-12)
    assert np.allclose(pockets(Side.EAST, -y, x), np.roll(south_pockets, 1), atol=1e-12)
    assert np.allclose(pockets(Side.WEST, y, -x), np.roll(south_pockets, 3), atol=1e-12)


def _view(board: BoardSpec = DEFAULT_BOARD, red_left: int = 4) -> TableView:
    """Red (seat 0) to shoot with ``red_left`` pucks on the board, green with 3 (R6b: with none
    left red may pocket the jack)."""
    match = Match(players=2, seed=5, board=board)
    red = [d for d in match.layout if d.id.startswith("R")][:red_left]
    green = [d for d in match.layout if d.id.startswith("G")][:3]
    jack = [d for d in match.layout if d.id == JACK_ID]
    state = replace(
        match.referee.state, pocketed=(12 - red_left, 9), has_shot=(True, True), shots=30
    )
    return TableView.build(board, 2, 0, state, [*red, *green, *jack])


def _sweep(view: TableView) -> np.ndarray:
    angles = np.linspace(-math.pi, math.pi, 360, endpoint=False)
    rows = [
        (x, -0.21, a, s) for x in (-0.15, -0.05, 0.05, 0.15) for a in angles for s in (1.0, 3.0)
    ]
    return np.array(rows)


def _after(view: TableView, batch: BatchResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The view's pieces after each shot: x, y (m) and on the board, each (M, N)."""
    cols = [batch.ids.index(i) for i in view.ids]
    return batch.x[:, cols], batch.y[:, cols], batch.status[:, cols] == 0


def _all_on(view: TableView) -> np.ndarray:
    return np.ones((1, len(view.ids)), dtype=bool)


def _lone_puck_and_jack(px: float, py: float, jx: float, jy: float) -> TableView:
    """Red (seat 0, south) with one puck at (px, py) m and the jack at (jx, jy) m."""
    match = Match(players=2, seed=5)
    state = replace(match.referee.state, pocketed=(11, 12), has_shot=(True, True), shots=30)
    layout = [disk_for(DEFAULT_BOARD, "R01", px, py), disk_for(DEFAULT_BOARD, JACK_ID, jx, jy)]
    return TableView.build(DEFAULT_BOARD, 2, 0, state, layout)


def test_a_piece_in_the_way_to_the_best_pocket_makes_a_puck_dearer() -> None:
    table = pot_table()
    px, py = 0.18, 0.2  # far side, nearest the north-east pocket (index 2)
    lone = table.pocket_strikes(PUCK, np.array([px]), np.array([py]), Side.SOUTH)[0]
    assert lone.argmin() == 2
    h = DEFAULT_BOARD.half_width
    on_path = (px + 0.5 * (h - px), py + 0.5 * (h - py))
    beside = (px - 0.1, py - 0.1)  # in the way to the far south-west pocket only
    for (jx, jy), cost in ((on_path, None), (beside, float(lone.min()))):
        view = _lone_puck_and_jack(px, py, jx, jy)
        got = layout_costs(view, PUCK, [0], view.x[None], view.y[None], _all_on(view))[0, 0]
        if cost is None:  # the north-east pocket keeps BLOCKED of its chance
            assert got == min(lone[2] / BLOCKED, lone[[0, 1, 3]].min(), 1.0 / FLOOR)
            assert got > lone.min()
        else:
            assert got == cost
        # off the board, the jack is in nobody's way
        gone = np.array([[True, False]])
        free = layout_costs(view, PUCK, [0], view.x[None], view.y[None], gone)[0, 0]
        assert free == lone.min()


_spot = st.tuples(st.floats(-0.27, 0.27), st.floats(-0.27, 0.27))


@settings(max_examples=60, deadline=None)
@given(puck=_spot, jack=_spot)
def test_another_piece_never_makes_a_puck_cheaper(
    puck: tuple[float, float], jack: tuple[float, float]
) -> None:
    view = _lone_puck_and_jack(*puck, *jack)
    lone = pot_table().strikes(PUCK, view.x[:1], view.y[:1], Side.SOUTH)[0]
    got = layout_costs(view, PUCK, [0], view.x[None], view.y[None], _all_on(view))[0, 0]
    assert lone <= got <= max(lone, min(lone / BLOCKED, 1.0 / FLOOR)) + 1e-12


def test_pieces_in_the_way_count_only_once_at_most_open_pucks_are_left() -> None:
    many = _view(red_left=OPEN + 1)
    red = [k for k, i in enumerate(many.ids) if i.startswith("R")]
    got = layout_costs(many, PUCK, red, many.x[None], many.y[None], _all_on(many))[0]
    assert np.array_equal(got, pot_table().strikes(PUCK, many.x[red], many.y[red], many.side))
    few = _view(red_left=OPEN)
    red = [k for k, i in enumerate(few.ids) if i.startswith("R")]
    got = layout_costs(few, PUCK, red, few.x[None], few.y[None], _all_on(few))[0]
    lone = pot_table().strikes(PUCK, few.x[red], few.y[red], few.side)
    assert np.all(got >= lone) and np.any(got > lone)  # the opening bunch blocks paths


def test_layout_gain_saves_a_pocketed_pucks_cost_unless_a_penalty_may_return_it_R5h() -> None:
    # the sweep's exact outcomes on the legacy physics (it holds pots with and without a foul)
    view = _view(BoardSpec.legacy())
    batch = run_shots(view, _sweep(view), np.arange(2880), True)
    gain = layout_gain(view, batch)
    red = [k for k, i in enumerate(view.ids) if i.startswith("R")]
    x, y, on_board = _after(view, batch)
    before = layout_costs(view, PUCK, red, view.x[None], view.y[None], _all_on(view))[0]
    after = layout_costs(view, PUCK, red, x, y, on_board)
    on = on_board[:, red]
    jack = batch.ids.index(JACK_ID)
    penalty = (batch.striker_fate != 0) | (batch.status[:, jack] != 0)
    moved = np.where(on, before - after, 0.0).sum(axis=1)
    clean_pot = (~on).any(axis=1) & ~penalty
    fouled_pot = (~on).any(axis=1) & penalty
    assert clean_pot.sum() >= 5 and fouled_pot.sum() >= 1
    potted = np.where(on, 0.0, before).sum(axis=1)
    assert np.allclose(gain[clean_pot], (moved + potted)[clean_pot])
    assert np.allclose(gain[fouled_pot], moved[fouled_pot])  # R5h: they may come back
    # Before R6b the jack is no target: where it goes counts only as a piece in the way.
    jack_moved = ~np.isclose(batch.x[:, jack], view.x[view.index(JACK_ID)])
    assert jack_moved.sum() >= 20
    assert np.allclose(gain, moved + np.where(penalty, 0.0, potted))
    alone = pot_table(view.board).strikes(PUCK, x[:, red], y[:, red], view.side)
    assert np.all(after >= alone - 1e-12) and np.any(after > alone)
    still = (batch.first_contact < 0) & (batch.striker_fate == 0)
    assert still.any() and np.all(gain[still] == 0.0)  # nothing moved, nothing saved


def test_layout_gain_counts_the_jack_once_it_may_be_pocketed_R6b() -> None:
    view = _view(red_left=0)
    assert view.jack_allowed
    batch = run_shots(view, _sweep(view), np.arange(2880), True)
    gain = layout_gain(view, batch)
    k, col = view.index(JACK_ID), batch.ids.index(JACK_ID)
    x, y, on_board = _after(view, batch)
    before = layout_costs(view, JACK, [k], view.x[None], view.y[None], _all_on(view))[0, 0]
    after = layout_costs(view, JACK, [k], x, y, on_board)[:, 0]
    pocketed = batch.status[:, col] == 1
    assert pocketed.any() and np.allclose(gain[pocketed], before)  # the win saves it all
    on = batch.status[:, col] == 0
    assert np.allclose(gain[on], before - after[on])
    assert (gain[on] > 0).any() and (gain[on] < 0).any()


def test_layout_gain_is_zero_on_another_board() -> None:
    view = _view(replace(DEFAULT_BOARD, friction=0.12))
    batch = run_shots(view, _sweep(view)[:40], np.arange(40), True)
    assert np.all(layout_gain(view, batch) == 0.0)


def test_the_expert_alone_values_the_layout_its_outcomes_leave() -> None:
    alone = make_player(6, seed=1, solo=True)
    assert isinstance(alone, SearchPlayer)
    assert alone.weights.layout_per_strike == LEVELS[6].alone.layout_per_strike > 0.0
    for other in (
        make_player(6, seed=1),
        make_player("greedy", solo=True),
        make_player(5, solo=True),
    ):
        assert isinstance(other, SearchPlayer) and other.weights.layout_per_strike == 0.0
    view = _view()
    shots = _sweep(view)[::40]
    search = _Search(view, alone.config, alone.weights, BASE_NOISE, np.random.default_rng(2), True)
    outcomes = search.simulate(shots)
    batch = run_shots(view, shots, np.random.default_rng(2).integers(0, 1 << 62, len(shots)), True)
    assert np.array_equal(outcomes[:, -1], np.round(layout_gain(view, batch) * 1000.0))
    plain = replace(alone.weights, layout_per_strike=0.0)
    without = _Search(view, alone.config, plain, BASE_NOISE, np.random.default_rng(2), True)
    assert np.all(without.simulate(shots)[:, -1] == 0)
    per_draw = outcomes[:, None, :]
    layout = LEVELS[6].alone.layout_per_strike
    expected = without.values_of(per_draw, None) + layout * outcomes[:, -1] / 1000.0
    assert np.allclose(search.values_of(per_draw, None), expected)


def _soft_miss(match: Match) -> None:
    """A strike that touches nothing and stops short of the own rail: the turn passes (R3a)."""
    south = match.shooter == 0
    placement = match.legal_placement()
    x, y = placement.point if placement.kind is PlacementKind.POINT else placement.nearest(0.0, 0.0)
    match.play(Shot(x, y, -math.pi / 2 if south else math.pi / 2, 0.3))


def test_failed_in_a_row_counts_a_seats_strikes_that_passed_the_turn_R3a() -> None:
    match = Match(players=2, seed=1)
    for k in range(3):
        _soft_miss(match)  # seat 0
        assert failed_in_a_row(match, 0) == k + 1 and failed_in_a_row(match, 1) == k
        _soft_miss(match)  # seat 1
        assert failed_in_a_row(match, 1) == k + 1


def test_a_stuck_expert_alone_stops_counting_the_layout() -> None:
    match = Match(players=2, seed=1)
    for _ in range(2 * STUCK - 1):
        _soft_miss(match)
    assert match.shooter == 1 and failed_in_a_row(match, 1) == STUCK - 1
    _soft_miss(match)
    assert match.shooter == 0 and failed_in_a_row(match, 0) == STUCK
    alone = make_player(6, seed=4, noise_scale=1.0, solo=True)
    assert isinstance(alone, SearchPlayer)
    plain = SearchPlayer(
        alone.name,
        alone.seed,
        alone.noise,
        alone.config,
        replace(alone.weights, layout_per_strike=0.0),
        alone.late,
    )
    assert alone.decide(match) == plain.decide(match)
    # Not stuck, the layout's cost changes the expert's choice in this very position.
    view, rng = TableView.of_match(match), decision_rng(4, len(match.actions), 0)
    counted = search(view, alone.config_for(view), alone.weights, alone.noise, rng).shot
    meant = plain.decide(match).shot
    assert counted != (meant.x, meant.y, meant.angle, meant.speed)


def test_pot_table_command_rebuilds_the_stored_figures(tmp_path: Path) -> None:
    out = tmp_path / "coarse.npz"
    assert cli_main(["pot-table", "--output", str(out), "--step", "0.07"]) == 0
    coarse, stored = load(out), pot_table()
    assert coarse.board == stored.board and np.allclose(coarse.xs, [0.0, 0.07, 0.14, 0.21, 0.28])
    for kind in KINDS:  # every 7th point of the stored grid, computed again
        i = np.rint(coarse.xs / STEP).astype(int)
        j = np.rint((coarse.ys - stored.ys[0]) / STEP).astype(int)
        want = stored.chances[kind][np.ix_(i, j)]
        np.testing.assert_allclose(coarse.chances[kind], want, rtol=ACROSS_CPUS, atol=0)


def test_pot_table_command_refuses_a_bad_step(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli_main(["pot-table", "--step", "0"])
    assert "--step" in capsys.readouterr().err
