"""The pad's own copy of the referee (web/js/pad/referee.js, match.js), which rules offline,
gives exactly the rulings, sentences (ja/en) and refusals of the library's referee on random
refereed matches (hypothesis), run in the real Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page

from hikone_carrom.rules import Color, RulesError
from hikone_carrom.scoring import MatchSetup, RefereedMatch, SheetLine, Tap
from hikone_carrom.server.pads.views import match_view

pytestmark = [pytest.mark.e2e]

RUN = """async ([setup, entries, correction]) => {
  const { PadMatch, makeSetup } = await import('/static/js/pad/match.js');
  const m = new PadMatch(makeSetup(setup));
  const refused = [];
  entries.forEach((e, i) => {
    try { m.add(e); } catch (err) { refused.push([i, err.en, err.ja]); }
  });
  let corrected = null;
  if (correction) {
    try { m.correct(correction[0], correction[1]); corrected = 'ok'; }
    catch (err) { corrected = [err.en, err.ja]; }
  }
  return { view: m.view(1, null), refused, corrected };
}"""


@pytest.fixture(scope="module")
def pad_page(browser: Browser, server_url: str) -> Iterator[Page]:
    page = browser.new_page()
    page.goto(f"{server_url}/api/health")
    yield page
    page.close()


counts = st.integers(0, 5)
taps = st.builds(
    Tap,
    red=counts,
    green=counts,
    jack=st.booleans(),
    red_off=st.integers(0, 2),
    green_off=st.integers(0, 2),
    striker_pocketed=st.booleans(),
    touched_striker=st.booleans(),
    unshootable_hit=st.booleans(),
    wrong_order_seat=st.one_of(st.none(), st.integers(0, 3)),
)
entries = st.lists(
    st.one_of(
        taps.map(SheetLine.shot),
        taps.map(SheetLine.shot),
        st.just(SheetLine.shot(Tap())),
        st.just(SheetLine.skip(12.5)),
        st.just(SheetLine.call_time(30.0)),
        st.sampled_from([Color.RED, Color.GREEN]).map(SheetLine.lot),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.sampled_from([2, 4]),
    timed=st.booleans(),
    deadlock=st.sampled_from(["draw", "lot"]),
    plan=entries,
    fix_at=st.integers(0, 39),
    fix=taps,
)
def test_the_pads_referee_rules_exactly_as_the_library(
    pad_page: Page,
    players: int,
    timed: bool,
    deadlock: str,
    plan: list[SheetLine],
    fix_at: int,
    fix: Tap,
) -> None:
    names = ["田中", "佐藤", "山本", "鈴木"][:players]
    setup = MatchSetup(tuple(names), 300.0 if timed else None, deadlock)  # type: ignore[arg-type]
    match = RefereedMatch(setup)
    refused: list[list[Any]] = []
    for i, entry in enumerate(plan):
        try:
            match.add(entry)
        except RulesError as err:
            refused.append([i, err.en, err.ja])
    correction = None
    corrected: Any = None
    if match.steps:
        n = fix_at % len(match.steps) + 1
        correction = [n, SheetLine.shot(fix).to_dict()]
        try:
            match.correct(n, SheetLine.shot(fix))
            corrected = "ok"
        except RulesError as err:
            corrected = [err.en, err.ja]
    raw_setup = {"names": names, "match_time_s": setup.match_time_s, "deadlock": deadlock}
    got = pad_page.evaluate(RUN, [raw_setup, [e.to_dict() for e in plan], correction])
    assert got["refused"] == refused
    assert got["corrected"] == corrected
    assert got["view"] == match_view(match, 1, None)
