// The pad's link to the server (web/js/pad/sync.js): ops kept until the server has applied them,
// renumbered after a takeover, retried with back-off when offline, and refusals passed on.
import assert from "node:assert/strict";
import { beforeEach, mock, test } from "node:test";

import { ONLINE_SPREAD_MS, RETRY_CAP_MS, RETRY_FIRST_MS, Sync, deviceId, load, retryDelay, save } from "../../src/hikone_carrom/web/js/pad/sync.js";

/** @type {Map<string, string>} */
const stored = new Map();
/** @type {{path: string, init: any}[]} */
let requests = [];
/** @type {(path: string, body: any) => {status: number, body: any}} */
let server = () => ({ status: 200, body: { ack: 0 } });

Object.assign(globalThis, {
  localStorage: {
    /** @param {string} k */ getItem: (k) => stored.get(k) ?? null,
    /** @param {string} k @param {string} v */ setItem: (k, v) => void stored.set(k, v),
  },
  window: new EventTarget(),
  /** @param {string} path @param {any} init */
  fetch: async (path, init) => {
    requests.push({ path, init });
    const { status, body } = server(path, JSON.parse(init.body));
    return { ok: status < 400, status, json: async () => body };
  },
});

beforeEach(() => {
  stored.clear();
  requests = [];
});

/** @param {Partial<ReturnType<typeof load>>} data */
function board(data) {
  const store = { data: { ...load("b1"), token: "tok", ...data }, saves: 0, persist() { this.saves++; } };
  const seen = /** @type {{answers: any[], refused: any[], offline: number, rejected: any[]}} */ ({ answers: [], refused: [], offline: 0, rejected: [] });
  const sync = new Sync("b1", store, {
    answer: (a) => seen.answers.push(a),
    refused: (d) => seen.refused.push(d),
    offline: () => seen.offline++,
    rejected: (r) => seen.rejected.push(r),
  });
  return { sync, store, seen };
}

/** @param {number} seq */
const op = (seq) => ({ seq, op: "entry" });

test("a device keeps one id, and a board's data survives in localStorage", () => {
  const id = deviceId();
  assert.match(id, /^pad-[0-9a-f]{24}$/);
  assert.equal(deviceId(), id);
  assert.deepEqual(load("b1"), { token: null, match: null, clock: null, pending: [], nextSeq: 1, ack: 0, name: "" });
  save("b1", { ...load("b1"), name: "Court 1" });
  assert.equal(load("b1").name, "Court 1");
  stored.set("hikone-carrom.pad.b2", "{not json");
  assert.equal(load("b2").nextSeq, 1);
});

test("ops the server has applied are dropped; the rest stay pending", async () => {
  const { sync, store, seen } = board({ pending: [op(1), op(2), op(3)], nextSeq: 4 });
  // the server stops at 2: the third is sent again until it is applied
  let calls = 0;
  server = (path, body) => {
    calls++;
    return { status: 200, body: { ack: Math.min(body.ops.at(-1).seq, calls === 1 ? 2 : 3) } };
  };
  await sync.push();
  assert.equal(calls, 2);
  assert.equal(requests[0].path, "/api/boards/b1/ops");
  assert.equal(requests[0].init.headers.authorization, "Bearer tok");
  assert.deepEqual(JSON.parse(requests[1].init.body).ops, [op(3)]);
  assert.deepEqual(store.data.pending, []);
  assert.equal(store.data.ack, 3);
  assert.equal(seen.answers.length, 2);
  assert.equal(sync.online, true);
});

test("after a takeover the pending ops are numbered on from the server's ack", () => {
  const { sync, store } = board({ pending: [op(7), op(8)], nextSeq: 9, ack: 6 });
  sync.renumber(2);
  assert.deepEqual(store.data.pending.map((o) => o.seq), [3, 4]);
  assert.deepEqual([store.data.nextSeq, store.data.ack, store.saves], [5, 2, 1]);
});

