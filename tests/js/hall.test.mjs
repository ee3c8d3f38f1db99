// The hall's pure parts (web/js/hall-calls.js, web/js/hall-pages.js): the queue of recent calls,
// the spoken text of a call and the queue of announcements, the pages of board tiles.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CallWatch, PLAYING_KEPT_S, SpeechQueue, ageText, recentCalls, speechText,
} from "../../src/hikone_carrom/web/js/hall-calls.js";
import { TILE, pageItems, pageLayout, screens } from "../../src/hikone_carrom/web/js/hall-pages.js";

/** @param {string} match @param {number} board @param {string[]} sides */
const call = (match, board, sides = ["山田 太郎", "佐藤 花子"]) => ({
  match, board, sides, division: "GS", text: { ja: "", en: "" },
});
const T0 = Date.parse("2026-12-07T09:30:00Z");
/** @param {string} status @param {number} board @param {number} [calledMs] */
const state = (status, board, calledMs = T0) => ({ status, board, called_at: new Date(calledMs).toISOString() });

test("the queue lists the newest call of each match, waiting ones first to last, finished ones never", () => {
  const calls = [call("M4", 4), call("M3", 3), call("M2", 2), call("M1", 1), call("M4", 9)];
  const matches = new Map([
    ["M4", state("called", 4, T0 + 60_000)], ["M3", state("finished", 3)],
    ["M2", state("playing", 2)], ["M1", state("planned", 1)],
  ]);
  const q = recentCalls(calls, matches, T0 + 120_000, 8);
  assert.deepEqual(q.map((x) => [x.call.match, x.call.board, x.status]), [["M4", 4, "called"], ["M2", 2, "playing"]]);
  assert.deepEqual(q.map((x) => x.calledAt), [T0 + 60_000, T0]);
  assert.equal(recentCalls(calls, matches, T0, 1).length, 1);
});

test("a call under way leaves the queue after a while, a call still waiting never does", () => {
  const calls = [call("M2", 2), call("M1", 1)];
  const matches = new Map([["M2", state("called", 2)], ["M1", state("playing", 1)]]);
  const late = T0 + PLAYING_KEPT_S * 1000 + 1;
  assert.deepEqual(recentCalls(calls, matches, late, 8).map((x) => x.call.match), ["M2"]);
  assert.deepEqual(recentCalls(calls, matches, late - 2, 8).map((x) => x.call.match), ["M2", "M1"]);
});

test("a call's age reads in minutes", () => {
  assert.equal(ageText(5, "ja"), "たった今");
  assert.equal(ageText(59.9, "en"), "just now");
  assert.equal(ageText(185, "ja"), "3分前");
  assert.equal(ageText(60, "en"), "1 min ago");
});

test("a call is spoken as the hall says it, in Japanese and in English", () => {
  assert.equal(speechText(call("M1", 17), "ja"), "第17台、山田 太郎さん、佐藤 花子さん");
  assert.equal(speechText(call("M1", 17), "en"), "Board 17: 山田 太郎, 佐藤 花子");
  assert.equal(speechText(call("M1", 3, ["山田 太郎・山田 花子", "林 蓮・林 凛"]), "ja"),
    "第3台、山田 太郎さん・山田 花子さん、林 蓮さん・林 凛さん");
  assert.equal(speechText(call("M1", 5), "ja", true), "対局5、山田 太郎さん、佐藤 花子さん");
  assert.equal(speechText(call("M1", 5), "en", true), "Game 5: 山田 太郎, 佐藤 花子");
});

test("the watch announces only calls made since it first looked, oldest first, once each", () => {
  const watch = new CallWatch();
  const matches = new Map([["M1", state("called", 1)]]);
  assert.deepEqual(watch.fresh([call("M1", 1)], matches), []);
  matches.set("M2", state("called", 2)).set("M3", state("called", 3)).set("M4", state("playing", 4));
  const calls = [call("M4", 4), call("M3", 3), call("M2", 2), call("M1", 1)];
  assert.deepEqual(watch.fresh(calls, matches).map((c) => c.match), ["M2", "M3"]);
  assert.deepEqual(watch.fresh(calls, matches), []);
  matches.set("M1", state("called", 1, T0 + 300_000));  // withdrawn and called again: a new call
  assert.deepEqual(watch.fresh([call("M1", 1), ...calls], matches).map((c) => c.match), ["M1"]);
});

