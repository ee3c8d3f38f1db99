"""Pictures of a board for ``render()``: the drawing of ``hikone-carrom show`` (matplotlib, the
``draw`` extra, imported only when a picture is asked for)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk

__all__ = ["Window", "rgb_array"]

SIZE_PX = 480
"""Width and height of a rendered frame, px."""
_DPI = 96


def _need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # pragma: no cover - the draw extra is installed with the tests
        raise ImportError(
            "render() needs matplotlib: pip install 'hikone-carrom[draw]' / "
            "描画には matplotlib が必要です"
        ) from None


def _draw(fig: Any, board: BoardSpec, players: int, disks: Sequence[Disk], title: str) -> None:
    from hikone_carrom.show import draw_layout

    ax = fig.add_axes((0.0, 0.0, 1.0, 0.94))
    draw_layout(ax, board, players, disks)
    fig.suptitle(title, fontsize=9, y=0.985)


def rgb_array(board: BoardSpec, players: int, disks: Sequence[Disk], title: str) -> np.ndarray:
    """The board with ``disks`` as an (H, W, 3) uint8 picture, ``title`` above it."""
    _need_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(SIZE_PX / _DPI, SIZE_PX / _DPI), dpi=_DPI)
    canvas = FigureCanvasAgg(fig)
    _draw(fig, board, players, disks, title)
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    return np.asarray(rgba)[:, :, :3].copy()


class Window:
    """A matplotlib window showing the board (``render_mode="human"``)."""

    def __init__(self) -> None:
        _need_matplotlib()
        import matplotlib.pyplot as plt

        self._plt = plt
        self._fig = plt.figure(figsize=(SIZE_PX / _DPI, SIZE_PX / _DPI), dpi=_DPI)

    def show(
        self, board: BoardSpec, players: int, disks: Sequence[Disk], title: str, fps: float
    ) -> None:
        """Redraw the window and let it show for one frame (1 / fps s)."""
        self._fig.clear()
        _draw(self._fig, board, players, disks, title)
        self._plt.pause(1.0 / fps)

    def close(self) -> None:
        """Close the window."""
        self._plt.close(self._fig)
