// The game page: board, shot input, animation of the server's tracks, HUD and end screen.
import { BoardView } from "./board.js";
import { guide, nearestFree, placeOn, pointAt } from "./aim.js";
import { explain, outcomeTitle } from "./explain.js";
import { chip, renderCounts, renderLog, text } from "./hud.js";
import { applyI18n, lang, onLangChange, pick, t } from "./i18n.js";
import { api, RoomConnection, saveToken } from "./net.js";
import { Social } from "./social.js";
import { disksAt, everyFrame, tracksDuration } from "./tracks.js";

const SIDES2 = ["south", "north"];
const SIDES4 = ["south", "west", "north", "east"];
const MAX_PULL = 0.16; // m of pull for full power
const BANNER_MS = 3800;

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
    this.drag = null;
    this.stats = { frames: 0, since: performance.now(), fps: 0, animFrames: 0, animTime: 0 };
    this.clockAt = 0;
    this.pendingShot = false;
    this.hint = null; // the expert's suggestion for the current position (a "hint" message)
    this.hintPending = false;
    this.adopted = null; // the aim as set by "Use this shot", with the exact suggested shot
    this.lastOverlay = null;
    this.disposers = [];
    window.__game = this;
  }

  async mount() {
    this.root.replaceChildren(document.getElementById("tpl-room").content.cloneNode(true));
    applyI18n(this.root);
    this.canvas = this.root.querySelector("#board");
    this.social = new Social(this);
    this.social.mount();
    this.conn = new RoomConnection(this.roomId, {
      snapshot: (m) => this.onSnapshot(m),
      event: (m) => this.onEvent(m),
      hint: (m) => this.onHint(m),
      error: (m) => this.onError(m),
      status: (up) => this.onStatus(up),
      notice: (m) => this.social.notice(m),
    });
    this.conn.open();
    this._bindInput();
    this.disposers.push(onLangChange(() => this.renderHud()));
    everyFrame((now) => this.frame(now), () => !this.disposed);
  }

  dispose() {
    this.disposed = true;
    this.conn?.close();
    for (const d of this.disposers) d();
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
    this.view.setViewSide(this.viewSide());
    this.resetAim();
    this.social.snapshot(msg);
    this.renderHud();
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
    const text = msg.message ? msg.message[lang()] || msg.message.en : msg.code;
    this.root.querySelector("#shot-error").textContent = text;
    this.pendingShot = false;
    if (this.hintPending) {
      this.hintPending = false;
      this.renderHint();
    }
    if (msg.code === "no_room") this.banner(t("error.room"));
  }

  onStatus(up) {
    if (!up) this.banner(t("error.connection"));
  }

  nextEvent() {
    const ev = this.queue.shift();
    if (!ev) return;
    if (ev.kind === "shot") {
      this.anim = { ev, start: performance.now(), duration: tracksDuration(ev.tracks) };
      this.root.querySelector("#shot-error").textContent = "";
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
    if (["shot", "skip", "time_called", "rematch", "resign", "draw", "vote", "hint"].includes(ev.kind)) {
      this.log.unshift({ ev });
      const lines = ev.kind === "rematch" ? [{ text: t("msg.rematch") }] : explain(ev, (s) => this.seatName(s));
      const main = ev.kind === "hint" ? lines[0] : lines.find((l) => l.kind === "penalty") || lines.find((l) => l.kind === "win") || lines[lines.length - 1];
      if (main) this.banner(main.text);
      this.announce(lines.map((l) => l.text).join(" "));
    }
    this.social.applied(ev);
    if (ev.kind === "rematch") this.log = [];
    this.pendingShot = false;
    if (this.hint && !this.hintFits(this.hint)) this.clearHint();
    if (this.state && this.state.shooter !== prevShooter) this.resetAim();
    else if (this.state && ev.kind === "shot") this.resetAim(true);
    this.view?.setViewSide(this.viewSide());
    this.renderHud();
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
    this.root.querySelector("#shot-error").textContent = "";
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
    this.root.querySelector("#hint-status").textContent = t("hint.used");
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
    if (this.hintPending) status.textContent = t("hint.thinking");
    else if (!this.adoptedShot()) status.textContent = h ? t("hint.title") : "";
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
    if (s.kind === "computer") return `${t("seat.computer")}${s.name ? ` (${s.name})` : ""}`;
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
    const ahead = { south: Math.PI / 2, north: -Math.PI / 2, west: 0, east: Math.PI }[side];
    const at = pointAt(p, nearestFree(p, keepAim ? this.aim.s : 0.5));
    const spot = placeOn(p, at[0], at[1]);
    this.aim.x = spot.x;
    this.aim.y = spot.y;
    this.aim.s = spot.s;
    this.aim.ok = spot.ok;
    this.aim.ahead = ahead;
    if (!keepAim) {
      this.aim.angle = ahead;
      this.aim.power = 0.45;
    }
    this.syncForm();
  }

  // ---- input -------------------------------------------------------------------------------

  _bindInput() {
    const c = this.canvas;
    const world = (e) => {
      const rect = c.getBoundingClientRect();
      return this.view.fromClient(e.clientX - rect.left, e.clientY - rect.top);
    };
    c.addEventListener("pointerdown", (e) => {
      if (!this.myTurn() || this.pendingShot) return;
      c.focus();
      const [x, y] = world(e);
      const p = this.state.placement;
      const onStriker = Math.hypot(x - this.aim.x, y - this.aim.y) < this.geometry.puck_radius * 1.8;
      c.setPointerCapture(e.pointerId);
      if (onStriker && p.kind === "line") this.drag = { mode: "place" };
      else {
        this.drag = { mode: "aim" };
        this._aimFrom(x, y);
      }
      e.preventDefault();
    });
    c.addEventListener("pointermove", (e) => {
      if (!this.drag) return;
      const [x, y] = world(e);
      if (this.drag.mode === "place") {
        const spot = placeOn(this.state.placement, x, y);
        Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok });
        this.syncForm();
      } else this._aimFrom(x, y);
    });
    const end = (e) => {
      if (!this.drag) return;
      const mode = this.drag.mode;
      this.drag = null;
      if (c.hasPointerCapture(e.pointerId)) c.releasePointerCapture(e.pointerId);
      if (mode === "aim" && e.type === "pointerup" && this.aim.pull > 0.01) this.shoot();
      if (mode === "place") this.hintFocus = false;
      this.aim.pull = 0;
    };
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    c.addEventListener("keydown", (e) => this._key(e));
    const form = this.root.querySelector("#numeric");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!this.myTurn()) return;
      if (this.adoptedShot() && !this.formEdited) {
        this.shoot(); // the suggested shot exactly, not its rounded figures in the form
        return;
      }
      const fd = new FormData(form);
      const p = this.state.placement;
      if (p.kind === "line") {
        const len = lineLength(p);
        const at = pointAt(p, 0.5 + Number(fd.get("pos")) / 1000 / len);
        const spot = placeOn(p, at[0], at[1]);
        Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok });
      }
      this.aim.angle = this.aim.ahead + (Number(fd.get("angle")) * Math.PI) / 180;
      this.aim.power = Math.max(0, Math.min(1, Number(fd.get("speed")) / this.geometry.max_speed));
      this.shoot();
    });
    for (const input of form.querySelectorAll("input")) {
      input.addEventListener("input", () => {
        if (!this.myTurn()) return;
        this.formEdited = true;
        this.hintFocus = false;
        const fd = new FormData(form);
        const a = Number(fd.get("angle")), v = Number(fd.get("speed"));
        if (Number.isFinite(a)) this.aim.angle = this.aim.ahead + (a * Math.PI) / 180;
        if (Number.isFinite(v)) this.aim.power = Math.max(0, Math.min(1, v / this.geometry.max_speed));
      });
    }
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

  _aimFrom(x, y) {
    this.hintFocus = false;
    const dx = this.aim.x - x, dy = this.aim.y - y;
    const d = Math.hypot(dx, dy);
    if (d < 1e-4) return;
    this.aim.angle = Math.atan2(dy, dx);
    this.aim.pull = Math.max(0, d - this.geometry.puck_radius);
    this.aim.power = Math.max(0, Math.min(1, this.aim.pull / MAX_PULL));
    this.aim.pullPoint = [x, y];
    this.syncForm();
  }

  _key(e) {
    if (!this.myTurn()) return;
    const fine = e.shiftKey;
    const p = this.state.placement;
    let handled = true;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (p.kind === "line") {
        const [a, b] = p.line;
        const [ax] = this.view.toScreen(a[0], a[1]);
        const [bx] = this.view.toScreen(b[0], b[1]);
        const towardB = (e.key === "ArrowRight") === bx > ax;
        const step = (fine ? 0.001 : 0.005) / lineLength(p);
        const at = pointAt(p, Math.max(0, Math.min(1, this.aim.s + (towardB ? step : -step))));
        const spot = placeOn(p, at[0], at[1]);
        Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok });
      }
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      const step = ((fine ? 0.1 : 1) * Math.PI) / 180;
      this.aim.angle += e.key === "ArrowUp" ? step : -step;
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

  syncForm() {
    const form = this.root.querySelector("#numeric");
    if (!form || !this.geometry) return;
    const p = this.state?.placement;
    const active = document.activeElement;
    const set = (name, v) => {
      const el = form.elements.namedItem(name);
      if (el && el !== active) el.value = v;
    };
    if (p && p.kind === "line") {
      set("pos", Math.round((this.aim.s - 0.5) * lineLength(p) * 1000));
    } else set("pos", 0);
    let rel = ((this.aim.angle - (this.aim.ahead ?? Math.PI / 2)) * 180) / Math.PI;
    rel = ((((rel + 180) % 360) + 360) % 360) - 180;
    set("angle", rel.toFixed(1));
    set("speed", (this.aim.power * this.geometry.max_speed).toFixed(2));
    const speed = this.aim.power * this.geometry.max_speed;
    this.root.querySelector("#meter-fill").style.width = `${(this.aim.power * 100).toFixed(1)}%`;
    this.root.querySelector("#speed-out").textContent = `${speed.toFixed(2)} m/s`;
  }

  shoot() {
    if (!this.myTurn() || this.pendingShot) return;
    const err = this.root.querySelector("#shot-error");
    if (!this.aim.ok) {
      err.textContent = t("place.blocked");
      return;
    }
    const speed = this.aim.power * this.geometry.max_speed;
    if (speed <= 0) return;
    this.pendingShot = true;
    err.textContent = "";
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
    if (this.anim) {
      const tt = (now - this.anim.start) / 1000;
      this.stats.animFrames++;
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
      if (this.myTurn()) {
        const color = this.room.seats[this.state.shooter].color;
        disks.push({ id: "striker", kind: "striker", color, x: this.aim.x, y: this.aim.y, layer: 0, r: this.geometry.puck_radius, invalid: !this.aim.ok, ghost: true });
        const g = guide(this.geometry, this.state.layout, this.aim.x, this.aim.y, this.aim.angle, "striker");
        const h = this.hint && this.hintFits(this.hint) && !this.adoptedShot() ? this.hint : null;
        overlay = {
          hint: h ? this.hintOverlay(h) : null,
          placement: this.state.placement,
          aim: h && this.hintFocus && !this.drag ? null : { from: [this.aim.x, this.aim.y], to: g.to, contact: g.contact, deflect: g.deflect, power: this.aim.power, angle: this.aim.angle, pull: this.drag?.mode === "aim" ? this.aim.pullPoint : null },
          note: this.aim.ok ? null : t("place.blocked"),
        };
      }
    }
    this.lastOverlay = overlay;
    this.view.draw(disks, overlay);
    this.tickClock();
  }

  // ---- HUD ---------------------------------------------------------------------------------

  banner(text) {
    const el = this.root.querySelector("#banner");
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this._bannerTimer);
    this._bannerTimer = setTimeout(() => (el.hidden = true), BANNER_MS);
  }

  announce(text) {
    const live = document.getElementById("live");
    if (live) live.textContent = text;
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
      const mine = this.mySeats.has(st.shooter) && this.room.seats[st.shooter].kind === "human";
      const who = this.room.seats[st.shooter].kind === "computer"
        ? t("turn.thinking", { name: this.seatName(st.shooter) })
        : mine && this.room.mode !== "hotseat" ? t("turn.yours") : t("turn.of", { name: this.seatName(st.shooter) });
      turn.append(text("strong", who));
      turn.append(text("span", t(`color.${color}`), "color-name"));
      if (st.first_shot) turn.append(text("span", t("controls.first"), "sub"));
      if (this.mySeats.size === 0) turn.append(text("span", t("turn.watch"), "sub"));
    }
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
    if (!this.log.length) log.append(text("li", t("log.empty")));
    // end screen
    const end = this.root.querySelector("#endscreen");
    end.hidden = !(st.over && !this.anim && this.queue.length === 0);
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
    try {
      const res = await api(`/api/rooms/${this.roomId}/seats/${seat}`, { method: "POST", body: { name: localStorage.getItem("hikone-carrom.name") || "" } });
      saveToken(this.roomId, res.token);
      this.conn.send({ type: "hello", token: res.token, last_seq: 0 });
    } catch (err) {
      this.root.querySelector("#shot-error").textContent = err.detail ? err.detail[lang()] || err.message : err.message;
    }
  }
}

function lineLength(p) {
  const [a, b] = p.line;
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

