"""The golden refereed matches: scripts of entries, written as record files under golden/.

Regenerate the files (after a deliberate change of the format or of a ruling) with
``PYTHONPATH=src python tests/scoring/golden_matches.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scoring_helpers import FakeTime

from hikone_carrom.records import refereed_record, write
from hikone_carrom.rules import Color
from hikone_carrom.scoring import MatchSetup, RefereedMatch, Tap

GOLDEN = Path(__file__).with_name("golden")


def singles() -> RefereedMatch:
    """Untimed singles to a win (R7a) through R3a-R3d, R5a-R5j, R6a-R6e, a voided win (R6b)."""
    m = RefereedMatch(MatchSetup.singles("田中 一郎", "佐藤 花子", minutes=None, title="決勝"))
    m.shot(Tap(red=2))  # R3a
    m.shot(Tap(green=1))  # R3b service
    m.shot(Tap(green=2, red_off=1, green_off=1))  # green continues (R3c), R6c, R6d pile
    m.shot(Tap(striker_pocketed=True, green=1))  # R5a R5h: own puck back + 1 taken
    m.shot(Tap(striker_off=True))  # red: R5c taken from pockets
    m.shot(Tap(jack_off=True))  # green: R5d, debt (R5i), jack on top (R5j)
    m.shot(Tap(green=2))  # red pockets two greens: they pay green's debt (R5i)
    m.shot(Tap(red=1, green=1, touched_striker=True))  # R5f R5h, R6d pile
    m.shot(Tap(red=9))  # red continues
    m.shot(Tap(red=1, jack=True))  # R6a: last puck and jack -> R5b
    m.shot()
    m.shot(Tap(red=6))
    m.shot(Tap(jack=True, striker_pocketed=True))  # R6b: the win voided by R5a
    m.shot()
    m.shot(Tap(red=1))
    m.shot(Tap(jack=True, green=1))  # R6b R7a: red wins
    m.confirm()
    return m


def doubles() -> RefereedMatch:
    """Untimed doubles to a win: R4c restored, R5e out of turn, R5g, debt paid by the opponent."""
    m = RefereedMatch(MatchSetup.doubles(("田中", "山本"), ("佐藤", "鈴木"), minutes=None))
    m.shot(Tap(red=3))  # S continues
    m.shot(Tap(green=1, unshootable_hit=True))  # R4c: restored, nothing counts
    m.shot(Tap(green=2))  # W: service 2
    m.shot(Tap(wrong_order_seat=3, green=1))  # E shoots out of turn (R5e): W keeps the turn
    m.shot(Tap(striker_pocketed=True, jack_off=True))  # W: R5a + R5d add up (R5g)
    m.shot(Tap(green=2))  # N pockets greens: they pay green's debt (R5i)
    m.shot(Tap(red=9))  # E pockets reds: service
    m.shot(Tap(jack=True))  # S: all 12 red in: R6b R7a
    m.confirm()
    return m


def timed_doubles_lot() -> RefereedMatch:
    """5-minute doubles: R8a lost shots, time called (R7b), level -> R7c rounds -> R7d lot."""
    now = FakeTime()
    setup = MatchSetup.doubles(
        ("田中", "山本"), ("佐藤", "鈴木"), minutes=5, deadlock="lot", title="予選A 第3台"
    )
    m = RefereedMatch(setup, now=now)
    assert m.clock is not None
    m.clock.start()
    now.advance(20)
    m.shot(Tap(red=1))
    now.advance(20)
    m.shot()
    now.advance(25)
    m.shot(Tap(green=1))
    now.advance(30)
    m.shot()
    m.clock.pause()  # a referee's time-out
    now.advance(90)
    m.clock.resume()
    now.advance(160)  # 4:15 played
    m.clock.start_countdown()  # R8a in the last minute
    now.advance(10)
    m.tick()  # the 10 s ran out: a lost shot
    now.advance(5)
    m.shot()
    now.advance(30)
    m.tick()  # 5:00: time is called (R7b)
    for _ in range(4):  # the round is finished to the last seat (east)
        m.clock.start_countdown()
        now.advance(4)
        m.shot()
    for _ in range(4 * 3):  # three extra rounds, all level (R7c)
        m.shot()
    m.decide_lot(Color.GREEN)  # R7d
    m.confirm()
    return m


def timed_singles_extra_round() -> RefereedMatch:
    """5-minute singles: time called level, red leads after one extra round (R7c)."""
    now = FakeTime()
    m = RefereedMatch(MatchSetup.singles("田中", "佐藤", minutes=5), now=now)
    assert m.clock is not None
    m.clock.start()
    now.advance(100)
    m.shot(Tap(green=1))  # red gives green 1
    m.shot(Tap(red=1, green=0))  # green pockets a red: level 1-1
    now.advance(200)
    m.tick()  # time (R7b)
    m.shot()  # red
    m.shot()  # green ends the round level -> extra round (R7c)
    m.shot(Tap(red=1))
    m.shot()
    m.shot()  # green ends the extra round: red leads 2-1 (R7c)
    m.confirm()
    return m


MATCHES: dict[str, Callable[[], RefereedMatch]] = {
    "singles": singles,
    "doubles": doubles,
    "timed-doubles-lot": timed_doubles_lot,
    "timed-singles-extra-round": timed_singles_extra_round,
}


def main() -> None:
    """Write every golden record file."""
    GOLDEN.mkdir(exist_ok=True)
    for name, make in MATCHES.items():
        write(GOLDEN / f"{name}.json", refereed_record(make()))
        print(f"wrote {GOLDEN / name}.json")


if __name__ == "__main__":
    main()
