"""Rulings and outcomes in words, English and Japanese; every sentence cites its rule id.

Uses the rule terms of docs/rules.md: パック, ジャック, ストライカー, ジャックスポット.
Players are named as people call them, never by internal seat numbers: by the names the caller
gives (``names``), else by colour, and :func:`seat_label` gives colour and side ("Red (south)",
「赤（南）」) for seats without a name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from hikone_carrom.board import BoardSpec
from hikone_carrom.rules.pieces import Color, Piece, seat_color
from hikone_carrom.rules.report import Foul, Outcome, Ruling

__all__ = [
    "Lang",
    "SeatNames",
    "color_name",
    "explain",
    "explain_outcome",
    "foul_name",
    "seat_label",
]

Lang = Literal["en", "ja"]

SeatNames = Mapping[int, str]
"""How a ruling names the people at the seats: seat number -> display name."""

_COLOR = {
    "en": {Color.RED: "Red", Color.GREEN: "Green"},
    "ja": {Color.RED: "赤", Color.GREEN: "緑"},
}

_SIDE = {
    "en": {"south": "south", "west": "west", "north": "north", "east": "east"},
    "ja": {"south": "南", "west": "西", "north": "北", "east": "東"},
}

_FOUL = {
    Foul.UNSHOOTABLE_HIT: ("Unshootable piece hit directly", "打てないパックを直接打ちました"),
    Foul.STRIKER_POCKETED: ("Striker pocketed", "ストライカーがポケットに入りました"),
    Foul.JACK_BEFORE_PUCKS: (
        "Jack pocketed before all own pucks",
        "自分のパックが全部入っていないのにジャックが入りました",
    ),
    Foul.STRIKER_OFF_BOARD: ("Striker off the board", "ストライカーが盤の外に飛び出しました"),
    Foul.JACK_OFF_BOARD: ("Jack off the board", "ジャックが盤の外に飛び出しました"),
    Foul.WRONG_ORDER: ("Shot out of turn", "打つ順番を誤りました"),
    Foul.TOUCHED_STRIKER: ("Moving striker touched", "動いているストライカーに触れました"),
}


def color_name(color: Color, lang: Lang = "en") -> str:
    """``color`` as a user reads it."""
    return _COLOR[lang][color]


def seat_label(seat: int, players: int, lang: Lang = "en", first_seat: int = 0) -> str:
    """A seat named by its colour and side of the board (R1b, R1c): "Red (south)", 「赤（南）」.

    ``first_seat`` is the seat playing red (``RuleOptions.first_seat``)."""
    side = _SIDE[lang][BoardSpec.seat_side(seat, players).value]
    color = color_name(seat_color(seat, first_seat), lang)
    return f"{color}（{side}）" if lang == "ja" else f"{color} ({side})"


def _namer(ruling: Ruling, lang: Lang, names: SeatNames | None) -> dict[int, str]:
    """Names of the seats a ruling speaks of: the given ones, else the seat's colour."""
    out: dict[int, str] = {}
    for seat in (ruling.seat, ruling.next_seat):
        if seat is None:
            continue
        given = None if names is None else names.get(seat)
        if given:
            out[seat] = given
        else:
            same = (seat - ruling.seat) % 2 == 0  # colours alternate round the table (R1c)
            out[seat] = color_name(ruling.color if same else ruling.color.opponent, lang)
    return out


def foul_name(foul: Foul, lang: Lang = "en") -> str:
    """Short name of ``foul``."""
    en, ja = _FOUL[foul]
    return ja if lang == "ja" else en


def _pucks(n: int) -> str:
    return f"{n} puck" if n == 1 else f"{n} pucks"


def _say(lang: Lang, rule: str, en: str, ja: str) -> str:
    return f"{ja}（{rule}）" if lang == "ja" else f"{en} ({rule})"


