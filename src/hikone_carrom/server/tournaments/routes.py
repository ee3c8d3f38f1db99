"""REST and pages of tournaments, as one router of the game server.

Public: the event's pages (``/t/{id}``, big-screen ``/t/{id}?hall=1``), its JSON, name search,
results CSV and printouts (PDF); the live updates are :mod:`.spectators`. Director's console
(``/t/{id}/director``): every change needs the director's token as ``Authorization: Bearer ...``
and names the operator in ``X-Operator`` (percent-encoded UTF-8) for the audit trail.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Annotated, Any, Literal
from urllib.parse import unquote

import segno
from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response
from pydantic import Field, field_validator

from hikone_carrom.server.core.deps import (
    PadsDep,
    RoomBridgeDep,
    TournamentsDep,
    WebDirDep,
    client_address,
    organiser,
    sign_in,
)
from hikone_carrom.server.core.errors import (
    RoomError,
    errors,
    file_answer,
)
from hikone_carrom.server.core.organiser import bearer
from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.tournaments.hub import LiveTournament, TournamentHub, local_seconds
from hikone_carrom.server.tournaments.plan_settings import (
    KnockoutBody,
    ScheduleBody,
    knockout_view,
    schedule_view,
    set_knockout_size,
    set_schedule,
)
from hikone_carrom.server.tournaments.rooms import player_key, players
from hikone_carrom.server.tournaments.sign_in import signed_in
from hikone_carrom.server.tournaments.views import clock, match_view, search_view
from hikone_carrom.server.tournaments.views import results_csv as make_csv
from hikone_carrom.tournament import (
    DEFAULT_TIEBREAKS,
    Person,
    Result,
    StandingRules,
    TieBreak,
    TournamentError,
    TournamentSettings,
    read_person,
    school_year_label,
)
from hikone_carrom.tournament.codec import entry_to_dict

__all__ = ["router"]

router = APIRouter(tags=["tournaments"])

TournamentId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
MatchId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9-]{1,40}$")]

MAX_EVENT_BOARDS = 200
"""Most boards an event may have, and most pads one request makes (the Japan Championship has
124 boards)."""

DIRECTOR_SECRET_MIN_CHARS = 12
"""Shortest password a director may choose (none: a generated token of 16 characters)."""

BoardNumber = Annotated[int, Field(ge=1, le=MAX_EVENT_BOARDS)]
Points = Annotated[int, Field(ge=-100, le=100)]
Score = Annotated[int, Field(ge=-1000, le=1000)]
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def _seconds(text: str) -> int:
    match = _TIME.match(text.strip())
    if not match:
        raise ValueError("a time is written HH:MM")
    return int(match.group(1)) * 3600 + int(match.group(2)) * 60


class CreateTournament(StrictBody):
    """A new event: its name, date, boards, first match and golden board; a password of the
    director's choosing (12+ characters), or none for a generated token; the order of the
    tie-breaks and the match points (win, draw, loss) if not the championship's; ``online`` for
    an event played in online rooms of the browser game."""

    name: str = Field(min_length=1, max_length=200)
    date: str = Field(default="", max_length=10)
    boards: int = Field(default=124, ge=1, le=MAX_EVENT_BOARDS)
    start: str = "09:30"
    golden_board: BoardNumber | None = 1
    seed: int = Field(default=0, ge=0, le=MAX_INT)
    password: str | None = Field(default=None, min_length=DIRECTOR_SECRET_MIN_CHARS, max_length=128)
    tiebreaks: list[TieBreak] | None = Field(default=None, max_length=5)
    points: tuple[Points, Points, Points] = Field(default=(2, 1, 0), strict=False)
    online: bool = False

    @field_validator("start")
    @classmethod
    def _start(cls, value: str) -> str:
        _seconds(value)
        return value


class MemberBody(StrictBody):
    """One player of an entry as the form has it (the grade as people write it: 小3, 中1,
    一般; needed under 18)."""

    name: str = Field(max_length=60)
    reading: str = Field(max_length=60)
    club: str = Field(default="", max_length=60)
    prefecture: str = Field(default="", max_length=20)
    age: str = Field(default="", max_length=8)
    grade: str = Field(default="", max_length=16)


class EntryBody(StrictBody):
    """One entry: its division, one member (singles) or two (doubles), an optional seed."""

    division: str = Field(max_length=12)
    members: list[MemberBody] = Field(min_length=1, max_length=2)
    seed: int | None = Field(default=None, ge=1, le=10000)


class RulesBody(StrictBody):
    """The ranking rules: the tie-breaks in order and the match points (win, draw, loss)."""

    tiebreaks: list[TieBreak] = Field(min_length=1, max_length=5)
    points: tuple[Points, Points, Points] = Field(default=(2, 1, 0), strict=False)


class StatusBody(StrictBody):
    status: Literal["entered", "checked_in", "withdrawn"]


class DrawBody(StrictBody):
    seeded: bool = True


class ReplanBody(StrictBody):
    now: str | None = None
    out_of_service: list[BoardNumber] = Field(default_factory=list, max_length=MAX_EVENT_BOARDS)

    @field_validator("now")
    @classmethod
    def _now(cls, value: str | None) -> str | None:
        if value is not None:
            _seconds(value)
        return value


class CallBody(StrictBody):
    board: BoardNumber | None = None


class ResultBody(StrictBody):
    """A result: both R7b scores; optionally pucks pocketed, the winner of a level score (R7c
    extra rounds or R7d lot), or the side that did not show (forfeit)."""

    scores: tuple[Score, Score] = Field(default=(0, 0), strict=False)
    pucks: tuple[Score, Score] | None = Field(default=None, strict=False)
    winner: int | None = Field(default=None, ge=0, le=1)
    forfeit: int | None = Field(default=None, ge=0, le=1)


async def _director(
    hub: TournamentHub, request: Request, tournament_id: str
) -> tuple[LiveTournament, str]:
    """The event and the operator's name, if the request carries the director's token; wrong
    tokens are throttled per address and per event (:class:`SignInGuard`)."""
    live = await hub.get(tournament_id)
    token = bearer(request.headers.get("authorization"))
    if not signed_in(await sign_in(request), client_address(request), live, token):
        raise RoomError(
            "not_director",
            "The director's token is needed for this",
            "この操作には大会運営のトークンが必要です",
            status=401,
        )
    return live, _operator(request)


def _operator(request: Request, role: str = "director") -> str:
    """The operator named in ``X-Operator`` (percent-encoded UTF-8) for the audit trail, else
    ``role``."""
    return unquote(request.headers.get("x-operator", "")).strip()[:64] or role


def _members(body: EntryBody) -> list[Person]:
    try:
        return [
            read_person(m.name, m.reading, m.club, m.prefecture, m.age, m.grade, partner=i > 0)
            for i, m in enumerate(body.members)
        ]
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=422) from err


def _entry_view(live: LiveTournament, entry_id: str) -> dict[str, Any]:
    """An entry for the director's form: every member field, the grade as written."""
    try:
        data = entry_to_dict(live.event.entry(entry_id))
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=404) from err
    for m in data["members"]:
        m["grade"] = school_year_label(m.pop("school_year"))
        m["age"] = "" if m["age"] is None else str(m["age"])
    pool = live.event.pool_of(entry_id)
    data["pool"] = None if pool is None else pool.label
    return data


