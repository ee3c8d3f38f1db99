// The pad's match clock (scoring/clock.py): match time with the referee's pause (R7b) and the
// 10-second countdown the referee starts in the last minute (R8a), kept as plain data so that it
// survives a reload. Wall time (Date.now) drives it; every reading is in seconds.
import { RulesError } from "./referee.js";

/**
 * A match clock: limit, finalPhase and shotTime in s (the set-up's match_time_s, final_phase_s,
 * shot_time_s); base s of match time used up to wall time since (ms) while running;
 * countdownAt, the match time (s) at which the 10-second countdown began, or null.
 * @typedef {{limit: number, finalPhase: number, shotTime: number, started: boolean,
 *   running: boolean, base: number, since: number, countdownAt: number | null,
 *   timeUpHandled: boolean}} Clock
 */
/**
 * The reading a spectator is sent (times in s): see reading().
 * @typedef {{limit: number, elapsed: number, started: boolean, running: boolean,
 *   countdown: number | null}} Reading
 */

/**
 * @param {{match_time_s: number, options: {final_phase_s: number, shot_time_s: number}}} setup
 * @returns {Clock}
 */
export function newClock(setup) {
  const o = setup.options;
  return {
    limit: setup.match_time_s, finalPhase: o.final_phase_s, shotTime: o.shot_time_s,
    started: false, running: false, base: 0, since: 0, countdownAt: null, timeUpHandled: false,
  };
}

/** Match time used (s) at wall time now (ms). @param {Clock} c @param {number} [now] */
export function elapsed(c, now = Date.now()) {
  return c.base + (c.running ? (now - c.since) / 1000 : 0);
}

/** Match time left (s). @param {Clock} c @param {number} [now] */
export const remaining = (c, now) => Math.max(0, c.limit - elapsed(c, now));
/** @param {Clock} c @param {number} [now] */
export const timeUp = (c, now) => c.started && elapsed(c, now) >= c.limit;
/** In the final phase, where the referee may start the 10-second countdown (R8a). @param {Clock} c @param {number} [now] */
export const tenSecondRule = (c, now) => c.started && elapsed(c, now) >= c.limit - c.finalPhase;

/** @param {Clock} c @param {number} [now] @returns {Clock} */
export function start(c, now = Date.now()) {
  return { ...c, started: true, running: true, base: 0, since: now };
}

/** The referee's pause (R7b). @param {Clock} c @param {number} [now] @returns {Clock} */
export function pause(c, now = Date.now()) {
  return { ...c, running: false, base: elapsed(c, now) };
}

/** @param {Clock} c @param {number} [now] @returns {Clock} */
export function resume(c, now = Date.now()) {
  return { ...c, running: true, since: now };
}

/**
 * The turn reached a player: their 10 seconds begin (R8a, last minute only; clock.py
 * start_countdown). Throws RulesError when the clock stands or the last minute has not begun.
 * @param {Clock} c @param {number} [now] @returns {Clock}
 */
export function startCountdown(c, now = Date.now()) {
  if (!c.started || !c.running) throw new RulesError("start the match time first; the countdown runs only with the clock (R8a)", "先に試合時間を動かしてください。10秒の計測は時計が動いている間だけです（R8a）", "clock");
  if (!tenSecondRule(c, now)) throw new RulesError("the 10-second rule applies only in the last minute (R8a)", "10秒ルールは残り1分からです（R8a）", "clock");
  return { ...c, countdownAt: elapsed(c, now) };
}

/** @param {Clock} c @returns {Clock} */
export const stopCountdown = (c) => ({ ...c, countdownAt: null });

/**
 * The clock after an entry of `kind`: every entry stops the countdown but a time call, which
 * leaves the turn, and so the 10 s of the player on turn, as they are (R8a; RefereedMatch.add).
 * @param {Clock} c @param {string} kind @returns {Clock}
 */
export const afterEntry = (c, kind) => (kind === "call_time" ? c : stopCountdown(c));

/** Match time (s) at which the shot is lost (R8a), or null when no countdown runs. @param {Clock} c */
export const countdownDeadline = (c) => (c.countdownAt === null ? null : c.countdownAt + c.shotTime);

/** Seconds left of the countdown, or null when none runs. @param {Clock} c @param {number} [now] */
export function countdownRemaining(c, now) {
  const deadline = countdownDeadline(c);
  return deadline === null ? null : Math.max(0, deadline - elapsed(c, now));
}

/**
 * What the clock has brought about by wall time now (RefereedMatch.tick): the lost shot when the
 * countdown ran out (R8a) and the time call at the limit (R7b, once: timeUpHandled), both if both
 * happened since the last look, in the order they happened (the lost shot first on a tie), each
 * at the match time (s) it happened.
 * @param {Clock} c
 * @param {boolean} timeCalled time has already been called in the match
 * @param {number} [now]
 * @returns {{kind: "skip" | "call_time", at: number}[]}
 */
export function due(c, timeCalled, now = Date.now()) {
  /** @type {{kind: "skip" | "call_time", at: number}[]} */
  const out = [];
  if (!c.started) return out;
  const deadline = countdownDeadline(c);
  const used = elapsed(c, now);
  if (deadline !== null && used >= deadline) out.push({ kind: "skip", at: deadline });
  if (used >= c.limit && !timeCalled && !c.timeUpHandled) out.push({ kind: "call_time", at: c.limit });
  return out.sort((a, b) => a.at - b.at).map((d) => ({ ...d, at: Math.round(d.at * 1000) / 1000 }));
}

/**
 * The reading sent to the server for spectators (pad_routes: the clock op).
 * @param {Clock} c
 * @param {number} [now]
 * @returns {Reading}
 */
export function reading(c, now = Date.now()) {
  return {
    limit: c.limit, elapsed: Math.round(elapsed(c, now) * 1000) / 1000, started: c.started,
    running: c.running, countdown: countdownRemaining(c, now),
  };
}

/**
 * A spectator's view of a reading taken at wall time wall_ms.
 * @param {Reading & {wall_ms: number}} r
 * @param {number} [now]
 */
export function fromReading(r, now = Date.now()) {
  const since = (now - r.wall_ms) / 1000;
  const used = r.elapsed + (r.running ? since : 0);
  const countdown = r.countdown === null ? null : Math.max(0, r.countdown - (r.running ? since : 0));
  return { elapsed: used, remaining: Math.max(0, r.limit - used), running: r.running, started: r.started, countdown };
}

/** Match time used, m:ss (rounded down). @param {number} seconds */
export function clockTime(seconds) {
  const s = Math.floor(Math.max(0, seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Time left, m:ss (rounded up: 0:00 only when it is over). @param {number} seconds */
export function mmss(seconds) {
  const s = Math.ceil(Math.max(0, seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// -- the audible countdown (Web Audio) --------------------------------------------------------

/** @type {AudioContext | null} */
let audio = null;
/** @type {{freq: number, seconds: number, at: number}[]} */
export const beeps = [];

/** Wake the audio context: call from a tap (browsers start audio only after a gesture). */
export function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume();
}

/**
 * One beep: frequency (Hz) and length (s); logged in `beeps` for the tests.
 * @param {number} freq
 * @param {number} seconds
 */
export function beep(freq, seconds) {
  beeps.push({ freq, seconds, at: Date.now() });
  if (!audio) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "square";
  osc.frequency.value = freq;
  const t0 = audio.currentTime;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(0.25, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start(t0);
  osc.stop(t0 + seconds + 0.02);
}
