// The game page: board, shot input, animation of the server's tracks, HUD and end screen.
import { BoardView } from "./board.js";
import { guide, nearestFree, placeOn, pointAt, shooterFrame } from "./aim.js";
import { explain, outcomeTitle } from "./explain.js";
import { aimDrawing, ShotGesture } from "./gesture.js";
import { chip, renderCounts, renderLog, text } from "./hud.js";
import { applyI18n, onLangChange, pick, show, t } from "./i18n.js";
import { api, RoomConnection, saveToken } from "./net.js";
import { currentAccount } from "./account.js";
import { askGuestName } from "./guestname.js";
import { notFound } from "./notfound.js";
import { playShot, playSound } from "./sound.js";
import { Social } from "./social.js";
import { disksAt, everyFrame, tracksDuration } from "./tracks.js";

const SIDES2 = ["south", "north"];
const SIDES4 = ["south", "west", "north", "east"];
const BANNER_MS = 4500;
const TITLE = document.title;

export class RoomPage {
  constructor(root, roomId) {
    this.root = root;
    this.roomId = roomId;
    this.room = null;
    this.state = null;
    this.geometry = null;
    this.mySeats = new Set();
    this.queue = [];
    this.anim = null;
    this.log = [];
    this.aim = { x: 0, y: 0, s: 0.5, ok: true, angle: Math.PI / 2, power: 0.45 };
    // display frames per second; boards drawn (only when the scene changed); boards drawn
    // while a shot animates and the seconds animated (the bench's frame rate)
    this.stats = { frames: 0, since: performance.now(), fps: 0, draws: 0, animFrames: 0, animTime: 0 };
    this.clockAt = 0;
    this.pendingShot = false;
    this.hint = null; // the expert's suggestion for the current position (a "hint" message)
    this.hintPending = false;
    this.adopted = null; // the aim as set by "Use this shot", with the exact suggested shot
    this.lastOverlay = null;
    this.disposers = [];
    /** @type {Map<string, {en: string, ja: string}>} the computer levels' names by id (/api/levels) */
    this.levelNames = new Map();
    // set by mount()
    /** @type {HTMLCanvasElement} */
    this.canvas;
    /** @type {Social} */
    this.social;
    /** @type {RoomConnection} */
    this.conn;
    /** @type {BoardView} set by the first snapshot */
    this.view;
    window.__game = this;
  }

  async mount() {
    this.root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-room")).content.cloneNode(true));
    applyI18n(this.root);
    this.canvas = this.root.querySelector("#board");
    this.social = new Social(this);
    this.social.mount();
    this.conn = new RoomConnection(this.roomId, {
      snapshot: (m) => this.onSnapshot(m),
      event: (m) => this.onEvent(m),
      hint: (m) => this.onHint(m),
      error: (m) => this.onError(m),
      gone: () => this.onGone(),
      status: (info) => this.onStatus(info),
      notice: (m) => this.social.notice(m),
    });
    this.conn.open();
    this._bindInput();
    api("/api/levels").then(
      (res) => {
        for (const level of res.levels) this.levelNames.set(level.id, { en: level.en, ja: level.ja });
        this.renderHud();
      },
      () => {}, // the level's id stands in for its name
    );
    this.disposers.push(onLangChange(() => {
      this.renderHud();
      this.signalTurn(true); // the title in the new language; no chime
    }));
    const tick = setInterval(() => this.renderConn(), 500);
    this.disposers.push(() => clearInterval(tick));
    everyFrame((now) => this.frame(now), () => !this.disposed);
  }

  dispose() {
    this.disposed = true;
    this.conn?.close();
    this.gesture?.dispose();
    for (const d of this.disposers) d();
    document.title = TITLE;
    if (window.__game === this) window.__game = null;
  }

  // ---- messages ----------------------------------------------------------------------------

  onSnapshot(msg) {
    const first = !this.geometry;
    this.room = msg.room;
    this.geometry = msg.board;
    this.mySeats = new Set(msg.you.seats);
    this.state = msg.state;
    this.clockAt = performance.now();
    this.log = msg.log.map((ev) => ({ ev })).reverse();
    this.queue = [];
    this.anim = null;
    this.pendingShot = false;
    this.hintPending = false;
    if (this.hint && !this.hintFits(this.hint)) this.clearHint();
    if (first) this.view = new BoardView(this.canvas, this.geometry);
    this.root.querySelector(".room").classList.remove("is-loading");
    this.view.setViewSide(this.viewSide());
    this.resetAim();
    this.social.snapshot(msg);
    this.renderHud();
    this.signalTurn(first);
  }

