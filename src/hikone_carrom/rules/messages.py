"""Rulings and outcomes in words, English and Japanese; every sentence cites its rule id.

Uses the rule terms of docs/rules.md: パック, ジャック, ストライカー, ジャックスポット.
Players are named as people call them, never by internal seat numbers: by the names the caller
gives (``names``), else by colour, and :func:`seat_label` gives colour and side ("Red (south)",
「赤（南）」) for seats without a name.

Every sentence is a template of :data:`SENTENCES`. JavaScript twin: the scoring pad's offline
referee (``web/js/pad/referee.js``, ``explain``) says the same with the same templates, colour
and foul names, which ``python -m hikone_carrom.scoring.js_shared`` writes into
``web/js/pad/shared-rules.js`` (run it after any change here: tests/scoring/test_js_shared.py
fails while that file is not current); tests/js/pad_referee_parity.test.mjs checks that both give
the same sentences on random matches. Change the choice of sentences in both places together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

from hikone_carrom.board import BoardSpec
from hikone_carrom.rules.pieces import Color, Piece, seat_color
from hikone_carrom.rules.report import Foul, Outcome, Ruling

__all__ = [
    "COLOR_NAMES",
    "FOUL_NAMES",
    "SENTENCES",
    "Lang",
    "SeatNames",
    "Sentence",
    "color_name",
    "explain",
    "explain_outcome",
    "foul_name",
    "seat_label",
    "sentence",
]

Lang = Literal["en", "ja"]

SeatNames = Mapping[int, str]
"""How a ruling names the people at the seats: seat number -> display name."""

COLOR_NAMES: Mapping[Lang, Mapping[Color, str]] = {
    "en": {Color.RED: "Red", Color.GREEN: "Green"},
    "ja": {Color.RED: "赤", Color.GREEN: "緑"},
}
"""A colour as a user reads it, per language."""

_SIDE = {
    "en": {"south": "south", "west": "west", "north": "north", "east": "east"},
    "ja": {"south": "南", "west": "西", "north": "北", "east": "東"},
}

FOUL_NAMES: Mapping[Foul, tuple[str, str]] = {
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
"""Short name of each foul: (English, Japanese)."""


class Sentence(NamedTuple):
    """One sentence of a ruling: :meth:`str.format` templates with ``{name}`` fields.

    Attributes:
        rule: the rule id it cites ("R5h", or "{rule}" when the caller names it); ``None``
            cites none (resignation, agreed draw).
        en, ja: the English and Japanese text, without the rule id.
    """

    rule: str | None
    en: str
    ja: str


SENTENCES: Mapping[str, Sentence] = {
    "shot_lost": Sentence(
        "R8a",
        "10 seconds passed: {shooter} loses the shot",
        "10秒が過ぎました：{shooter}はこのショットを打つ権利を失います",
    ),
    "no_place": Sentence(
        "R2b",
        "No place on the area line is free for the striker: {shooter} passes",
        "エリアラインにストライカーを置ける場所がありません：{shooter}はパスします",
    ),
    "passes": Sentence("R3d", "{shooter} passes", "{shooter}はパスします"),
    "restored": Sentence(
        "R4c",
        "Unshootable piece hit directly: the pieces go back where they were, nothing counts",
        "打てないパックを直接打ちました：パックを元の位置に戻し、このショットは数えません",
    ),
    "last_with_jack": Sentence(
        "R6a",
        "Last puck and jack in the same shot: a failure",
        "最後のパックと同時にジャックが入りました：失敗です",
    ),
    "win_voided": Sentence(
        "R6b",
        "Jack after all own pucks, but a foul in the same shot voids the win",
        "全てのパックの後のジャックですが、同じショットの反則により勝ちになりません",
    ),
    "foul": Sentence(
        "{rule}", "{foul}: a penalty of {pucks}", "{foul}：ペナルティはパック{count}個です"
    ),
    "penalties_add_up": Sentence(
        "R5g", "Penalties add up: {pucks} in all", "ペナルティは合計{count}個です"
    ),
    "largest_penalty": Sentence(
        "R5g",
        "Only the largest penalty counts: {pucks}",
        "ペナルティは最も大きいものだけ数えます：{count}個",
    ),
    "voided": Sentence(
        "R5h",
        "{pucks} of {color} pocketed in this shot {goes} back to the jack spot",
        "このショットで入った{color}のパック{count}個をジャックスポットに戻します",
    ),
    "taken": Sentence(
        "R5h",
        "{pucks} of {color} taken out of the pockets to the jack spot",
        "ポケットから{color}のパック{count}個をジャックスポットに戻します",
    ),
    "debt_added": Sentence(
        "R5i",
        "{color} owes {pucks} more as debt, returned as they go in",
        "{color}はパック{count}個の借りとなり、入った時点で戻します",
    ),
    "debt_paid": Sentence(
        "R5i",
        "{pucks} of {color} paid debt and {goes} to the jack spot",
        "{color}のパック{count}個は借りを返してジャックスポットに戻ります",
    ),
    "off_board": Sentence(
        "R6c",
        "{pucks} flew off the board: back to the jack spot, no penalty",
        "盤の外に飛び出したパック{count}個をジャックスポットに戻します（ペナルティなし）",
    ),
    "jack_back": Sentence(
        "R5j",
        "The jack goes back on top of the jack spot",
        "ジャックをジャックスポットの一番上に戻します",
    ),
    "stack_order": Sentence(
        "R6d",
        "The opponent's pucks go at the bottom, the shooter's above them",
        "相手のパックを下に、自分のパックを上に重ねます",
    ),
    "stack": Sentence(
        "R6e",
        "Stack them on whatever lies on the jack spot",
        "ジャックスポットにあるものの上に積みます",
    ),
    "service": Sentence(
        "R3b",
        "{pucks} of the opponent {stays} in the pocket as service",
        "相手のパック{count}個はサービスとしてポケットに残ります",
    ),
    "shoots_again": Sentence(
        "R3a",
        "Own puck pocketed: {shooter} shoots again",
        "自分のパックが入りました：{shooter}が続けて打ちます",
    ),
    "success_despite_off": Sentence(
        "R3c",
        "The success counts although pieces flew off the board",
        "盤の外に飛び出したパックがあっても成功です",
    ),
    "turn_passes": Sentence("R3d", "The turn passes to {next}", "{next}の番に交替します"),
    "rightful_shoots": Sentence(
        "R5e", "{next}, whose turn it was, shoots now", "本来の順番の{next}が打ちます"
    ),
    "lot_needed": Sentence(
        "R7d",
        "Still level: decide by rock-paper-scissors",
        "こう着状態です：じゃんけんで勝敗を決めます",
    ),
    "extra_round": Sentence(
        "R7c", "Level after the round: one more full round", "同点のため、もう一巡します"
    ),
    "time_called": Sentence(
        "R7b",
        "Time is called: the round is finished up to seat {last}",
        "試合時間終了：席{last}の人が打ち終わるまで、その巡を続けます",
    ),
    "agreed": Sentence(
        None,
        "Drawn by agreement at red {red} to {green} green",
        "赤{red}対{green}緑で、双方の合意により引き分けです",
    ),
    "resigned": Sentence(
        None, "{loser} resigned: {winner} wins", "{loser}が投了し、{winner}の勝ちです"
    ),
    "draw": Sentence(
        "{rule}",
        "Still level after the extra rounds ({red} to {green}): a draw",
        "延長しても同点のため（{red}対{green}）引き分けです",
    ),
    "won_jack": Sentence(
        "R7a",
        "{winner} pocketed the jack after all its pucks and wins",
        "{winner}が全てのパックの後にジャックを入れて勝ちました",
    ),
    "won_time": Sentence(
        "R7b",
        "Time: {winner} wins on pucks pocketed, red {red} to {green} green",
        "試合時間終了：ポケットに入れたパックの数で{winner}の勝ち（赤{red}対{green}緑）",
    ),
    "won_extra": Sentence(
        "R7c",
        "After the extra rounds {winner} leads and wins, red {red} to {green} green",
        "延長の一巡の後、{winner}がリードして勝ちました（赤{red}対{green}緑）",
    ),
    "won_lot": Sentence(
        "R7d",
        "Still level: {winner} wins by rock-paper-scissors",
        "こう着状態のため、じゃんけんで{winner}の勝ち",
    ),
}
"""Every sentence a ruling, an outcome or a time call is told in, by name.

