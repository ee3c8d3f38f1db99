// The pad refuses what the library refuses (scoring/tap.py Tap.from_dict, refereed.py
// SheetLine.from_dict, RefereedMatch.undo and correct), with the library's sentences in both
// languages: the server would refuse the entry anyway, the referee must see why at once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PadMatch, makeEntry, makeSetup, makeTap } from "../../src/hikone_carrom/web/js/pad/match.js";
import { RulesError } from "../../src/hikone_carrom/web/js/pad/referee.js";

/**
 * @param {() => unknown} fn
 * @param {string} code
 * @param {string} en
 * @param {string} ja
 */
function refused(fn, code, en, ja) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RulesError, `not a RulesError: ${e}`);
    assert.deepEqual([e.code, e.en, e.ja], [code, en, ja]);
    return true;
  });
}

/** A match with one shot entered. */
function oneShot() {
  const m = new PadMatch(makeSetup({ names: ["A", "B"] }));
  m.add({ kind: "shot", tap: makeTap(), at: null });
  return m;
}

test("a flag of a tap is yes or no, not a string", () => {
  refused(() => makeTap(/** @type {any} */ ({ jack: "yes" })), "bad_tap", "Jack pocketed must be yes or no", "ジャックのポケットは「はい」か「いいえ」です");
  const m = oneShot();
  refused(() => m.add(/** @type {any} */ ({ kind: "shot", tap: { jack: "yes" }, at: null })), "bad_tap", "Jack pocketed must be yes or no", "ジャックのポケットは「はい」か「いいえ」です");
  assert.equal(m.steps.length, 1);
});

test("unknown tap fields and unknown entry fields are refused, named in order", () => {
  refused(() => makeTap(/** @type {any} */ ({ red: 1, blue: 2, aa: 1 })), "bad_tap", "unknown tap fields: aa, blue", "不明なタップの項目: aa, blue");
  refused(() => makeEntry({ kind: "shot", tap: {}, who: 1 }), "bad_entry", "unknown entry fields: who", "不明な入力の項目: who");
});

test("a count of a tap is a whole number, named as the library names it", () => {
  refused(() => makeTap(/** @type {any} */ ({ red: 1.5 })), "bad_tap", "Red pucks pocketed must be a whole number, not 1.5", "ポケットに入った赤のパックは整数で入力してください（1.5 は不可）");
  refused(() => makeTap({ green: 13 }), "bad_tap", "Green pucks pocketed: 13 is more than the 12 pucks of a colour (R1a)", "ポケットに入った緑のパック：13個は1色の12個を超えています（R1a）");
});

test("a lot is won by red or green, not blue (R7d)", () => {
  refused(() => makeEntry({ kind: "lot", winner: "blue", at: null }), "bad_entry", "the winner must be red or green, not 'blue'", "勝った色は赤か緑です（'blue' は不可）");
});

test("an entry's match time is seconds >= 0, not a string", () => {
  refused(() => makeEntry({ kind: "shot", tap: {}, at: "12" }), "bad_entry", "the entry's match time must be seconds >= 0, not '12'", "入力の試合時間は0秒以上で指定してください（'12' は不可）");
  assert.deepEqual(makeEntry({ kind: "shot", tap: { red: 2 } }), { kind: "shot", at: null, tap: makeTap({ red: 2 }) });
});

test("undo takes a number of entries >= 1: undo(0) and undo(-1) are refused and change nothing", () => {
  const m = oneShot();
  refused(() => m.undo(0), "correction", "undo takes a number of entries >= 1, not 0", "取り消す入力の数は1以上です（0 は不可）");
  refused(() => m.undo(-1), "correction", "undo takes a number of entries >= 1, not -1", "取り消す入力の数は1以上です（-1 は不可）");
  assert.equal(m.steps.length, 1);
});

test("correct(1.5) is refused like any entry that is not there", () => {
  const m = oneShot();
  const shot = { kind: "shot", tap: makeTap({ red: 1 }), at: null };
  refused(() => m.correct(1.5, /** @type {any} */ (shot)), "correction", "there is no entry 1.5 to correct (1..1)", "訂正する1.5番目の入力はありません（1〜1）");
  refused(() => m.correct(2, /** @type {any} */ (shot)), "correction", "there is no entry 2 to correct (1..1)", "訂正する2番目の入力はありません（1〜1）");
  assert.equal(m.steps[0].entry.tap?.red, 0);
});

test("a player's name with a control character, < >, or a bidirectional override is refused", () => {
  for (const name of ["A\u202eB", "A\u2066B", "A<B", "A\u0007B", "A\u007fB"]) {
    assert.throws(() => makeSetup({ names: [name, "B"] }), (e) => e instanceof RulesError && e.code === "bad_setup", name);
  }
  assert.doesNotThrow(() => makeSetup({ names: ["髙﨑 =A & 'B'", "B"] }));
});
