"""Links as QR codes (SVG) that a phone at the table scans: the invitation to an online room, a
scoring pad's board. Made on the server with ``segno``, so the page needs no script for it."""

from __future__ import annotations

import io

import segno

__all__ = ["invite_svg", "qr_svg", "room_url"]


def room_url(base_url: str, room_id: str) -> str:
    """The room's page: ``{base_url}/room/{room_id}`` (``base_url`` as the browser reached us)."""
    return f"{base_url.rstrip('/')}/room/{room_id}"


def qr_svg(url: str, *, scale: int | None = None) -> str:
    """``url`` as a QR code, SVG text: dark modules on white with the quiet zone the standard
    asks for (4 modules), error correction M. ``scale`` gives it a size (px per module); without
    it the SVG has only a viewBox and takes the size the page gives it."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=scale or 1,
        border=4,
        dark="#1c120b",
        light="#ffffff",
        xmldecl=False,
        svgns=True,
        title="QR code",
        svgclass="qr",
        lineclass=None,
        omitsize=scale is None,
    )
    return out.getvalue().decode("utf-8")


def invite_svg(url: str) -> str:
    """The invitation to a room: its link as a QR code sized by the page."""
    return qr_svg(url)