English fields that agree with a count are given ready-made: ``pucks`` ("1 puck", "3 pucks"),
``goes`` ("goes"/"go"), ``stays`` ("stays"/"stay"); Japanese takes the bare ``count``."""


def sentence(lang: Lang, key: str, **fields: object) -> str:
    """Sentence ``key`` of :data:`SENTENCES` in ``lang``, its rule id appended: "... (R5h)",
    「…（R5h）」."""
    rule, en, ja = SENTENCES[key]
    text = (ja if lang == "ja" else en).format(**fields)
    if rule is None:
        return text
    rule_id = rule.format(**fields)
    return f"{text}（{rule_id}）" if lang == "ja" else f"{text} ({rule_id})"


def color_name(color: Color, lang: Lang = "en") -> str:
    """``color`` as a user reads it."""
    return COLOR_NAMES[lang][color]


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
    en, ja = FOUL_NAMES[foul]
    return ja if lang == "ja" else en


def _count(n: int) -> dict[str, object]:
    """The fields of a sentence that tell a count ``n`` (see :data:`SENTENCES`)."""
    one = n == 1
    return {
        "count": n,
        "pucks": f"{n} puck" if one else f"{n} pucks",
        "goes": "goes" if one else "go",
        "stays": "stays" if one else "stay",
    }


def explain(ruling: Ruling, lang: Lang = "en", names: SeatNames | None = None) -> tuple[str, ...]:
    """The ruling as sentences, in order of play, each ending with its rule id.

    ``names`` maps seats to the names players know them by (e.g. from :func:`seat_label`);
    a seat without one is named by its colour."""
    out: list[str] = []

    def say(key: str, **fields: object) -> None:
        out.append(sentence(lang, key, **fields))

    color = color_name(ruling.color, lang)
    who = _namer(ruling, lang, names)
    shooter = who[ruling.seat]
    reasons = set(ruling.reasons)
    if ruling.skipped and "R8a" in reasons:
        say("shot_lost", shooter=shooter)
    elif ruling.skipped and "R2b" in reasons:
        say("no_place", shooter=shooter)
    elif ruling.skipped:
        say("passes", shooter=shooter)
    if ruling.restored:
        say("restored")
    if "R6a" in reasons:
        say("last_with_jack")
    if "R6b" in reasons and ruling.outcome is None:
        say("win_voided")
    for foul, count in zip(ruling.fouls, ruling.foul_counts, strict=True):
        if foul is Foul.UNSHOOTABLE_HIT and count == 0:
            continue
        say("foul", rule=foul.rule_id, foul=foul_name(foul, lang), **_count(count))
    if "R5g" in reasons and ruling.penalty == sum(ruling.foul_counts):
        say("penalties_add_up", **_count(ruling.penalty))
    elif "R5g" in reasons:
        say("largest_penalty", **_count(ruling.penalty))
    if ruling.voided:
        say("voided", color=color, **_count(ruling.voided))
    if ruling.taken:
        say("taken", color=color, **_count(ruling.taken))
    if ruling.debt_added:
        say("debt_added", color=color, **_count(ruling.debt_added))
    for paid_color in Color:
        paid = ruling.debt_paid.count(paid_color.puck)
        if paid:
            say("debt_paid", color=color_name(paid_color, lang), **_count(paid))
    flown = sum(1 for p in ruling.off_board if p is not Piece.JACK)
    if flown:
        say("off_board", **_count(flown))
    if "R5j" in reasons:
        say("jack_back")
    if "R6d" in reasons:
        say("stack_order")
    if ruling.returned:
        say("stack")
    if ruling.service:
        say("service", **_count(ruling.service))
    if ruling.continues:
        say("shoots_again", shooter=shooter)
        if "R3c" in reasons:
            say("success_despite_off")
    elif ruling.next_seat is not None:
        nxt = who[ruling.next_seat]
        say("turn_passes" if "R3d" in reasons else "rightful_shoots", next=nxt)
    if ruling.outcome is None and "R7d" in reasons:
        say("lot_needed")
    elif ruling.outcome is None and "R7c" in reasons:
        say("extra_round")
    if ruling.outcome is not None:
        out.append(explain_outcome(ruling.outcome, lang))
    return tuple(out)


_WON = {"R7a": "won_jack", "R7b": "won_time", "R7c": "won_extra"}


def explain_outcome(outcome: Outcome, lang: Lang = "en") -> str:
    """How the game ended, citing R7a-R7d (a resignation or an agreed draw cites no rule)."""
    red, green = outcome.scores
    if outcome.reason == "agreed":
        return sentence(lang, "agreed", red=red, green=green)
    if outcome.reason == "resign" and outcome.winner is not None:
        loser = color_name(outcome.winner.opponent, lang)
        return sentence(lang, "resigned", loser=loser, winner=color_name(outcome.winner, lang))
    if outcome.winner is None:
        return sentence(lang, "draw", rule=outcome.reason, red=red, green=green)
    key = _WON.get(outcome.reason, "won_lot")
    return sentence(lang, key, winner=color_name(outcome.winner, lang), red=red, green=green)
