"""The records reader refuses every malformed input with RecordFormatError and a sentence, never
another exception, never waits on a pipe or a device."""

from __future__ import annotations

import copy
import json
import math
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hikone_carrom.match import Match, Noise, Shot
from hikone_carrom.records import (
    MAX_BYTES,
    RecordFormatError,
    ReplayError,
    dump,
    load,
    read,
    replay,
    to_record,
    write,
)
from hikone_carrom.records import codec as codec_module
from hikone_carrom.rules import RuleOptions

_HUGE = 10**400


def _record() -> dict[str, Any]:
    """A short record with a shot, a pass and a set start position."""
    m = Match(players=2, seed=4)
    x, y = m.legal_placement().point
    m.play(Shot(x, y, math.pi / 2 + 0.02, 4.0), Noise(dangle=1e-3))
    m.pass_turn()
    start = Match.from_position(m.layout, m.referee.state, seed=4)
    p = start.legal_placement()
    x, y = p.nearest(0.05, p.point[1])
    start.play(Shot(x, y, math.atan2(-y, -x), 3.0))
    return to_record(start)


RECORD = _record()


def _text(record: dict[str, Any]) -> str:
    return json.dumps(record)


def test_a_pass_round_trips_and_replays() -> None:
    m = Match(seed=2)
    m.pass_turn()
    record = load(dump(to_record(m)))
    assert record["actions"][0]["kind"] == "pass"
    assert replay(record).referee.state == m.referee.state


def test_deep_nesting_is_a_format_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecordFormatError, match="nested"):
        load(deep)
    inside = copy.deepcopy(RECORD)
    node: list[Any] = []
    inside["seats"] = [node]
    for _ in range(200):
        node.append([])
        node = node[0]
    with pytest.raises(RecordFormatError, match="nests deeper"):
        load(_text(inside))


@pytest.mark.parametrize(
    "path",
    [
        ("board", "half_width"),
        ("board", "friction"),
        ("start", "layout", 0, "x"),
        ("start", "layout", 1, "y"),
        ("actions", 0, "shot", "speed"),
        ("actions", 0, "noise", "dangle"),
    ],
)
def test_huge_integers_are_a_format_error(path: tuple[str | int, ...]) -> None:
    bad = copy.deepcopy(RECORD)
    node: Any = bad
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = _HUGE
    with pytest.raises(RecordFormatError) as err:
        replay(load(_text(bad)))
    assert "too large" in str(err.value)


def test_a_record_without_a_board_or_a_board_figure_is_a_format_error() -> None:
    bad = copy.deepcopy(RECORD)
    del bad["board"]
    with pytest.raises(RecordFormatError, match="lacks 'board'"):
        load(_text(bad))
    bad = copy.deepcopy(RECORD)
    del bad["board"]["jack_mass"]
    with pytest.raises(RecordFormatError, match="jack_mass"):
        replay(load(_text(bad)))  # never filled in with the default
    bad["board"]["jack_mass"] = "heavy"
    with pytest.raises(RecordFormatError, match="must be a number"):
        replay(load(_text(bad)))


def test_nan_and_infinity_are_not_json() -> None:
    text = _text(RECORD).replace('"seed": 4', '"seed": NaN')
    with pytest.raises(RecordFormatError, match="not JSON"):
        load(text)


def test_a_bad_start_position_is_a_format_error() -> None:
    bad = copy.deepcopy(RECORD)
    bad["start"]["layout"][1]["x"] = bad["start"]["layout"][0]["x"]  # two disks on one spot
    bad["start"]["layout"][1]["y"] = bad["start"]["layout"][0]["y"]
    with pytest.raises(RecordFormatError, match="overlap"):
        replay(bad)
    bad = copy.deepcopy(RECORD)
    bad["start"]["layout"] = "all of them"
    with pytest.raises(RecordFormatError, match="list"):
        replay(bad)


def test_devices_pipes_and_folders_are_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        done: list[BaseException] = []

        def attempt(p: str = path, out: list[BaseException] = done) -> None:
            try:
                read(p)
            except RecordFormatError as err:
                out.append(err)

        worker = threading.Thread(target=attempt, daemon=True)
        worker.start()
        worker.join(10.0)
        if worker.is_alive():  # unblock the reader so that the test run can end
            with open(fifo, "wb"):
                pass
        assert done and "regular file" in str(done[0]), path


def test_a_file_larger_than_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_text(dump(RECORD), encoding="utf-8")
    assert read(path)["format"] == RECORD["format"]
    monkeypatch.setattr(codec_module, "MAX_BYTES", 100)
    with pytest.raises(RecordFormatError, match="larger than"):
        read(path)
    assert MAX_BYTES >= 16 * 1024 * 1024


def test_writing_to_a_folder_or_a_missing_folder_leaves_nothing(tmp_path: Path) -> None:
    for target in (tmp_path, tmp_path / "missing" / "game.json"):
        with pytest.raises(RecordFormatError, match="cannot write"):
            write(target, RECORD)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_give_a_record_or_a_format_error(data: bytes) -> None:
    try:
        record = load(data)
    except RecordFormatError as err:
        assert str(err)
    else:
        assert record["format"] == "hikone-carrom-record"


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([_HUGE, -_HUGE, 0, 1, 2, 4, -1, 1e300])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["shot", "pass", "skip", "lot", "red", "R0", "J", "S", "[/x]"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for k, v in enumerate(node):
            out += _paths(v, (*prefix, k))
    return out


_PATHS = [p for p in _paths(RECORD) if p]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_PATHS), _JSON, st.booleans())
def test_a_record_with_any_field_changed_replays_or_gives_a_clear_error(
    path: tuple[Any, ...], value: Any, delete: bool
) -> None:
    bad = copy.deepcopy(RECORD)
    node: Any = bad
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    try:
        replay(load(_text(bad)))
    except (RecordFormatError, ReplayError) as err:
        assert str(err)


def test_options_with_a_huge_time_are_a_format_error() -> None:
    bad = copy.deepcopy(RECORD)
    bad["options"] = {**RuleOptions().to_dict(), "match_time_s": _HUGE}
    with pytest.raises(RecordFormatError, match="options"):
        replay(load(_text(bad)))
