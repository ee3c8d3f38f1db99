"""Records: round trip, replay, tampering detected at the right action, malformed files refused."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from hikone_carrom.match import Match, Noise, Shot
from hikone_carrom.records import (
    RecordFormatError,
    ReplayError,
    dump,
    layout_hash,
    load,
    read,
    replay,
    to_record,
    write,
)


def _played(players: int = 2, shots: int = 5, seed: int = 5) -> Match:
    m = Match(players=players, seed=seed)
    for k in range(shots):
        p = m.legal_placement()
        x, y = p.point if p.kind == "point" else p.nearest(0.04 * (k % 3) - 0.04, p.point[1])
        toward = math.atan2(-y, -x)
        m.play(Shot(x, y, toward + 0.03 * (k - 2), 3.5 + 0.2 * k), Noise(dangle=1e-3 * k))
    m.pass_turn()
    return m


def test_round_trip_and_replay(tmp_path: Path) -> None:
    m = _played()
    record = to_record(m, [{"seat": 0, "name": "あ"}, {"seat": 1, "name": "b"}])
    path = tmp_path / "game.json"
    write(path, record)
    loaded = read(path)
    assert loaded == json.loads(dump(record))
    again = replay(loaded)
    assert layout_hash(again.layout) == layout_hash(m.layout)
    assert again.referee.state == m.referee.state
    assert len(again.actions) == len(m.actions)


def test_doubles_record_replays() -> None:
    m = _played(players=4, shots=6, seed=9)
    assert replay(load(dump(to_record(m)))).referee.state == m.referee.state


@pytest.mark.parametrize("n", [1, 3])
def test_tampered_shot_is_rejected_at_that_action(n: int) -> None:
    record = to_record(_played())
    bad = copy.deepcopy(record)
    bad["actions"][n - 1]["shot"]["angle"] += 0.2
    with pytest.raises(ReplayError) as err:
        replay(bad)
    assert err.value.action == n


def test_tampered_counts_and_truncation_are_rejected() -> None:
    record = to_record(_played())
    bad = copy.deepcopy(record)
    bad["actions"][2]["counts"]["debt"]["red"] = 3
    with pytest.raises(ReplayError) as err:
        replay(bad)
    assert err.value.action == 3
    cut = copy.deepcopy(record)
    del cut["actions"][-1]["layout_hash"]
    with pytest.raises(ReplayError) as err:
        replay(cut)
    assert err.value.action == len(record["actions"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        ("[]", "JSON object"),
        ('{"format": "chess"}', "not a hikone-carrom-record"),
        ('{"format": "hikone-carrom-record", "version": 99}', "version 99"),
        ('{"format": "hikone-carrom-record", "version": 1, "rules": "ICF"}', "rules"),
    ],
)
def test_malformed_records_give_clear_errors(text: str, words: str) -> None:
    with pytest.raises(RecordFormatError) as err:
        load(text)
    assert words in str(err.value)


def test_record_from_other_rules_or_bad_board_is_refused() -> None:
    record = to_record(_played(shots=1))
    other = copy.deepcopy(record)
    other["board"]["half_width"] = -1
    with pytest.raises(RecordFormatError):
        replay(other)
    other = copy.deepcopy(record)
    other["options"] = "fast"
    with pytest.raises(RecordFormatError):
        replay(other)


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(RecordFormatError):
        read(tmp_path / "nope.json")
