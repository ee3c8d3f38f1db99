"""The game's icons (web/icons/): a board seen from above, its four pockets and the centre spot,
drawn from one set of figures as the SVG and as the PNGs the web app manifest names.

Run ``python -m tools.icons`` from the repository's root after changing a figure; the test
tests/test_icons.py checks that the checked-in files are this module's output.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parents[1] / "src" / "hikone_carrom" / "web" / "icons"
SIZES = (192, 512)
"""px: the PNGs' sides (Chromium's install criteria ask for 192 and 512)."""
SUPERSAMPLE = 4
"""Each PNG is drawn this many times larger, then scaled down: smooth edges."""

# Figures in the SVG's units (a 64 x 64 view box).
VIEW, FRAME_RX = 64, 10
PLAY, PLAY_RX = (6, 58), 3
POCKET_R = 12
SPOT_R, SPOT_STROKE, INNER_R, INNER_STROKE = 7, 2.5, 3, 2
WALNUT, MAPLE, POCKET, SPOT, RED, GREEN = (
    "#6b3f22", "#e2c08d", "#24160d", "#f1dcb2", "#b7372a", "#2f6b4a"
)  # fmt: skip


def svg() -> str:
    """The icon as SVG (one line, as the browser's favicon and the manifest's ``any`` size)."""
    lo, hi = PLAY
    r, c = POCKET_R, VIEW // 2
    pockets = (
        f"M{lo} {lo + r}A{r} {r} 0 0 0 {lo + r} {lo}H{lo}z"
        f"M{hi - r} {lo}a{r} {r} 0 0 0 {r} {r}V{lo}z"
        f"M{lo} {hi - r}a{r} {r} 0 0 1 {r} {r}H{lo}z"
        f"M{hi} {hi - r}a{r} {r} 0 0 0-{r} {r}h{r}z"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW} {VIEW}">'
        f'<rect width="{VIEW}" height="{VIEW}" rx="{FRAME_RX}" fill="{WALNUT}"/>'
        f'<rect x="{lo}" y="{lo}" width="{hi - lo}" height="{hi - lo}" rx="{PLAY_RX}" '
        f'fill="{MAPLE}"/>'
        f'<path d="{pockets}" fill="{POCKET}"/>'
        f'<circle cx="{c}" cy="{c}" r="{SPOT_R}" fill="{SPOT}" stroke="{RED}" '
        f'stroke-width="{SPOT_STROKE}"/>'
        f'<circle cx="{c}" cy="{c}" r="{INNER_R}" fill="none" stroke="{GREEN}" '
        f'stroke-width="{INNER_STROKE}"/></svg>\n'
    )


def png(size: int) -> Image.Image:
    """The icon as an RGBA image ``size`` px square, the same figures as :func:`svg`."""
    big = size * SUPERSAMPLE
    k = big / VIEW
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=FRAME_RX * k, fill=WALNUT)
    lo, hi = PLAY[0] * k, PLAY[1] * k
    draw.rounded_rectangle((lo, lo, hi - 1, hi - 1), radius=PLAY_RX * k, fill=MAPLE)
    r = POCKET_R * k
    # a quarter disc in each corner of the playing surface (angles clockwise from east)
    for (x, y), start in (((lo, lo), 0), ((hi, lo), 90), ((hi, hi), 180), ((lo, hi), 270)):
        draw.pieslice((x - r, y - r, x + r, y + r), start, start + 90, fill=POCKET)

    def ring(radius: float, stroke: float, colour: str, fill: str | None) -> None:
        # SVG strokes straddle the radius; Pillow's outline grows inwards from the box
        c, out = big / 2, (radius + stroke / 2) * k
        box = (c - out, c - out, c + out, c + out)
        draw.ellipse(box, fill=fill, outline=colour, width=round(stroke * k))

    ring(SPOT_R, SPOT_STROKE, RED, SPOT)
    ring(INNER_R, INNER_STROKE, GREEN, None)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def write(folder: Path = ICONS) -> list[Path]:
    """Write icon.svg and icon-<size>.png into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "icon.svg"]
    written[0].write_text(svg(), encoding="utf-8")
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        png(size).save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else ICONS):
        print(path)
