"""The checked-in icons (web/icons/) are what tools/icons.py draws: the SVG byte for byte, the
PNGs pixel for pixel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops
from tools import icons


def test_the_svg_is_the_scripts_output() -> None:
    assert (icons.ICONS / "icon.svg").read_text(encoding="utf-8") == icons.svg()


@pytest.mark.parametrize("size", icons.SIZES)
def test_each_png_is_the_scripts_drawing(size: int) -> None:
    kept = Image.open(icons.ICONS / f"icon-{size}.png").convert("RGBA")
    assert kept.size == (size, size)
    assert ImageChops.difference(kept, icons.png(size)).getbbox() is None, "python -m tools.icons"


def test_the_script_writes_every_file_the_manifest_names(tmp_path: Path) -> None:
    written = {p.name for p in icons.write(tmp_path)}
    assert written == {"icon.svg", "icon-192.png", "icon-512.png"}
