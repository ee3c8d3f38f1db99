"""REST, WebSocket and pages of the scoring pads (docs/scoring.md), as one router.

The pad device authenticates with its board token (``Authorization: Bearer``); anyone with the
board's watch link sees it live, read-only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response
from pydantic import Field

from hikone_carrom.name_text import NAME_PATTERN
from hikone_carrom.records import refereed_record
from hikone_carrom.rules import RulesError
from hikone_carrom.scoring import MatchSetup, RefereedMatch, sheet_csv
from hikone_carrom.server.core.deps import PadsDep, WebDirDep, organiser
from hikone_carrom.server.core.errors import (
    RoomError,
    errors,
    file_answer,
)
from hikone_carrom.server.core.invite import qr_svg
from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.pads.boards import MAX_WALL_MS, Board, Op, PadRegistry
from hikone_carrom.server.pads.messages import BOARD_MESSAGES
from hikone_carrom.server.rooms.schemas import Ping
from hikone_carrom.server.rooms.ws import Connection, WatchLimits, serve_watcher
from hikone_carrom.server.storage.store import StoreError

__all__ = ["router"]

router = APIRouter()

BoardId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
Device = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
MatchNumber = Annotated[int, PathParam(ge=1, le=MAX_INT)]
Lang = Literal["ja", "en"]

MAX_OPS = 500
"""Most ops one sync may carry (a pad offline for a whole match sends a few hundred at most)."""


class CreateBoard(StrictBody):
    """POST /api/boards: a board of the hall, e.g. "第17台"."""

    name: str = Field(default="", max_length=40, pattern=NAME_PATTERN)


class BoardCreated(StrictBody):
    """The new board: its token (keep it: it is shown once), the pad and watch links, the QR
    code of the pad link (SVG)."""

    id: str
    name: str
    token: str
    pad_url: str
    watch_url: str
    qr_svg: str


class DeviceBody(StrictBody):
    """The pad device's id (random, kept by the device)."""

    device: Device


class OpsBody(StrictBody):
    """Ops of one pad device, in order (``seq`` 1, 2, ...), and the pad's clock when it sent
    them (``sent_ms``, ms since 1970: with each op's ``wall_ms`` it tells how long the op
    waited on the pad; the server's clock says when it arrived)."""

    device: Device
    ops: list[Op] = Field(max_length=MAX_OPS)
    sent_ms: float | None = Field(default=None, ge=0, le=MAX_WALL_MS)


class OpenMatch(StrictBody):
    """POST /api/boards/{id}/matches: the server opens a match on the board (a board call)."""

    setup: dict[str, Any]