  onEvent(msg) {
    if (msg.event.kind === "chat") {
      this.social.chatLine(msg.event); // nothing of the game changes: no need to wait
      return;
    }
    this.queue.push(msg.event);
    if (!this.anim) this.nextEvent();
  }

  onError(msg) {
    if (msg.code.startsWith("chat") || msg.code === "spectator_text") {
      this.social.chatRefused(msg);
      return;
    }
    show(this.root.querySelector("#shot-error"), msg.message || { en: msg.code, ja: msg.code });
    this.pendingShot = false;
    if (this.hintPending) {
      this.hintPending = false;
      this.renderHint();
    }
  }

  /** The server knows no such room: say so plainly, with the ways back. */
  onGone() {
    this.dispose();
    notFound(this.root, "room");
  }

  onStatus(info) {
    const was = this.connInfo?.state;
    this.connInfo = info;
    this.renderConn();
    // said once per change, not every second of the countdown
    if (info.state !== was && (info.state === "reconnecting" || info.state === "offline")) {
      this.announce(t(`conn.${info.state}`));
    }
  }

  /** The connection's state where players see it: connecting, reconnecting in N s, offline. */
  renderConn() {
    const el = this.root.querySelector("#conn");
    const info = this.connInfo;
    if (!el || !info) return;
    el.hidden = info.state === "open" || info.state === "gone";
    el.dataset.state = info.state;
    const msg = el.querySelector("#conn-text");
    if (info.state === "reconnecting" && info.retryAt) {
      const s = Math.max(1, Math.ceil((info.retryAt - performance.now()) / 1000));
      show(msg, { key: "conn.retry_in", params: { s } });
    } else show(msg, `conn.${info.state}`);
    el.querySelector("#conn-retry").hidden = !(info.state === "reconnecting" && info.retryAt);
  }

  nextEvent() {
    const ev = this.queue.shift();
    if (!ev) return;
    if (ev.kind === "shot") {
      this.anim = { ev, start: performance.now(), duration: tracksDuration(ev.tracks) };
      show(this.root.querySelector("#shot-error"), null);
      playShot(ev.sounds);
    } else {
      this.applyEvent(ev);
      this.nextEvent();
    }
  }

  applyEvent(ev) {
    if (ev.room) this.room = ev.room;
    const prevShooter = this.state?.shooter;
    if (ev.state) {
      this.state = ev.state;
      this.clockAt = performance.now();
    }
    if (["shot", "skip", "time_called", "rematch", "resign", "draw", "vote", "hint", "withdrawn"].includes(ev.kind)) {
      this.log.unshift({ ev });
      const lines = () => (ev.kind === "rematch" ? [{ text: t("msg.rematch") }] : explain(ev, (s) => this.seatName(s)));
      const main = () => {
        const all = lines();
        // a hint's banner is who used it; its text stays in the log
        const line = ev.kind === "hint" ? all[0] : all.find((l) => l.kind === "penalty") || all.find((l) => l.kind === "win") || all[all.length - 1];
        return line ? line.text : "";
      };
      this.banner(main);
      this.announce(lines().map((l) => l.text).join(" "));
    }
    this.social.applied(ev);
    if (ev.kind === "rematch") {
      this.log = [];
      this.endClosed = false;
    }
    this.pendingShot = false;
    if (this.hint && !this.hintFits(this.hint)) this.clearHint();
    if (this.state && this.state.shooter !== prevShooter) this.resetAim();
    else if (this.state && ev.kind === "shot") this.resetAim(true);
    this.view?.setViewSide(this.viewSide());
    this.renderHud();
    this.signalTurn(false);
  }

  // ---- your turn ----------------------------------------------------------------------------

