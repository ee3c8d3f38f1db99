"""REST of the puzzles (詰めカロム; docs/learn.md).

``GET /api/puzzles`` lists them (paged), ``GET /api/puzzles/daily`` names today's (UTC),
``GET /api/puzzles/{id}`` gives the position and the goal, ``POST /api/puzzles/{id}/attempts``
plays a shot by the same physics and referee as a game (``Match.play``, exact: the player's own
hand is the noise) and says whether the goal was reached, with the solution once it is;
``POST /api/puzzles/{id}/give-up`` gives the solution. Attempts and give-ups are limited per
client address.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from hikone_carrom.learn import Puzzle, goal_reached, load_shipped, puzzle_by_id
from hikone_carrom.learn.daily import daily_puzzle
from hikone_carrom.match import IllegalShotError, Shot
from hikone_carrom.server.core.deps import RunnerDep, client_address
from hikone_carrom.server.core.errors import RoomError, errors
from hikone_carrom.server.core.ratelimit import AddressRate
from hikone_carrom.server.core.validation import StrictBody
from hikone_carrom.server.puzzles.views import puzzle_summary, puzzle_view, solution_view
from hikone_carrom.server.rooms.views import shot_view

__all__ = ["ATTEMPTS_PER_MINUTE", "PAGE_LIMIT", "AttemptBody", "router"]

PAGE_LIMIT = 100
"""Most puzzles one page of the list holds."""
ATTEMPTS_PER_MINUTE = 30
"""Attempts and give-ups one client address may make per minute (and at once)."""

router = APIRouter(tags=["puzzles"])


class AttemptBody(StrictBody):
    """A shot at the puzzle: striker centre (x, y; m), direction (rad; 0 = +x,
    counter-clockwise), speed (m/s)."""

    x: float = Field(ge=-1.0, le=1.0)
    y: float = Field(ge=-1.0, le=1.0)
    angle: float = Field(ge=-100.0, le=100.0)
    speed: float = Field(gt=0.0, le=100.0)


def _rate(request: Request) -> None:
    """Refuse a client over :data:`ATTEMPTS_PER_MINUTE` (429 with ``Retry-After``)."""
    rate: AddressRate | None = getattr(request.app.state, "puzzle_rate", None)
    if rate is None:
        rate = request.app.state.puzzle_rate = AddressRate(ATTEMPTS_PER_MINUTE)
    bucket = rate.bucket(client_address(request))
    if not bucket.allow():
        raise RoomError(
            "rate_limited",
            f"Too many puzzle attempts from your address (at most {ATTEMPTS_PER_MINUTE} a "
            "minute): wait a moment",
            f"この接続元からの詰めカロムの挑戦が多すぎます（1分に{ATTEMPTS_PER_MINUTE}回まで）。"
            "少し待ってください",
            status=429,
            retry_after_s=bucket.wait_s,
        )


def _puzzle(puzzle_id: str) -> Puzzle:
    puzzle = puzzle_by_id(puzzle_id)
    if puzzle is None:
        raise RoomError(
            "no_such_puzzle",
            f"There is no puzzle {puzzle_id[:40]!r}",
            f"詰めカロムの問題 {puzzle_id[:40]!r} はありません",
            status=404,
        )
    return puzzle


@router.get("/api/puzzles", responses=errors(422))
async def list_puzzles(
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT)] = 50,
) -> dict[str, Any]:
    """One page of the shipped puzzles: id, goal, difficulty."""
    puzzles = load_shipped()
    page = puzzles[offset : offset + limit]
    return {
        "total": len(puzzles),
        "offset": offset,
        "limit": limit,
        "puzzles": [puzzle_summary(p) for p in page],
    }


@router.get("/api/puzzles/daily")
async def daily() -> dict[str, Any]:
    """Today's puzzle (by the UTC date): its position and goal."""
    today = dt.datetime.now(dt.UTC).date()
    return {"date": today.isoformat(), **puzzle_view(daily_puzzle(load_shipped(), today))}


@router.get("/api/puzzles/{puzzle_id}", responses=errors(404, 422))
async def get_puzzle(puzzle_id: str) -> dict[str, Any]:
    """A puzzle's position and goal (never its solution)."""
    return puzzle_view(_puzzle(puzzle_id))


def _attempt(puzzle: Puzzle, shot: Shot) -> dict[str, Any]:
    match = puzzle.match()
    color = match.color(match.shooter)
    try:
        play = match.play(shot)
    except IllegalShotError as err:
        raise RoomError(
            "illegal_shot", err.reason_en, err.reason_ja, rule=err.rule, status=409
        ) from None
    reached = goal_reached(puzzle.goal, color, play.report, match.referee.state)
    out: dict[str, Any] = {"reached": reached, "play": shot_view(play, match.board)}
    if reached:
        out["solution"] = _solution(puzzle)
    return out


def _solution(puzzle: Puzzle) -> dict[str, Any]:
    match = puzzle.match()
    return solution_view(puzzle, match.play(puzzle.solution))


@router.post(
    "/api/puzzles/{puzzle_id}/attempts",
    responses=errors(404, 409, 422, 429),
    dependencies=[Depends(_rate)],
)
async def attempt(puzzle_id: str, body: AttemptBody, runner: RunnerDep) -> dict[str, Any]:
    """Play a shot at the puzzle, judged by the physics and the referee as a game's; the
    solution comes with a shot that reached the goal."""
    puzzle = _puzzle(puzzle_id)
    shot = Shot(body.x, body.y, body.angle, body.speed)
    return await runner.simulate(_attempt, puzzle, shot)


@router.post(
    "/api/puzzles/{puzzle_id}/give-up",
    responses=errors(404, 422, 429),
    dependencies=[Depends(_rate)],
)
async def give_up(puzzle_id: str, runner: RunnerDep) -> dict[str, Any]:
    """The solution, and its shot played exactly for the replay."""
    return {"solution": await runner.simulate(_solution, _puzzle(puzzle_id))}
