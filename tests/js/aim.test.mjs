// Aim maths (web/js/aim.js): the shooter's frame, the striker on its area line (R2b) and the
// guide line to the first disk or rail.
import assert from "node:assert/strict";
import { test } from "node:test";

import { guide, isFree, nearestFree, placeOn, pointAt, shooterFrame } from "../../src/hikone_carrom/web/js/aim.js";

/** @param {number} a @param {number} b */
const near = (a, b) => Math.abs(a - b) < 1e-9;
/** @type {import("../../src/hikone_carrom/web/js/aim.js").Placement} */
const line = { kind: "line", line: [[-0.2, -0.3], [0.2, -0.3]], point: null, free: [[0, 0.4], [0.6, 1]] };

test("each side's frame looks at the opposite rail, right hand to the right", () => {
  const south = shooterFrame("south");
  assert.ok(near(south.ahead, Math.PI / 2) && near(south.right[0], 1) && near(south.right[1], 0));
  const west = shooterFrame("west");
  assert.ok(near(west.ahead, 0) && near(west.right[0], 0) && near(west.right[1], -1));
  assert.equal(shooterFrame("nowhere").ahead, south.ahead);
});

test("a point is projected on the area line and clamped to its ends", () => {
  const mid = placeOn(line, 0, 0.5);
  assert.ok(near(mid.s, 0.5) && near(mid.x, 0) && near(mid.y, -0.3));
  assert.equal(mid.ok, false); // a puck covers the middle of the line
  const left = placeOn(line, -1, -0.3);
  assert.deepEqual([left.s, left.x, left.ok], [0, -0.2, true]);
  assert.equal(placeOn(line, 5, 0).s, 1);
  const spot = placeOn({ kind: "point", point: [0.1, 0.2], line: null, free: [] }, 0, 0);
  assert.deepEqual(spot, { x: 0.1, y: 0.2, s: 0.5, ok: true });
});

test("free stretches of the line, and the nearest free fraction", () => {
  assert.equal(isFree(line, 0.4), true);
  assert.equal(isFree(line, 0.5), false);
  // a hair (1e-6) inside the free stretch, so that the striker stands on it
  assert.ok(near(nearestFree(line, 0.45), 0.4 - 1e-6));
  assert.ok(near(nearestFree(line, 0.55), 0.6 + 1e-6));
  assert.equal(nearestFree(line, 0.7), 0.7);
});

test("the point at a fraction of the area line", () => {
  const p = pointAt(line, 0.25);
  assert.ok(near(p[0], -0.1) && near(p[1], -0.3));
});

test("the guide line stops where the striker would touch a disk of its layer", () => {
  const geometry = { puck_radius: 0.01, half: 0.3 };
  const disks = [
    { id: "s", kind: "striker", x: 0, y: 0, layer: 0, r: 0.01 },
    { id: "p", kind: "puck", x: 0.1, y: 0, layer: 0, r: 0.01 },
    { id: "up", kind: "puck", x: 0.05, y: 0, layer: 1, r: 0.01 },
  ];
  const g = guide(geometry, disks, 0, 0, 0, "s");
  assert.ok(near(g.to[0], 0.08) && near(g.to[1], 0));
  assert.equal(g.contact, "p");
  assert.ok(g.deflect && near(g.deflect.to[0], 0.22) && near(g.deflect.to[1], 0));
  assert.deepEqual(g.deflect.from, [0.1, 0]);
});

test("with nothing in the way the guide line runs to the rail, a radius short of it", () => {
  const g = guide({ puck_radius: 0.01, half: 0.3 }, [], 0, 0.1, Math.PI / 2, "s");
  assert.ok(near(g.to[0], 0) && near(g.to[1], 0.29));
  assert.equal(g.contact, null);
  assert.equal(g.deflect, null);
});
