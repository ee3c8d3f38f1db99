"""``hikone-carrom bench analysis``: bad options are one sentence and exit status 2."""

from __future__ import annotations

import pytest

from hikone_carrom.cli import main


@pytest.mark.parametrize("args", [["--shots", "0"], ["--seed", "-1"], ["--shots", "many"]])
def test_bad_options_are_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "analysis", *args])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "hikone-carrom bench analysis" in err and "Traceback" not in err
