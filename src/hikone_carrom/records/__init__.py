"""Match records (versioned JSON, docs/record-format.md) and replays.

from hikone_carrom.records import to_record, write, read, replay
write("game.json", to_record(match))
replay(read("game.json"))        # re-simulates and checks every ruling and layout hash
write("pad.json", refereed_record(refereed_match))   # a real board's match (hikone_carrom.scoring)
"""

from hikone_carrom.records.codec import (
    FORMAT,
    MAX_BYTES,
    MAX_DEPTH,
    RULES_VERSION,
    VERSION,
    RecordFormatError,
    board_from_dict,
    dump,
    layout_hash,
    load,
    read,
    to_record,
    writable,
    write,
)
from hikone_carrom.records.hints import HintUse
from hikone_carrom.records.refereed import REFEREED, refereed_record
from hikone_carrom.records.replay import Game, ReplayError, ReplayStep, iter_replay, replay

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "REFEREED",
    "RULES_VERSION",
    "VERSION",
    "Game",
    "HintUse",
    "RecordFormatError",
    "ReplayError",
    "ReplayStep",
    "board_from_dict",
    "dump",
    "iter_replay",
    "layout_hash",
    "load",
    "read",
    "refereed_record",
    "replay",
    "to_record",
    "writable",
    "write",
]
