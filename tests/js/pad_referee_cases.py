"""Random matches and what the library makes of them: the cases of the pad's referee parity test.

Python is the reference: every case carries the library's answer to each of its events, and
tests/js/pad_referee_parity.test.mjs checks that the pad's referee (web/js/pad/referee.js) and
match (match.js) give exactly the same. Two kinds of case:

- ``referee``: the referee's transitions (rules/transitions.py) under random values of every rule
  option the pad's referee reads, singles and doubles; per event the refusal, or the whole state,
  the scores (R7b), the ruling and its sentences (ja/en).
- ``matches``: refereed matches on the pad (scoring/refereed.py) with random set-ups (players,
  match time, deadlock, the other options) and entries, then one correction; the refusals and the
  whole match as the server shows it (server/pad_views.match_view).

``python tests/js/pad_referee_cases.py [--seed N]`` prints the cases as JSON (the Node test runs
it when it is not given a file).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from hikone_carrom.rules import (
    Color,
    Foul,
    Piece,
    RefereeState,
    RuleOptions,
    RulesError,
    Ruling,
    ShotReport,
    explain,
    explain_outcome,
    transitions,
)
from hikone_carrom.scoring import MAX_COUNT, MatchSetup, RefereedMatch, SheetLine, Tap
from hikone_carrom.server.pads.views import match_view

SEED = 44
REFEREE_CASES = 800
MATCH_CASES = 200


def random_options(rng: random.Random, players: int) -> RuleOptions:
    """Random values of every option the pad's referee reads."""
    return RuleOptions(
        first_seat=rng.randrange(players),
        unshootable_penalty=rng.choice((0, 0, 1, 2, 5)),
        penalties_add_up=rng.random() < 0.5,
        debt_payment_is_success=rng.random() < 0.5,
        foul_voids_win=rng.random() < 0.5,
        debt_counts_in_score=rng.random() < 0.5,
        deadlock=rng.choice(("draw", "lot")),
        max_extra_rounds=rng.choice((None, 0, 1, 2, 3)),
        refereed_fouls=rng.random() < 0.9,
        wrong_order_turn=rng.choice(("rightful", "after_offender")),
        match_time_s=rng.choice((None, 300.0)),
    )


def _some(rng: random.Random, most: int) -> int:
    """A count of pucks for one shot, mostly small, now and then more than there are."""
    if rng.random() < 0.02:
        return most + 1
    return min(most, rng.choice((0, 0, 0, 1, 1, 1, 2, 2, 3, 4)))


def random_report(rng: random.Random, state: RefereeState) -> ShotReport:
    """A shot as a referee could report it in ``state``, now and then an impossible one."""
    color = state.color(state.shooter)
    own_left = state.pucks_on_board(color)
    opp_left = state.pucks_on_board(color.opponent)
    own_in = _some(rng, own_left)
    opp_in = _some(rng, opp_left)
    own_off = 1 if own_left - own_in > 0 and rng.random() < 0.06 else 0
    opp_off = 1 if opp_left - opp_in > 0 and rng.random() < 0.06 else 0
    jack_in = rng.random() < (0.5 if own_left == own_in else 0.08)
    jack_off = (not jack_in or rng.random() < 0.05) and rng.random() < 0.04
    pocketed = [color.puck] * own_in + [color.opponent.puck] * opp_in + [Piece.JACK] * jack_in
    off = [color.puck] * own_off + [color.opponent.puck] * opp_off + [Piece.JACK] * jack_off
    rng.shuffle(pocketed)
    seat = None
    fouls: list[Foul] = []
    if rng.random() < 0.08:
        seat = rng.randrange(state.players + (1 if rng.random() < 0.1 else 0))
        if seat != state.shooter or rng.random() < 0.3:
            fouls.append(Foul.WRONG_ORDER)
    elif rng.random() < 0.01:
        fouls.append(Foul.WRONG_ORDER)
    if rng.random() < 0.06:
        fouls.append(Foul.TOUCHED_STRIKER)
    striker_in = rng.random() < 0.08
    return ShotReport(
        pocketed=tuple(pocketed),
        off_board=tuple(off),
        striker_pocketed=striker_in,
        striker_off_board=(not striker_in or rng.random() < 0.1) and rng.random() < 0.05,
        unshootable_hit=rng.random() < (0.05 if state.players == 4 else 0.01),
        fouls=tuple(fouls),
        seat=seat,
    )