test("a refusal is passed on; a server error means offline and a retry later", async () => {
  server = () => ({ status: 409, body: { detail: { code: "other_device", en: "taken", ja: "使用中" } } });
  const first = board({ pending: [op(1)] });
  await first.sync.push();
  assert.deepEqual(first.seen.refused, [{ code: "other_device", en: "taken", ja: "使用中" }]);
  assert.deepEqual(first.store.data.pending, [op(1)]);

  server = () => ({ status: 503, body: null });
  const second = board({ pending: [op(1)] });
  await second.sync.push();
  assert.deepEqual([second.seen.offline, second.sync.online, second.sync.retry], [1, false, 1]);
  assert.ok(second.sync.timer !== undefined, "a retry is due");
  clearTimeout(second.sync.timer);
});

test("ops carry the pad's clock when sent, so the server can tell how long each waited", async () => {
  const { sync } = board({ pending: [op(1)], nextSeq: 2 });
  server = () => ({ status: 200, body: { ack: 1 } });
  const before = Date.now();
  await sync.push();
  const sent = JSON.parse(requests[0].init.body).sent_ms;
  assert.ok(before <= sent && sent <= Date.now(), `sent_ms ${sent}`);
});

test("the store being down keeps every op queued and sends them again later", async () => {
  const detail = { code: "store_unavailable", en: "try again", ja: "もう一度" };
  server = () => ({ status: 503, body: { detail } });
  const { sync, store, seen } = board({ pending: [op(1), op(2)], nextSeq: 3 });
  await sync.push();
  assert.deepEqual(store.data.pending, [op(1), op(2)]);
  assert.deepEqual([seen.offline, seen.refused.length, seen.rejected.length], [1, 0, 0]);
  assert.ok(sync.timer !== undefined, "a retry is due");
  clearTimeout(sync.timer);
  server = () => ({ status: 200, body: { ack: 2 } });
  await sync.push();
  assert.deepEqual(JSON.parse(requests[1].init.body).ops, [op(1), op(2)]);
  assert.deepEqual(store.data.pending, []);
});

test("an entry and the clock reading after it, pushed one after the other, go in one request", async () => {
  server = (path, body) => ({ status: 200, body: { ack: body.ops.at(-1).seq } });
  const { sync, store } = board({});
  // as the pad's addEntry: the entry is queued and pushed, then the clock's reading after it
  store.data.pending.push(op(1));
  const first = sync.push();
  store.data.pending.push({ seq: 2, op: "clock" });
  const second = sync.push();
  await Promise.all([first, second]);
  assert.equal(requests.length, 1);
  assert.deepEqual(JSON.parse(requests[0].init.body).ops.map((/** @type {any} */ o) => o.seq), [1, 2]);
  assert.deepEqual(store.data.pending, []);
});

test("retries are spread at random and bounded, so a hall of pads does not ask at once", () => {
  for (let retry = 0; retry < 12; retry++) {
    const low = retryDelay(retry, () => 0);
    const high = retryDelay(retry, () => 0.999999);
    const base = Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * 2 ** retry);
    assert.equal(low, base / 2);
    assert.ok(high < base && high > low, `retry ${retry}: ${low}-${high}`);
  }
  assert.ok(retryDelay(30) <= RETRY_CAP_MS && RETRY_CAP_MS <= 5000, "back within seconds");
  const spread = new Set(Array.from({ length: 50 }, () => Math.round(retryDelay(5))));
  assert.ok(spread.size > 10, "jittered");
});

test("when the Wi-Fi returns the pad sends within the spread, not at the same instant as the rest", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    server = (path, body) => ({ status: 200, body: { ack: body.ops.at(-1).seq } });
    const random = mock.method(Math, "random", () => 0.5);
    Object.assign(globalThis, { window: new EventTarget() }); // this pad's "online" only
    const { sync } = board({ pending: [op(1)], nextSeq: 2 });
    window.dispatchEvent(new Event("online"));
    await Promise.resolve();
    assert.equal(requests.length, 0, "not at once");
    mock.timers.tick(ONLINE_SPREAD_MS / 2 - 1);
    assert.equal(requests.length, 0);
    mock.timers.tick(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(requests.length, 1);
    random.mock.restore();
    clearTimeout(sync.timer);
  } finally {
    mock.timers.reset();
  }
});
