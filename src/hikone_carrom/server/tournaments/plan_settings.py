"""The director's plan settings: the day's times and breaks (changeover, opening ceremony, lunch,
the finals' start) and each division's knockout size with its consequences
(docs/tournament.md, "The plan's settings" and "Knockout size").

Each change is checked by the library, stored with its audit entry and announced as a
structural change (the pages reload), as in :mod:`.hub_setup`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, field_validator

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.validation import StrictBody
from hikone_carrom.server.tournaments.hub_setup import local_seconds, refusal, started
from hikone_carrom.server.tournaments.views import clock
from hikone_carrom.tournament import TournamentError, TournamentSettings
from hikone_carrom.tournament.divisions import Division, KnockoutSize
from hikone_carrom.tournament.knockout_size import describe_sizes
from hikone_carrom.tournament.pools import Pool, pool_sizes

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = [
    "KnockoutBody",
    "ScheduleBody",
    "knockout_view",
    "schedule_view",
    "set_knockout_size",
    "set_schedule",
]

Minutes = Annotated[int, Field(ge=0, le=240)]


def _seconds(text: str) -> int:
    hours, _, minutes = text.partition(":")
    if not (len(hours) == 2 and len(minutes) == 2 and hours.isdigit() and minutes.isdigit()):
        raise ValueError("a time is written HH:MM")
    if int(hours) > 23 or int(minutes) > 59:
        raise ValueError("a time is written HH:MM")
    return int(hours) * 3600 + int(minutes) * 60


class ScheduleBody(StrictBody):
    """The day's times (HH:MM) and lengths (minutes): the first match, the changeover between
    matches, the opening ceremony and lunch (0 minutes: none), and the finals' start (None:
    after the day's last pool match)."""

    start: str
    changeover_min: int = Field(ge=0, le=30)
    ceremony: str
    ceremony_min: Minutes
    lunch: str
    lunch_min: Minutes
    finals: str | None = None

    @field_validator("start", "ceremony", "lunch", "finals")
    @classmethod
    def _time(cls, value: str | None) -> str | None:
        if value is not None:
            _seconds(value)
        return value


class KnockoutBody(StrictBody):
    """A division's knockout size: ``full``, ``ranked_byes`` or ``cut``."""

    size: KnockoutSize


def schedule_view(settings: TournamentSettings) -> dict[str, Any]:
    """The day's times as the form shows them (as :class:`ScheduleBody`)."""
    finals = settings.finals_start_s
    return {
        "start": clock(settings.start_s),
        "changeover_min": settings.changeover_s // 60,
        "ceremony": clock(settings.ceremony_start_s),
        "ceremony_min": settings.ceremony_length_s // 60,
        "lunch": clock(settings.lunch_start_s),
        "lunch_min": settings.lunch_length_s // 60,
        "finals": None if finals is None else clock(finals),
    }


async def set_schedule(live: LiveTournament, body: ScheduleBody, who: str) -> dict[str, Any]:
    """Change the day's times. A board plan nothing of which has begun is made again; once a
    match is called or played the plan stays and ``replan`` says the director should re-plan
    from now (the same settings are then kept)."""
    async with live.lock:
        before = live.event.settings
        try:
            after = replace(
                before,
                start_s=_seconds(body.start),
                changeover_s=body.changeover_min * 60,
                ceremony_start_s=_seconds(body.ceremony),
                ceremony_length_s=body.ceremony_min * 60,
                lunch_start_s=_seconds(body.lunch),
                lunch_length_s=body.lunch_min * 60,
                finals_start_s=None if body.finals is None else _seconds(body.finals),
            )
        except TournamentError as err:
            raise RoomError(err.code, err.en, err.ja, status=422) from err
        live.event.settings = after
        replan = False
        if live.event.plan is not None:
            if started(live) or live.event.results:
                replan = True
            else:
                try:
                    await live.runner.simulate(live.event.make_plan)
                except TournamentError as err:
                    live.event.settings = before
                    raise refusal(err) from err
        detail = {"before": schedule_view(before), "after": schedule_view(after)}
        await live._structural(who, "schedule", "plan", detail)
    return {**schedule_view(after), "replan": replan}


def _pools_for(live: LiveTournament, division: str) -> tuple[Pool, ...]:
    """The division's pools, or before its draw pools of the sizes its entries would make."""
    event = live.event
    if division in event.pools:
        return event.pools[division]
    d = event.division(division)
    active = sum(1 for e in event.entries.values() if e.division == division and e.active)
    if active < 2:
        return ()
    sizes = pool_sizes(active, d.pool_size)
    return tuple(
        Pool(division, i + 1, tuple(f"?{i}-{j}" for j in range(n))) for i, n in enumerate(sizes)
    )


def _division(live: LiveTournament, division: str) -> Division:
    try:
        return live.event.division(division)
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=404) from err


def knockout_view(live: LiveTournament, division: str) -> dict[str, Any]:
    """A division's knockout size and what each choice would mean (none before two entries)."""
    d = _division(live, division)
    pools = _pools_for(live, division)
    choices = describe_sizes(division, pools, d.advance, third_place=d.third_place) if pools else []
    return {
        "division": division,
        "size": d.knockout,
        "drawn": division in live.event.pools,
        "choices": [c.to_dict() for c in choices],
    }


async def set_knockout_size(
    live: LiveTournament, division: str, size: KnockoutSize, who: str
) -> dict[str, Any]:
    """Choose a division's knockout size (refused once its knockout has begun); a drawn
    division's bracket is made again and its knockout matches re-planned from now."""
    async with live.lock:
        before = _division(live, division).knockout
        try:
            live.event.set_knockout_size(
                division, size, started=started(live), now_s=local_seconds()
            )
        except TournamentError as err:
            raise refusal(err) from err
        await live._structural(who, "knockout_size", division, {"before": before, "after": size})
    return knockout_view(live, division)
