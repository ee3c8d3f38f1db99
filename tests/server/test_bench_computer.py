"""``hikone-carrom bench server --computer-rooms``: rooms against level 6 in the load, the
computer's answers timed without the pause the server makes on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from hikone_carrom.bench.server import serve_app_in_thread
from hikone_carrom.bench.server_load import AI_DELAY_S, computer_answer, make_rooms, run_load
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings


def test_the_computer_answer_leaves_out_the_pause_and_the_previous_shot_rolling() -> None:
    arrived, rolling = 10.0, 1.5
    assert computer_answer((arrived, rolling), arrived + AI_DELAY_S + rolling + 0.25) == (
        pytest.approx(0.25)
    )


def test_the_load_s_computer_rooms_play_and_time_the_computer_s_moves(tmp_path: Path) -> None:
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert settings.ai_delay_s == AI_DELAY_S  # the pause the figure leaves out
    with serve_app_in_thread(create_app(settings)) as base:
        plans = make_rooms([base], 1, computer_rooms=1)
        result = run_load(plans, 12.0, processes=1)
    assert result.errors == []
    assert (result.lost, result.gaps, result.doubled) == (0, 0, 0)
    assert result.computer_times and all(t > 0.0 for t in result.computer_times)
    assert result.latencies  # the people's room played alongside
