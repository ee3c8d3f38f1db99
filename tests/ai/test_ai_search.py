"""The expert's search stages: break fans, noisy screening, rollouts of the next shot, and the
layout a simulated shot leaves (the same as the match's, R6e)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from ai_helpers import scrambled_match

from hikone_carrom.ai import (
    BASE_NOISE,
    GREEDY,
    LEVELS,
    CandidateBudget,
    NoiseModel,
    ShotKind,
    TableView,
    generate,
    make_player,
    search,
)
from hikone_carrom.ai.levels import CLASSIC, CLASSIC_EXPERT
from hikone_carrom.ai.outcomes import execute, layout_after, report_keys, run_shots
from hikone_carrom.ai.players import LATE_TARGETS, SearchPlayer
from hikone_carrom.ai.search import _REFINE_ANGLES, _REFINE_SPEEDS, REFINE_ROUNDS
from hikone_carrom.ai.value import Judge
from hikone_carrom.match import Match
from hikone_carrom.physics import Disk

EXPERT = CLASSIC_EXPERT.search
"""The classic expert's search: every stage these tests check (the raced expert, level 6, races
its shortlist instead of equal draws: tests/ai/test_ai_racing.py)."""
LATE = CLASSIC_EXPERT.late_search
WEIGHTS = CLASSIC_EXPERT.weights


def _rng(seed: int = 3) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


def _same_layout(a: Sequence[Disk], b: Sequence[Disk]) -> bool:
    ka, kb = sorted(a, key=lambda d: d.id), sorted(b, key=lambda d: d.id)
    if [(d.id, d.layer) for d in ka] != [(d.id, d.layer) for d in kb]:
        return False
    return all(math.hypot(p.x - q.x, p.y - q.y) < 1e-9 for p, q in zip(ka, kb, strict=True))


def test_break_fan_turns_each_line_by_the_spread() -> None:
    view = TableView.of_match(scrambled_match(2, seed=4, shots=3))
    base = CandidateBudget(placements=5, arrivals=(), breaks=True)
    fan = replace(base, break_spread=(-0.06, 0.0, 0.06), break_speeds=(2.0, 3.0, 4.5))
    plain = [c for c in generate(view, base) if c.kind is ShotKind.BREAK]
    wide = [c for c in generate(view, fan) if c.kind is ShotKind.BREAK]
    assert plain and len(wide) == len(plain) // 2 * 3 * 3
    assert {round(c.speed, 6) for c in wide} == {2.0, 3.0, 4.5}
    # Each (placement, group) line is fanned: the middle shot has the plain angle.
    plain_angles = {(round(c.x, 9), round(c.y, 9), round(c.angle, 9)) for c in plain}
    middles = wide[3::9]
    assert all((round(c.x, 9), round(c.y, 9), round(c.angle, 9)) in plain_angles for c in middles)
    for left, mid in zip(wide[0::9], wide[3::9], strict=True):
        turn = math.remainder(mid.angle - left.angle, 2.0 * math.pi)
        assert math.isclose(turn, 0.06, abs_tol=1e-9)


def test_screening_and_rollouts_simulate_more_and_stay_deterministic() -> None:
    view = TableView.of_match(scrambled_match(2, seed=8, shots=6))
    plain = replace(EXPERT, screen_draws=0, rollouts=0, rollout_draws=0)
    quick = search(view, plain, WEIGHTS, BASE_NOISE, _rng())
    full = search(view, EXPERT, WEIGHTS, BASE_NOISE, _rng())
    again = search(view, EXPERT, WEIGHTS, BASE_NOISE, _rng())
    assert full == again
    assert full.simulated > quick.simulated + full.candidates * EXPERT.screen_draws
    assert view.placement.contains(full.shot[0], full.shot[1])
    assert 0.0 < full.shot[3] <= view.board.max_speed


def test_expert_search_with_an_exact_hand_skips_sampling() -> None:
    view = TableView.of_match(scrambled_match(2, seed=2, shots=5))
    found = search(view, replace(EXPERT, sweep=None), WEIGHTS, NoiseModel(), _rng())
    assert found.simulated < found.candidates + 40 * EXPERT.rollouts
    assert view.placement.contains(found.shot[0], found.shot[1])


def test_layout_after_is_the_layout_the_match_leaves() -> None:
    """For shots played through Match.play (no fly-off draws), the search's layout is the same."""
    checked = 0
    for seed in range(6):
        match = Match(players=2, seed=seed, fly_off=False)
        player = make_player("random", seed=seed, noise_scale=1.0)
        for _ in range(10):
            if match.is_over:
                break
            decision = player.decide(match)
            view = TableView.of_match(match)
            shot = decision.shot
            executed = execute(
                view.placement,
                (shot.x, shot.y, shot.angle, shot.speed),
                decision.noise,
                view.board.max_speed,
            )
            batch = run_shots(view, np.array([executed]), [0], fly_off=False)
            ruling = Judge(view.state, view.color).judge(report_keys(view, batch)[0]).ruling
            expected = layout_after(view, batch, 0, ruling)
            match.play(shot, decision.noise)
            assert _same_layout(match.layout, expected)
            checked += 1
    assert checked >= 30


