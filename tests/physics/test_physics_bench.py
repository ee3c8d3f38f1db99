"""The benchmark's scenes and command: real match positions, stored and reproducible; the
command prints its figures with the machine's load (no speed is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hikone_carrom.bench import positions as positions_module
from hikone_carrom.bench.positions import MATCHES, generate, stored
from hikone_carrom.cli import main
from hikone_carrom.physics import simulate


def test_stored_positions_are_real_layouts_with_breaks_and_piles() -> None:
    ps = stored()
    assert len(ps) > 300
    assert sum(p.shot == 0 for p in ps) == len(MATCHES)  # every match's opening break
    assert sum(p.stacked for p in ps) > 20  # piles on the jack spot (R6e)
    for p in ps[::7]:
        res = simulate(p.shot_disks(), fly_off=False)
        assert not res.truncated


def test_stored_positions_are_what_the_matches_give(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(positions_module, "MAX_SHOTS", 4)
    again = generate(MATCHES[:1])
    assert again == [p for p in stored() if p.match == 0][:4]


def test_the_command_prints_every_figure_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "physics", "--rounds", "1", "--no-pymunk", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "load average" in text and "simulate() call" in text
    fig = json.loads(out.read_text())
    assert fig["positions"] == len(stored()) and fig["rounds"] == 1
    for key in ("real_per_s", "engine_us", "overhead_us", "batch_1_per_s", "break_ms"):
        assert fig[key]["median"] > 0
    for key in ("batch_all_per_s", "big_1_per_s", "big_all_per_s"):
        assert fig[key]["median"] > 0
    assert fig["big_batch"] == 4096 and fig["busy"] == 0


def test_the_fuzz_finds_no_jump_loop_or_broken_invariant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "physics", "--fuzz", "50"]) == 0
    text = capsys.readouterr().out
    assert "50 fuzzed pile shots" in text and "stored match positions" in text
    assert "jumps" in text and "loops" in text
