"""The evaluation harness: statistics, the resumable results file, the command, the runners."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hikone_carrom.ai.errors import EvaluationError
from hikone_carrom.ai.eval_cli import main
from hikone_carrom.ai.eval_tables import duel_table, markdown, phase_table, solo_table
from hikone_carrom.ai.evaluation import DuelTask, SoloTask, run_task, task_from_dict
from hikone_carrom.ai.results import RESULTS_FORMAT, ResultsFile
from hikone_carrom.ai.runner import run_local
from hikone_carrom.ai.stats import mean_interval, percentile, summarize, wilson
from hikone_carrom.board import BoardSpec
from hikone_carrom.board_file import write_board_file


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(200, 200)
    assert hi == 1.0 and lo == pytest.approx(0.9812, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_summaries() -> None:
    s = summarize([1.0, 2.0, 3.0, 4.0])
    assert (s.n, s.mean, s.median, s.low, s.high) == (4, 2.5, 2.5, 1.0, 4.0)
    assert s.sd == pytest.approx(math.sqrt(5 / 3))
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95) == pytest.approx(4.8)
    assert math.isnan(summarize([]).mean)
    lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2.0
    assert (lo, hi) == pytest.approx((2.5 - half, 2.5 + half))
    assert all(math.isnan(v) for v in mean_interval([7.0]))


def test_solo_and_duel_tasks() -> None:
    solo = run_task(SoloTask("greedy", "0x", 3, cap=5))
    assert solo["result"]["strikes"] <= 5 and len(solo["result"]["times"]) == 5
    assert task_from_dict(solo["task"]) == SoloTask("greedy", "0x", 3, cap=5)
    duel = run_task(DuelTask("aim", "random", "5x", 1, max_shots=6))
    result = duel["result"]
    assert result["winner"] in ("a", "b", "draw") and result["a_seat"] == 1
    assert result["shots"] >= 6
    with pytest.raises(EvaluationError):
        task_from_dict({"kind": "chess"})
    table = solo_table([solo])
    assert table.rows[0][:3] == ("0x", "greedy", "1")
    assert table.header[4:6] == ("mean", "95 % CI") and table.rows[0][5] == "-"
    assert "| tier |" in markdown(duel_table([duel]))


def test_solo_result_records_each_strikes_pucks_to_go_and_success_R3a_R6b() -> None:
    result = run_task(SoloTask("greedy", "1x", 4, cap=25))["result"]
    togo, kept = result["togo"], result["kept"]
    assert len(togo) == len(kept) == result["strikes"] and togo[0] == 12
    for k in range(len(togo) - 1):
        if kept[k]:
            assert togo[k + 1] < togo[k]  # an own puck went in (R3a) or paid debt (R5i)
    if result["cleared"]:
        assert togo[-1] == 0 and kept[-1] == 1  # the winning jack (R6b, R7a)


def test_phase_table_counts_strikes_and_successes_by_pucks_to_go() -> None:
    def line(togo: list[int], kept: list[int], penalties: int) -> dict[str, Any]:
        task = {"kind": "solo", "player": "6", "tier": "1x", "seed": 0, "cap": 200}
        result = {"strikes": len(togo), "togo": togo, "kept": kept, "penalties": penalties}
        return {"task": task, "result": result}

    lines = [
        line([12, 12, 11, 1, 1, 0], [0, 1, 1, 0, 1, 1], 0),
        line([12, 11, 3, 2, 1, 0, 0], [1, 1, 1, 1, 1, 0, 1], 1),
        {"task": {"kind": "solo", "player": "6", "tier": "1x"}, "result": {"strikes": 9}},
    ]
    table = phase_table(lines)
    assert table.header[3:] == ("10+", "7-9", "4-6", "3", "2", "1", "jack", "penalties")
    (row,) = table.rows
    assert row[:3] == ("1x", "6", "2")  # the line without per-strike data is left out
    assert row[3:] == (
        "2.50 (80 %)",
        "0.00 (-)",
        "0.00 (-)",
        "0.50 (100 %)",
        "0.50 (100 %)",
        "1.50 (67 %)",
        "1.50 (67 %)",
        "0.50",
    )


def test_results_file_resumes_and_drops_a_cut_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    results = ResultsFile(path)
    results.append({"key": "k1", "task": {"kind": "solo"}, "result": {"strikes": 3}})
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"key": "k2", "task"')  # a run killed while writing
    again = ResultsFile(path)
    assert "k1" in again and "k2" not in again and len(again) == 1
    assert path.read_text(encoding="utf-8").endswith("}\n")


def test_results_file_rejects_foreign_or_broken_files(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"format": "something else"}\n', encoding="utf-8")
    with pytest.raises(EvaluationError):
        ResultsFile(foreign)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"format": RESULTS_FORMAT}) + "\nnot json\n{}\n", encoding="utf-8")
    with pytest.raises(EvaluationError) as err:
        ResultsFile(broken)
    assert ":2:" in err.value.en


def test_command_runs_resumes_and_reports(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "eval.jsonl"
    md = tmp_path / "tables.md"
    args = [
        "--players",
        "random,greedy",
        "--duels",
        "greedy:random",
        "--tiers",
        "0x,1x",
        "--seeds",
        "2",
        "--duel-games",
        "2",
        "--cap",
        "8",
        "--max-shots",
        "8",
        "--results",
        str(path),
        "--jobs",
        "1",
        "--quiet",
        "--markdown",
        str(md),
    ]
    assert main(args) == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 2 * 2 * 2 + 2 * 2
    assert main(args) == 0  # resumed: nothing new
    assert len(path.read_text(encoding="utf-8").splitlines()) == len(lines)
    text = md.read_text(encoding="utf-8")
    assert "Solo clear" in text and "Wilson" in text and "Decision time" in text
    assert main([*args, "--report-only"]) == 0
    assert "greedy" in capsys.readouterr().out
    duels_only = tmp_path / "duels.jsonl"
    no_solo = list(args)
    for flag, value in (("--players", "none"), ("--results", str(duels_only))):
        no_solo[no_solo.index(flag) + 1] = value
    assert main(no_solo) == 0
    assert len(duels_only.read_text(encoding="utf-8").splitlines()) == 1 + 2 * 2  # no solo


@pytest.mark.parametrize(
    "bad",
    [["--players", "nobody"], ["--duels", "greedy-random"], ["--tiers", "loud"], ["--seeds", "-1"]],
)
def test_command_refuses_bad_arguments(tmp_path: Path, bad: list[str], capsys: Any) -> None:
    assert main([*bad, "--results", str(tmp_path / "x.jsonl"), "--quiet"]) == 2
    assert "ai-eval" in capsys.readouterr().err


def test_local_processes_give_the_same_results_as_inline() -> None:
    tasks = [SoloTask("greedy", "1x", s, cap=4) for s in range(3)]
    local = {line["key"]: line["result"]["strikes"] for line in run_local(tasks, jobs=2)}
    inline = {line["key"]: line["result"]["strikes"] for line in run_local(tasks, jobs=1)}
    assert local == inline and len(local) == 3


def test_local_processes_work_with_an_empty_numba_cache(tmp_path: Path) -> None:
    """A fresh machine: the workers compile the physics themselves (about 30 s each)."""
    script = (
        "from hikone_carrom.ai.evaluation import SoloTask\n"
        "from hikone_carrom.ai.runner import run_local\n"
        "lines = list(run_local([SoloTask('greedy', '0x', s, cap=2) for s in range(2)], 2))\n"
        "print(sorted(line['result']['strikes'] for line in lines))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("NUMBA_NUM_THREADS", None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[2, 2]"
    assert any((tmp_path / "numba").rglob("*.nbi"))  # the workers compiled into the empty cache


def _tagged_processes(tag: str) -> list[int]:
    """Pids of live processes whose environment holds ``tag`` (Linux /proc)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if tag.encode() in environ.split(b"\0") and state != "Z":
                pids.append(int(entry.name))
    return pids


