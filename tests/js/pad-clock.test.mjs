// The pad's match clock (web/js/pad/clock.js): match time with the referee's pause (R7b), the
// final phase and the 10-second countdown (R8a), read from wall time in ms.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  afterEntry, clockTime, countdownRemaining, due, elapsed, fromReading, mmss, newClock, pause,
  reading, remaining, resume, start, startCountdown, stopCountdown, tenSecondRule, timeUp,
} from "../../src/hikone_carrom/web/js/pad/clock.js";
import { RulesError } from "../../src/hikone_carrom/web/js/pad/referee.js";

const setup = { match_time_s: 300, options: { final_phase_s: 60, shot_time_s: 10 } };

test("a clock runs from its start, stands while paused and runs on after", () => {
  const fresh = newClock(setup);
  assert.deepEqual([fresh.limit, fresh.finalPhase, fresh.shotTime, fresh.started], [300, 60, 10, false]);
  assert.equal(elapsed(fresh, 50_000), 0);
  assert.equal(timeUp(fresh, 1e9), false);
  let c = start(fresh, 1_000);
  assert.equal(elapsed(c, 61_000), 60);
  c = pause(c, 61_000);
  assert.equal(elapsed(c, 100_000), 60);
  c = resume(c, 100_000);
  assert.equal(elapsed(c, 130_000), 90);
  assert.equal(remaining(c, 130_000), 210);
});

test("the final phase begins a minute before time, and time is up at the limit", () => {
  const c = start(newClock(setup), 0);
  assert.equal(tenSecondRule(c, 239_999), false);
  assert.equal(tenSecondRule(c, 240_000), true);
  assert.equal(timeUp(c, 299_999), false);
  assert.equal(timeUp(c, 300_000), true);
  assert.equal(remaining(c, 400_000), 0);
});

test("the 10-second countdown runs with match time, and stops", () => {
  let c = startCountdown(start(newClock(setup), 0), 250_000);
  assert.equal(countdownRemaining(c, 254_000), 6);
  c = pause(c, 254_000);
  assert.equal(countdownRemaining(c, 999_000), 6);
  assert.equal(countdownRemaining(resume(c, 999_000), 1_009_000), 0);
  assert.equal(countdownRemaining(stopCountdown(c), 254_000), null);
});

test("a spectator's view of a reading advances by the wall time since it was taken", () => {
  const r = reading(start(newClock(setup), 0), 100_000.4);
  assert.deepEqual(r, { limit: 300, elapsed: 100, started: true, running: true, countdown: null });
  const view = fromReading({ ...r, countdown: 5, wall_ms: 0 }, 2_000);
  assert.deepEqual(view, { elapsed: 102, remaining: 198, running: true, started: true, countdown: 3 });
  const stopped = fromReading({ ...r, running: false, countdown: 5, wall_ms: 0 }, 2_000);
  assert.deepEqual([stopped.elapsed, stopped.countdown], [100, 5]);
});

test("m:ss readings: time used rounds down, time left rounds up", () => {
  assert.equal(clockTime(59.9), "0:59");
  assert.equal(clockTime(125), "2:05");
  assert.equal(clockTime(-3), "0:00");
  assert.equal(mmss(59.1), "1:00");
  assert.equal(mmss(0.01), "0:01");
  assert.equal(mmss(0), "0:00");
});

test("R8a: the countdown begins only in the last minute, with the clock running", () => {
  const fresh = newClock(setup);
  assert.throws(() => startCountdown(fresh, 0), (e) => e instanceof RulesError && e.code === "clock");
  const c = start(fresh, 0);
  assert.throws(() => startCountdown(c, 10_000), (e) => e instanceof RulesError && e.code === "clock" && e.en === "the 10-second rule applies only in the last minute (R8a)" && e.ja === "10秒ルールは残り1分からです（R8a）");
  assert.throws(() => startCountdown(pause(c, 250_000), 250_000), (e) => e instanceof RulesError && e.code === "clock");
  assert.equal(startCountdown(c, 240_000).countdownAt, 240);
});

test("R8a: a time call leaves the countdown of the player on turn running; other entries stop it", () => {
  const c = startCountdown(start(newClock(setup), 0), 296_000);
  assert.deepEqual(due(c, false, 300_000), [{ kind: "call_time", at: 300 }]);
  const called = { ...afterEntry(c, "call_time"), timeUpHandled: true };
  assert.equal(countdownRemaining(called, 300_000), 6);
  assert.deepEqual(due(called, true, 306_000), [{ kind: "skip", at: 306 }]);
  assert.equal(afterEntry(called, "skip").countdownAt, null);
  assert.equal(afterEntry(called, "shot").countdownAt, null);
});

test("R8a, R7b: a countdown run out just before time and the time call are both due, in order", () => {
  const c = startCountdown(start(newClock(setup), 0), 289_500);
  assert.deepEqual(due(c, false, 299_000), []);
  assert.deepEqual(due(c, false, 300_100), [{ kind: "skip", at: 299.5 }, { kind: "call_time", at: 300 }]);
  const late = startCountdown(start(newClock(setup), 0), 295_000);
  assert.deepEqual(due(late, false, 306_000), [{ kind: "call_time", at: 300 }, { kind: "skip", at: 305 }]);
  assert.deepEqual(due({ ...late, timeUpHandled: true }, false, 306_000), [{ kind: "skip", at: 305 }]);
});