def _result(body: ResultBody, live: LiveTournament) -> Result:
    try:
        if body.forfeit is not None:
            return Result.walkover(body.forfeit, live.event.settings.rules.forfeit_score)
        return Result.from_scores(
            body.scores[0], body.scores[1], winner=body.winner, pucks=body.pucks
        )
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=422) from err


# -- pages -------------------------------------------------------------------------------------


@router.get("/t/{tournament_id}", include_in_schema=False)
async def public_page(web: WebDirDep, tournament_id: TournamentId) -> FileResponse:
    return FileResponse(web / "tournament.html", media_type="text/html")


@router.get("/t/{tournament_id}/play/{player}", include_in_schema=False)
async def player_page(web: WebDirDep, tournament_id: TournamentId, player: str) -> FileResponse:
    return FileResponse(web / "tournament.html", media_type="text/html")


@router.get("/t/{tournament_id}/director", include_in_schema=False)
@router.get("/director", include_in_schema=False)
async def director_page(web: WebDirDep) -> FileResponse:
    return FileResponse(web / "director.html", media_type="text/html")


# -- public ------------------------------------------------------------------------------------


@router.post(
    "/api/tournaments",
    status_code=201,
    dependencies=[Depends(organiser)],
    responses=errors(401, 422, 429, 503),
)
async def create_event(body: CreateTournament, hub: TournamentsDep) -> dict[str, str]:
    """Open an event with the six classes of the Japan Championship; keep the token. Needs the
    organiser's key (``Authorization: Bearer KEY``)."""
    try:
        win, draw, loss = body.points
        rules = StandingRules(
            win=win,
            draw=draw,
            loss=loss,
            order=tuple(body.tiebreaks) if body.tiebreaks else DEFAULT_TIEBREAKS,
        )
        settings = TournamentSettings(
            name=body.name,
            date=body.date,
            boards=body.boards,
            start_s=_seconds(body.start),
            golden_board=body.golden_board,
            seed=body.seed,
            rules=rules,
            online=body.online,
        )
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=422) from err
    live, token = await hub.create(settings, body.password)
    return {"id": live.id, "token": token}