def explain(ruling: Ruling, lang: Lang = "en", names: SeatNames | None = None) -> tuple[str, ...]:
    """The ruling as sentences, in order of play, each ending with its rule id.

    ``names`` maps seats to the names players know them by (e.g. from :func:`seat_label`);
    a seat without one is named by its colour."""
    out: list[str] = []
    color = color_name(ruling.color, lang)
    who = _namer(ruling, lang, names)
    shooter = who[ruling.seat]
    reasons = set(ruling.reasons)
    if ruling.skipped and "R8a" in reasons:
        out.append(
            _say(
                lang,
                "R8a",
                f"10 seconds passed: {shooter} loses the shot",
                f"10秒が過ぎました：{shooter}はこのショットを打つ権利を失います",
            )
        )
    elif ruling.skipped and "R2b" in reasons:
        out.append(
            _say(
                lang,
                "R2b",
                f"No place on the area line is free for the striker: {shooter} passes",
                f"エリアラインにストライカーを置ける場所がありません：{shooter}はパスします",
            )
        )
    elif ruling.skipped:
        out.append(_say(lang, "R3d", f"{shooter} passes", f"{shooter}はパスします"))
    if ruling.restored:
        out.append(
            _say(
                lang,
                "R4c",
                "Unshootable piece hit directly: the pieces go back where they were, "
                "nothing counts",
                "打てないパックを直接打ちました：パックを元の位置に戻し、このショットは数えません",
            )
        )
    if "R6a" in reasons:
        out.append(
            _say(
                lang,
                "R6a",
                "Last puck and jack in the same shot: a failure",
                "最後のパックと同時にジャックが入りました：失敗です",
            )
        )
    if "R6b" in reasons and ruling.outcome is None:
        out.append(
            _say(
                lang,
                "R6b",
                "Jack after all own pucks, but a foul in the same shot voids the win",
                "全てのパックの後のジャックですが、同じショットの反則により勝ちになりません",
            )
        )
    for foul, count in zip(ruling.fouls, ruling.foul_counts, strict=True):
        if foul is Foul.UNSHOOTABLE_HIT and count == 0:
            continue
        en, ja = _FOUL[foul]
        out.append(
            _say(
                lang,
                foul.rule_id,
                f"{en}: a penalty of {_pucks(count)}",
                f"{ja}：ペナルティはパック{count}個です",
            )
        )
    if "R5g" in reasons and ruling.penalty == sum(ruling.foul_counts):
        out.append(
            _say(
                lang,
                "R5g",
                f"Penalties add up: {_pucks(ruling.penalty)} in all",
                f"ペナルティは合計{ruling.penalty}個です",
            )
        )
    elif "R5g" in reasons:
        out.append(
            _say(
                lang,
                "R5g",
                f"Only the largest penalty counts: {_pucks(ruling.penalty)}",
                f"ペナルティは最も大きいものだけ数えます：{ruling.penalty}個",
            )
        )
    if ruling.voided:
        out.append(
            _say(
                lang,
                "R5h",
                f"{_pucks(ruling.voided)} of {color} pocketed in this shot "
                f"{'goes' if ruling.voided == 1 else 'go'} back to the jack spot",
                f"このショットで入った{color}のパック{ruling.voided}個をジャックスポットに戻します",
            )
        )
    if ruling.taken:
        out.append(
            _say(
                lang,
                "R5h",
                f"{_pucks(ruling.taken)} of {color} taken out of the pockets to the jack spot",
                f"ポケットから{color}のパック{ruling.taken}個をジャックスポットに戻します",
            )
        )
    if ruling.debt_added:
        out.append(
            _say(
                lang,
                "R5i",
                f"{color} owes {_pucks(ruling.debt_added)} more as debt, returned as they go in",
                f"{color}はパック{ruling.debt_added}個の借りとなり、入った時点で戻します",
            )
        )
    for paid_color in Color:
        paid = ruling.debt_paid.count(paid_color.puck)
        if paid:
            name = color_name(paid_color, lang)
            out.append(
                _say(
                    lang,
                    "R5i",
                    f"{_pucks(paid)} of {name} paid debt and {'goes' if paid == 1 else 'go'} "
                    "to the jack spot",
                    f"{name}のパック{paid}個は借りを返してジャックスポットに戻ります",
                )
            )
    flown = sum(1 for p in ruling.off_board if p is not Piece.JACK)
    if flown:
        out.append(
            _say(
                lang,
                "R6c",
                f"{_pucks(flown)} flew off the board: back to the jack spot, no penalty",
                f"盤の外に飛び出したパック{flown}個をジャックスポットに戻します（ペナルティなし）",
            )
        )
    if "R5j" in reasons:
        out.append(
            _say(
                lang,
                "R5j",
                "The jack goes back on top of the jack spot",
                "ジャックをジャックスポットの一番上に戻します",
            )
        )
    if "R6d" in reasons:
        out.append(
            _say(
                lang,
                "R6d",
                "The opponent's pucks go at the bottom, the shooter's above them",
                "相手のパックを下に、自分のパックを上に重ねます",
            )
        )
    if ruling.returned:
        out.append(
            _say(
                lang,
                "R6e",
                "Stack them on whatever lies on the jack spot",
                "ジャックスポットにあるものの上に積みます",
            )
        )
    if ruling.service:
        out.append(
            _say(
                lang,
                "R3b",
                f"{_pucks(ruling.service)} of the opponent "
                f"{'stays' if ruling.service == 1 else 'stay'} in the pocket as service",
                f"相手のパック{ruling.service}個はサービスとしてポケットに残ります",
            )
        )
    if ruling.continues:
        out.append(
            _say(
                lang,
                "R3a",
                f"Own puck pocketed: {shooter} shoots again",
                f"自分のパックが入りました：{shooter}が続けて打ちます",
            )
        )
        if "R3c" in reasons:
            out.append(
                _say(
                    lang,
                    "R3c",
                    "The success counts although pieces flew off the board",
                    "盤の外に飛び出したパックがあっても成功です",
                )
            )
    elif ruling.next_seat is not None:
        nxt = who[ruling.next_seat]
        if "R3d" in reasons:
            out.append(_say(lang, "R3d", f"The turn passes to {nxt}", f"{nxt}の番に交替します"))
        else:
            out.append(
                _say(
                    lang,
                    "R5e",
                    f"{nxt}, whose turn it was, shoots now",
                    f"本来の順番の{nxt}が打ちます",
                )
            )
    if ruling.outcome is None and "R7d" in reasons:
        out.append(
            _say(
                lang,
                "R7d",
                "Still level: decide by rock-paper-scissors",
                "こう着状態です：じゃんけんで勝敗を決めます",
            )
        )
    elif ruling.outcome is None and "R7c" in reasons:
        out.append(
            _say(
                lang,
                "R7c",
                "Level after the round: one more full round",
                "同点のため、もう一巡します",
            )
        )
    if ruling.outcome is not None:
        out.append(explain_outcome(ruling.outcome, lang))
    return tuple(out)


