"""``hikone-carrom calibrate``: shots simulated with known constants give those constants back;
the board file it writes is what ``--board FILE`` loads; bad shots files get one sentence."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hikone_carrom.board import BoardSpec, PieceKind
from hikone_carrom.board_file import read_board_file
from hikone_carrom.calibrate import (
    FIT_BOUNDS,
    MeasuredDisk,
    MeasuredShot,
    fit_board,
    main,
    read_shots,
    write_shots,
)
from hikone_carrom.physics import simulate

TRUE = BoardSpec(
    friction=0.12,
    restitution_disk=0.9,
    restitution_rail=0.62,
    disk_friction=0.07,
    rail_friction=0.2,
    stack_friction=0.35,
)
"""The constants of the 'real' board the test shots are measured on."""


def _disk(
    disk: str,
    kind: PieceKind,
    x: float,
    y: float,
    v: tuple[float, float] = (0.0, 0.0),
    layer: int = 0,
) -> MeasuredDisk:
    return MeasuredDisk(disk, kind, layer, x, y, v[0], v[1], None)


def _measure(name: str, disks: list[MeasuredDisk]) -> MeasuredShot:
    """The shot as a club would record it on the TRUE board (rest positions filled in)."""
    shot = MeasuredShot(name, tuple(disks))
    res = simulate(shot.start(TRUE), TRUE, striker=None, fly_off=False)
    final = {d.id: (d.x, d.y) for d in res.final}
    return MeasuredShot(
        name, tuple(MeasuredDisk(**{**d.__dict__, "rest": final.get(d.disk)}) for d in disks)
    )


def _club_shots() -> list[MeasuredShot]:
    s, p, j = PieceKind.STRIKER, PieceKind.PUCK, PieceKind.JACK
    shots = []
    for k, (angle, speed) in enumerate([(80, 0.6), (100, 0.9), (95, 0.75)]):
        a = math.radians(angle)
        shots.append(
            _measure(
                f"slide-{k}", [_disk("S", s, 0.0, -0.2, (speed * math.cos(a), speed * math.sin(a)))]
            )
        )
    for k, angle in enumerate([10, 25, 40, 55, 65]):
        a = math.radians(angle)
        shots.append(
            _measure(
                f"rail-{k}", [_disk("S", s, 0.0, -0.25, (1.8 * math.cos(a), 1.8 * math.sin(a)))]
            )
        )
    for k, cut in enumerate([5, 20, 35, 50, 65]):
        b = 0.03 * math.sin(math.radians(cut))
        shots.append(
            _measure(f"cut-{k}", [_disk("P", p, 0.0, 0.0), _disk("S", s, b, -0.15, (0.0, 1.4))])
        )
    for k, speed in enumerate([0.25, 0.4, 0.5]):
        shots.append(
            _measure(
                f"pile-{k}",
                [_disk("J", j, 0.0, 0.0, (speed, 0.0)), _disk("U", p, 0.0, 0.0, layer=1)],
            )
        )
    return shots


def test_shots_made_with_known_constants_give_them_back(tmp_path: Path) -> None:
    shots = _club_shots()
    path = tmp_path / "shots.csv"
    write_shots(path, shots)
    assert read_shots(path) == shots
    fit = fit_board(read_shots(path), BoardSpec())
    for name in FIT_BOUNDS:
        assert getattr(fit.board, name) == pytest.approx(getattr(TRUE, name), rel=1e-4), name
        assert fit.errors[name] is not None
    assert fit.rms_after < 1e-6 < fit.rms_before


def test_the_command_writes_a_board_file_that_board_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shots = tmp_path / "shots.csv"
    write_shots(shots, [s for s in _club_shots() if s.name.startswith(("slide", "rail"))])
    out = tmp_path / "club.json"
    assert (
        main([str(shots), "--out", str(out), "--fit", "friction,restitution_rail,rail_friction"])
        == 0
    )
    printed = capsys.readouterr().out
    assert "board file written" in printed
    board = read_board_file(out)
    assert board.friction == pytest.approx(TRUE.friction, rel=1e-4)
    assert board.restitution_rail == pytest.approx(TRUE.restitution_rail, rel=1e-4)
    assert board.disk_friction == BoardSpec().disk_friction  # not fitted: the base board's
    doc = json.loads(out.read_text())
    assert doc["format"] == "hikone-carrom-board" and "shots" in doc["note"]
    assert set(doc["fit"]) == {"friction", "restitution_rail", "rail_friction"}


def test_figures_the_shots_say_nothing_about_are_reported_so(tmp_path: Path) -> None:
    shots = [s for s in _club_shots() if s.name.startswith("slide")]
    fit = fit_board(shots, BoardSpec(), ["friction", "stack_friction"])
    assert fit.board.friction == pytest.approx(TRUE.friction, rel=1e-4)
    assert fit.errors["stack_friction"] is None
    assert fit.board.stack_friction == BoardSpec().stack_friction


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shot,disk,kind,x,y\n", "lacks the columns"),
        (
            "shot,disk,kind,layer,x,y,vx,vy,rest_x,rest_y\na,S,striker,0,0,0,1,0,zero,0\n",
            "line 2: rest_x",
        ),
        ("shot,disk,kind,layer,x,y,vx,vy,rest_x,rest_y\na,S,rock,0,0,0,1,0,0,0\n", "kind"),
        (
            "shot,disk,kind,layer,x,y,vx,vy,rest_x,rest_y\na,S,striker,0,0,0,0,0,0,0\n",
            "no disk moves",
        ),
        (
            "shot,disk,kind,layer,x,y,vx,vy,rest_x,rest_y\na,S,striker,0,0,0,1,0,0.1,\n",
            "both rest_x",
        ),
        ("shot,disk,kind,layer,x,y,vx,vy,rest_x,rest_y\na,S,striker,0,0,0,1e400,0,0,0\n", "finite"),
    ],
)
def test_bad_shots_files_get_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert main([str(path), "--out", str(tmp_path / "b.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
    assert not (tmp_path / "b.json").exists()


def test_a_missing_shots_file_and_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "none.csv"), "--out", str(tmp_path / "b.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "none.csv"), "--out", "b.json", "--fit", "gravity"])
    assert stop.value.code == 2
