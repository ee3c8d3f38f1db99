"""The command line: simulate writes a record, replay verifies it, show draws a shot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hikone_carrom.cli import main


def _simulate(tmp_path: Path, *extra: str) -> Path:
    record = tmp_path / "game.json"
    code = main(
        ["simulate", "--bots", "greedy,random", "--seed", "5", "--record", str(record), *extra]
    )
    assert code == 0
    return record


def test_simulate_prints_a_summary_and_writes_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _simulate(tmp_path, "--players", "4", "--time-limit", "120")
    out = capsys.readouterr().out
    assert "pucks pocketed" in out and "shots" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["format"] == "hikone-carrom-record" and data["players"] == 4
    assert data["result"] is not None


def test_replay_verifies_and_names_the_first_diverging_shot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _simulate(tmp_path)
    assert main(["replay", str(record)]) == 0
    assert "replay exactly" in capsys.readouterr().out
    data = json.loads(record.read_text(encoding="utf-8"))
    data["actions"][1]["shot"]["speed"] *= 0.5
    record.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(record), "--quiet"]) == 1
    assert "action 2" in capsys.readouterr().err


def test_replay_of_a_malformed_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ nope", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not a readable record" in err and "Traceback" not in err


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_show_draws_a_shot(tmp_path: Path, suffix: str) -> None:
    record = _simulate(tmp_path)
    out = tmp_path / f"shot{suffix}"
    assert main(["show", str(record), "--shot", "1", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:400]


def test_show_refuses_a_shot_the_record_lacks(tmp_path: Path) -> None:
    record = _simulate(tmp_path)
    assert main(["show", str(record), "--shot", "999", "--out", str(tmp_path / "x.png")]) == 1


def test_unknown_command_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert main(["--help"]) == 0
    assert "simulate" in capsys.readouterr().out


def test_simulate_plays_on_a_board_file_and_its_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hikone_carrom.board import BoardSpec
    from hikone_carrom.board_file import write_board_file

    board = BoardSpec(friction=0.12, stack_friction=0.4, rail_friction=0.05)
    path = tmp_path / "club.json"
    write_board_file(path, board)
    record = _simulate(tmp_path, "--board", str(path), "--max-actions", "6")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["board"] == board.to_dict()
    assert main(["replay", str(record)]) == 0


@pytest.mark.parametrize("name", ["legacy", "standard"])
def test_simulate_plays_on_a_built_in_board_by_name(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hikone_carrom.board import BoardSpec

    monkeypatch.chdir(tmp_path)  # no file of that name here
    record = _simulate(tmp_path, "--board", name, "--max-actions", "4")
    data = json.loads(record.read_text(encoding="utf-8"))
    expected = BoardSpec.legacy() if name == "legacy" else BoardSpec()
    assert data["board"] == expected.to_dict()
    assert (expected == BoardSpec()) == (name == "standard")


@pytest.mark.parametrize(
    "command", [["simulate"], ["bench", "physics"], ["calibrate", "x.csv", "--out", "y.json"]]
)
def test_a_bad_board_file_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hikone-carrom-board", "version": 1, "board": {"friction": -1}}')
    with pytest.raises(SystemExit) as stop:
        main([*command, "--board", str(bad)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "friction" in err and "Traceback" not in err
