"""Golden refereed matches (singles, doubles, timed with R7b/R7c/R7d and R8a) stored as record
files: the pad's record of each script equals the stored file, and `hikone-carrom replay`
re-judges every entry of it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from golden_matches import GOLDEN, MATCHES

from hikone_carrom.records import ReplayError, read, refereed_record, replay
from hikone_carrom.records.replay_cli import main as replay_main
from hikone_carrom.scoring import RefereedMatch


def _without_engine(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "engine"}


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_golden_record_equals_the_pads_record_and_replays(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    stored = read(path)
    made = json.loads(json.dumps(refereed_record(MATCHES[name]())))
    assert _without_engine(made) == _without_engine(stored)
    game = replay(stored)
    assert isinstance(game, RefereedMatch) and game.outcome is not None
    assert replay_main([str(path), "--quiet"]) == 0


def _reasons(record: dict[str, Any]) -> set[str]:
    return {r for a in record["actions"] for r in a.get("ruling", {}).get("reasons", [])}


def test_golden_matches_cover_every_rule_path_of_the_pad() -> None:
    covered = set().union(*(_reasons(read(GOLDEN / f"{n}.json")) for n in MATCHES))
    wanted = {"R3a", "R3b", "R3c", "R3d", "R4c", "R5a", "R5b", "R5c", "R5d", "R5e", "R5f"}
    wanted |= {"R5g", "R5h", "R5i", "R5j", "R6a", "R6b", "R6c", "R6d", "R6e", "R7a"}
    wanted |= {"R7b", "R7c", "R7d", "R8a"}
    assert wanted <= covered, sorted(wanted - covered)
    timed = read(GOLDEN / "timed-doubles-lot.json")
    kinds = [a["kind"] for a in timed["actions"]]
    assert kinds.count("skip") == 1 and kinds.count("call_time") == 1 and kinds[-1] == "lot"
    assert timed["result"] == {"winner": "green", "reason": "R7d", "scores": [1, 1]}
    assert timed["actions"][4]["at"] == 265.0  # the lost shot: 4:25 of match time (R8a)


def test_an_edited_golden_record_names_the_first_diverging_action(tmp_path: Path) -> None:
    record = read(GOLDEN / "singles.json")
    edited = copy.deepcopy(record)
    edited["actions"][5]["ruling"]["penalty"] = 4
    with pytest.raises(ReplayError) as err:
        replay(edited)
    assert err.value.action == 6
    edited = copy.deepcopy(record)
    edited["actions"][2]["tap"]["red"] = 12  # more pucks than on the board
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(edited), encoding="utf-8")
    assert replay_main([str(path), "--quiet"]) == 1
