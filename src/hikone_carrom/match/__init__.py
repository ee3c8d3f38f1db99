"""Match play: the referee and the physics joined into games people and programs can play.

from hikone_carrom.match import Match, Shot
m = Match(players=2, seed=1)
p = m.legal_placement()                  # R2a: the tee spot on a first shot
res = m.play(Shot(*p.point, angle=math.pi / 2, speed=4.0))
res.ruling.continues                     # R3a

Errors (each a ValueError with English and Japanese messages; see :mod:`.errors`):
IllegalShotError (GameOverShotError, LotPendingShotError, NoPlacementError), IllegalLayoutError,
and the referee's RulesError subclasses (NothingToUndoError, UntimedMatchError, ...).
"""

from hikone_carrom.match.errors import (
    GameOverShotError,
    IllegalLayoutError,
    IllegalShotError,
    LotPendingShotError,
    NoPlacementError,
)
from hikone_carrom.match.game import (
    Action,
    ActionKind,
    Match,
    PlayResult,
    layout_to_dict,
    shot_seed,
    shot_seeds,
)
from hikone_carrom.match.hand import hand_moved
from hikone_carrom.match.placement import Placement, PlacementKind, legal_placement
from hikone_carrom.match.shot import Noise, Shot

__all__ = [
    "Action",
    "ActionKind",
    "GameOverShotError",
    "IllegalLayoutError",
    "IllegalShotError",
    "LotPendingShotError",
    "Match",
    "NoPlacementError",
    "Noise",
    "Placement",
    "PlacementKind",
    "PlayResult",
    "Shot",
    "hand_moved",
    "layout_to_dict",
    "legal_placement",
    "shot_seed",
    "shot_seeds",
]