  /** When the turn comes to this page: say it in the title, the live region, a chime and (on
   * phones) a short vibration; the title says it as long as the turn lasts. Not on arrival. */
  signalTurn(arrived) {
    const mine = Boolean(this.myTurn());
    const shooter = this.state && !this.state.over ? this.state.shooter : null;
    if (shooter !== this.lastShooterSignal || mine !== this.wasMine) {
      if (shooter !== null && shooter !== undefined && !arrived) this.announce(this.turnText(), true);
      if (mine && !this.wasMine && !arrived) {
        playSound("turn");
        if (this.room.mode !== "hotseat") navigator.vibrate?.([120, 60, 120]);
      }
    }
    this.lastShooterSignal = shooter;
    this.wasMine = mine;
    document.title = mine ? `● ${this.turnText()} · ${TITLE}` : TITLE;
  }

  // ---- the expert's hint --------------------------------------------------------------------

  /** Does a hint answer belong to the position on the board now (same game, action, seat)? */
  hintFits(h) {
    const st = this.state;
    return Boolean(
      st && this.room && !st.over && h.game_id === this.room.game_id && h.actions === st.actions &&
      h.seat === st.shooter,
    );
  }

  /** Ask the server for the expert's shot for the seat whose turn it is (answered to us only). */
  askHint() {
    if (!this.myTurn() || !this.room.hints || this.hintPending || this.pendingShot) return;
    if (this.hint && this.hintFits(this.hint)) return;
    this.hintPending = true;
    show(this.root.querySelector("#shot-error"), null);
    this.conn.send({ type: "hint", seat: this.state.shooter });
    this.renderHint();
  }

  onHint(msg) {
    this.hintPending = false;
    if (this.hintFits(msg)) {
      this.hint = msg;
      this.hintFocus = true; // the player's own guide steps aside until they aim again
    }
    this.renderHint();
  }

  clearHint() {
    this.hint = null;
    this.adopted = null;
    this.hintPending = false;
    this.renderHint();
  }

  /** Put the suggested placement, angle and power into the aim; the player still shoots. */
  useHint() {
    const h = this.hint;
    if (!h || !this.hintFits(h) || !this.myTurn()) return;
    const { x, y, angle, speed } = h.shot;
    const spot = placeOn(this.state.placement, x, y);
    Object.assign(this.aim, { x, y, s: spot.s, ok: true, angle, power: speed / this.geometry.max_speed });
    this.adopted = { x, y, angle, power: this.aim.power, shot: { ...h.shot } };
    this.formEdited = false;
    this.syncForm();
    this.canvas.focus();
    show(this.root.querySelector("#hint-status"), "hint.used");
  }

  /** What the board draws for a hint: the suggested striker, a dashed aim line to the first
   * contact, the power, and the target piece's way to its pocket. */
  hintOverlay(h) {
    const { x, y, angle, speed } = h.shot;
    const g = guide(this.geometry, this.state.layout, x, y, angle, "striker");
    const target = this.state.layout.find((d) => d.id === h.target) || null;
    return {
      from: [x, y],
      to: g.to,
      angle,
      power: h.power,
      label: `${speed.toFixed(2)} m/s · ${Math.round(h.power * 100)}%`,
      target: target ? [target.x, target.y, target.r] : null,
      pocket: h.pocket_at,
      color: this.room.seats[h.seat].color,
    };
  }

  /** The adopted suggestion if the aim has not been changed since "Use this shot". */
  adoptedShot() {
    const a = this.adopted;
    if (!a) return null;
    const same = a.x === this.aim.x && a.y === this.aim.y && a.angle === this.aim.angle && a.power === this.aim.power;
    return same ? a.shot : null;
  }

  renderHint() {
    const box = this.root.querySelector("#hintbox");
    if (!box || !this.room) return;
    box.hidden = !this.room.hints;
    const h = this.hint && this.hintFits(this.hint) ? this.hint : null;
    this.root.querySelector("#hint-ask").disabled = !this.myTurn() || this.hintPending || Boolean(h);
    const status = this.root.querySelector("#hint-status");
    if (this.hintPending) show(status, "hint.thinking");
    else if (!this.adoptedShot()) show(status, h ? "hint.title" : null);
    const card = this.root.querySelector("#hint-card");
    card.hidden = !h;
    if (h) this.root.querySelector("#hint-text").textContent = pick(h.text);
    this.root.querySelector("#hint-use").disabled = !h || !this.myTurn();
  }

  // ---- seats and turns ---------------------------------------------------------------------

  sides() {
    return this.room.players === 4 ? SIDES4 : SIDES2;
  }

