"""The pad's offline referee answers as the library on random matches under random rule options:
the cases and the library's answers are made here (pad_referee_cases.py) and Node checks the
pad's referee.js and match.js against them (pad_referee_parity.test.mjs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pad_referee_cases import cases

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_pads_referee_rules_exactly_as_the_library(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases(), ensure_ascii=False), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--test", str(HERE / "pad_referee_parity.test.mjs")],
        env={**os.environ, "PAD_REFEREE_CASES": str(path)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[:20000] + run.stderr[-5000:]
    assert "# 800 games equal" in run.stdout
    assert "# 200 matches equal" in run.stdout