def _endgame_view(red_left: int, green_left: int) -> TableView:
    """Red (seat 0) to shoot with ``red_left`` of its pucks on the board and green with
    ``green_left``; the others pocketed (R6b: with none left red may pocket the jack)."""
    match = Match(players=2, seed=5)
    red = [d for d in match.layout if d.id.startswith("R")][:red_left]
    green = [d for d in match.layout if d.id.startswith("G")][:green_left]
    jack = [d for d in match.layout if d.id == "J"]
    state = replace(
        match.referee.state,
        pocketed=(12 - red_left, 12 - green_left),
        has_shot=(True, True),
        shots=40,
    )
    return TableView.build(match.board, 2, 0, state, [*red, *green, *jack])


def test_jack_budget_adds_jack_shots_screened_under_more_draws() -> None:
    view = _endgame_view(0, 2)
    assert view.jack_allowed
    expert = EXPERT  # the early budget, though only the jack is left
    plain = replace(expert, jack_candidates=None, jack_screen_draws=0)
    assert expert.jack_candidates is not None
    found = search(view, expert, WEIGHTS, BASE_NOISE, _rng())
    base = search(view, plain, WEIGHTS, BASE_NOISE, _rng())
    assert found == search(view, expert, WEIGHTS, BASE_NOISE, _rng())
    extra = len(generate(view, expert.jack_candidates))
    assert extra > 0 and found.candidates == base.candidates + extra
    assert found.simulated >= found.candidates * expert.jack_screen_draws
    # The chosen shot (a jack shot, or a swept one) wins when played as meant (R6b, R7a).
    assert found.candidate.kind in (ShotKind.JACK, ShotKind.SWEEP)
    as_meant = run_shots(view, np.array([found.shot]), np.array([1]), True)
    assert Judge(view.state, view.color).judge(report_keys(view, as_meant)[0]).won
    assert view.placement.contains(found.shot[0], found.shot[1])
    assert 0.0 < found.shot[3] <= view.board.max_speed
    # Not in the jack phase the jack budget changes nothing.
    mid = _endgame_view(3, 2)
    same = search(mid, plain, WEIGHTS, BASE_NOISE, _rng())
    assert search(mid, expert, WEIGHTS, BASE_NOISE, _rng()) == same


def test_late_budget_applies_once_few_targets_are_left_R6b() -> None:
    """The expert's late search takes over with at most ``LATE_TARGETS`` targets left: its last
    own pucks, or the jack once every own puck is down (R6b), duel or alone."""
    assert LATE is not None and LATE.sweep is not None and EXPERT.sweep is not None
    assert LATE.sweep.step < EXPERT.sweep.step and LATE.screen_draws > EXPERT.screen_draws
    for solo in (False, True):
        player = make_player(CLASSIC, solo=solo)
        assert isinstance(player, SearchPlayer)
        for red_left in (5, 4, 3, 1, 0):
            view = _endgame_view(red_left, 6)
            assert len(view.targets()) == max(red_left, 1)
            late = len(view.targets()) <= LATE_TARGETS
            assert player.config_for(view) is (LATE if late else EXPERT)
    assert [make_player(n).config_for(_endgame_view(1, 6)) for n in (5, "greedy")] == [
        LEVELS[5].search,
        GREEDY,
    ]