  /** The side shown at the bottom: on one device (hot-seat) the shooter's, so that every
   * player pulls back from their own side; online, the viewer's own seat; else south. */
  viewSide() {
    if (!this.room) return "south";
    if (this.room.mode === "hotseat") {
      const shooter = this.state?.shooter;
      if (shooter === null || shooter === undefined) return this.view?.side ?? "south";
      return this.sides()[shooter];
    }
    if (this.mySeats.size === 0) return "south";
    return this.sides()[Math.min(...this.mySeats)];
  }

  seatName(seat) {
    const s = this.room.seats[seat];
    if (!s) return "?";
    if (s.kind === "computer") {
      const level = s.name ? this.levelNames.get(s.name) : undefined;
      const name = level ? pick(level) : s.name;
      return `${t("seat.computer")}${name ? ` (${name})` : ""}`;
    }
    if (s.name) return s.name;
    return s.label ? pick(s.label) : t("seat.player", { n: seat + 1 }); // "Red (south)" (R1b, R1c)
  }

  myTurn() {
    return (
      this.state && !this.state.over && this.state.shooter !== null && this.mySeats.has(this.state.shooter) &&
      this.room.seats[this.state.shooter].kind === "human" && !this.anim && this.queue.length === 0
    );
  }

  resetAim(keepAim = false) {
    if (!this.state || !this.state.placement) return;
    const p = this.state.placement;
    const side = this.sides()[this.state.shooter] || "south";
    const frame = shooterFrame(side);
    const at = pointAt(p, nearestFree(p, keepAim ? this.aim.s : 0.5));
    const spot = placeOn(p, at[0], at[1]);
    this.gesture?.cancel();
    Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok, pull: null, armed: false });
    this.aim.ahead = frame.ahead;
    this.aim.right = frame.right;
    if (!keepAim) {
      this.aim.angle = frame.ahead;
      this.aim.power = 0.45;
    }
    this.formEdited = false;
    this.clearFieldErrors();
    this.syncForm();
  }

  // ---- input -------------------------------------------------------------------------------

  _bindInput() {
    const c = this.canvas;
    this.gesture = new ShotGesture(c, {
      enabled: () => Boolean(this.myTurn() && !this.pendingShot && this.view),
      aim: () => this.aim,
      placement: () => this.state?.placement,
      toWorld: (cx, cy) => {
        const rect = c.getBoundingClientRect();
        return this.view.fromClient(cx - rect.left, cy - rect.top);
      },
      toClient: (x, y) => {
        const rect = c.getBoundingClientRect();
        const [sx, sy] = this.view.toScreen(x, y);
        return [rect.left + sx / this.view.dpr, rect.top + sy / this.view.dpr];
      },
      place: (x, y) => {
        this.hintFocus = false;
        this.setSpot(x, y);
      },
      pull: ({ angle, power, point, armed }) => {
        this.hintFocus = false;
        Object.assign(this.aim, { angle, power, pull: point, armed });
        this.syncForm();
      },
      restore: (saved) => {
        Object.assign(this.aim, saved, { pull: null, armed: false });
        this.syncForm();
      },
      release: () => {
        Object.assign(this.aim, { pull: null, armed: false });
        this.shoot();
      },
    });
    c.addEventListener("keydown", (e) => this._key(e));
    const form = this.root.querySelector("#numeric");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!this.myTurn()) return;
      if (this.adoptedShot() && !this.formEdited) {
        this.shoot(); // the suggested shot exactly, not its rounded figures in the form
        return;
      }
      if (this.readForm(true)) this.shoot();
    });
    for (const input of form.querySelectorAll("input")) {
      input.addEventListener("input", () => {
        if (!this.myTurn()) return;
        this.formEdited = true;
        this.hintFocus = false;
        this.readForm(false);
      });
    }
    this.root.querySelector("#end-close").addEventListener("click", () => {
      this.endClosed = true;
      this.renderHud();
      this.root.querySelector("#end-open").focus();
    });
    this.root.querySelector("#end-open").addEventListener("click", () => {
      this.endClosed = false;
      this.renderHud();
      this.root.querySelector("#end-close").focus();
    });
    this.root.querySelector("#conn-retry").addEventListener("click", () => this.conn.retryNow());
    this.root.querySelector("#hint-ask").addEventListener("click", () => this.askHint());
    this.root.querySelector("#hint-use").addEventListener("click", () => this.useHint());
    this.root.querySelector("#hint-dismiss").addEventListener("click", () => {
      this.hint = null;
      this.adopted = null;
      this.renderHint();
    });
    this.root.querySelector("#copy-link").addEventListener("click", async () => {
      const input = this.root.querySelector("#share-link");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        document.execCommand?.("copy");
      }
      this.root.querySelector("#copy-link").textContent = t("share.copied");
    });
    const onResize = () => this.view && (this.view.staticLayer = null);
    window.addEventListener("resize", onResize);
    this.disposers.push(() => window.removeEventListener("resize", onResize));
  }

  /** Put the striker at the point of the area line nearest (x, y) (R2b decides if it may
   * stand); `sync` shows it in the typed form too (not while the form itself is being read). */
  setSpot(x, y, sync = true) {
    const spot = placeOn(this.state.placement, x, y);
    Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok });
    if (sync) this.syncForm();
  }

  /**
   * Read the typed shot in the shooter's own frame: position (mm, + = to the shooter's right of
   * the tee spot), angle (°, 0 = straight ahead, + = to the right) and speed (m/s). Every
   * figure that reads well moves the drawn striker and guide at once; on submit (`final`) a
   * missing or out-of-range figure gets its own sentence next to its field. True if all is well.
   */
  readForm(final) {
    const form = this.root.querySelector("#numeric");
    const p = this.state.placement;
    const half = p.kind === "line" ? (lineLength(p) / 2) * 1000 : 0;
    const maxSpeed = this.geometry.max_speed;
    const read = (name) => {
      const raw = form.elements.namedItem(name).value.trim();
      return raw === "" ? NaN : Number(raw);
    };
    const pos = read("pos"), angle = read("angle"), speed = read("speed");
    const errors = {};
    if (p.kind === "line") {
      if (Number.isFinite(pos) && Math.abs(pos) <= half + 0.5) {
        const [tx, ty] = pointAt(p, 0.5);
        const [rx, ry] = this.aim.right;
        this.setSpot(tx + (rx * pos) / 1000, ty + (ry * pos) / 1000, false);
        if (!this.aim.ok) errors.pos = "place.blocked";
      } else errors.pos = { key: "form.pos", params: { max: Math.floor(half) } };
    }
    if (Number.isFinite(angle) && Math.abs(angle) <= 180) {
      this.aim.angle = this.aim.ahead - (angle * Math.PI) / 180;
    } else errors.angle = "form.angle";
    if (Number.isFinite(speed) && speed > 0 && speed <= maxSpeed) {
      this.aim.power = speed / maxSpeed;
    } else errors.speed = { key: "form.speed", params: { max: maxSpeed.toFixed(1) } };
    this.syncMeter();
    if (final) {
      this.clearFieldErrors();
      for (const [name, msg] of Object.entries(errors)) this.fieldError(name, msg);
    }
    return Object.keys(errors).length === 0;
  }

  /** A sentence under one field of the typed shot, tied to it for screen readers. */
  fieldError(name, msg) {
    const input = this.root.querySelector(`#numeric [name=${name}]`);
    const el = this.root.querySelector(`#err-${name}`);
    if (!input || !el) return;
    input.setAttribute("aria-invalid", "true");
    show(el, msg);
    el.hidden = false;
  }

  clearFieldErrors() {
    for (const input of this.root.querySelectorAll("#numeric input")) input.removeAttribute("aria-invalid");
    for (const el of this.root.querySelectorAll("#numeric .field-error")) {
      show(el, null);
      el.hidden = true;
    }
  }

  _key(e) {
    if (!this.myTurn()) return;
    const fine = e.shiftKey;
    const p = this.state.placement;
    const turn = ((fine ? 0.1 : 1) * Math.PI) / 180;
    let handled = true;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (p.kind === "line") {
        // along the line as the shooter sees it (their own side is at the bottom)
        const toRight = e.key === "ArrowRight";
        const step = (fine ? 0.001 : 0.005) * (toRight ? 1 : -1);
        const [rx, ry] = this.aim.right;
        this.setSpot(this.aim.x + rx * step, this.aim.y + ry * step);
      }
    } else if (e.key === "ArrowUp" || e.key === "a" || e.key === "A") {
      this.aim.angle += turn; // to the shooter's left
    } else if (e.key === "ArrowDown" || e.key === "d" || e.key === "D") {
      this.aim.angle -= turn; // to the shooter's right
    } else if (e.key === "w" || e.key === "W" || e.key === "PageUp") {
      this.aim.power = Math.min(1, this.aim.power + (fine ? 0.005 : 0.02));
    } else if (e.key === "s" || e.key === "S" || e.key === "PageDown") {
      this.aim.power = Math.max(0, this.aim.power - (fine ? 0.005 : 0.02));
    } else if (e.key === " " || e.key === "Enter") {
      this.shoot();
    } else if (e.key === "h" || e.key === "H") {
      this.askHint();
    } else if (e.key === "u" || e.key === "U") {
      this.useHint();
    } else handled = false;
    if (handled) {
      e.preventDefault();
      if (!["h", "H", "u", "U"].includes(e.key)) this.hintFocus = false;
      this.syncForm();
    }
  }

  /** Show the aim in the typed form, in the shooter's own frame (see readForm). */
  syncForm() {
    const form = this.root.querySelector("#numeric");
    if (!form || !this.geometry) return;
    const p = this.state?.placement;
    const active = document.activeElement;
    const set = (name, v) => {
      const el = form.elements.namedItem(name);
      if (el && el !== active) el.value = v;
    };
    const pos = form.elements.namedItem("pos");
    pos.disabled = !p || p.kind !== "line";
    if (p && p.kind === "line" && this.aim.right) {
      const [tx, ty] = pointAt(p, 0.5);
      const [rx, ry] = this.aim.right;
      set("pos", Math.round(((this.aim.x - tx) * rx + (this.aim.y - ty) * ry) * 1000));
    } else set("pos", 0);
    let rel = ((this.aim.ahead ?? Math.PI / 2) - this.aim.angle) * (180 / Math.PI);
    rel = ((((rel + 180) % 360) + 360) % 360) - 180;
    set("angle", rel.toFixed(1));
    set("speed", (this.aim.power * this.geometry.max_speed).toFixed(2));
    this.syncMeter();
  }

  syncMeter() {
    const speed = this.aim.power * this.geometry.max_speed;
    this.root.querySelector("#meter-fill").style.width = `${(this.aim.power * 100).toFixed(1)}%`;
    this.root.querySelector("#speed-out").textContent = `${speed.toFixed(2)} m/s`;
  }

  shoot() {
    if (!this.myTurn() || this.pendingShot) return;
    const err = this.root.querySelector("#shot-error");
    if (!this.aim.ok) {
      show(err, "place.blocked");
      return;
    }
    const speed = this.aim.power * this.geometry.max_speed;
    if (speed <= 0) return;
    this.pendingShot = true;
    show(err, null);
    const suggested = this.adoptedShot();
    this.conn.send({
      type: "shot",
      seat: this.state.shooter,
      ...(suggested || { x: this.aim.x, y: this.aim.y, angle: this.aim.angle, speed }),
    });
  }

  // ---- drawing -----------------------------------------------------------------------------

  frame(now) {
    this.stats.frames++;
    if (now - this.stats.since >= 1000) {
      this.stats.fps = (this.stats.frames * 1000) / (now - this.stats.since);
      this.stats.frames = 0;
      this.stats.since = now;
    }
    if (!this.view || !this.state) return;
    let disks;
    let overlay = null;
    const animating = Boolean(this.anim);
    if (this.anim) {
      const tt = (now - this.anim.start) / 1000;
      disks = disksAt(this.anim.ev, tt);
      if (tt >= this.anim.duration) {
        this.stats.animTime += this.anim.duration;
        const ev = this.anim.ev;
        this.anim = null;
        this.applyEvent(ev);
        this.nextEvent();
      }
    } else {
      disks = this.state.layout.slice();
      const unshootable = this.state.unshootable || [];
      overlay = unshootable.length ? { unshootable } : null;
      if (this.myTurn()) {
        const color = this.room.seats[this.state.shooter].color;
        disks.push({ id: "striker", kind: "striker", color, x: this.aim.x, y: this.aim.y, layer: 0, r: this.geometry.puck_radius, invalid: !this.aim.ok, ghost: true });
        const g = guide(this.geometry, this.state.layout, this.aim.x, this.aim.y, this.aim.angle, "striker");
        const h = this.hint && this.hintFits(this.hint) && !this.adoptedShot() ? this.hint : null;
        const pulling = this.gesture?.state;
        const { aim, note } = aimDrawing(this.aim, g, pulling);
        overlay = {
          unshootable,
          hint: h ? this.hintOverlay(h) : null,
          placement: this.state.placement,
          aim: h && this.hintFocus && !pulling ? null : aim,
          note: note && t(note),
        };
      }
    }
    this.lastOverlay = overlay;
    if (this.view.draw(disks, overlay)) {
      this.stats.draws++;
      if (animating) this.stats.animFrames++;
    }
    this.tickClock();
  }

  // ---- HUD ---------------------------------------------------------------------------------

  /** The latest ruling for a few seconds beside the board (never over it); msg as show(). */
  banner(msg) {
    const el = this.root.querySelector("#banner");
    if (!el) return;
    show(el, msg);
    el.hidden = false;
    clearTimeout(this._bannerTimer);
    this._bannerTimer = setTimeout(() => (el.hidden = true), BANNER_MS);
  }

  /** Say text in the live region for screen readers (rulings, turn changes). A turn change
   * said right after a ruling is added to it, not put in its place. */
  announce(text, append = false) {
    const live = document.getElementById("live");
    if (!live) return;
    live.textContent = append && live.textContent && performance.now() - (this._saidAt || 0) < 800 ? `${live.textContent} ${text}` : text;
    this._saidAt = performance.now();
  }

  /** Whose turn it is, in words: "Your shot", "Red (south) to shoot", "Computer is thinking". */
  turnText() {
    const st = this.state;
    if (!st || st.over) return t("turn.over");
    if (st.shooter === null || st.waiting) return t("turn.wait");
    const seat = this.room.seats[st.shooter];
    const mine = this.mySeats.has(st.shooter) && seat.kind === "human";
    if (seat.kind === "computer") return t("turn.thinking", { name: this.seatName(st.shooter) });
    return mine && this.room.mode !== "hotseat" ? t("turn.yours") : t("turn.of", { name: this.seatName(st.shooter) });
  }

  renderHud() {
    if (!this.room || !this.state) return;
    applyI18n(this.root);
    const st = this.state;
    // turn
    const turn = this.root.querySelector("#turn");
    turn.classList.toggle("mine", this.myTurn());
    turn.replaceChildren();
    if (st.over) turn.append(text("strong", t("turn.over")));
    else if (st.shooter === null || st.waiting) turn.append(text("span", t("turn.wait")));
    else {
      const color = this.room.seats[st.shooter].color;
      turn.append(chip(color));
      const said = this.turnText();
      turn.append(text("strong", said));
      // the colour in words beside the chip, unless the name already says it ("Red (south)")
      if (!said.includes(t(`color.${color}`))) turn.append(text("span", t(`color.${color}`), "color-name"));
      if (st.first_shot && this.myTurn()) turn.append(text("span", t("controls.first"), "sub"));
      if ((st.unshootable || []).length && this.myTurn()) turn.append(text("span", t("controls.unshootable"), "sub"));
      if (this.mySeats.size === 0) turn.append(text("span", t("turn.watch"), "sub"));
    }
    this.root.querySelector("#end-open").hidden = !(st.over && this.endClosed);
    // counts and jack spot pile
    renderCounts(this.root.querySelector("#counts"), st);
    // seats
    const seats = this.root.querySelector("#seats");
    seats.replaceChildren(text("h3", t("seats.title")));
    const ul = document.createElement("ul");
    for (const s of this.room.seats) {
      const li = document.createElement("li");
      if (st.shooter === s.seat && !st.over) li.className = "shooting";
      li.append(chip(s.color), " ");
      if (s.kind === "open") {
        li.append(text("em", t("seat.open")));
        if (this.mySeats.size === 0 || this.room.mode === "online") {
          if (!this.mySeats.has(s.seat) && this.mySeats.size === 0) {
            const b = text("button", t("seat.take"));
            b.type = "button";
            b.dataset.seat = String(s.seat);
            b.addEventListener("click", () => this.takeSeat(s.seat));
            li.append(" ", b);
          }
        }
      } else {
        li.append(this.seatName(s.seat));
        if (this.mySeats.has(s.seat) && this.room.mode !== "hotseat") li.append(text("em", ` (${t("seat.you")})`));
        li.append(" ", this.social.seatBadge(s.seat));
      }
      const sideKey = this.room.players === 4 ? `side4.${s.seat}` : `side.${s.seat}`;
      li.append(text("span", t(sideKey), "side"));
      ul.append(li);
    }
    seats.append(ul);
    // controls
    this.root.querySelector("#controls").classList.toggle("inactive", !this.myTurn());
    this.root.querySelector("#controls").hidden = st.over; // nothing left to shoot
    this.root.querySelector("#numeric button").disabled = !this.myTurn();
    this.renderHint();
    // share
    const share = this.root.querySelector("#share");
    share.hidden = this.room.mode !== "online";
    this.root.querySelector("#share-link").value = `${location.origin}/room/${this.room.id}`;
    // clock
    this.root.querySelector("#clock").hidden = !st.clock;
    this.root.querySelector("#clock-label").textContent = t(st.time_called ? "clock.called" : "clock.match");
    // log
    const log = this.root.querySelector("#log");
    renderLog(log, this.log.slice(0, 40).map((entry) => entry.ev), (seat) => this.seatName(seat));
    log.hidden = !this.log.length;
    this.root.querySelector("#log-empty").hidden = this.log.length > 0;
    // end screen (it can be closed to look at the final position, and opened again)
    const end = this.root.querySelector("#endscreen");
    end.hidden = !(st.over && !this.anim && this.queue.length === 0) || this.endClosed;
    if (st.over && st.outcome) {
      const o = st.outcome;
      this.root.querySelector("#end-title").textContent = outcomeTitle(o);
      const loser = o.winner ? t(`color.${o.winner === "red" ? "green" : "red"}`) : "";
      this.root.querySelector("#end-detail").textContent = t(`end.reason.${o.reason}`, { color: o.winner ? t(`color.${o.winner}`) : "", loser });
      const sc = this.root.querySelector("#end-scores");
      sc.replaceChildren();
      for (const color of ["red", "green"]) {
        const row = sc.insertRow();
        const c = row.insertCell();
        c.append(chip(color), ` ${t(`color.${color}`)}`);
        row.insertCell().textContent = `${t("end.score")} ${o.scores[color === "red" ? 0 : 1]}`;
      }
    }
    this.social.render();
    this.syncForm();
  }

  tickClock() {
    const st = this.state;
    if (!st || !st.clock) return;
    const el = this.root.querySelector("#clock");
    const dt = this.anim || st.over || st.clock.paused ? 0 : (performance.now() - this.clockAt) / 1000;
    const rem = Math.max(0, st.clock.remaining_s - dt);
    const m = Math.floor(rem / 60), s = Math.floor(rem % 60);
    this.root.querySelector("#clock-time").textContent = `${m}:${String(s).padStart(2, "0")}`;
    el.classList.toggle("called", st.time_called);
    const sc = this.root.querySelector("#shotclock");
    if (st.clock.turn_remaining_s !== null && st.clock.turn_remaining_s !== undefined && !st.over) {
      const tr = Math.max(0, st.clock.turn_remaining_s - dt);
      sc.hidden = false;
      this.root.querySelector("#shotclock-bar").style.width = `${(100 * tr) / st.clock.shot_time_s}%`;
      this.root.querySelector("#shotclock-text").textContent = t("clock.shot", { s: Math.ceil(tr) });
    } else sc.hidden = true;
  }

  async takeSeat(seat) {
    let name = localStorage.getItem("hikone-carrom.name") || "";
    if (this.room.mode === "online" && !(await currentAccount())) { // an account plays under its own name
      const asked = await askGuestName(this.root, name, this.seatName(seat));
      if (asked === null) return;
      localStorage.setItem("hikone-carrom.name", asked);
      name = asked;
    }
    try {
      const res = await api(`/api/rooms/${this.roomId}/seats/${seat}`, { method: "POST", body: { name } });
      saveToken(this.roomId, res.token);
      this.conn.send({ type: "hello", token: res.token, last_seq: 0 });
    } catch (err) {
      show(this.root.querySelector("#shot-error"), err.msg);
    }
  }
}

function lineLength(p) {
  const [a, b] = p.line;
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

