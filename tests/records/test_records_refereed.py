"""Replaying a pad's record checks every field of a refereed action (docs/record-format.md): an
edited outcome, colour or ``at`` is named at its action, as an edited ruling is."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hikone_carrom.records import ReplayError, read, replay
from hikone_carrom.scoring import RefereedMatch

GOLDEN = Path(__file__).resolve().parents[1] / "scoring" / "golden" / "timed-doubles-lot.json"


def _edited(edit: Callable[[list[dict[str, Any]]], None]) -> dict[str, Any]:
    record = copy.deepcopy(read(GOLDEN))
    edit(record["actions"])
    return record


def test_the_unedited_record_replays() -> None:
    game = replay(read(GOLDEN))
    assert isinstance(game, RefereedMatch) and game.entries[4].at == 265.0


def _set(n: int, key: str, value: Any) -> Callable[[list[dict[str, Any]]], None]:
    def edit(actions: list[dict[str, Any]]) -> None:
        actions[n - 1][key] = value

    return edit


def _pocket_green(actions: list[dict[str, Any]]) -> None:
    actions[0]["outcome"]["pocketed"].append("green")  # the tap still says red 1


@pytest.mark.parametrize(
    ("edit", "action", "words"),
    [
        (_pocket_green, 1, "outcome"),
        (_set(3, "outcome", None), 3, "outcome"),
        (_set(3, "color", "red"), 3, "colour"),
        (_set(2, "at", "40"), 2, "match time must be seconds"),
        (_set(2, "at", True), 2, "match time must be seconds"),
        (_set(6, "at", -1), 6, "match time must be seconds"),
        (_set(5, "at", "265"), 5, "match time must be seconds"),
        (_set(5, "at", 100.0), 5, "last minute"),  # R8a: no lost shot at 1:40 of 5:00
        (_set(7, "at", [300]), 7, "match time must be seconds"),
    ],
)
def test_an_edited_refereed_action_is_named(
    edit: Callable[[list[dict[str, Any]]], None], action: int, words: str
) -> None:
    with pytest.raises(ReplayError, match=words) as err:
        replay(_edited(edit))
    assert err.value.action == action


def test_an_action_without_at_is_named() -> None:
    def drop(actions: list[dict[str, Any]]) -> None:
        del actions[1]["at"]

    with pytest.raises(ReplayError, match="lacks 'at'") as err:
        replay(_edited(drop))
    assert err.value.action == 2
