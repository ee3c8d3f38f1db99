"""Calling a match to its board: the call the hall hears and the board's pad opens, and the
checks that the match, the board and its entrants are free for it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.tournaments.hub_setup import refusal
from hikone_carrom.tournament import TournamentError

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["BoardCall", "CallListener", "busy_entries", "busy_people", "make_call"]


@dataclass(frozen=True)
class BoardCall:
    """A match called to a board: what the hall hears and what the board's pad opens.

    ``pad`` is the (pad board id, pad match number) opened for it, ``pad_error`` why the pad
    could not open it (the call stands; the result can be entered by hand).
    """

    match_id: str
    board: int
    sides: tuple[str, str]
    division: str
    match_time_s: float | None
    text_ja: str
    text_en: str
    knockout: bool = False
    pad: tuple[str, int] | None = None
    room: str | None = None
    pad_error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "match": self.match_id,
            "board": self.board,
            "sides": list(self.sides),
            "division": self.division,
            "match_time_s": self.match_time_s,
            "text": {"ja": self.text_ja, "en": self.text_en},
            "pad": None if self.pad is None else {"board": self.pad[0], "match": self.pad[1]},
            "room": self.room,
            "pad_error": self.pad_error,
        }


CallListener = Callable[[BoardCall], Awaitable[dict[str, Any] | None]]
"""Told of a board call; answers what now serves the match as :class:`LiveState` fields (a
scoring pad's ``pad_board`` and ``pad_match``, or an online ``room``), or None."""


def busy_entries(live: LiveTournament) -> dict[str, str]:
    """The entries in a match called or being played, with that match's id."""
    out: dict[str, str] = {}
    for state in live.live.values():
        if state.status in ("called", "playing"):
            for side in live.event.match(state.match_id).sides:
                if side:
                    out[side] = state.match_id
    return out


def busy_people(live: LiveTournament) -> dict[str, str]:
    """The people (person keys) in a match called or being played, with that match's id: one
    person may play in two divisions (a child in singles and family pairs)."""
    out: dict[str, str] = {}
    for side, match_id in busy_entries(live).items():
        for person in live.event.entry(side).people:
            out[person] = match_id
    return out


def make_call(live: LiveTournament, match_id: str, board: int | None) -> BoardCall:
    """The call of ``match_id`` to ``board`` (default: its planned board), once the match has
    two entrants and no result, and the board and both entrants are free (the caller holds the
    event's lock).

    Raises:
        RoomError: why the match cannot be called now.
    """
    event = live.event
    try:
        match = event.match(match_id)
    except TournamentError as err:
        raise refusal(err) from err
    if not match.playable or event.forfeited(match):
        raise RoomError(
            "not_ready",
            f"Match {match_id} has no two entrants to call",
            f"試合 {match_id} はまだ呼び出せません（対戦相手が未定です）",
        )
    if match_id in event.results:
        raise RoomError(
            "already_played",
            f"Match {match_id} has a result",
            f"試合 {match_id} は終了しています",
        )
    slot = event.plan.slot(match_id) if event.plan else None
    where = board or (slot.board if slot else None)
    if where is None or not 1 <= where <= event.settings.boards:
        raise RoomError(
            "no_board",
            f"Name a board 1-{event.settings.boards} for match {match_id}",
            f"試合 {match_id} の台（1〜{event.settings.boards}）を指定してください",
        )
    taken = [
        s.match_id
        for s in live.live.values()
        if s.board == where and s.status in ("called", "playing") and s.match_id != match_id
    ]
    if taken:
        raise RoomError(
            "board_busy",
            f"Board {where} still has match {taken[0]}",
            f"第{where}台ではまだ試合 {taken[0]} が行われています",
        )
    busy = busy_entries(live)
    clash = [s for s in match.sides if s in busy and busy[s] != match_id]
    if clash:
        name = event.entry(clash[0] or "").name
        raise RoomError(
            "entrant_busy",
            f"{name} is still in match {busy[clash[0] or '']}",
            f"{name}さんはまだ試合 {busy[clash[0] or '']} 中です",
        )
    people = busy_people(live)
    for member in (p for side in match.sides if side for p in event.entry(side).members):
        other = people.get(member.key)
        if other is not None and other != match_id:
            raise RoomError(
                "entrant_busy",
                f"{member.name} is still in match {other}",
                f"{member.name}さんはまだ試合 {other} 中です",
            )
    ja_a, ja_b = event.side_names(match, "ja")
    division = event.division(match.division)
    online = event.settings.online
    place_ja = f"対局{where}" if online else f"第{where}台"
    place_en = f"Game {where}" if online else f"Board {where}"
    return BoardCall(
        match_id,
        where,
        (ja_a, ja_b),
        match.division,
        None if match.final and division.final_untimed else division.match_time_s,
        f"{place_ja}: {ja_a} 対 {ja_b}（{division.name_ja} {match.name_ja}）",
        f"{place_en}: {ja_a} v {ja_b} ({division.name_en}, {match.name_en})",
        knockout=match.stage == "knockout",
    )
