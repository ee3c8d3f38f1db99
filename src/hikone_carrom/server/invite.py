"""The invitation to an online room: its link, and the link as a QR code (SVG) that a phone at the
same table scans. Made on the server with ``segno``, so the page needs no script for it."""

from __future__ import annotations

import io

import segno

__all__ = ["invite_svg", "room_url"]


def room_url(base_url: str, room_id: str) -> str:
    """The room's page: ``{base_url}/room/{room_id}`` (``base_url`` as the browser reached us)."""
    return f"{base_url.rstrip('/')}/room/{room_id}"


def invite_svg(url: str) -> str:
    """``url`` as a QR code, SVG text: dark modules on white with the quiet zone the standard
    asks for (4 modules), error correction M, scaled by the page."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        border=4,
        dark="#1c120b",
        light="#ffffff",
        xmldecl=False,
        svgns=True,
        title="QR code",
        svgclass="qr",
        lineclass=None,
        omitsize=True,
    )
    return out.getvalue().decode("utf-8")
