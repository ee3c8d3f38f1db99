// JSON over WebSocket with numbered events: a client that sees a gap asks to resync, and a
// dropped connection reconnects with back-off and gets its seat back with the stored token.
// Every action (a shot, a hint request, a rematch, ...) carries a fresh id and stays pending
// until the server answers it; after a reconnect the pending ones are sent again with the same
// ids, and the server plays each id at most once (a repeat gets a "duplicate" notice).

export async function api(path, options = {}) {
  const init = { headers: { "content-type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const res = await fetch(path, init);
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = new Error((data && data.detail && (data.detail.en || data.detail)) || res.statusText);
    err.status = res.status;
    err.detail = data && data.detail;
    throw err;
  }
  return data;
}

const TOKEN_KEY = (roomId) => `hikone-carrom.token.${roomId}`;

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
    this.pending = new Map(); // action id -> message, in the order sent
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: loadToken(this.roomId), last_seq: this.seq }));
      for (const m of this.pending.values()) ws.send(JSON.stringify(m));
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
    else if (msg.type === "duplicate" || msg.type === "error" || msg.type === "hint") this._answered(msg.id);
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
    }
  }
}
