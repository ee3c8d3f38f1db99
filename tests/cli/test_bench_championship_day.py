"""``hikone-carrom bench championship-day``, tiny (4 pads, 5 spectators, a 2-second Wi-Fi drop):
a real server is set up, played on, cut off, killed and restarted, and every figure of issue 47
is printed against its target with sane values (figures, not speeds, are checked)."""

from __future__ import annotations

import json
import math

import pytest

from hikone_carrom.bench import BENCHES
from hikone_carrom.bench.championship_day import TARGETS, main, retry_delay_s


def test_the_day_prints_every_figure_against_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--minutes", "0.15", "--pads", "4", "--spectators", "5", "--drop-seconds", "2"]
    assert main([*argv, "--shot-seconds", "0.3", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = json.loads(lines[-1])
    assert set(TARGETS) <= set(rows) and "console_bytes_per_update" in rows
    assert all(math.isfinite(v) and v >= 0 for v in rows.values()), rows
    assert 0 < rows["cpu_percent"] < 200  # two cores at most
    assert 0 < rows["ack_p95_ms"] < 30_000
    assert 0 < rows["back_after_drop_s"] < 120 and 0 < rows["back_after_restart_s"] < 300
    assert rows["spectator_bytes_per_s"] > 0  # live scores reached the pages
    printed = [line for line in lines if "target <=" in line]
    assert len(printed) == len(TARGETS)
    assert all(line.rstrip().endswith(("ok", "OVER")) for line in printed)
    assert any(line.startswith("  after kill -9: the server answers in") for line in lines)


def test_it_is_a_bench_sub_command_and_its_retries_are_the_pads() -> None:
    assert BENCHES["championship-day"][0] == "hikone_carrom.bench.championship_day"
    import random

    rng = random.Random(1)
    delays = [retry_delay_s(n, rng) for n in range(10)]
    assert 0.5 <= delays[0] <= 1.0 and all(1.0 <= d <= 2.0 for d in delays[2:])
