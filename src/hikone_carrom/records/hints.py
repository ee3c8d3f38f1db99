"""The expert's hints a record keeps: which player asked for one, before which action, and the
shot suggested (docs/record-format.md, "hints").

A hint changes nothing in the game; the record keeps it so that everyone can see later who was
helped and where. Positions in m, angles in rad, speeds in m/s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from hikone_carrom.match import IllegalShotError, Shot

__all__ = ["HintFormatError", "HintUse", "hint_problem", "hints_of"]


class HintFormatError(ValueError):
    """A ``hints`` entry that is not a hint (the codec turns it into a RecordFormatError)."""


@dataclass(frozen=True)
class HintUse:
    """A hint a player asked for.

    Attributes:
        before: actions played before it was asked (it is for action ``before + 1``).
        seat: the seat that asked, the seat to shoot then.
        shot: the shot the expert suggested (x, y m; angle rad; speed m/s).
        kind: the kind of shot suggested ("direct", "bank", ...; ``None`` if unknown).
    """

    before: int
    seat: int
    shot: Shot
    kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "before": self.before,
            "seat": self.seat,
            "shot": self.shot.to_dict(),
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: Any) -> HintUse:
        """Rebuild from :meth:`to_dict` output; raises :class:`HintFormatError`."""
        if not isinstance(data, dict):
            raise HintFormatError("a hint must be an object")
        unknown = sorted(set(data) - {"before", "seat", "shot", "kind"})
        if unknown:
            raise HintFormatError(f"a hint has unknown keys {unknown}")
        before, seat, kind = data.get("before"), data.get("seat"), data.get("kind")
        for name, value in (("before", before), ("seat", seat)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise HintFormatError(f"a hint's {name!r} must be an integer >= 0")
        if kind is not None and not isinstance(kind, str):
            raise HintFormatError("a hint's 'kind' must be a string or null")
        try:
            shot = Shot.from_dict(data.get("shot"))
        except (IllegalShotError, TypeError, ValueError) as err:
            raise HintFormatError(f"a hint's 'shot' is not a shot: {err}") from err
        assert isinstance(before, int) and isinstance(seat, int)
        return cls(before, seat, shot, kind)


def hints_of(data: Any) -> list[HintUse]:
    """The hints of a decoded record (none if it has no ``hints`` key), in order of play.

    Raises:
        HintFormatError: ``hints`` is not a list of hints in order of play.
    """
    raw = data.get("hints", []) if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise HintFormatError("'hints' must be a list")
    hints = [HintUse.from_dict(entry) for entry in raw]
    if any(a.before > b.before for a, b in pairwise(hints)):
        raise HintFormatError("'hints' must be in order of play")
    return hints


def hint_problem(hint: HintUse, shooters: Sequence[int | None]) -> str | None:
    """Why a hint cannot belong to a game whose shooter before action ``k + 1`` was
    ``shooters[k]`` (``None`` once it was over), or ``None`` if it can."""
    if hint.before >= len(shooters):
        return f"a hint before action {hint.before + 1}, but the game has {len(shooters) - 1}"
    shooter = shooters[hint.before]
    if shooter is None:
        return f"a hint after the end of the game (before action {hint.before + 1})"
    if shooter != hint.seat:
        return (
            f"a hint for seat {hint.seat} before action {hint.before + 1}, "
            f"but seat {shooter} was to shoot"
        )
    return None
