// A refereed match on the pad (web/js/pad/match.js): taps checked as scoring/tap.py does, the
// set-up filled in, and the steps recomputed from the entries after an undo or a correction.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PadMatch, isNoPocket, makeSetup, makeTap, stateView, stepView } from "../../src/hikone_carrom/web/js/pad/match.js";
import { DEFAULT_OPTIONS, RulesError } from "../../src/hikone_carrom/web/js/pad/referee.js";

/**
 * @param {Partial<import("../../src/hikone_carrom/web/js/pad/match.js").Tap>} fields
 * @returns {import("../../src/hikone_carrom/web/js/pad/match.js").Entry}
 */
const shot = (fields) => ({ kind: "shot", tap: makeTap(fields), at: null });

test("a tap is filled in with its defaults and checked", () => {
  const tap = makeTap({ red: 2 });
  assert.equal(tap.red, 2);
  assert.equal(tap.jack, false);
  assert.equal(tap.wrong_order_seat, null);
  assert.equal(isNoPocket(makeTap()), true);
  assert.equal(isNoPocket(tap), false);
  for (const bad of [{ red: 13 }, { green: -1 }, { red_off: 1.5 }, { jack: true, jack_off: true }, { striker_pocketed: true, striker_off: true }]) {
    assert.throws(() => makeTap(bad), (e) => e instanceof RulesError && e.code === "bad_tap");
  }
});

test("a set-up has 2 or 4 named players and every rule option", () => {
  const setup = makeSetup({ names: [" A ", "B"], options: { foul_voids_win: false } });
  assert.deepEqual(setup.names, ["A", "B"]);
  assert.equal(setup.match_time_s, 300);
  assert.deepEqual(setup.options, { ...DEFAULT_OPTIONS, foul_voids_win: false, match_time_s: 300, deadlock: "draw", refereed_fouls: true, first_seat: 0 });
  for (const bad of [{ names: ["A"] }, { names: ["A", "B", "C"] }, { names: ["A", ""] }, { names: ["A", "<b>"] }, { names: ["A", "B"], match_time_s: 0 }, { names: ["A", "B"], deadlock: "coin" }]) {
    assert.throws(() => makeSetup(bad), (e) => e instanceof RulesError && e.code === "bad_setup");
  }
});

test("pocketing one's colour keeps the turn; a miss passes it; a pocketed striker costs a debt", () => {
  const m = new PadMatch(makeSetup({ names: ["A", "B"] }));
  assert.equal(m.add(shot({ red: 1 })).ruling.continues, true);
  assert.equal(m.state.shooter, 0);
  m.add(shot({}));
  assert.equal(m.state.shooter, 1);
  const foul = m.add(shot({ striker_pocketed: true }));
  assert.deepEqual([foul.seat, foul.ruling.fouls, foul.ruling.debt_added], [1, ["R5a"], 1]);
  const view = stateView(m.state);
  assert.deepEqual(view.scores, { red: 1, green: -1 });
  assert.equal(view.shooter, 0);
  const step = stepView(m.steps[2]);
  assert.deepEqual([step.n, step.kind, step.seat, step.turn], [3, "shot", 1, 1]);
});

test("an undo or a correction re-judges every entry after it", () => {
  const m = new PadMatch(makeSetup({ names: ["A", "B"] }));
  m.add({ ...shot({ red: 1 }), at: 5 });
  m.add(shot({}));
  m.add(shot({ green: 2 }));
  m.correct(1, shot({ red: 3 }));
  assert.deepEqual(stateView(m.state).scores, { red: 3, green: 2 });
  assert.equal(m.steps[0].entry.at, 5); // the corrected entry keeps its time
  assert.deepEqual(m.undo(2).map((e) => e.tap?.green), [0, 2]);
  assert.equal(m.state.shooter, 0);
  assert.throws(() => m.undo(2), (e) => e instanceof RulesError && e.code === "correction");
  // a correction that makes a later entry impossible changes nothing
  m.add(shot({ red: 9 }));
  assert.throws(() => m.correct(1, shot({ red: 4 })), (e) => e instanceof RulesError && e.code === "correction");
  assert.equal(stateView(m.state).pocketed.red, 12);
});

test("an unfinished match cannot be confirmed; a confirmed one cannot change", () => {
  const m = new PadMatch(makeSetup({ names: ["A", "B"] }));
  assert.throws(() => m.confirm(), (e) => e instanceof RulesError && e.code === "not_over");
  const done = new PadMatch(m.setup, [], true);
  assert.throws(() => done.add(shot({})), (e) => e instanceof RulesError && e.code === "confirmed");
});

test("an untimed match has no time call", () => {
  const m = new PadMatch(makeSetup({ names: ["A", "B"], match_time_s: null }));
  assert.throws(() => m.add({ kind: "call_time", at: null }), (e) => e instanceof RulesError && e.code === "untimed");
});

test("R8a: an untimed match has no lost shot either; a timed one loses a shot only in the last minute", () => {
  const untimed = new PadMatch(makeSetup({ names: ["A", "B"], match_time_s: null }));
  assert.throws(() => untimed.add({ kind: "skip", at: null }), (e) => e instanceof RulesError && e.code === "untimed" && e.en.includes("(R8a)"));
  const m = new PadMatch(makeSetup({ names: ["A", "B"] }));
  assert.throws(() => m.add({ kind: "skip", at: 10 }), (e) => e instanceof RulesError && e.code === "clock" && e.en === "the 10-second rule applies only in the last minute (R8a)" && e.ja === "10秒ルールは残り1分からです（R8a）");
  assert.equal(m.steps.length, 0);
  assert.equal(m.add({ kind: "skip", at: 240 }).ruling.skipped, true);
  m.add({ kind: "call_time", at: 300 });
  assert.equal(m.add({ kind: "skip", at: null }).ruling.skipped, true);
});