def explain_outcome(outcome: Outcome, lang: Lang = "en") -> str:
    """How the game ended, citing R7a-R7d (a resignation or an agreed draw cites no rule)."""
    red, green = outcome.scores
    if outcome.reason == "agreed":
        return (
            f"赤{red}対{green}緑で、双方の合意により引き分けです"
            if lang == "ja"
            else f"Drawn by agreement at red {red} to {green} green"
        )
    if outcome.reason == "resign" and outcome.winner is not None:
        loser = color_name(outcome.winner.opponent, lang)
        name = color_name(outcome.winner, lang)
        return (
            f"{loser}が投了し、{name}の勝ちです"
            if lang == "ja"
            else f"{loser} resigned: {name} wins"
        )
    if outcome.winner is None:
        return _say(
            lang,
            outcome.reason,
            f"Still level after the extra rounds ({red} to {green}): a draw",
            f"延長しても同点のため（{red}対{green}）引き分けです",
        )
    name = color_name(outcome.winner, lang)
    score = f"{red} to {green}"
    score_ja = f"{red}対{green}"
    if outcome.reason == "R7a":
        return _say(
            lang,
            "R7a",
            f"{name} pocketed the jack after all its pucks and wins",
            f"{name}が全てのパックの後にジャックを入れて勝ちました",
        )
    if outcome.reason == "R7b":
        return _say(
            lang,
            "R7b",
            f"Time: {name} wins on pucks pocketed, red {score} green",
            f"試合時間終了：ポケットに入れたパックの数で{name}の勝ち（赤{score_ja}緑）",
        )
    if outcome.reason == "R7c":
        return _say(
            lang,
            "R7c",
            f"After the extra rounds {name} leads and wins, red {score} green",
            f"延長の一巡の後、{name}がリードして勝ちました（赤{score_ja}緑）",
        )
    return _say(
        lang,
        "R7d",
        f"Still level: {name} wins by rock-paper-scissors",
        f"こう着状態のため、じゃんけんで{name}の勝ち",
    )
