// JSON over WebSocket with numbered events: a client that sees a gap asks to resync, and a
// dropped connection reconnects with back-off and gets its seat back with the stored token.

export async function api(path, options = {}) {
  const init = { headers: { "content-type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const res = await fetch(path, init);
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const detail = data && data.detail;
    const err = new Error((detail && (detail.en || detail)) || res.statusText);
    err.status = res.status;
    err.detail = detail;
    // a refused field, one sentence each ({en, ja}) by field name (docs/server.md, 422)
    err.fields = Object.fromEntries(((detail && detail.fields) || []).map((f) => [f.field, { en: f.en, ja: f.ja }]));
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

export class RoomConnection {
  /**
   * handlers: {snapshot(msg), event(ev), hint(msg), error(msg), status(connected: bool)}
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.seq = 0;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.queue = [];
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: loadToken(this.roomId), last_seq: this.seq }));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      this.handlers.status?.(true);
    });
    ws.addEventListener("message", (e) => this._onMessage(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.handlers.status?.(false);
      if (this.closed) return;
      const delay = Math.min(8000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.open(), delay);
    });
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  _onMessage(msg) {
    if (msg.type === "snapshot") {
      this.seq = msg.seq;
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
    } else if (msg.type === "error") {
      this.handlers.error?.(msg);
    } else if (msg.type === "presence" || msg.type === "analysis") {
      this.handlers.notice?.(msg); // not numbered: who is connected, an analysis's progress
    }
  }
}
