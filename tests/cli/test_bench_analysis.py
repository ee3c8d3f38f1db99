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


def test_the_figure_is_printed_against_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    """A game's analysis is timed as the server's worker runs it, shot by shot, against the
    10 s of a 40-shot game (scaled to the game's shots)."""
    from hikone_carrom.bench.analysis import run_bench

    figures = run_bench(2, 1)
    out = capsys.readouterr().out
    assert figures["shots"] == 2 and figures["total_s"] > 0 and figures["cpu_s"] > 0
    assert "<= 10 s of one core for 40 shots" in out


def test_the_analysis_s_search_is_compared_with_level_6_s_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hikone_carrom.bench.analysis import against_expert

    figures = against_expert(2, 1)
    out = capsys.readouterr().out
    assert figures["difference"] == pytest.approx(figures["light_chance"] - figures["full_chance"])
    assert figures["light_total_s"] > 0 and figures["full_total_s"] > 0
    assert "level 6" in out and "time ratio" in out
