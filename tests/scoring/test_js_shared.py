"""The pad's shared-rules.js is what the library gives now (scoring/js_shared.py): default rule
options, fouls, names and every ruling sentence have one source, the Python side."""

from __future__ import annotations

from pathlib import Path

import pytest

from hikone_carrom.rules import RuleOptions
from hikone_carrom.rules.messages import SENTENCES
from hikone_carrom.scoring import js_shared


def test_the_committed_module_is_what_the_generator_gives() -> None:
    assert js_shared.PATH.read_text(encoding="utf-8") == js_shared.render(), (
        "web/js/pad/shared-rules.js is stale: run python -m hikone_carrom.scoring.js_shared"
    )


def test_the_module_carries_every_default_option_and_sentence() -> None:
    text = js_shared.render()
    for name in RuleOptions().to_dict():
        assert f"\n  {name}: " in text
    for key in SENTENCES:
        assert f"\n  {key}: Object.freeze(" in text


def test_check_reports_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shared-rules.js"
    assert js_shared.main(["--check", "--out", str(out)]) == 1
    assert js_shared.main(["--out", str(out)]) == 0
    assert js_shared.main(["--check", "--out", str(out)]) == 0
    out.write_text(out.read_text(encoding="utf-8").replace("R5h", "R5x"), encoding="utf-8")
    assert js_shared.main(["--check", "--out", str(out)]) == 1
    assert "not current" in capsys.readouterr().out
