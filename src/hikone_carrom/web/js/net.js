// JSON over WebSocket with numbered events: a client that sees a gap asks to resync, and a
// dropped connection reconnects with capped exponential back-off and gets its seat back with the
// stored token. A room the server does not know is never retried.
// Every action (a shot, a hint request, a rematch, ...) carries a fresh id and stays pending
// until the server answers it; after a reconnect the pending ones are sent again with the same
// ids, and the server plays each id at most once (a repeat gets a "duplicate" notice).

const UNREACHABLE = {
  en: "The server cannot be reached. Check the connection and try again.",
  ja: "サーバーに接続できません。接続を確かめて、もう一度お試しください。",
};

/** Fields of the new-game form that have their own sentences. */
const FORM_FIELDS = new Set(["name", "minutes"]);

/** What a person reads about one refused field of a request (a 422's field and error type). */
export function fieldMessage(field, type) {
  if (field === "name") {
    return type === "string_too_long"
      ? { en: "A name has at most 24 characters.", ja: "名前は24文字までです。" }
      : { en: "A name may not contain < or > or control characters.", ja: "名前に < や > や制御文字は使えません。" };
  }
  if (field === "minutes") {
    return { en: "Enter the match time in whole minutes, from 1 to 60.", ja: "試合時間は1〜60の分で入力してください。" };
  }
  return { en: `This value is not accepted (${field}).`, ja: `この値は受け付けられません（${field}）。` };
}

/** The signed-in session's CSRF token (js/account.js), sent on every state-changing request. */
let csrf = /** @type {string | null} */ (null);

/** Keep the session's CSRF token (null: signed out). @param {string | null} token */
export function setCsrf(token) {
  csrf = token;
}

/**
 * JSON request to the server. A refusal throws an Error whose `msg` is an {en, ja} sentence and
 * whose `fields` maps each refused field to its own sentence (never a raw object).
 */
/**
 * @typedef {{en: string, ja: string}} Sentence
 * @typedef {Error & {status?: number, detail?: unknown, msg: Sentence, fields: Record<string, Sentence>}} ApiError
 */
/**
 * @param {string} path
 * @param {{method?: string, body?: unknown, headers?: Record<string, string>}} [options]
 *   body: sent as JSON unless it is a string already
 */
export async function api(path, options = {}) {
  /** @type {{method?: string, headers: Record<string, string>, body?: any}} */
  const init = { headers: { "content-type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const method = (init.method || "GET").toUpperCase();
  if (csrf && !["GET", "HEAD", "OPTIONS"].includes(method)) init.headers = { ...init.headers, "x-csrf-token": csrf };
  let res, data;
  try {
    res = await fetch(path, init);
    const text = await res.text();
    data = text ? JSON.parse(text) : null;
  } catch (cause) {
    const err = /** @type {ApiError} */ (new Error(UNREACHABLE.en, { cause }));
    err.msg = UNREACHABLE;
    err.fields = {};
    throw err;
  }
  if (!res.ok) {
    const detail = data && data.detail;
    /** @type {Record<string, Sentence>} */
    const fields = {};
    /** @type {Sentence | null} */
    let msg = null;
    if (Array.isArray(detail)) {
      for (const item of detail) {
        const loc = Array.isArray(item.loc) ? item.loc : [];
        const field = String(loc[loc.length - 1] ?? "");
        fields[field] ||= fieldMessage(field, item.type);
        msg ||= fields[field];
      }
    } else if (detail && typeof detail === "object" && (detail.en || detail.ja)) {
      msg = { en: String(detail.en || detail.ja), ja: String(detail.ja || detail.en) };
      for (const f of Array.isArray(detail.fields) ? detail.fields : []) {
        // the form's own sentence for its fields, else the server's sentence for the field
        fields[f.field] = FORM_FIELDS.has(f.field) && f.type
          ? fieldMessage(f.field, f.type)
          : { en: String(f.en), ja: String(f.ja) };
        msg ||= fields[f.field];
      }
    } else if (typeof detail === "string") {
      msg = { en: detail, ja: detail };
    }
    msg ||= {
      en: `The server refused the request (${res.status}).`,
      ja: `サーバーが要求を受け付けませんでした（${res.status}）。`,
    };
    const err = /** @type {ApiError} */ (new Error(msg.en));
    err.status = res.status;
    err.detail = detail;
    err.msg = msg;
    err.fields = fields;
    throw err;
  }
  return data;
}

const TOKEN_PREFIX = "hikone-carrom.token.";
const TOKEN_KEY = (roomId) => `${TOKEN_PREFIX}${roomId}`;

/** Every [room id, seat token] this browser keeps. */
export function allTokens() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(TOKEN_PREFIX)) out.push([key.slice(TOKEN_PREFIX.length), localStorage.getItem(key)]);
  }
  return out;
}

