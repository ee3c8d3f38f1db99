// The puzzle book (web/js/puzzle-book.js): progress per browser, the list's order and filter,
// difficulty stars and the typed shot in the shooter's frame.
import assert from "node:assert/strict";
import { test } from "node:test";

import { shooterFrame } from "../../src/hikone_carrom/web/js/aim.js";
import {
  DRILLS_KEY, drillStars, drillStarText, loadDrillStars, loadProgress, PROGRESS_KEY, record,
  recordDrill, shelf, shotOfFigures, stars, typedFigures,
} from "../../src/hikone_carrom/web/js/puzzle-book.js";

/** A Storage stand-in. */
function memory() {
  /** @type {Map<string, string>} */
  const m = new Map();
  return { getItem: (/** @type {string} */ k) => m.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v) };
}

test("progress starts empty and an unreadable record is no progress", () => {
  assert.deepEqual(loadProgress(memory()), { solved: [], given: [] });
  const s = memory();
  s.setItem(PROGRESS_KEY, "{not json");
  assert.deepEqual(loadProgress(s), { solved: [], given: [] });
  s.setItem(PROGRESS_KEY, JSON.stringify({ solved: ["p1", 3], given: "x" }));
  assert.deepEqual(loadProgress(s), { solved: ["p1"], given: [] });
  assert.deepEqual(loadProgress(null), { solved: [], given: [] });
});

test("a solved puzzle is kept once; giving up after solving leaves it solved", () => {
  const s = memory();
  record(s, "p0002", "given");
  record(s, "p0002", "given");
  assert.deepEqual(loadProgress(s), { solved: [], given: ["p0002"] });
  record(s, "p0002", "solved");
  record(s, "p0002", "solved");
  record(s, "p0002", "given");
  assert.deepEqual(loadProgress(s), { solved: ["p0002"], given: [] });
});

test("a store that refuses to write keeps the progress for the page", () => {
  const refusing = { getItem: () => null, setItem: () => { throw new Error("full"); } };
  assert.deepEqual(record(refusing, "p1", "solved"), { solved: ["p1"], given: [] });
});

test("today's puzzle comes first and the goal filter keeps only its goal", () => {
  const list = [
    { id: "a", goal: "pot-two", difficulty: 1 },
    { id: "b", goal: "jack-last", difficulty: 2 },
    { id: "c", goal: "pot-two", difficulty: 3 },
  ];
  assert.deepEqual(shelf(list, "c", "").map((p) => p.id), ["c", "a", "b"]);
  assert.deepEqual(shelf(list, "c", "pot-two").map((p) => p.id), ["c", "a"]);
  assert.deepEqual(shelf(list, "c", "jack-last").map((p) => p.id), ["b"]);
  assert.deepEqual(shelf(list, null, "").map((p) => p.id), ["a", "b", "c"]);
});

test("difficulty is five stars, the filled ones first", () => {
  assert.equal(stars(3), "★★★☆☆");
  assert.equal(stars(0), "☆☆☆☆☆");
  assert.equal(stars(9), "★★★★★");
});

/** @type {import("../../src/hikone_carrom/web/js/aim.js").Placement} */
const north = { kind: "line", line: [[0.2, 0.21], [-0.2, 0.21]], point: null, free: [[0, 1]] };

test("typed figures are in the shooter's frame and read back to the same shot", () => {
  const frame = shooterFrame("north"); // faces south: its right hand is -x
  const shot = { x: -0.05, y: 0.21, angle: -Math.PI / 2 - 0.1, speed: 2.5 };
  const typed = typedFigures(north, frame, shot);
  assert.ok(Math.abs(typed.pos - 50) < 1e-9, String(typed.pos)); // 50 mm to its right
  assert.ok(Math.abs(typed.angle - (0.1 * 180) / Math.PI) < 1e-9); // turned to its right
  assert.equal(typed.speed, 2.5);
  const back = shotOfFigures(north, frame, typed);
  assert.ok(Math.abs(back.x - shot.x) < 1e-12 && Math.abs(back.y - shot.y) < 1e-12);
  assert.ok(Math.abs(back.angle - shot.angle) < 1e-12 && back.ok);
});

test("a typed angle is given between -180 and 180 degrees", () => {
  const frame = shooterFrame("south");
  const typed = typedFigures(north, frame, { x: 0, y: 0.21, angle: Math.PI / 2 + 3.5, speed: 1 });
  assert.ok(typed.angle >= -180 && typed.angle < 180);
});

test("a drill's stars count its strikes, and only the best is kept", () => {
  assert.deepEqual([1, 2, 3, 4, 10].map(drillStars), [3, 2, 2, 1, 1]);
  const s = memory();
  assert.equal(recordDrill(s, "cut", 2), 2);
  assert.equal(recordDrill(s, "cut", 1), 2);
  assert.equal(recordDrill(s, "cut", 3), 3);
  recordDrill(s, "bank", 1);
  assert.deepEqual(loadDrillStars(s), { cut: 3, bank: 1 });
  s.setItem(DRILLS_KEY, JSON.stringify({ cut: 7, bank: "x", jack: 2 }));
  assert.deepEqual(loadDrillStars(s), { jack: 2 });
  assert.equal(drillStarText(2), "★★☆");
});