def _token(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def _base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def _own_board(pads: PadRegistry, board_id: str, authorization: str | None) -> Board:
    b = await pads.get(board_id)
    b.check_token(_token(authorization))
    return b


@router.get("/pad", include_in_schema=False)
@router.get("/pad/", include_in_schema=False)
async def pad_home(web: WebDirDep) -> FileResponse:
    return FileResponse(web / "pad.html", media_type="text/html")


@router.get("/pad/sw.js", include_in_schema=False)
async def service_worker(web: WebDirDep) -> FileResponse:
    return FileResponse(
        web / "js" / "pad" / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/pad/{board_id}", include_in_schema=False)
@router.get("/boards/{board_id}", include_in_schema=False)
async def pad_page(board_id: str, web: WebDirDep) -> FileResponse:
    return FileResponse(web / "pad.html", media_type="text/html")


@router.post(
    "/api/boards",
    status_code=201,
    tags=["pads"],
    dependencies=[Depends(organiser)],
    responses=errors(401, 422, 429, 503),
)
async def create_board(body: CreateBoard, request: Request, pads: PadsDep) -> BoardCreated:
    """A new board with its pad token, links and the QR code of the pad link. Needs the
    organiser's key (``Authorization: Bearer KEY``)."""
    b, token = await pads.create(body.name.strip())
    base = _base_url(request)
    pad_url = f"{base}/pad/{b.id}#t={token}"
    return BoardCreated(
        id=b.id,
        name=b.name,
        token=token,
        pad_url=pad_url,
        watch_url=f"{base}/boards/{b.id}",
        qr_svg=qr_svg(pad_url, scale=6),
    )


@router.get("/api/boards/{board_id}", tags=["pads"], responses=errors(404, 422, 503))
async def get_board(pads: PadsDep, board_id: BoardId) -> dict[str, Any]:
    """The board as a spectator sees it now (same as a WebSocket snapshot)."""
    return (await pads.get(board_id)).snapshot()


@router.get(
    "/api/boards/{board_id}/qr.svg",
    tags=["pads"],
    response_class=Response,
    responses={**file_answer("image/svg+xml"), **errors(403, 404, 422, 503)},
)
async def board_qr(
    request: Request,
    pads: PadsDep,
    board_id: BoardId,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """The QR code of the pad link (token holders only: it carries the token)."""
    b = await _own_board(pads, board_id, authorization)
    token = _token(authorization)
    url = f"{_base_url(request)}/pad/{b.id}#t={token}"
    return Response(qr_svg(url, scale=6), media_type="image/svg+xml")


@router.post(
    "/api/boards/{board_id}/claim", tags=["pads"], responses=errors(403, 404, 409, 422, 503)
)
async def claim(
    body: DeviceBody,
    pads: PadsDep,
    board_id: BoardId,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """A pad device opens the board: bound at first use; another device gets 409."""
    b = await _own_board(pads, board_id, authorization)
    return await b.claim(body.device)


@router.post(
    "/api/boards/{board_id}/takeover", tags=["pads"], responses=errors(403, 404, 409, 422, 503)
)
async def takeover(
    body: DeviceBody,
    pads: PadsDep,
    board_id: BoardId,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The referee moves the board to this device; the old device is refused from now on."""
    b = await _own_board(pads, board_id, authorization)
    return await b.takeover(body.device)


@router.post("/api/boards/{board_id}/ops", tags=["pads"], responses=errors(403, 404, 409, 422, 503))
async def ops(
    body: OpsBody,
    pads: PadsDep,
    board_id: BoardId,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Apply a pad's queued ops in order, each exactly once; answers the last applied."""
    b = await _own_board(pads, board_id, authorization)
    return await b.apply(body.device, body.ops, body.sent_ms)


@router.post(
    "/api/boards/{board_id}/matches",
    status_code=201,
    tags=["pads"],
    responses=errors(403, 404, 409, 422, 503),
)
async def open_match(
    body: OpenMatch,
    pads: PadsDep,
    board_id: BoardId,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Open a match on the board from the server (players, order, match time given)."""
    b = await _own_board(pads, board_id, authorization)
    try:
        setup = MatchSetup.from_dict(body.setup)
    except RulesError as err:
        raise RoomError("bad_setup", err.en, err.ja, status=422) from err
    number = await b.open_match(setup)
    return {"number": number, **b.snapshot()}


async def _finished(pads: PadRegistry, board_id: str, number: int) -> tuple[Board, Any]:
    b = await pads.get(board_id)
    try:
        stored = await pads.runner.store(b.match_at, number)
    except StoreError as err:
        raise RoomError("no_match", "No such match", "その試合はありません", status=404) from err
    match = RefereedMatch.from_dict(
        {"setup": stored.setup, "entries": stored.entries, "confirmed": stored.confirmed}
    )
    if not match.is_over:
        raise RoomError(
            "not_over", "The match is not over", "試合はまだ終わっていません", status=409
        )
    return b, match


@router.get(
    "/api/boards/{board_id}/matches/{number}/record",
    tags=["pads"],
    responses=errors(404, 409, 422, 503),
)
async def match_record(pads: PadsDep, board_id: BoardId, number: MatchNumber) -> dict[str, Any]:
    """The match record (``refereed`` actions) of a finished match of the board."""
    _, match = await _finished(pads, board_id, number)
    return refereed_record(match)


@router.get(
    "/api/boards/{board_id}/matches/{number}/sheet.csv",
    tags=["pads"],
    response_class=Response,
    responses={**file_answer("text/csv"), **errors(404, 409, 422, 503)},
)
async def match_csv(
    pads: PadsDep, board_id: BoardId, number: MatchNumber, lang: Lang = "ja"
) -> Response:
    """The score sheet as CSV (UTF-8 with a byte-order mark, for spreadsheets)."""
    b, match = await _finished(pads, board_id, number)
    name = f"board-{b.id}-match-{number}.csv"
    return Response(
        "\ufeff" + sheet_csv(match, lang),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/api/boards/{board_id}/matches/{number}/sheet.pdf",
    tags=["pads"],
    response_class=Response,
    responses={**file_answer("application/pdf"), **errors(404, 409, 422, 503)},
)
async def match_pdf(
    pads: PadsDep, board_id: BoardId, number: MatchNumber, lang: Lang = "ja"
) -> Response:
    """The printable score sheet (A4 PDF, Japanese fonts, every entry with its ruling)."""
    from hikone_carrom.scoring.pdf import sheet_pdf

    b, match = await _finished(pads, board_id, number)
    pdf = await pads.runner.simulate(sheet_pdf, match, lang, b.name)
    name = f"board-{b.id}-match-{number}.pdf"
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{name}"'},
    )


@router.websocket("/ws/boards/{board_id}")
async def board_socket(websocket: WebSocket, board_id: str, pads: PadsDep) -> None:
    """Watch a board live: a snapshot, then every numbered event (read-only)."""
    await _watch(websocket, board_id, pads)


WATCH_BUFFER_CHARS = 512 * 1024
"""Most characters waiting to be sent to one watcher (a 200-entry board's snapshot is about
60,000); one further behind is closed and resyncs when its page reconnects."""

WATCH_LIMITS = WatchLimits(burst=10, per_second=2.0, max_chars=512)
"""A watcher may send 10 messages at once, then 2 a second (its page sends a hello, a resync
after a gap, a ping now and then), each at most 512 characters."""


async def _watch(websocket: WebSocket, board_id: str, pads: PadRegistry) -> None:
    conn = Connection(websocket, buffer_chars=WATCH_BUFFER_CHARS)

    async def answer(b: Board, text: str) -> None:
        """``hello`` or ``resync`` (the shared snapshot), ``ping`` (:data:`BOARD_MESSAGES`)."""
        try:
            msg = BOARD_MESSAGES.read(text)
        except RoomError as err:
            conn.send_json(err.to_message())
            return
        if isinstance(msg, Ping):
            conn.send_json({"type": "pong", "seq": b.seq})
        else:
            conn.send(b.snapshot_text())
            b.subscribers.add(conn)

    await serve_watcher(conn, pads.get(board_id), WATCH_LIMITS, answer)