def test_deny_weighs_the_next_shot_of_an_opponent_close_to_winning() -> None:
    from hikone_carrom.ai.search import _Search

    shot = np.array([0.0, -0.21, math.pi / 2, 0.3])
    draws = BASE_NOISE.draw_many(_rng(1), 4)
    turns = []
    for green_left, deny in ((1, 0.0), (1, 2.0), (5, 0.0), (5, 2.0)):
        view = _endgame_view(4, green_left)
        weights = replace(WEIGHTS, opponent_near_win=deny)
        found = _Search(view, EXPERT, weights, BASE_NOISE, _rng(), True)
        turns.append(found.rollout_turns(shot, draws))
    assert turns[0][0] == turns[1][0] and turns[2] == turns[3]
    assert math.isclose(turns[1][1], 3.0 * turns[0][1])


def test_solo_weights_count_only_own_pucks_and_charge_a_passed_strike() -> None:
    from hikone_carrom.ai.search import _Search

    view = _endgame_view(4, 3)
    duel, solo = WEIGHTS, LEVELS[6].alone
    red_and_green_in = (1, 1, 0, 0, 0, 0, 0, 0, 0, 0)  # R3a success with a service puck (R3b)
    nothing_in = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    vs = Judge(view.state, view.color, duel)
    alone = Judge(view.state, view.color, solo)
    assert vs.judge(red_and_green_in).gain == 0.0 and alone.judge(red_and_green_in).gain == 1.0
    assert alone.judge(red_and_green_in).mine_next
    # A passed turn: in a duel the opponent's next shot costs; alone only the strike does, and
    # the next shot's value (that of the layout the shot leaves as meant) is not regained.
    assert vs.value(vs.judge(nothing_in), 0.5, 2.0) == -2.0 + duel.ours_after_pass * 0.5
    assert alone.value(alone.judge(nothing_in), 0.5, 2.0) == -solo.next_shot
    assert alone.value(alone.judge(red_and_green_in), 0.5, 2.0) == 1.0 + 0.5
    # Alone, the rollout values our next shot only (the other seat never shoots).
    shot = np.array([0.0, -0.21, math.pi / 2, 0.3])
    draws = BASE_NOISE.draw_many(_rng(1), 4)
    with_rival = _Search(view, EXPERT, duel, BASE_NOISE, _rng(), True)
    without = _Search(view, EXPERT, solo, BASE_NOISE, _rng(), True)
    mine, theirs = without.rollout_turns(shot, draws)
    rival_mine, rival_theirs = with_rival.rollout_turns(shot, draws)
    assert theirs == 0.0 < rival_theirs and mine == rival_mine


def test_jack_foul_costs_more_than_its_five_pucks_R5b_R5d_R6a() -> None:
    # Red with 4 pucks on the board; the jack pocketed with one of them (R5b), or alone off
    # the board (R5d), or with red's last puck (R6a): each counts 5 (R5h) and the expert
    # charges ``jack_foul_cost`` more; the striker pocketed (R5a) counts its 1 only.
    weights = WEIGHTS
    assert weights.jack_foul_cost > 0.0
    four, last = _endgame_view(4, 3), _endgame_view(1, 3)
    cases = (
        (four, (1, 0, 1, 0, 0, 0, 0, 0, 0, 0), True, "R5b"),
        (four, (0, 0, 0, 0, 0, 1, 0, 0, 0, 0), True, "R5d"),
        (last, (1, 0, 1, 0, 0, 0, 0, 0, 0, 0), True, "R6a"),
        (four, (1, 0, 0, 0, 0, 0, 1, 0, 0, 0), False, "R5a"),
    )
    for view, key, jack, rule in cases:
        judge = Judge(view.state, view.color, weights)
        plain = Judge(view.state, view.color, replace(weights, jack_foul_cost=0.0))
        j = judge.judge(key)
        assert j.jack_foul is jack and rule in j.ruling.reasons + tuple(
            f.rule_id for f in j.ruling.fouls
        )
        extra = weights.jack_foul_cost if jack else 0.0
        assert judge.value(j, 0.5, 1.0) == plain.value(plain.judge(key), 0.5, 1.0) - extra