@router.get("/api/tournaments/{tournament_id}", responses=errors(404, 422, 503))
async def get_event(hub: TournamentsDep, tournament_id: TournamentId) -> Response:
    """The whole event as the pages show it (same as the WebSocket snapshot)."""
    live = await hub.get(tournament_id)
    return Response(await live.snapshot_text(), media_type="application/json")


@router.get("/api/tournaments/{tournament_id}/search", responses=errors(404, 422, 503))
async def search(
    hub: TournamentsDep, tournament_id: TournamentId, q: str = Query(min_length=1, max_length=40)
) -> dict[str, Any]:
    """ "Where and when is my next match": entries whose name or kana reading has ``q``, each
    with its matches (board, planned time, status)."""
    live = await hub.get(tournament_id)
    return search_view(live, q)


@router.get(
    "/api/tournaments/{tournament_id}/results.csv",
    response_class=Response,
    responses={**file_answer("text/csv"), **errors(404, 422, 503)},
)
async def results_csv(hub: TournamentsDep, tournament_id: TournamentId) -> Response:
    """Every match and its result as CSV (UTF-8 with BOM)."""
    live = await hub.get(tournament_id)
    return Response(
        make_csv(live),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="results-{live.id}.csv"'},
    )


@router.get(
    "/api/tournaments/{tournament_id}/print/{kind}.pdf",
    response_class=Response,
    responses={**file_answer("application/pdf"), **errors(404, 409, 422, 503)},
)
async def printout(
    hub: TournamentsDep,
    tournament_id: TournamentId,
    kind: Literal["pools", "plan", "bracket", "results", "certificates"],
    division: str | None = Query(default=None, max_length=12),
) -> Response:
    """A printout: pool sheets, the board plan, brackets, results, certificates (places 1-3)."""
    from hikone_carrom.server.tournaments.pdf import render

    live = await hub.get(tournament_id)
    try:
        pdf = await live.runner.simulate(render, live, kind, division)
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=409) from err
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{kind}-{live.id}.pdf"'},
    )


# -- director ----------------------------------------------------------------------------------


