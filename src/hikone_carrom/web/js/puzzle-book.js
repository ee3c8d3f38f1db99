// The puzzle book (詰めカロム) as one browser keeps it: which puzzles it solved or gave up
// (localStorage), the list in its order (today's puzzle first) and filtered by goal, and the
// typed shot in the shooter's own frame (position mm from the tee spot, + to the right; angle °
// from straight ahead, + to the right; speed m/s), as the game page reads it.
import { placeOn, pointAt } from "./aim.js";

export const PROGRESS_KEY = "hikone-carrom.puzzles";

/**
 * @typedef {{solved: string[], given: string[]}} Progress ids solved, ids given up unsolved
 * @typedef {{id: string, goal: string, difficulty: number}} Summary a puzzle of the list
 * @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void}} Store
 */

/** @param {unknown} v @returns {string[]} */
const ids = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

/**
 * This browser's progress; an unreadable or missing record is no progress.
 * @param {Store | null} store
 * @returns {Progress}
 */
export function loadProgress(store) {
  try {
    const raw = JSON.parse(store?.getItem(PROGRESS_KEY) || "{}");
    return { solved: ids(raw?.solved), given: ids(raw?.given) };
  } catch {
    return { solved: [], given: [] };
  }
}

/**
 * Record a puzzle solved, or (once given up) given up unless it was solved before.
 * @param {Store | null} store
 * @param {string} id
 * @param {"solved" | "given"} how
 * @returns {Progress} the progress now
 */
export function record(store, id, how) {
  const p = loadProgress(store);
  if (how === "solved" && !p.solved.includes(id)) {
    p.solved.push(id);
    p.given = p.given.filter((g) => g !== id);
  } else if (how === "given" && !p.solved.includes(id) && !p.given.includes(id)) {
    p.given.push(id);
  }
  try {
    store?.setItem(PROGRESS_KEY, JSON.stringify(p));
  } catch {
    // storage full or refused: the progress holds for this page only
  }
  return p;
}

/**
 * The list as shown: today's puzzle first, then the others in their order, keeping only those
 * of `goal` ("" for all).
 * @template {Summary} T
 * @param {T[]} puzzles
 * @param {string | null} dailyId
 * @param {string} goal
 * @returns {T[]}
 */
export function shelf(puzzles, dailyId, goal) {
  const kept = puzzles.filter((p) => !goal || p.goal === goal);
  const daily = kept.filter((p) => p.id === dailyId);
  return [...daily, ...kept.filter((p) => p.id !== dailyId)];
}

/** Difficulty 1-5 as five stars, the filled ones first. @param {number} n */
export function stars(n) {
  const k = Math.max(0, Math.min(5, Math.round(n)));
  return "★".repeat(k) + "☆".repeat(5 - k);
}

/**
 * The typed figures of a shot from (x, y) m at angle (rad) and speed (m/s), for a shooter whose
 * frame is {ahead, right} (aim.js shooterFrame) on `placement`.
 * @param {import("./aim.js").Placement} placement
 * @param {{ahead: number, right: number[]}} frame
 * @param {{x: number, y: number, angle: number, speed: number}} shot
 * @returns {{pos: number, angle: number, speed: number}} mm, °, m/s
 */
export function typedFigures(placement, frame, shot) {
  const [tx, ty] = pointAt(placement, 0.5);
  const [rx, ry] = frame.right;
  const pos = placement.kind === "line" ? ((shot.x - tx) * rx + (shot.y - ty) * ry) * 1000 : 0;
  let angle = ((frame.ahead - shot.angle) * 180) / Math.PI;
  angle = ((((angle + 180) % 360) + 360) % 360) - 180;
  return { pos, angle, speed: shot.speed };
}

/**
 * The shot of typed figures (the inverse of typedFigures): the striker put on the area line
 * (ok: whether it may stand there, R2b).
 * @param {import("./aim.js").Placement} placement
 * @param {{ahead: number, right: number[]}} frame
 * @param {{pos: number, angle: number, speed: number}} typed mm, °, m/s
 */
export function shotOfFigures(placement, frame, typed) {
  const [tx, ty] = pointAt(placement, 0.5);
  const [rx, ry] = frame.right;
  const spot = placement.kind === "line"
    ? placeOn(placement, tx + (rx * typed.pos) / 1000, ty + (ry * typed.pos) / 1000)
    : placeOn(placement, tx, ty);
  const angle = frame.ahead - (typed.angle * Math.PI) / 180;
  return { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok, angle, speed: typed.speed };
}

export const DRILLS_KEY = "hikone-carrom.drills";

/**
 * Stars (1-3) for a drill reached at the `strikes`-th strike: 3 at the first, 2 within three,
 * else 1 (as learn/drills.py stars).
 * @param {number} strikes
 */
export function drillStars(strikes) {
  return strikes <= 1 ? 3 : strikes <= 3 ? 2 : 1;
}

/**
 * This browser's best stars per drill id.
 * @param {Store | null} store
 * @returns {Record<string, number>}
 */
export function loadDrillStars(store) {
  try {
    const raw = JSON.parse(store?.getItem(DRILLS_KEY) || "{}");
    /** @type {Record<string, number>} */
    const out = {};
    for (const [id, n] of Object.entries(raw && typeof raw === "object" ? raw : {})) {
      if (Number.isInteger(n) && n >= 1 && n <= 3) out[id] = n;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * Keep a drill's stars if they beat this browser's best; the best stars now.
 * @param {Store | null} store
 * @param {string} id
 * @param {number} earned
 */
export function recordDrill(store, id, earned) {
  const best = loadDrillStars(store);
  best[id] = Math.max(best[id] || 0, earned);
  try {
    store?.setItem(DRILLS_KEY, JSON.stringify(best));
  } catch {
    // storage refused: the stars hold for this page only
  }
  return best[id];
}

/** Stars earned out of three, the earned ones filled. @param {number} n */
export function drillStarText(n) {
  const k = Math.max(0, Math.min(3, n));
  return "★".repeat(k) + "☆".repeat(3 - k);
}