def test_sigterm_stops_the_command_and_its_workers(tmp_path: Path) -> None:
    """``kill`` on a running ``ai-eval`` ends it as Ctrl-C does: exit 130, the results file
    intact for a resumed run, and no worker left simulating a game nobody will read."""
    import signal
    import time
    import uuid

    tag = f"HIKONE_CARROM_TEST_RUN={uuid.uuid4().hex}"
    env = {**os.environ, tag.split("=")[0]: tag.split("=")[1]}
    results = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "hikone_carrom.ai.eval_cli", "--players", "6"]
    command += ["--duels", "none", "--tiers", "1x", "--seeds", "4", "--jobs", "2", "--quiet"]
    run = subprocess.Popen(
        [*command, "--results", str(results)], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while len(_tagged_processes(tag)) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)  # the command and its two workers
        assert len(_tagged_processes(tag)) >= 3
        time.sleep(3.0)  # the workers are into their first games (an expert clear takes >10 s)
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 130, stderr[-2000:]
    assert "rerun the same command" in stderr and "再開" in stderr
    deadline = time.monotonic() + 10
    while _tagged_processes(tag) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _tagged_processes(tag) == []
    assert len(ResultsFile(results)) == 0  # a valid file, nothing finished: resumable


def test_the_evaluation_runs_on_a_board_file_and_keeps_boards_apart(
    tmp_path: Path, capsys: Any
) -> None:
    """``ai-eval --board FILE`` plays on that board; its results file names the board, and a
    run on another board refuses to add to it (games of two physics models never mix)."""
    board = tmp_path / "club.json"
    write_board_file(board, BoardSpec(friction=0.12, rail_friction=0.0))
    path = tmp_path / "club.jsonl"
    args = ["--players", "greedy", "--duels", "none", "--tiers", "0x", "--seeds", "1"]
    args += ["--cap", "3", "--results", str(path), "--jobs", "1", "--quiet"]
    assert main([*args, "--board", str(board)]) == 0
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["board"] == BoardSpec(friction=0.12, rail_friction=0.0).to_dict()
    line = json.loads(path.read_text(encoding="utf-8").splitlines()[1])
    again = run_task(task_from_dict(line["task"]), BoardSpec(friction=0.12, rail_friction=0.0))
    assert {k: v for k, v in again["result"].items() if k != "times"} == {
        k: v for k, v in line["result"].items() if k != "times"
    }
    assert main(args) == 2  # the default board differs from the file's
    assert "another board" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*args, "--board", str(tmp_path / "missing.json")])
    assert stop.value.code == 2
    assert "cannot read the board file" in capsys.readouterr().err