def test_solo_penalty_costs_what_a_success_would_be_worth_R5a_R5c_R5h() -> None:
    # Alone on the board a penalty's pucks go back to the jack spot (R5h) to be pocketed again:
    # beyond its count the expert charges ``penalty_cost`` times a success's worth over a
    # passed turn, which is a puck and our next shot, or the win once the jack may be pocketed
    # (R6b).
    solo = LEVELS[6].alone
    assert solo.penalty_cost == 1.0 and WEIGHTS.penalty_cost == 0.0  # duels: the count only
    alone = [make_player(p, solo=True) for p in (6, "greedy", 3)]
    assert [p.weights.penalty_cost for p in alone if isinstance(p, SearchPlayer)] == [1.0, 0, 0]
    miss = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    striker_in = (0, 0, 0, 0, 0, 0, 1, 0, 0, 0)  # R5a
    striker_off = (0, 0, 0, 0, 0, 0, 0, 1, 0, 0)  # R5c
    pot_and_striker_in = (1, 0, 0, 0, 0, 0, 1, 0, 0, 0)  # the pocketed puck goes back (R5h)
    for view, success in ((_endgame_view(4, 3), 1.0 + 0.5), (_endgame_view(0, 3), solo.win)):
        judge = Judge(view.state, view.color, solo)
        plain = Judge(view.state, view.color, replace(solo, penalty_cost=0.0))
        cost = success + solo.passed_turn_cost
        for key in (striker_in, striker_off, pot_and_striker_in):
            if view.jack_allowed and key[0]:
                continue  # no own puck left to pocket
            j = judge.judge(key)
            assert j.ruling.penalty == 1 and not j.mine_next
            assert judge.value(j, 0.5, 1.0) == plain.value(plain.judge(key), 0.5, 1.0) - cost
        assert judge.value(judge.judge(miss), 0.5, 1.0) == -solo.passed_turn_cost  # no penalty
        # Averaged over draws the same: per candidate, its own next-shot value.
        keys = np.array([[striker_in, miss], [miss, miss]])
        turns = np.array([[0.5, 1.0], [2.0, 1.0]])
        values = judge.mean_values(keys, turns)
        assert np.allclose(values, plain.mean_values(keys, turns) - [cost / 2.0, 0.0])


def test_final_draws_compare_refined_shots_on_fresh_draws() -> None:
    view = TableView.of_match(scrambled_match(2, seed=8, shots=6))
    without = replace(EXPERT, final_draws=0)
    with_final = replace(without, final_draws=64)
    found = search(view, with_final, WEIGHTS, BASE_NOISE, _rng())
    assert found == search(view, with_final, WEIGHTS, BASE_NOISE, _rng())
    base = search(view, without, WEIGHTS, BASE_NOISE, _rng())
    # The final stage simulates every refined shot and its start under the fresh draws.
    assert found.simulated == base.simulated + 2 * without.refined * 64
    # An exact hand has nothing to draw: the final stage is skipped.
    exact = NoiseModel()
    same = search(view, without, WEIGHTS, exact, _rng())
    assert search(view, with_final, WEIGHTS, exact, _rng()) == same


def test_solo_clear_players_play_alone() -> None:
    alone = make_player(6, seed=1, solo=True)
    assert isinstance(alone, SearchPlayer) and alone.weights.opponent_share == 0.0
    greedy = make_player("greedy", solo=True)
    assert isinstance(greedy, SearchPlayer) and greedy.weights.passed_turn_cost > 0.0
    duel = make_player(6, seed=1)
    assert isinstance(duel, SearchPlayer) and duel.weights == WEIGHTS


def test_refinement_turns_and_speeds_a_candidate_and_never_loses_value() -> None:
    view = TableView.of_match(scrambled_match(2, seed=8, shots=6))
    exact = NoiseModel()
    unrefined = search(view, replace(EXPERT, refined=0), WEIGHTS, exact, _rng())
    refined = search(view, EXPERT, WEIGHTS, exact, _rng())
    assert refined == search(view, EXPERT, WEIGHTS, exact, _rng())
    # An exact hand: each refinement starts from its candidate's own as-meant value.
    assert refined.value >= unrefined.value
    assert refined.simulated > unrefined.simulated
    # The chosen shot is a generated candidate turned by at most the steps' sum, its speed
    # changed by at most theirs, its placement unchanged.
    rounds = sum(0.5**k for k in range(REFINE_ROUNDS))
    turn = math.radians(max(abs(a) for a in _REFINE_ANGLES) * rounds)
    change = max(abs(s) for s in _REFINE_SPEEDS) * rounds
    _, _, angle, speed = refined.shot
    chosen = replace(refined.candidate, angle=0.0, speed=0.0)
    near = [
        c
        for c in generate(view, EXPERT.candidates)
        if replace(c, angle=0.0, speed=0.0) == chosen
        and abs(math.remainder(angle - c.angle, 2.0 * math.pi)) <= turn + 1e-12
        and abs(speed / c.speed - 1.0) <= change + 1e-12
    ]
    assert near