/** Forget the seat token of a room (it no longer exists or no longer knows the token). */
export function forgetToken(roomId) {
  localStorage.removeItem(TOKEN_KEY(roomId));
}

/** The seat token this browser holds for a room (kept in localStorage), or null. */
export function loadToken(roomId) {
  return localStorage.getItem(TOKEN_KEY(roomId));
}

export function saveToken(roomId, token) {
  localStorage.setItem(TOKEN_KEY(roomId), token);
}

/** Messages that are not actions: they change nothing and need no id. */
const NOT_ACTIONS = new Set(["hello", "resync", "ping"]);

/** A random id for one action (getRandomValues works on plain http on a LAN too). */
export function actionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const RETRY_FIRST_MS = 500;
export const RETRY_MAX_MS = 15000;

export class RoomConnection {
  /**
   * handlers: {snapshot(msg), event(ev), hint(msg), error(msg), gone(msg), status(info)}.
   * status gets {state: "connecting" | "open" | "reconnecting" | "offline" | "gone", retryAt}
   * (retryAt: performance.now() of the next attempt while reconnecting). A room the server
   * does not know ("no_room") is "gone": the connection stops for good.
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.seq = 0;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.pending = new Map(); // action id -> message, in the order sent
    this.state = "connecting";
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this._online = () => this.state === "offline" && this.open();
    window.addEventListener("online", this._online);
  }

  /**
   * @param {string} state
   * @param {number | null} [retryAt] performance.now() of the next attempt (ms)
   */
  _status(state, retryAt = null) {
    this.state = state;
    this.retryAt = retryAt;
    this.handlers.status?.({ state, retryAt });
  }

  open() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this._status(this.retry ? "reconnecting" : "connecting");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: loadToken(this.roomId), last_seq: this.seq }));
      for (const m of this.pending.values()) ws.send(JSON.stringify(m));
    });
    ws.addEventListener("message", (e) => this._onMessage(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      this._later();
    });
  }

  /** Try again after an exponential, capped and jittered delay; wait for the network if the
   * browser is offline. */
  _later() {
    if (navigator.onLine === false) {
      this.retry = Math.max(1, this.retry);
      this._status("offline");
      return;
    }
    const base = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.retry++);
    const delay = base * (0.8 + 0.4 * Math.random());
    this.delay = delay; // ms before the next attempt
    this._status("reconnecting", performance.now() + delay);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Reconnect now instead of waiting for the next attempt. */
  retryNow() {
    if (this.closed || this.ws) return;
    this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this._online);
    if (this.ws) this.ws.close();
  }

  /** Send a message; an action gets an id and is kept until answered (sent again after a
   * reconnect). Returns the action's id (null for other messages). */
  send(msg) {
    let id = null;
    if (!NOT_ACTIONS.has(msg.type)) {
      id = msg.id || actionId();
      msg = { ...msg, id };
      this.pending.set(id, msg);
    }
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    return id;
  }

  _answered(id) {
    if (id) this.pending.delete(id);
  }

  _onMessage(msg) {
    if (msg.type === "event") this._answered(msg.event && msg.event.action_id);
    else if (msg.id) this._answered(msg.id); // an answer to this client alone: error, duplicate, hint, analysis
    if (msg.type === "snapshot") {
      this.seq = msg.seq;
      this.retry = 0; // a room that answers: the next drop starts the back-off afresh
      if (this.state !== "open") this._status("open");
      this.handlers.snapshot(msg);
    } else if (msg.type === "event") {
      if (msg.seq <= this.seq) return; // already seen
      if (msg.seq !== this.seq + 1) {
        this.send({ type: "resync", last_seq: this.seq });
        return;
      }
      this.seq = msg.seq;
      this.handlers.event(msg);
    } else if (msg.type === "hint") {
      this.handlers.hint?.(msg);
    } else if (msg.type === "error" && msg.code === "no_room") {
      this.closed = true; // no such room: never try again
      clearTimeout(this.timer);
      this.ws?.close();
      this._status("gone");
      this.handlers.gone?.(msg);
    } else if (msg.type === "error") {
      this.handlers.error?.(msg);
    } else if (msg.type === "presence" || msg.type === "analysis") {
      this.handlers.notice?.(msg); // not numbered: who is connected, an analysis's progress
    }
  }
}
