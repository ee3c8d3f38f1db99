// The pad's match clock (scoring/clock.py): match time with the referee's pause (R7b) and the
// 10-second countdown the referee starts in the last minute (R8a), kept as plain data so that it
// survives a reload. Wall time (Date.now) drives it; every reading is in seconds.

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

/** @param {Clock} c @param {number} [now] @returns {Clock} */
export function startCountdown(c, now = Date.now()) {
  return { ...c, countdownAt: elapsed(c, now) };
}

/** @param {Clock} c @returns {Clock} */
export const stopCountdown = (c) => ({ ...c, countdownAt: null });

/** Seconds left of the countdown, or null when none runs. @param {Clock} c @param {number} [now] */
export function countdownRemaining(c, now) {
  if (c.countdownAt === null) return null;
  return Math.max(0, c.countdownAt + c.shotTime - elapsed(c, now));
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
