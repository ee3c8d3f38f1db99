// The shooting gesture (web/js/gesture.js): a pull back from the striker gives the shot's angle
// (away from the pointer) and power (beyond the band's rest length); a tap or a release on the
// striker shoots nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_PULL, REST, ShotGesture, aimDrawing, handleAt, powerOfPull } from "../../src/hikone_carrom/web/js/gesture.js";

/** @param {number} a @param {number} b */
const near = (a, b) => Math.abs(a - b) < 1e-9;

test("power grows linearly from the band's rest length to MAX_PULL beyond it", () => {
  assert.equal(powerOfPull(0), 0);
  assert.equal(powerOfPull(REST), 0);
  assert.ok(near(powerOfPull(REST + MAX_PULL / 2), 0.5));
  assert.equal(powerOfPull(REST + MAX_PULL), 1);
  assert.equal(powerOfPull(1), 1);
});

test("the handle is drawn behind the striker, as far as the power pulls it", () => {
  const [x, y] = handleAt({ x: 0.1, y: -0.2, angle: Math.PI / 2, power: 0.5 });
  assert.ok(near(x, 0.1) && near(y, -0.2 - (REST + 0.5 * MAX_PULL)));
  const [fx] = handleAt({ x: 0, y: 0, angle: 0, power: 3 });
  assert.ok(near(fx, -(REST + MAX_PULL)));
});

/** A canvas stand-in: listeners by type, pointer capture as a set. */
class FakeCanvas extends EventTarget {
  captured = new Set();
  /** @param {number} id */
  setPointerCapture(id) { this.captured.add(id); }
  /** @param {number} id */
  hasPointerCapture(id) { return this.captured.has(id); }
  /** @param {number} id */
  releasePointerCapture(id) { this.captured.delete(id); }
  focus() {}
}

/** @param {string} type @param {Record<string, unknown>} fields */
function pointer(type, fields) {
  return Object.assign(new Event(type, { cancelable: true }), {
    pointerId: 1, button: 0, buttons: 1, isPrimary: true, pointerType: "touch", ...fields,
  });
}

/** A board at 1000 CSS px per metre, the striker at the origin on a level area line. */
function setUp() {
  // the gesture also listens for Escape on the window
  Object.assign(globalThis, { window: new EventTarget() });
  const calls = /** @type {{pulls: any[], released: number, restored: any[]}} */ ({ pulls: [], released: 0, restored: [] });
  const aim = { x: 0, y: 0, s: 0.5, ok: true, angle: Math.PI / 2, power: 0 };
  const canvas = new FakeCanvas();
  const gesture = new ShotGesture(/** @type {any} */ (canvas), {
    enabled: () => true,
    aim: () => aim,
    placement: () => ({ kind: "line", line: [[-0.2, 0], [0.2, 0]], point: null, free: [[0, 1]] }),
    toWorld: (cx, cy) => [cx / 1000, cy / 1000],
    toClient: (x, y) => [x * 1000, y * 1000],
    place: () => {},
    pull: (p) => calls.pulls.push(p),
    restore: (saved) => calls.restored.push(saved),
    release: () => calls.released++,
  });
  return { canvas, gesture, calls };
}

test("pulling back from the striker aims away from the pointer and shoots on release", () => {
  const { canvas, gesture, calls } = setUp();
  canvas.dispatchEvent(pointer("pointerdown", { clientX: 0, clientY: 0 }));
  // 110 px = 0.11 m towards the shooter's left and back: 0.08 m past the rest length
  canvas.dispatchEvent(pointer("pointermove", { clientX: 66, clientY: -88 }));
  const last = calls.pulls.at(-1);
  assert.ok(near(last.angle, Math.atan2(0.088, -0.066)));
  assert.ok(near(last.power, (0.11 - REST) / MAX_PULL));
  assert.equal(last.armed, true);
  canvas.dispatchEvent(pointer("pointerup", { clientX: 66, clientY: -88 }));
  assert.equal(calls.released, 1);
  assert.equal(calls.restored.length, 0);
  assert.equal(gesture.state, null);
  assert.equal(canvas.captured.size, 0);
});

test("a tap on the striker, or a pull let go back on it, shoots nothing and restores the aim", () => {
  const { canvas, calls } = setUp();
  canvas.dispatchEvent(pointer("pointerdown", { clientX: 2, clientY: 1 }));
  canvas.dispatchEvent(pointer("pointerup", { clientX: 2, clientY: 1 }));
  assert.equal(calls.pulls.length, 0);
  canvas.dispatchEvent(pointer("pointerdown", { clientX: 0, clientY: 0 }));
  canvas.dispatchEvent(pointer("pointermove", { clientX: 0, clientY: -100 }));
  canvas.dispatchEvent(pointer("pointermove", { clientX: 5, clientY: -5 }));
  assert.equal(calls.pulls.at(-1).armed, false);
  canvas.dispatchEvent(pointer("pointerup", { clientX: 5, clientY: -5 }));
  assert.equal(calls.released, 0);
  assert.equal(calls.restored.length, 2);
  assert.equal(calls.restored[1].angle, Math.PI / 2);
});

test("a press away from the striker and its handle is not a gesture", () => {
  const { canvas, gesture, calls } = setUp();
  canvas.dispatchEvent(pointer("pointerdown", { clientX: 100, clientY: 100 }));
  assert.equal(gesture.state, null);
  canvas.dispatchEvent(pointer("pointerup", { clientX: 100, clientY: 100 }));
  assert.deepEqual([calls.released, calls.restored.length], [0, 0]);
});

test("a second finger calls the pull off", () => {
  const { canvas, calls } = setUp();
  canvas.dispatchEvent(pointer("pointerdown", { clientX: 0, clientY: 0 }));
  canvas.dispatchEvent(pointer("pointermove", { clientX: 0, clientY: -150 }));
  canvas.dispatchEvent(pointer("pointerdown", { pointerId: 2, clientX: 50, clientY: 50, isPrimary: false }));
  canvas.dispatchEvent(pointer("pointerup", { clientX: 0, clientY: -150 }));
  assert.equal(calls.released, 0);
  assert.equal(calls.restored.length, 1);
});

test("an aim is drawn with its handle at rest and with the pull's point while pulling", () => {
  const aim = { x: 0, y: -0.2, s: 0.5, ok: true, angle: Math.PI / 2, power: 0.5, pull: [0, -0.3], armed: false };
  const g = { to: [0, 0.3], contact: null, deflect: null };
  const rest = aimDrawing(aim, g, null);
  assert.deepEqual(rest.aim.handle, handleAt(aim));
  assert.equal(rest.aim.pull, null);
  assert.equal(rest.aim.armed, true);
  assert.equal(rest.note, null);
  const pulling = aimDrawing(aim, g, { mode: "pull" });
  assert.deepEqual(pulling.aim.pull, [0, -0.3]);
  assert.equal(pulling.aim.handle, null);
  assert.equal(pulling.note, "aim.cancel"); // a pull not yet beyond the rest length
  assert.equal(aimDrawing({ ...aim, armed: true }, g, { mode: "pull" }).note, null);
  assert.equal(aimDrawing({ ...aim, ok: false }, g, { mode: "place" }).note, "place.blocked");
  assert.deepEqual(rest.aim.to, [0, 0.3]);
});
