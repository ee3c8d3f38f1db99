// Nothing lost when the Wi-Fi drops: every change is an op numbered per device, kept in
// localStorage until the server has applied it; the server applies each exactly once, in order
// (pads.py). A second device is refused until the referee takes the board over.

const DEVICE_KEY = "hikone-carrom.pad.device";
/** @param {string} id */
const boardKey = (id) => `hikone-carrom.pad.${id}`;

export function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = `pad-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/**
 * What a pad keeps of a board: its token, the match (number, set-up, entries), the clock (see
 * clock.js), the ops not yet applied by the server and their numbering.
 * @typedef {{number: number, setup: any, entries: any[], confirmed: boolean}} StoredMatch
 * @typedef {{seq: number, op: string, [field: string]: unknown}} Op
 * @typedef {{token: string | null, match: StoredMatch | null,
 *   clock: ReturnType<typeof import("./clock.js").newClock> | null, pending: Op[],
 *   nextSeq: number, ack: number, name: string}} BoardData
 */

/**
 * @param {string} boardId
 * @returns {BoardData}
 */
export function load(boardId) {
  try {
    const raw = localStorage.getItem(boardKey(boardId));
    if (raw) return JSON.parse(raw);
  } catch {
    /* unreadable: start afresh */
  }
  return { token: null, match: null, clock: null, pending: [], nextSeq: 1, ack: 0, name: "" };
}

/** @param {string} boardId @param {BoardData} data */
export function save(boardId, data) {
  localStorage.setItem(boardKey(boardId), JSON.stringify(data));
}

/**
 * A refusal of the server: its sentence (and code) in detail.
 * @typedef {{en: string, ja: string, code?: string}} Detail
 */

class HttpError extends Error {
  /** @param {number} status @param {Detail | null} detail */
  constructor(status, detail) {
    super((detail && detail.en) || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/**
 * @param {string} path
 * @param {string | null} token the board's
 * @param {unknown} body
 * @returns {Promise<any>} the server's answer
 */
async function post(path, token, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, data && data.detail);
  return data;
}

/** The pad's retries while the server cannot be reached: the n-th after RETRY_FIRST_MS * 2^n, at
 * most RETRY_CAP_MS, each at a random point of its second half; when the Wi-Fi returns, at a
 * random point within ONLINE_SPREAD_MS. A hall of pads back from the same Wi-Fi drop then asks
 * over a few seconds, not all at once, and each is back within RETRY_CAP_MS. */
export const RETRY_FIRST_MS = 1000;
export const RETRY_CAP_MS = 2000;
export const ONLINE_SPREAD_MS = 2000;

/**
 * @param {number} retry how many attempts failed in a row before this one (from 0)
 * @param {() => number} [random] in [0, 1)
 * @returns {number} ms to wait
 */
export function retryDelay(retry, random = Math.random) {
  const base = Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * 2 ** retry);
  return base / 2 + (random() * base) / 2;
}

/**
 * The board's link to the server. handlers: {answer(data), refused(detail), offline(), rejected(r)}.
 * Call push() after every change; it sends the pending ops when it can and retries when not.
 * @typedef {{answer: (answer: any) => void, refused: (detail: Detail) => void,
 *   offline: () => void, rejected: (rejected: any, answer: any) => void}} Handlers
 */
export class Sync {
  /**
   * @param {string} boardId
   * @param {{data: BoardData, persist: () => void}} store
   * @param {Handlers} handlers
   */
  constructor(boardId, store, handlers) {
    this.boardId = boardId;
    this.store = store; // {data, persist()}
    this.handlers = handlers;
    this.device = deviceId();
    this.busy = false;
    this.again = false;
    this.retry = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.online = false;
    /** @type {Promise<void> | null} the send push() has planned and not yet begun */
    this.planned = null;
    window.addEventListener("online", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.push(), Math.random() * ONLINE_SPREAD_MS);
    });
  }

  get data() {
    return this.store.data;
  }

  async claim() {
    return this._run(() => post(`/api/boards/${this.boardId}/claim`, this.data.token, { device: this.device }));
  }

  async takeover() {
    const answer = await post(`/api/boards/${this.boardId}/takeover`, this.data.token, { device: this.device });
    this.renumber(answer.ack);
    this.handlers.answer(answer);
    return this.push();
  }

  /** After a takeover the server counts this device's ops from ack + 1 again. @param {number} ack */
  renumber(ack) {
    let seq = ack;
    for (const op of this.data.pending) op.seq = ++seq;
    this.data.nextSeq = seq + 1;
    this.data.ack = ack;
    this.store.persist();
  }

  /** Send the pending ops once the current task is done: an entry and the clock reading after
   * it, pushed one after the other, go in one request.
   * @returns {Promise<void>} */
  push() {
    if (this.busy) {
      this.again = true;
      return Promise.resolve();
    }
    this.planned ??= Promise.resolve().then(() => {
      this.planned = null;
      return this._run(() => post(`/api/boards/${this.boardId}/ops`, this.data.token, { device: this.device, ops: this.data.pending.slice(0, 200), sent_ms: Date.now() }));
    });
    return this.planned;
  }

  /**
   * @param {() => Promise<any>} request
   * @returns {Promise<void>}
   */
  async _run(request) {
    clearTimeout(this.timer);
    this.busy = true;
    try {
      const answer = await request();
      this.online = true;
      this.retry = 0;
      this.data.ack = answer.ack;
      this.data.pending = this.data.pending.filter((op) => op.seq > answer.ack);
      this.store.persist();
      if (answer.rejected) this.handlers.rejected(answer.rejected, answer);
      this.handlers.answer(answer);
      if (this.data.pending.length && !answer.rejected) this.again = true;
    } catch (err) {
      if (err instanceof HttpError && err.status === 409 && err.detail && err.detail.code === "other_device") {
        this.online = true;
        this.handlers.refused(err.detail);
      } else if (err instanceof HttpError && err.status < 500) {
        this.online = true;
        this.handlers.refused(err.detail || { en: err.message, ja: err.message });
      } else {
        this.online = false;
        this.handlers.offline();
        this.timer = setTimeout(() => this.push(), retryDelay(this.retry++));
      }
    } finally {
      this.busy = false;
    }
    if (this.again) {
      this.again = false;
      return this.push();
    }
  }
}

/** A read-only live view of a board: a snapshot, then numbered events; a gap asks to resync. */
export class Watch {
  /**
   * @param {string} boardId
   * @param {(board: any) => void} onBoard the board's snapshot (server/pad_views.py)
   * @param {(event: any) => void} onEvent
   */
  constructor(boardId, onBoard, onEvent) {
    this.boardId = boardId;
    this.onBoard = onBoard;
    this.onEvent = onEvent;
    this.seq = 0;
    this.closed = false;
    this.retry = 0;
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/boards/${encodeURIComponent(this.boardId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", last_seq: this.seq }));
    });
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "snapshot") {
        this.seq = msg.seq;
        this.onBoard(msg.board);
      } else if (msg.type === "event") {
        if (msg.seq <= this.seq) return;
        if (msg.seq !== this.seq + 1) {
          ws.send(JSON.stringify({ type: "resync", last_seq: this.seq }));
          return;
        }
        this.seq = msg.seq;
        this.onEvent(msg.event);
      }
    });
    ws.addEventListener("close", () => {
      if (this.closed || this.ws !== ws) return;
      setTimeout(() => !this.closed && this.open(), Math.min(8000, 500 * 2 ** this.retry++));
    });
  }
}
