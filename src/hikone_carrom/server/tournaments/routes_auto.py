"""REST of the automatic mode (自動進行): the director's switch, pool holds and why each planned
match is waiting (:mod:`.hub_auto`). Director's token needed, as on every change."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from hikone_carrom.server.core.deps import TournamentsDep
from hikone_carrom.server.core.errors import errors
from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.tournaments.routes import TournamentId, _director

__all__ = ["router"]

router = APIRouter(tags=["tournaments"])


class AutoBody(StrictBody):
    on: bool


class HoldBody(StrictBody):
    held: bool


@router.get("/api/tournaments/{tournament_id}/auto", responses=errors(401, 404, 422, 429, 503))
async def get_auto(
    request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Automatic mode: ``on``, the ``held`` pools and ``waiting``: why each planned match not
    begun is not called yet (in plan order, with the reason in Japanese and English)."""
    live, _ = await _director(hub, request, tournament_id)
    return await live.auto.view()


@router.put("/api/tournaments/{tournament_id}/auto", responses=errors(401, 404, 422, 429, 503))
async def set_auto(
    body: AutoBody, request: Request, hub: TournamentsDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """Switch automatic mode on (calls and pool closes start at once) or off (paused)."""
    live, who = await _director(hub, request, tournament_id)
    await live.auto.set_on(body.on, who)
    return await live.auto.view()


@router.put(
    "/api/tournaments/{tournament_id}/auto/holds/{division}/{number}",
    responses=errors(401, 404, 409, 422, 429, 503),
)
async def hold_pool(
    body: HoldBody,
    request: Request,
    hub: TournamentsDep,
    tournament_id: TournamentId,
    division: Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,12}$")],
    number: Annotated[int, PathParam(ge=1, le=MAX_INT)],
) -> dict[str, Any]:
    """Hold a pool open (its last result does not close it) or let automatic mode close it."""
    live, who = await _director(hub, request, tournament_id)
    await live.auto.hold(division, number, body.held, who)
    return await live.auto.view()
