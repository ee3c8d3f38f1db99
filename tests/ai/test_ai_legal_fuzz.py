"""Every player returns legal shots in fuzzed situations, singles and doubles (R2a, R2b, R4)."""

from __future__ import annotations

from ai_helpers import ALL_PLAYERS, scrambled_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hikone_carrom.ai import NoLegalShotError, make_player
from hikone_carrom.match import Match


def _check_all(match: Match, seed: int) -> None:
    for name in ALL_PLAYERS:
        try:
            decision = make_player(name, seed=seed).decide(match)
        except NoLegalShotError:
            # Only when the area line really is covered everywhere.
            assert not match.legal_placement().free_intervals()
            continue
        shot = decision.shot
        match.check(shot)  # raises IllegalShotError if the placement or speed is illegal
        assert 0.0 < shot.speed <= match.board.max_speed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), shots=st.integers(0, 40), players=st.sampled_from([2, 4]))
def test_every_level_returns_legal_shots(seed: int, shots: int, players: int) -> None:
    match = scrambled_match(players, seed, shots)
    if not match.is_over:
        _check_all(match, seed)


def test_legal_shots_through_whole_doubles_games() -> None:
    """Levels play each other in doubles: every shot goes through Match.play's checks."""
    match = Match(players=4, seed=3)
    seats = [make_player(n, seed=s) for s, n in enumerate(("greedy", 3, "aim", 5))]
    for _ in range(60):
        if match.is_over:
            break
        decision = seats[match.shooter].decide(match)
        match.check(decision.shot)
        match.play(decision.shot, decision.noise)
    assert len(match.actions) > 0
