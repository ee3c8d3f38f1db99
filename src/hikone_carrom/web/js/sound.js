// Sound effects synthesised with Web Audio (no audio files): hits, rails, pockets, a piece
// flying off, and the chime of "your turn". One mute switch, remembered per browser (prefs.js).
import { pref } from "./prefs.js";

let ctx = null;
const played = []; // the last sounds played: {kind, at} (shown to tests and to curious players)

/** The audio context, made on the first user gesture (browsers start audio only after one). */
function context() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, () => !pref("muted") && context(), { capture: true, passive: true });
}

/** Sounds played lately, newest last (at most 200). */
export function soundLog() {
  return played.slice();
}

function noise(ac, seconds) {
  const buf = ac.createBuffer(1, Math.max(1, Math.round(ac.sampleRate * seconds)), ac.sampleRate);
  const data = buf.getChannelData(0);
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (seed / 0x3fffffff - 1) * (1 - i / data.length);
  }
  const src = ac.createBufferSource();
  src.buffer = buf;
  return src;
}

function envelope(ac, at, peak, decay) {
  const g = ac.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(Math.max(0.0002, peak), at + 0.004);
  g.gain.exponentialRampToValueAtTime(0.0001, at + decay);
  g.connect(ac.destination);
  return g;
}

function tone(ac, at, freq, endFreq, peak, decay, type = "sine") {
  const o = ac.createOscillator();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  if (endFreq !== freq) o.frequency.exponentialRampToValueAtTime(endFreq, at + decay);
  o.connect(envelope(ac, at, peak, decay));
  o.start(at);
  o.stop(at + decay + 0.02);
}

function burst(ac, at, freq, q, peak, decay) {
  const src = noise(ac, decay);
  const f = ac.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = freq;
  f.Q.value = q;
  src.connect(f).connect(envelope(ac, at, peak, decay));
  src.start(at);
}

const VOICES = {
  hit: (ac, at, k) => {
    burst(ac, at, 2600, 3, 0.5 * k, 0.035);
    tone(ac, at, 1900, 1500, 0.12 * k, 0.03, "triangle");
  },
  rail: (ac, at, k) => {
    tone(ac, at, 170, 120, 0.45 * k, 0.09);
    burst(ac, at, 700, 1.5, 0.25 * k, 0.05);
  },
  pocket: (ac, at, k) => {
    tone(ac, at, 240, 80, 0.5 * Math.max(0.5, k), 0.22);
    burst(ac, at + 0.03, 400, 1, 0.2, 0.12);
  },
  off: (ac, at) => burst(ac, at, 1200, 0.7, 0.25, 0.3),
  turn: (ac, at) => {
    tone(ac, at, 660, 660, 0.18, 0.25);
    tone(ac, at + 0.14, 880, 880, 0.18, 0.35);
  },
};

/** Play one sound `delay` s from now; strength 0-1 sets its loudness. Nothing when muted. */
export function playSound(kind, strength = 1, delay = 0) {
  if (pref("muted") || !VOICES[kind]) return;
  const ac = context();
  if (!ac || ac.state !== "running") return;
  const k = Math.max(0.05, Math.min(1, strength));
  VOICES[kind](ac, ac.currentTime + Math.max(0, delay), k);
  played.push({ kind, at: performance.now() + delay * 1000 });
  if (played.length > 200) played.splice(0, played.length - 200);
}

/** Play a shot's sounds (the server's list of {t, kind, strength}) as it is animated. */
export function playShot(sounds) {
  for (const s of sounds || []) if (s.strength >= 0.02) playSound(s.kind, s.strength, s.t);
}
