"""Every command-line error of every sub-command is a sentence and a non-zero exit, never a
traceback: bad options, unreadable or unwritable files, pipes and devices."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hikone_carrom.cli import COMMANDS, main
from hikone_carrom.match import Match, Shot
from hikone_carrom.records import dump, to_record


def _one_shot() -> Match:
    m = Match(seed=1)
    x, y = m.legal_placement().point
    m.play(Shot(x, y, math.pi / 2, 4.0))
    return m


_GOOD = to_record(_one_shot())


def _files(tmp: Path) -> dict[str, str]:
    """Names substituted into the bad command lines below."""
    (tmp / "folder.png").mkdir()
    (tmp / "broken.json").write_text("{ nope", encoding="utf-8")
    no_board = dict(_GOOD)
    del no_board["board"]
    (tmp / "noboard.json").write_text(json.dumps(no_board), encoding="utf-8")
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    huge = json.loads(dump(_GOOD))
    huge["board"]["half_width"] = 10**400
    (tmp / "huge.json").write_text(json.dumps(huge), encoding="utf-8")
    (tmp / "good.json").write_text(dump(_GOOD), encoding="utf-8")
    (tmp / "shots.csv").write_text("not,a,shots,file\n1,2,3,4\n", encoding="utf-8")
    return {"TMP": str(tmp), "MISSING": str(tmp / "missing")}


BAD: list[list[str]] = [
    ["frobnicate"],
    ["bench"],
    ["puzzles", "build", "--count", "many"],
    ["bench", "nothing"],
    # simulate
    ["simulate", "--players", "3"],
    ["simulate", "--seed", "-1"],
    ["simulate", "--seed", "many"],
    ["simulate", "--bots", "grandmaster"],
    ["simulate", "--time-limit", "nan"],
    ["simulate", "--time-limit", "-5"],
    ["simulate", "--max-actions", "0"],
    ["simulate", "--record", "TMP"],
    ["simulate", "--record", "MISSING/game.json"],
    ["simulate", "--frob"],
    # replay
    ["replay"],
    ["replay", "MISSING/game.json"],
    ["replay", "TMP"],
    ["replay", "TMP/broken.json"],
    ["replay", "TMP/noboard.json"],
    ["replay", "TMP/deep.json"],
    ["replay", "TMP/huge.json"],
    # show
    ["show", "TMP/good.json"],
    ["show", "TMP/good.json", "--out", "MISSING/shot.png"],
    ["show", "TMP/good.json", "--out", "TMP/shot.gif"],
    ["show", "TMP/good.json", "--out", "TMP/folder.png"],
    ["show", "TMP/good.json", "--shot", "first", "--out", "TMP/shot.png"],
    ["show", "TMP/good.json", "--shot", "99", "--out", "TMP/shot.png"],
    ["show", "TMP/noboard.json", "--out", "TMP/shot.png"],
    ["show", "MISSING/game.json", "--out", "TMP/shot.png"],
    ["show", "TMP/good.json", "--out", "TMP/shot.png", "--lang", "fr"],
    # the server
    ["play", "--port", "0"],
    ["serve", "--port", "many"],
    ["serve", "--workers", "0"],
    ["serve", "--db", "nonsense://x"],
    ["serve", "--db", "::::"],
    # the computer players' tools
    ["ai-eval", "--frob"],
    ["ai-eval", "--seeds", "-3"],
    ["ai-eval", "--players", "nobody", "--seeds", "1"],
    ["pot-table", "--step", "0"],
    ["pot-table", "--step", "wide"],
    # fitting a board to measured shots
    ["calibrate", "MISSING/shots.csv", "--out", "TMP/board.json"],
    ["calibrate", "TMP/shots.csv", "--out", "TMP/board.json"],
    ["calibrate", "TMP/broken.json", "--out", "TMP/board.json"],
    ["calibrate", "TMP/shots.csv", "--out", "TMP/board.json", "--fit", "gravity"],
    ["calibrate", "TMP/shots.csv", "--out", "MISSING/board.json"],
    ["calibrate", "TMP/shots.csv", "--out", "TMP/board.json", "--board", "TMP/broken.json"],
    ["simulate", "--board", "TMP/huge.json"],
    # benchmarks
    ["bench", "physics", "--shots", "0"],
    ["bench", "physics", "--repeats", "often"],
    ["bench", "server", "--shots", "0"],
    ["bench", "server", "--chromium", "MISSING/chromium"],
    ["bench", "env", "--steps", "0"],
    ["bench", "env", "--steps", "many"],
    ["bench", "env", "--json", "MISSING/figures.json"],
]


def test_every_sub_command_is_covered() -> None:
    assert {argv[0] for argv in BAD} >= set(COMMANDS)


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_bad_command_line_is_a_sentence_and_a_non_zero_exit(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = _files(tmp_path)
    args = [names.get(a.split("/")[0], a.split("/")[0]) + a[len(a.split("/")[0]) :] for a in argv]
    try:
        code = main(args)
    except SystemExit as stop:  # argparse refuses with exit status 2
        code = stop.code if isinstance(stop.code, int) else 1
    err = capsys.readouterr().err
    assert code != 0
    assert "Traceback" not in err and 'File "' not in err
    assert err.strip(), "the refusal says why"


@pytest.mark.parametrize("device", ["/dev/zero", "FIFO"])
def test_replay_and_show_of_a_device_or_a_pipe_end_at_once(device: str, tmp_path: Path) -> None:
    if device == "FIFO":
        device = str(tmp_path / "pipe")
        os.mkfifo(device)
    for argv in (["replay", device], ["show", device, "--out", str(tmp_path / "x.png")]):
        run = subprocess.run(
            [sys.executable, "-m", "hikone_carrom.cli", *argv],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert run.returncode != 0
        assert "not a regular file" in " ".join(run.stderr.split())
        assert "Traceback" not in run.stderr


def test_simulate_checks_the_record_path_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--record", str(tmp_path), "--max-actions", "2000"])
    err = capsys.readouterr()
    assert "it is a folder" in err.err and "shots" not in err.out  # no match was played
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no folder.tmp left behind
