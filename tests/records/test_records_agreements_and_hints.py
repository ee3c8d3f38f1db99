"""Records keep resignations, agreed draws, each seat's colour and the hints players used; the
replay checks them and ``hikone-carrom replay`` accepts them."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest

from hikone_carrom.match import Match, Shot
from hikone_carrom.records import (
    HintUse,
    RecordFormatError,
    ReplayError,
    dump,
    load,
    replay,
    to_record,
    write,
)
from hikone_carrom.records.replay_cli import main as replay_main
from hikone_carrom.rules import Color, RuleOptions


def _shoot(m: Match, k: int) -> Shot:
    p = m.legal_placement()
    x, y = p.point if p.kind == "point" else p.nearest(0.03 * (k % 3) - 0.03, p.point[1])
    shot = Shot(x, y, math.atan2(-y, -x) + 0.02 * k, 3.0)
    m.play(shot)
    return shot


def test_resignation_and_seat_colours_are_recorded_and_replayed(tmp_path: Path) -> None:
    m = Match(players=2, options=RuleOptions(first_seat=1), seed=4)
    for k in range(3):
        _shoot(m, k)
    m.resign(0)
    record = to_record(m, [{"seat": 0, "name": "A"}, {"seat": 1, "name": "B"}])
    assert [s["color"] for s in record["seats"]] == ["green", "red"]  # R1b: seat 1 won the lot
    last = record["actions"][-1]
    assert (last["kind"], last["seat"], last["color"]) == ("resign", 0, "green")
    assert record["result"]["reason"] == "resign" and record["result"]["winner"] == "red"
    again = replay(load(dump(record)))
    assert again.outcome == m.outcome
    path = tmp_path / "resigned.json"
    write(path, record)
    assert replay_main([str(path), "--quiet"]) == 0
    bad = copy.deepcopy(record)
    bad["actions"][-1]["color"] = "red"
    with pytest.raises(ReplayError) as err:
        replay(bad)
    assert err.value.action == len(record["actions"])


def test_agreed_draw_is_recorded_with_who_offered() -> None:
    m = Match(players=4, seed=6)
    _shoot(m, 0)
    m.agree_draw(offered_by=3, accepted_by=2)
    record = to_record(m)
    last = record["actions"][-1]
    assert (last["kind"], last["seat"], last["offered_by"]) == ("draw", 2, 3)
    assert replay(record).outcome == m.outcome
    bad = copy.deepcopy(record)
    bad["actions"][-1]["offered_by"] = 0  # seats 0 and 2 are partners: no agreement
    with pytest.raises(ReplayError, match="same colour"):
        replay(bad)


def test_hints_are_kept_checked_and_replayed(tmp_path: Path) -> None:
    m = Match(players=2, seed=8)
    suggested = Shot(0.0, -0.21, 1.5, 2.0)
    hints = [HintUse(0, 0, suggested, "direct")]
    _shoot(m, 0)
    hints.append(HintUse(1, m.shooter, Shot(0.01, 0.21, -1.5, 2.5), None))
    _shoot(m, 1)
    record = to_record(m, hints=hints)
    assert record["hints"][0] == {
        "before": 0,
        "seat": 0,
        "shot": suggested.to_dict(),
        "kind": "direct",
    }
    assert replay(load(dump(record))).referee.state == m.referee.state
    path = tmp_path / "hinted.json"
    write(path, record)
    assert replay_main([str(path)]) == 0
    for which, change, words in (
        (0, {"seat": 1}, "was to shoot"),
        (1, {"before": 5}, "the game has 2"),
    ):
        bad = copy.deepcopy(record)
        bad["hints"][which].update(change)
        with pytest.raises(ReplayError, match=words):
            replay(bad)
    with pytest.raises(RecordFormatError):
        to_record(m, hints=[HintUse(0, 1, suggested)])  # seat 1 was not to shoot first


@pytest.mark.parametrize(
    ("hints", "words"),
    [
        ("nope", "must be a list"),
        ([{"before": -1, "seat": 0, "shot": {}}], "'before'"),
        ([{"before": 0, "seat": 0, "shot": {"x": 0}}], "not a shot"),
        ([{"before": 0, "seat": 0, "shot": None, "extra": 1}], "unknown keys"),
    ],
)
def test_malformed_hints_are_format_errors(hints: object, words: str) -> None:
    record = to_record(Match(players=2, seed=1))
    record["hints"] = hints
    with pytest.raises(RecordFormatError, match=words):
        load(dump(record))


def test_records_without_hints_still_read() -> None:
    m = Match(players=2, seed=2)
    _shoot(m, 0)
    record = to_record(m)
    del record["hints"]
    assert replay(load(dump(record))).referee.state == m.referee.state
    assert Color(to_record(m, [{"seat": 0}])["seats"][0]["color"]) is Color.RED
