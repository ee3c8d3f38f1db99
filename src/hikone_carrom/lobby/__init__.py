"""Finding an opponent without a link: who waits for a game, and which waiting players are
paired into one room (pure Python, no I/O; the server's lobby, ``server/lobby``, serves it)."""

from hikone_carrom.lobby.pairing import (
    BASE_RANGE,
    RANGE_GROWTH_PER_S,
    Pairing,
    Seeker,
    pair,
    rating_range,
)

__all__ = ["BASE_RANGE", "RANGE_GROWTH_PER_S", "Pairing", "Seeker", "pair", "rating_range"]
