"""Rulings name players, never seat numbers (R1b, R1c, R3a, R3d, R5e, R8a); a side may resign or
both sides agree to a draw, outcomes with their own reasons."""

from __future__ import annotations

import re

import pytest

from hikone_carrom.rules import (
    OUTCOME_REASONS,
    Color,
    GameOverError,
    Outcome,
    Piece,
    Referee,
    RuleOptions,
    ShotReport,
    explain,
    explain_outcome,
    seat_label,
    skip_turn,
)

_SEAT_NUMBER = re.compile(r"[Ss]eat \d|席\s*\d")


@pytest.mark.parametrize(
    ("seat", "players", "first_seat", "en", "ja"),
    [
        (0, 2, 0, "Red (south)", "赤（南）"),
        (1, 2, 0, "Green (north)", "緑（北）"),
        (1, 2, 1, "Red (north)", "赤（北）"),
        (1, 4, 0, "Green (west)", "緑（西）"),
        (3, 4, 0, "Green (east)", "緑（東）"),
        (3, 4, 1, "Red (east)", "赤（東）"),
    ],
)
def test_R1c_seat_label_names_colour_and_side(
    seat: int, players: int, first_seat: int, en: str, ja: str
) -> None:
    assert seat_label(seat, players, "en", first_seat) == en
    assert seat_label(seat, players, "ja", first_seat) == ja


def test_R3d_turn_passes_to_a_named_player_never_a_seat_number() -> None:
    ruling = Referee(2).report(ShotReport())
    names = {0: "Hanako", 1: "太郎"}
    assert explain(ruling, "en", names)[-1] == "The turn passes to 太郎 (R3d)"
    assert explain(ruling, "ja", names)[-1] == "太郎の番に交替します（R3d）"
    assert explain(ruling, "en")[-1] == "The turn passes to Green (R3d)"
    labels = {s: seat_label(s, 2, "ja") for s in range(2)}
    assert explain(ruling, "ja", labels)[-1] == "緑（北）の番に交替します（R3d）"


def test_R3a_and_R8a_name_the_shooter() -> None:
    ref = Referee(4, RuleOptions(first_seat=1))
    ruling = ref.report(ShotReport(pocketed=(Piece.RED,)))
    assert ruling.continues and ruling.seat == 1
    assert explain(ruling, "en", {1: "Aki"})[-1] == "Own puck pocketed: Aki shoots again (R3a)"
    assert explain(ruling, "en")[-1] == "Own puck pocketed: Red shoots again (R3a)"
    _, lost = skip_turn(ref.state)
    assert (
        explain(lost, "ja", {1: "秋"})[0]
        == "10秒が過ぎました：秋はこのショットを打つ権利を失います（R8a）"
    )
    assert explain(lost, "en")[-1] == "The turn passes to Green (R3d)"  # seat 2 plays green


def test_R5e_names_the_rightful_shooter() -> None:
    ref = Referee(2)
    from hikone_carrom.rules import Foul

    ruling = ref.report(ShotReport(fouls=(Foul.WRONG_ORDER,), seat=1))
    sentences = explain(ruling, "en", {0: "Mio", 1: "Ren"})
    assert sentences[-1] == "Mio, whose turn it was, shoots now (R5e)"


def test_no_ruling_ever_speaks_of_seat_numbers() -> None:
    for players in (2, 4):
        ref = Referee(players)
        for report in (
            ShotReport(),
            ShotReport(pocketed=(Piece.RED,)),
            ShotReport(striker_pocketed=True),
            ShotReport(pocketed=(Piece.GREEN,)),
        ):
            if ref.is_over:
                break
            ruling = ref.report(report)
            for lang in ("en", "ja"):
                for text in explain(ruling, lang):
                    assert not _SEAT_NUMBER.search(text), text


def test_resign_ends_the_game_for_the_resigning_colour() -> None:
    ref = Referee(2)
    ref.report(ShotReport(pocketed=(Piece.RED, Piece.RED)))
    outcome = ref.resign(Color.RED)
    assert outcome == Outcome(Color.GREEN, "resign", (2, 0))
    assert ref.is_over and ref.winner is Color.GREEN
    assert explain_outcome(outcome) == "Red resigned: Green wins"
    assert explain_outcome(outcome, "ja") == "赤が投了し、緑の勝ちです"
    with pytest.raises(GameOverError):
        ref.report(ShotReport())
    with pytest.raises(GameOverError):
        ref.resign(Color.GREEN)
    ref.undo()
    assert not ref.is_over and ref.state.pocketed == (2, 0)


def test_agreed_draw_has_no_winner_and_round_trips() -> None:
    ref = Referee(4)
    outcome = ref.agree_draw()
    assert outcome.is_draw and outcome.reason == "agreed"
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    assert "agreement" in explain_outcome(outcome) and "合意" in explain_outcome(outcome, "ja")
    with pytest.raises(GameOverError):
        ref.agree_draw()
    assert set(OUTCOME_REASONS) == {"R7a", "R7b", "R7c", "R7d", "resign", "agreed"}
