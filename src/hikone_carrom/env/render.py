"""Pictures of a board for ``render()``: the drawing of ``hikone-carrom show`` (matplotlib, the
``draw`` extra, imported only when a picture is asked for)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk
from hikone_carrom.rules import RefereeState

__all__ = ["Renderer", "rgb_array", "scoreline"]

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


def scoreline(label: str, state: RefereeState) -> str:
    """A frame's title: ``label`` and both colours' pucks pocketed and debt (R5i)."""
    return (
        f"{label}  red {state.pocketed[0]} (debt {state.debt[0]})"
        f"  green {state.pocketed[1]} (debt {state.debt[1]})"
    )


class Renderer:
    """``render()`` of an environment: a picture (``mode="rgb_array"``), a matplotlib window
    shown ``fps`` frames a second (``"human"``), or nothing (``None``)."""

    def __init__(self, mode: str | None, fps: float) -> None:
        self.mode = mode
        self.fps = fps
        self._fig: Any = None

    def draw(
        self, board: BoardSpec, players: int, disks: Sequence[Disk], title: str
    ) -> np.ndarray | None:
        """The board with ``disks``: the picture in "rgb_array" mode, else ``None``."""
        if self.mode == "rgb_array":
            return rgb_array(board, players, disks, title)
        if self.mode == "human":
            _need_matplotlib()
            import matplotlib.pyplot as plt

            if self._fig is None:
                self._fig = plt.figure(figsize=(SIZE_PX / _DPI, SIZE_PX / _DPI), dpi=_DPI)
            self._fig.clear()
            _draw(self._fig, board, players, disks, title)
            plt.pause(1.0 / self.fps)
        return None

    def close(self) -> None:
        """Close the window, if one is open."""
        if self._fig is not None:
            import matplotlib.pyplot as plt

            plt.close(self._fig)
            self._fig = None
