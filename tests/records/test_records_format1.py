"""Record format 2 stores the friction models' figures; records of format 1 (written before
them) replay with the physics of their time, the legacy figures, exactly."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from hikone_carrom.board import LEGACY_FIGURES, BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.records import VERSION, RecordFormatError, load, read, replay, to_record
from hikone_carrom.records.codec import match_of

FORMAT1 = Path(__file__).parent / "data" / "format1-random-greedy-seed6.json"
"""A whole match of format 1 (random against greedy, seed 6, 44 shots with penalties and a pile
on the jack spot) written by ``hikone-carrom simulate --record`` before the friction models."""


def test_a_format_1_record_replays_exactly_with_the_legacy_physics() -> None:
    record = read(FORMAT1)
    assert record["version"] == 1
    assert not set(record["board"]) & set(LEGACY_FIGURES)
    assert match_of(record).board == BoardSpec.legacy()
    result = replay(record)
    assert len(result.actions) == 44
    assert any(a["ruling"]["penalty"] for a in record["actions"])


def test_the_same_record_under_todays_default_physics_does_not_replay() -> None:
    record: dict[str, Any] = json.loads(FORMAT1.read_text(encoding="utf-8"))
    record["version"] = VERSION
    record["board"] = {**BoardSpec().to_dict(), **record["board"]}
    with pytest.raises(Exception, match="differs"):
        replay(load(json.dumps(record)))


def test_records_of_format_2_carry_every_board_figure() -> None:
    board = BoardSpec(stack_friction=0.3, rail_friction=0.0)
    record = to_record(Match(seed=1, board=board))
    assert record["version"] == VERSION == 2
    assert record["board"] == board.to_dict()
    assert match_of(load(json.dumps(record))).board == board


@pytest.mark.parametrize("figure", [*LEGACY_FIGURES, "friction"])
def test_a_format_2_record_missing_a_figure_is_a_format_error(figure: str) -> None:
    record = to_record(Match(seed=1))
    del record["board"][figure]
    with pytest.raises(RecordFormatError, match=f"lacks the figures.*{figure}"):
        match_of(load(json.dumps(record)))


def test_format_1_boards_cannot_hold_the_new_figures_and_the_flag_is_a_bool() -> None:
    old = read(FORMAT1)
    bad = copy.deepcopy(old)
    bad["board"]["stack_friction"] = 0.2
    with pytest.raises(RecordFormatError, match="unknown figures"):
        match_of(load(json.dumps(bad)))
    record = to_record(Match(seed=1))
    record["board"]["merge_grazing_pairs"] = 1
    with pytest.raises(RecordFormatError, match="true or false"):
        match_of(load(json.dumps(record)))
    record["board"]["merge_grazing_pairs"] = False
    record["version"] = 3
    with pytest.raises(RecordFormatError, match="version 3 is not supported"):
        load(json.dumps(record))