/** A speech synthesis that records what it is asked and ends an utterance when told. */
function fakeSynth() {
  /** @type {any[]} */
  const spoken = [];
  /** @type {(() => void)[]} */
  const timers = [];
  const synth = { speak: (/** @type {any} */ u) => spoken.push(u), cancel: () => { spoken.length = 0; } };
  const voice = new SpeechQueue(synth, (text, lang) => ({ text, lang, onend: null, onerror: null }), {
    setTimer: (fn) => timers.push(fn), clearTimer: () => {},
  });
  return { spoken, timers, voice };
}

test("announcements wait for the one before to end, fail or time out", () => {
  const { spoken, timers, voice } = fakeSynth();
  voice.say("第1台", "ja-JP");
  voice.say("第2台", "ja-JP");
  voice.say("Board 3", "en-US");
  assert.deepEqual(spoken.map((u) => u.text), ["第1台"]);
  const ended = spoken[0].onend;
  ended();
  assert.deepEqual(spoken.map((u) => u.text), ["第1台", "第2台"]);
  ended();  // a late second end of the first changes nothing
  assert.equal(spoken.length, 2);
  spoken[1].onerror();
  assert.deepEqual(spoken.map((u) => [u.text, u.lang]), [["第1台", "ja-JP"], ["第2台", "ja-JP"], ["Board 3", "en-US"]]);
  timers[2]();  // the browser never said it ended: the queue goes on all the same
  voice.say("第4台", "ja-JP");
  assert.equal(spoken[3].text, "第4台");
});

test("clearing drops what waits and stops what is said", () => {
  const { spoken, voice } = fakeSynth();
  voice.say("第1台", "ja-JP");
  voice.say("第2台", "ja-JP");
  voice.clear();
  assert.equal(spoken.length, 0);
  voice.say("第3台", "ja-JP");
  assert.deepEqual(spoken.map((u) => u.text), ["第3台"]);
});

test("124 boards at 1920x1080 take three pages of readable tiles", () => {
  const l = pageLayout(124, 1496, 950);
  assert.deepEqual([l.pages, l.perPage], [3, 42]);
  assert.ok(l.cols * l.rows >= l.perPage);
  assert.ok((1496 - TILE.gap * (l.cols - 1)) / l.cols >= TILE.minWidth);
  assert.ok(l.rowHeight >= TILE.minHeight && l.rowHeight * l.rows + TILE.gap * (l.rows - 1) <= 950);
  const boards = Array.from({ length: 124 }, (_, i) => i + 1);
  const pages = [0, 1, 2].map((p) => pageItems(boards, p, l.perPage));
  assert.deepEqual(pages.map((p) => [p[0], p.at(-1)]), [[1, 42], [43, 84], [85, 124]]);
});

test("a few boards take one page, their tiles no taller than readable needs", () => {
  const l = pageLayout(3, 1496, 950);
  assert.deepEqual([l.cols, l.rows, l.pages, l.perPage], [3, 1, 1, 3]);
  assert.equal(l.rowHeight, TILE.maxHeight);
  assert.equal(pageLayout(0, 100, 100).pages, 1);
  const scrolled = pageLayout(124, 360, Infinity);
  assert.deepEqual([scrolled.cols, scrolled.pages, scrolled.perPage, scrolled.rowHeight], [1, 1, 124, TILE.minHeight]);
});

test("the screens: every page of boards, then the pools", () => {
  assert.deepEqual(screens(3, true), [
    { kind: "boards", page: 0 }, { kind: "boards", page: 1 }, { kind: "boards", page: 2 }, { kind: "pools" },
  ]);
  assert.deepEqual(screens(1, false), [{ kind: "boards", page: 0 }]);
});
