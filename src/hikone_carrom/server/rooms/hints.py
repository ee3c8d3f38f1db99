"""The expert's hint in casual games: the shot, described in ja and en, and a
book that computes it at most once per position.

The hint is the library's :func:`hikone_carrom.ai.hint` (the level-6 player's shot without its
hand's noise), asked on a copy of the match so that the game and its record never change.
Positions in m, angles in rad, speeds in m/s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hikone_carrom.ai.player import Plan
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match.pieces import JACK_ID
from hikone_carrom.rules import Color
from hikone_carrom.server.core.errors import RoomError

__all__ = [
    "HintBook",
    "HintKey",
    "describe_hint",
    "hint_message",
    "hint_seed",
    "pocket_name",
    "to_shooter_frame",
]

_SEED_LIMIT = 1 << 62


@dataclass(frozen=True)
class HintKey:
    """One position: a game of a room, the number of actions played in it, the seat to shoot
    (``first_shot``: that seat's first shot of the game, from its tee spot, R2a)."""

    game_id: str
    actions: int
    seat: int
    first_shot: bool = field(default=False, compare=False)


def hint_seed(room_seed: int, game_number: int, actions: int) -> int:
    """The expert's seed for one position: the same room, game and position give the same hint."""
    return (room_seed * 1_000_003 + game_number * 7_919 + actions) % _SEED_LIMIT


def to_shooter_frame(side: Side, x: float, y: float) -> tuple[float, float]:
    """(x, y) (m) turned so that ``side`` is at the bottom, as the shooter sees the board:
    negative x is to the shooter's left, negative y is near the shooter."""
    if side == Side.SOUTH:
        return x, y
    if side == Side.NORTH:
        return -x, -y
    if side == Side.WEST:
        return -y, x
    return y, -x


_POCKET_NAMES = {
    (True, True): ("near-left", "左手前"),
    (True, False): ("near-right", "右手前"),
    (False, True): ("far-left", "左奥"),
    (False, False): ("far-right", "右奥"),
}


def pocket_name(board: BoardSpec, side: Side, pocket: int) -> tuple[str, str]:
    """The name (en, ja) of a pocket (index 0..3) as the shooter at ``side`` sees it."""
    cx, cy = board.pocket_centres()[pocket]
    fx, fy = to_shooter_frame(side, cx, cy)
    return _POCKET_NAMES[(fy < 0.0, fx < 0.0)]


_KIND_TEXT: dict[str, tuple[str, str]] = {
    "direct": ("Direct shot: {target}{into}.", "直接ねらう：{target}{into}。"),
    "bank": (
        "Bank shot: the striker comes off a rail onto {target}{into}.",
        "バンクショット：ストライカーを壁に当ててから{target}{into}。",
    ),
    "combination": (
        "Combination: hit {carrier} so that it carries {target}{into}.",
        "当て込み：{carrier}に当てて、{target}{into}。",
    ),
    "jack": ("Jack shot: the jack{into} (R6b).", "ジャックねらい：ジャック{into}（R6b）。"),
    "break": (
        "Break: a firm shot into the group around {target}.",
        "崩し：{target}のまわりの固まりに強く当てる。",
    ),
    "safety": (
        "Safety: a gentle shot that leaves little for the opponent.",
        "守りのショット：相手にねらいやすい形を残さない。",
    ),
    "sweep": (
        "Found by trying every direction: a pot that still drops when the hand wobbles a little.",
        "全方向を試して見つけた、手が少しぶれても入りやすいショット。",
    ),
}
"""What each kind of candidate shot (``Plan.info["kind"]``) does, en and ja."""
_ANY_SHOT = ("The expert's shot.", "上級者のショット。")


def _piece(disk_id: str | None, own: Color) -> tuple[str, str]:
    """A piece by its disk id as the shooter calls it (en, ja), with the rule terms."""
    if disk_id is None:
        return "a puck", "パック"
    if disk_id == JACK_ID:
        return "the jack", "ジャック"
    color = Color.RED if disk_id.startswith("R") else Color.GREEN
    en_color, ja_color = ("red", "赤") if color == Color.RED else ("green", "緑")
    if color == own:
        return f"your {en_color} puck", f"自分の{ja_color}のパック"
    return f"the opponent's {en_color} puck", f"相手の{ja_color}のパック"


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def describe_hint(
    plan: Plan,
    board: BoardSpec,
    side: Side,
    own: Color,
    *,
    first_shot: bool,
) -> dict[str, str]:
    """What the expert means, in English and Japanese: where the striker goes (R2a, R2b), which
    piece into which pocket, the speed (m/s) and power, and the expected value (pucks)."""
    info: Mapping[str, Any] = plan.info
    kind = _str_or_none(info.get("kind"))
    target_en, target_ja = _piece(_str_or_none(info.get("target")), own)
    carrier_en, carrier_ja = _piece(_str_or_none(info.get("carrier")), own)
    pocket = _int_or_none(info.get("pocket"))
    if pocket is not None and 0 <= pocket < 4:
        p_en, p_ja = pocket_name(board, side, pocket)
        into_en, into_ja = f" into the {p_en} pocket", f"を{p_ja}のポケットへ"
    else:
        into_en, into_ja = "", "をねらう"
    en_text, ja_text = _KIND_TEXT.get(kind or "", _ANY_SHOT)
    en = en_text.format(target=target_en, carrier=carrier_en, into=into_en)
    ja = ja_text.format(target=target_ja, carrier=carrier_ja, into=into_ja)
    shot = plan.shot
    if first_shot:
        where_en = "The striker stands on your tee spot (R2a)."
        where_ja = "ストライカーはティースポットに置きます（R2a）。"
    else:
        tee = board.tee_spot(side)
        across, _ = to_shooter_frame(side, shot.x - tee.x, shot.y - tee.y)
        mm = round(abs(across) * 1000.0)
        if mm == 0:
            where_en = "The striker stands on the area line at the tee spot (R2b)."
            where_ja = "ストライカーはエリアライン上、ティースポットの位置に置きます（R2b）。"
        else:
            way_en, way_ja = ("left", "左") if across < 0.0 else ("right", "右")
            where_en = (
                f"The striker stands on the area line, {mm} mm {way_en} of the tee spot (R2b)."
            )
            where_ja = (
                f"ストライカーはエリアライン上、ティースポットから{way_ja}へ {mm} mm（R2b）。"
            )
    power = 100.0 * shot.speed / board.max_speed
    value = info.get("value")
    en_speed = f"Speed {shot.speed:.2f} m/s ({power:.0f}% power)"
    ja_speed = f"速さ {shot.speed:.2f} m/s（強さ {power:.0f}%）"
    if isinstance(value, int | float) and not isinstance(value, bool):
        en_speed += f"; expected {float(value):+.2f} pucks"
        ja_speed += f"、期待値 {float(value):+.2f} パック"
    return {"en": f"{en} {where_en} {en_speed}.", "ja": f"{ja}{where_ja}{ja_speed}。"}


def hint_message(
    plan: Plan,
    key: HintKey,
    board: BoardSpec,
    players: int,
    own: Color,
    *,
    first_shot: bool,
) -> dict[str, Any]:
    """The ``hint`` answer for one client: the suggested shot (placement m, angle rad, speed m/s,
    power as a fraction of the fastest flick), what it aims at and its description."""
    side = board.seat_side(key.seat, players)
    info = {k: v for k, v in plan.info.items() if isinstance(v, str | int | float | bool | None)}
    pocket = _int_or_none(info.get("pocket"))
    return {
        "type": "hint",
        "seat": key.seat,
        "game_id": key.game_id,
        "actions": key.actions,
        "shot": plan.shot.to_dict(),
        "power": plan.shot.speed / board.max_speed,
        "kind": info.get("kind"),
        "target": info.get("target"),
        "carrier": info.get("carrier"),
        "pocket": pocket,
        "pocket_at": None
        if pocket is None or not 0 <= pocket < 4
        else list(board.pocket_centres()[pocket]),
        "info": info,
        "text": describe_hint(plan, board, side, own, first_shot=first_shot),
        "cached": False,
    }


class HintBook:
    """The hint of the current position of one room: computed once, shared by every ask.

    A second ask for the same position (same game, action count and seat) waits for the first
    computation or gets its answer (``cached`` true); a new position replaces the old entry.
    """

    def __init__(self) -> None:
        self._key: HintKey | None = None
        self._task: asyncio.Future[dict[str, Any]] | None = None
        self.computed = 0
        """How many hints this book has computed (for tests and figures)."""

    async def get(
        self, key: HintKey, compute: Callable[[], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any]:
        """The hint for ``key``, computing it with ``compute`` only if this position has none.

        Errors of the computation are kept too: asking again gives the same error, except a
        refusal to try again later (HTTP 503: ``busy``), which is forgotten."""
        task = self._task
        if task is None or self._key != key or task.cancelled():
            cached = False
            self._key = key
            self.computed += 1
            task = asyncio.ensure_future(compute())
            self._task = task
        else:
            cached = True
        try:
            answer = await asyncio.shield(task)
        except RoomError as err:
            if err.status == 503 and self._task is task:
                self._key, self._task = None, None
            raise
        return {**answer, "cached": cached}
