// The animation tracks (web/js/tracks.js): constant deceleration within a segment, and how a
// pocketed or flying disk fades out.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FLY_S, SWALLOW_S, disksAt, trackAt, tracksDuration } from "../../src/hikone_carrom/web/js/tracks.js";

/** @param {number} t0 @param {number} t1 @param {Partial<import("../../src/hikone_carrom/web/js/tracks.js").Segment>} f */
const seg = (t0, t1, f) => ({ t0, t1, x: 0, y: 0, vx: 0, vy: 0, ax: 0, ay: 0, layer: 0, ...f });

const slowing = { id: "p1", kind: "puck", color: "red", r: 0.0125, fate: null, fate_t: 0, pocket: null,
  segments: [seg(0, 2, { vx: 1, ax: -0.5 }), seg(2, 3, { x: 1, vy: 0.2, ay: -0.2 })] };

test("a disk follows x0 + v dt + a dt²/2 within its segment", () => {
  const at = trackAt(slowing, 1);
  assert.ok(Math.abs(at.x - 0.75) < 1e-12);
  assert.equal(at.y, 0);
  assert.deepEqual([at.alpha, at.scale, at.layer], [1, 1, 0]);
});

test("the segment in force is the last one begun, and time stops at its end", () => {
  const at = trackAt(slowing, 2.5);
  assert.ok(Math.abs(at.x - 1) < 1e-12);
  assert.ok(Math.abs(at.y - (0.2 * 0.5 - 0.1 * 0.25)) < 1e-12);
  const rest = trackAt(slowing, 10);
  assert.ok(Math.abs(rest.y - (0.2 - 0.1)) < 1e-12);
});

test("a pocketed disk shrinks and fades towards its pocket over SWALLOW_S", () => {
  const track = { ...slowing, segments: [seg(0, 1, {})], fate: "pocket", fate_t: 1, pocket: [0.3, 0.3] };
  const half = trackAt(track, 1 + SWALLOW_S / 2);
  assert.ok(Math.abs(half.x - 0.3 * 0.5 * 0.6) < 1e-12);
  assert.ok(Math.abs(half.y - 0.09) < 1e-12);
  assert.ok(Math.abs(half.scale - (1 - 0.225)) < 1e-12);
  assert.ok(Math.abs(half.alpha - 0.5) < 1e-12);
  assert.equal(trackAt(track, 1 + SWALLOW_S).alpha, 0);
});

test("a disk flying off the board grows and fades over FLY_S", () => {
  const track = { ...slowing, segments: [seg(0, 1, {})], fate: "off", fate_t: 1 };
  const half = trackAt(track, 1 + FLY_S / 2);
  assert.ok(Math.abs(half.scale - (1 + 0.5 * Math.sin(Math.PI / 4))) < 1e-12);
  assert.ok(Math.abs(half.alpha - 0.5) < 1e-12);
});

test("a shot lasts until its last disk stops or has left", () => {
  assert.equal(tracksDuration([slowing]), 3);
  const gone = { ...slowing, segments: [seg(0, 1, {})], fate: "pocket", fate_t: 2.9 };
  assert.ok(Math.abs(tracksDuration([slowing, gone]) - (2.9 + SWALLOW_S)) < 1e-12);
  assert.equal(tracksDuration([]), 0);
});

test("the disks drawn: moving ones from their tracks, the rest from the layout before", () => {
  const gone = { ...slowing, id: "p2", segments: [seg(0, 0.5, {})], fate: "pocket", fate_t: 0.5 };
  const before = [
    { id: "p1", kind: "puck", color: "red", x: 0, y: 0, layer: 0, r: 0.0125 },
    { id: "p2", kind: "puck", color: "red", x: 0, y: 0, layer: 0, r: 0.0125 },
    { id: "j", kind: "jack", color: null, x: 0.1, y: 0.1, layer: 1, r: 0.0125 },
  ];
  const disks = disksAt({ tracks: [slowing, gone], before }, 1);
  assert.deepEqual(disks.map((d) => d.id), ["p1", "j"]);
  assert.ok(Math.abs(disks[0].x - 0.75) < 1e-12);
  assert.equal(disks[1], before[2]);
});