@router.get(
    "/api/tournaments/{tournament_id}/director", responses=errors(401, 404, 409, 422, 429, 503)
)
async def director_check(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Check the token; the newest audit entries."""
    live, _ = await _director(hub, request, tournament_id)
    entries = await live.runner.store(live.store.audit, live.id, 100)
    return {
        "id": live.id,
        "audit": [
            {
                "seq": a.seq,
                "at": a.at.isoformat(),
                "who": a.who,
                "action": a.action,
                "target": a.target,
                "detail": a.detail,
            }
            for a in entries
        ],
    }


@router.post(
    "/api/tournaments/{tournament_id}/entries/import",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def import_entries(
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    apply: bool = Query(default=True),
) -> dict[str, Any]:
    """Entries from a CSV file sent as the request body (UTF-8 or Shift_JIS). All or nothing:
    ``imported`` is 0 and ``problems`` lists every bad row when any row is wrong."""
    live, who = await _director(hub, request, tournament_id)
    data = await request.body()
    report = await live.import_csv(data, who, apply=apply)
    return {
        "encoding": report.encoding,
        "rows": report.rows,
        "imported": len(report.entries) if report.ok and apply else 0,
        "problems": [{"row": p.row, "en": p.en, "ja": p.ja} for p in report.problems],
    }


@router.post(
    "/api/tournaments/{tournament_id}/entries",
    status_code=201,
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def add_entry(
    body: EntryBody, request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Enter one entry, checked as a CSV row is. After the division's draw it is a late entry:
    it joins the pool with the fewest entries among those not begun and that pool's matches go
    into the board plan's free time (``pool`` names it)."""
    live, who = await _director(hub, request, tournament_id)
    entry, pool = await live.add_entry(body.division, _members(body), body.seed, who)
    return {"entry": _entry_view(live, entry.id), "pool": None if pool is None else pool.label}


@router.get(
    "/api/tournaments/{tournament_id}/entries/{entry_id}",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def get_entry(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId, entry_id: str
) -> dict[str, Any]:
    """One entry with every member field (director only: ages are personal)."""
    live, _ = await _director(hub, request, tournament_id)
    return {"entry": _entry_view(live, entry_id)}


@router.put(
    "/api/tournaments/{tournament_id}/entries/{entry_id}",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def edit_entry(
    body: EntryBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    entry_id: str,
) -> dict[str, Any]:
    """Correct an entry (the division only before the draw), checked as a new one is."""
    live, who = await _director(hub, request, tournament_id)
    await live.update_entry(entry_id, _members(body), body.seed, who, division=body.division)
    return {"entry": _entry_view(live, entry_id)}


@router.put(
    "/api/tournaments/{tournament_id}/rules", responses=errors(401, 404, 409, 422, 429, 503)
)
async def set_rules(
    body: RulesBody, request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Change the tie-breaks (in order) and the match points; every table is computed again.
    Refused once a pool is closed."""
    live, who = await _director(hub, request, tournament_id)
    win, draw, loss = body.points
    try:
        rules = replace(
            live.event.settings.rules, win=win, draw=draw, loss=loss, order=tuple(body.tiebreaks)
        )
    except TournamentError as err:
        raise RoomError(err.code, err.en, err.ja, status=422) from err
    await live.set_rules(rules, who)
    return {"tiebreaks": list(rules.order), "points": [rules.win, rules.draw, rules.loss]}


@router.post(
    "/api/tournaments/{tournament_id}/entries/{entry_id}/status",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def entry_status(
    body: StatusBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    entry_id: str,
    confirm: bool = Query(default=False),
) -> dict[str, str]:
    """Check in (受付), withdraw (棄権) or set back an entry (a called match it makes a
    forfeit needs ``confirm``)."""
    live, who = await _director(hub, request, tournament_id)
    await live.set_status(entry_id, body.status, who, confirm=confirm)
    return {"entry": entry_id, "status": body.status}


@router.post(
    "/api/tournaments/{tournament_id}/divisions/{division}/draw",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def draw(
    body: DrawBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    division: str,
) -> dict[str, Any]:
    """Draw a division's pools (seeded or random; clubs kept apart)."""
    live, who = await _director(hub, request, tournament_id)
    await live.draw(division, who, seeded=body.seeded)
    return {"division": division, "pools": len(live.event.pools[division])}


@router.post(
    "/api/tournaments/{tournament_id}/plan", responses=errors(401, 404, 409, 422, 429, 503)
)
async def plan(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Plan every drawn match on the boards for the whole day."""
    live, who = await _director(hub, request, tournament_id)
    await live.make_plan(who)
    assert live.event.plan is not None
    stats = live.event.plan.stats(live.event.jobs())
    return {"matches": len(live.event.plan.slots), "end": clock(stats.end_s)}


@router.post(
    "/api/tournaments/{tournament_id}/replan", responses=errors(401, 404, 409, 422, 429, 503)
)
async def replan(
    body: ReplanBody, request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Plan again from now (or ``now``, HH:MM) with some boards out of service."""
    live, who = await _director(hub, request, tournament_id)
    now = _seconds(body.now) if body.now else local_seconds()
    await live.replan(who, now, frozenset(body.out_of_service))
    return {"now": clock(now), "out_of_service": sorted(set(body.out_of_service))}


@router.post(
    "/api/tournaments/{tournament_id}/matches/{match_id}/call",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def call_match(
    body: CallBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    match_id: MatchId,
) -> dict[str, Any]:
    """Call a match to its board (or ``board``)."""
    live, who = await _director(hub, request, tournament_id)
    return (await live.call(match_id, who, body.board)).to_dict()


@router.post(
    "/api/tournaments/{tournament_id}/boards/{board}/call",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def call_board(
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    board: Annotated[int, PathParam(ge=1, le=MAX_EVENT_BOARDS)],
) -> dict[str, Any]:
    """Call the next match planned on a board."""
    live, who = await _director(hub, request, tournament_id)
    return (await live.call_next(board, who)).to_dict()


@router.post(
    "/api/tournaments/{tournament_id}/matches/{match_id}/start",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def start_match(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId, match_id: MatchId
) -> dict[str, str]:
    """The called match begins; its clock runs."""
    live, who = await _director(hub, request, tournament_id)
    await live.start(match_id, who)
    return {"match": match_id, "status": "playing"}


@router.put(
    "/api/tournaments/{tournament_id}/matches/{match_id}/result",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def put_result(
    body: ResultBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    match_id: MatchId,
    confirm: bool = Query(default=False),
) -> dict[str, Any]:
    """Enter or correct a result (kept in the audit trail); one that changes who plays a
    called match is refused (409 ``call_would_change``, with the changes) unless ``confirm``."""
    live, who = await _director(hub, request, tournament_id)
    result = _result(body, live)
    previous = await live.record_result(match_id, result, who, "director", confirm=confirm)
    return {
        "match": match_view(live, live.event.match(match_id)),
        "replaced": None if previous is None else previous.to_dict(),
    }


@router.delete(
    "/api/tournaments/{tournament_id}/matches/{match_id}/result",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def delete_result(
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    match_id: MatchId,
    confirm: bool = Query(default=False),
) -> dict[str, str]:
    """Remove a result entered by mistake (a called match it changes needs ``confirm``)."""
    live, who = await _director(hub, request, tournament_id)
    await live.clear_result(match_id, who, confirm=confirm)
    return {"match": match_id, "status": "cleared"}


@router.post(
    "/api/tournaments/{tournament_id}/pools/{division}/{number}/{action}",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def pool_action(
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    division: str,
    number: Annotated[int, PathParam(ge=1, le=MAX_INT)],
    action: Literal["close", "reopen"],
    confirm: bool = Query(default=False),
) -> dict[str, Any]:
    """Close a complete pool (its places go into the knockout) or reopen it for a correction
    (a called knockout match it changes needs ``confirm``)."""
    live, who = await _director(hub, request, tournament_id)
    await live.close_pool(division, number, who, reopen=action == "reopen", confirm=confirm)
    return {"division": division, "pool": number, "closed": action == "close"}


class PadsBody(StrictBody):
    """Boards to give a scoring pad (all boards without one when omitted)."""

    boards: list[BoardNumber] | None = Field(default=None, max_length=MAX_EVENT_BOARDS)


@router.post(
    "/api/tournaments/{tournament_id}/pads",
    dependencies=[Depends(organiser)],
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def make_pads(
    body: PadsBody,
    request: Request,
    hub: TournamentsDep,
    pads: PadsDep,
    tournament_id: TournamentId,
) -> dict[str, Any]:
    """Give boards a scoring pad each (docs/scoring.md): board calls then open the called match
    on the pad and the confirmed result comes back into the standings. Makes boards, so it needs
    the organiser's key (``Authorization: Bearer KEY``), not the director's token; at most
    :data:`MAX_EVENT_BOARDS` pads a request."""
    live = await hub.get(tournament_id)
    who = _operator(request, "organiser")
    wanted = body.boards or list(range(1, live.event.settings.boards + 1))
    bad = [b for b in wanted if not 1 <= b <= live.event.settings.boards]
    if bad:
        raise RoomError(
            "no_board",
            f"Board {bad[0]} is not one of 1-{live.event.settings.boards}",
            f"第{bad[0]}台はありません（1〜{live.event.settings.boards}）",
            status=422,
        )
    todo = sorted({b for b in wanted if b not in live.pads})
    if len(todo) > MAX_EVENT_BOARDS:
        raise RoomError(
            "too_many_boards",
            f"At most {MAX_EVENT_BOARDS} pads at a time: name the boards",
            f"一度に作れるパッドは {MAX_EVENT_BOARDS} 台までです。台を指定してください",
            status=422,
        )
    base = str(request.base_url).rstrip("/")
    made: dict[int, tuple[str, str]] = {}
    for board in todo:
        pad, token = await pads.create(f"{live.event.settings.name[:24]} 第{board}台")
        made[board] = (pad.id, f"{base}/pad/{pad.id}#t={token}")
    if made:
        await live.set_pads(made)
        await live.note(who, "pads", "boards", {"boards": sorted(made)})
    return _pad_list(live)


@router.get("/api/tournaments/{tournament_id}/pads", responses=errors(401, 404, 409, 422, 429, 503))
async def list_pads(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """The event's scoring pads: board, pad id, the link that opens the pad (it carries the
    pad's token: director only) and its QR code (SVG)."""
    live, _ = await _director(hub, request, tournament_id)
    return _pad_list(live)


def _pad_list(live: LiveTournament) -> dict[str, Any]:
    out = []
    for board, (pad_board, url) in sorted(live.pads.items()):
        svg = io.BytesIO()
        segno.make(url, error="m").save(svg, kind="svg", scale=4, border=2, xmldecl=False)
        out.append(
            {
                "board": board,
                "pad_board": pad_board,
                "pad_url": url,
                "qr_svg": svg.getvalue().decode("utf-8"),
            }
        )
    return {"pads": out}


class PlayBody(StrictBody):
    """The key of a player's link."""

    key: str = Field(min_length=1, max_length=64)


@router.get(
    "/api/tournaments/{tournament_id}/players", responses=errors(401, 404, 409, 422, 429, 503)
)
async def player_links(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Online events: every player's personal link (director only; send each player theirs)."""
    live, _ = await _director(hub, request, tournament_id)
    base = str(request.base_url).rstrip("/")
    return {
        "players": [
            {
                "player": p,
                "name": name,
                "link": f"{base}/t/{live.id}/play/{p}#k={player_key(live, p)}",
            }
            for p, name in players(live)
        ]
    }


@router.post(
    "/api/tournaments/{tournament_id}/play/{player}", responses=errors(403, 404, 409, 422, 503)
)
async def play(
    body: PlayBody,
    hub: TournamentsDep,
    bridge: RoomBridgeDep,
    tournament_id: TournamentId,
    player: str,
) -> dict[str, Any]:
    """Online events: the room, seat and seat token of the player's called match."""
    live = await hub.get(tournament_id)
    if not live.event.settings.online:
        raise RoomError(
            "not_online", "This event is played on real boards", "この大会は会場の台で行います"
        )
    return await bridge.seat_for(live, player, body.key)


# -- the plan's settings and the knockout sizes (plan_settings.py) ------------------------------


@router.get("/api/tournaments/{tournament_id}/schedule", responses=errors(404, 422, 503))
async def get_schedule(hub: TournamentsDep, tournament_id: TournamentId) -> dict[str, Any]:
    """The day's times: first match, changeover, opening ceremony, lunch, the finals' start."""
    live = await hub.get(tournament_id)
    return schedule_view(live.event.settings)


@router.put(
    "/api/tournaments/{tournament_id}/schedule", responses=errors(401, 404, 409, 422, 429, 503)
)
async def put_schedule(
    body: ScheduleBody, request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Change the day's times; a plan nothing of which has begun is made again, otherwise
    ``replan`` is true: re-plan from now to apply them."""
    live, who = await _director(hub, request, tournament_id)
    return await set_schedule(live, body, who)


@router.get(
    "/api/tournaments/{tournament_id}/divisions/{division}/knockout",
    responses=errors(404, 422, 503),
)
async def get_knockout(
    hub: TournamentsDep, tournament_id: TournamentId, division: str
) -> dict[str, Any]:
    """A division's knockout size and each choice's consequences (lines, byes, matches, who is
    left out), in Japanese and English."""
    return knockout_view(await hub.get(tournament_id), division)


@router.put(
    "/api/tournaments/{tournament_id}/divisions/{division}/knockout",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def put_knockout(
    body: KnockoutBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    division: str,
) -> dict[str, Any]:
    """Choose a division's knockout size (refused once its knockout has begun)."""
    live, who = await _director(hub, request, tournament_id)
    return await set_knockout_size(live, division, body.size, who)