def state_dict(state: RefereeState) -> dict[str, Any]:
    """Every field of the referee's state, as the pad's referee keeps it."""
    return {
        "players": state.players,
        "options": state.options.to_dict(),
        "shooter": state.shooter,
        "pocketed": list(state.pocketed),
        "debt": list(state.debt),
        "jack": None if state.jack is None else state.jack.value,
        "has_shot": list(state.has_shot),
        "shots": state.shots,
        "time_called": state.time_called,
        "extra_round": state.extra_round,
        "awaiting_lot": state.awaiting_lot,
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


def _judged(state: RefereeState, ruling: Ruling | None) -> dict[str, Any]:
    outcome = state.outcome
    scores = state.scores()
    return {
        "state": state_dict(state),
        "scores": {"red": scores[Color.RED], "green": scores[Color.GREEN]},
        "ruling": None if ruling is None else ruling.to_dict(),
        "explain": None
        if ruling is None
        else {"en": list(explain(ruling, "en")), "ja": list(explain(ruling, "ja"))},
        "outcome": None
        if outcome is None
        else {"en": explain_outcome(outcome, "en"), "ja": explain_outcome(outcome, "ja")},
    }


def _event(rng: random.Random, state: RefereeState) -> dict[str, Any]:
    if state.awaiting_lot and rng.random() < 0.8:
        return {"kind": "lot", "winner": rng.choice(("red", "green"))}
    roll = rng.random()
    if roll < (0.06 if not state.time_called else 0.005):
        return {"kind": "call_time"}
    skip = 0.14 if not state.time_called else 0.35  # lost shots keep a level game level
    if roll < skip:
        return {"kind": "skip"}
    if roll < skip + 0.02:
        return {"kind": "lot", "winner": rng.choice(("red", "green"))}
    return {"kind": "shot", "report": random_report(rng, state).to_dict()}


def referee_case(rng: random.Random) -> dict[str, Any]:
    """A random game through the referee's transitions, with the library's answer to each event."""
    players = rng.choice((2, 4))
    options = random_options(rng, players)
    state = RefereeState.initial(players, options)
    events: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []
    early_time = rng.random() < 0.25  # level at time: extra rounds and deadlocks (R7c, R7d)
    for k in range(rng.randint(1, 90)):
        event = {"kind": "call_time"} if early_time and k == 0 else _event(rng, state)
        try:
            ruling = None
            if event["kind"] == "shot":
                state, ruling = transitions.apply(state, ShotReport.from_dict(event["report"]))
            elif event["kind"] == "skip":
                state, ruling = transitions.skip_turn(state)
            elif event["kind"] == "call_time":
                state = transitions.call_time(state)
            else:
                state = transitions.decide_lot(state, Color(event["winner"]))
            expected.append(_judged(state, ruling))
        except RulesError as err:
            expected.append({"refused": {"en": err.en, "ja": err.ja}})
        events.append(event)
        if state.outcome is not None and rng.random() < 0.7:
            break
    return {
        "players": players,
        "options": options.to_dict(),
        "events": events,
        "expected": expected,
    }


def random_tap(rng: random.Random, state: RefereeState) -> Tap:
    """What a referee could tap for a shot in ``state`` (any tap the pad accepts)."""
    striker_in = rng.random() < 0.08
    jack = rng.random() < 0.12
    players = state.players
    return Tap(
        red=min(MAX_COUNT, _some(rng, state.pucks_on_board(Color.RED))),
        green=min(MAX_COUNT, _some(rng, state.pucks_on_board(Color.GREEN))),
        jack=jack,
        red_off=int(rng.random() < 0.05),
        green_off=int(rng.random() < 0.05),
        jack_off=not jack and rng.random() < 0.03,
        striker_pocketed=striker_in,
        striker_off=not striker_in and rng.random() < 0.04,
        touched_striker=rng.random() < 0.05,
        unshootable_hit=rng.random() < 0.04,
        wrong_order_seat=rng.randrange(players) if rng.random() < 0.06 else None,
    )


def _entry(rng: random.Random, match: RefereedMatch) -> SheetLine:
    state = match.state
    if state.awaiting_lot and rng.random() < 0.8:
        return SheetLine.lot(rng.choice((Color.RED, Color.GREEN)))
    roll = rng.random()
    if roll < (0.05 if not state.time_called else 0.005):
        return SheetLine.call_time(30.0)
    skip = 0.12 if not state.time_called else 0.35
    if roll < skip:
        return SheetLine.skip(rng.choice((250.0, 12.5)))  # in the last minute, or refused (R8a)
    if roll < skip + 0.02:
        return SheetLine.lot(rng.choice((Color.RED, Color.GREEN)))
    return SheetLine.shot(random_tap(rng, state))


def match_case(rng: random.Random) -> dict[str, Any]:
    """A random refereed match on the pad and one correction, with the library's answers."""
    players = rng.choice((2, 4))
    names = ["田中", "佐藤", "山本", "鈴木"][:players]
    options = random_options(rng, players)
    setup = MatchSetup(tuple(names), rng.choice((None, 300.0)), options.deadlock, options=options)
    match = RefereedMatch(setup)
    early_time = rng.random() < 0.25  # level at time: extra rounds and deadlocks (R7c, R7d)
    plan: list[SheetLine] = []
    refused: list[list[Any]] = []
    for i in range(rng.randint(0, 60)):
        entry = _entry(rng, match) if i or not early_time else SheetLine.call_time(0.0)
        try:
            match.add(entry)
        except RulesError as err:
            refused.append([i, err.en, err.ja])
        plan.append(entry)
        if match.is_over and rng.random() < 0.7:
            break
    correction = None
    corrected: Any = None
    if match.steps:
        n = rng.randrange(len(match.steps)) + 1
        fix = SheetLine.shot(random_tap(rng, match.steps[n - 1].before))
        correction = [n, fix.to_dict()]
        try:
            match.correct(n, fix)
            corrected = "ok"
        except RulesError as err:
            corrected = [err.en, err.ja]
    return {
        "setup": {
            "names": names,
            "match_time_s": setup.match_time_s,
            "deadlock": setup.deadlock,
            "options": options.to_dict(),
        },
        "entries": [e.to_dict() for e in plan],
        "correction": correction,
        "expected": {
            "refused": refused,
            "corrected": corrected,
            "view": match_view(match, 1, None),
        },
    }


def cases(
    seed: int = SEED, referee: int = REFEREE_CASES, matches: int = MATCH_CASES
) -> dict[str, Any]:
    """``referee`` referee cases and ``matches`` match cases from ``seed``."""
    rng = random.Random(seed)
    return {
        "seed": seed,
        "referee": [referee_case(rng) for _ in range(referee)],
        "matches": [match_case(rng) for _ in range(matches)],
    }


def main(argv: list[str] | None = None) -> int:
    """Print the cases as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--referee", type=int, default=REFEREE_CASES)
    parser.add_argument("--matches", type=int, default=MATCH_CASES)
    args = parser.parse_args(argv)
    json.dump(cases(args.seed, args.referee, args.matches), sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
