"""The server's own route: is it up, and which version."""

from __future__ import annotations

from fastapi import APIRouter

from hikone_carrom import __version__

__all__ = ["router"]

router = APIRouter()


@router.get("/api/health", tags=["server"])
async def health() -> dict[str, str]:
    """The server is up."""
    return {"status": "ok", "version": __version__}
