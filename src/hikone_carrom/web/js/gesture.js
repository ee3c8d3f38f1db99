// The shooting gesture: a shot only ever comes from a deliberate pull that starts on the striker
// (or on the aim handle drawn behind it), travels, ends beyond the band's rest length and is
// released. A tap, a right click, a second finger, Escape, a pointer the browser takes over (a
// scroll) or a release back on the striker cancel it and restore the aim. Pressing the striker
// and sliding along the area line moves it instead (R2b placement).

export const REST = 0.03; // m: the band's rest length; a pull shorter than this shoots nothing
export const MAX_PULL = 0.16; // m of pull beyond the rest length for full power
export const GRAB_PX = 22; // CSS px: a press this close to the striker or the handle takes it
export const MOVE_PX = 10; // CSS px the pointer must travel before anything changes

/**
 * The aim: the striker's centre (x, y) m, the shot's angle (rad) and power (0-1).
 * @typedef {{x: number, y: number, angle: number, power: number}} Aim
 */
/**
 * An aim with the striker's place on its area line (see aim.js placeOn).
 * @typedef {Aim & {s: number, ok: boolean}} SavedAim
 */
/**
 * A pull in progress: the angle and power it would shoot, the pointer at point (m).
 * @typedef {{angle: number, power: number, point: number[], armed: boolean}} Pull
 */
/**
 * What the page gives the gesture (see ShotGesture).
 * @typedef {{enabled: () => boolean, aim: () => SavedAim,
 *   placement: () => import("./aim.js").Placement | null,
 *   toWorld: (clientX: number, clientY: number) => number[],
 *   toClient: (x: number, y: number) => number[], place: (x: number, y: number) => void,
 *   pull: (pull: Pull) => void, restore: (saved: SavedAim) => void, release: () => void}} Host
 */
/**
 * @typedef {{id: number, mode: "grab" | "place" | "pull", start: number[], saved: SavedAim,
 *   moved: boolean, armed: boolean}} Active
 */

/**
 * Where the aim handle is drawn: behind the striker, as far as the current power pulls it.
 * @param {Aim} aim
 * @returns {[number, number]} [x, y] m
 */
export function handleAt(aim) {
  const d = REST + Math.max(0, Math.min(1, aim.power)) * MAX_PULL;
  return [aim.x - Math.cos(aim.angle) * d, aim.y - Math.sin(aim.angle) * d];
}

/**
 * The board's drawing of an aim (an overlay's `aim`) and the i18n key of its note, if any: the
 * striker's line from the guide `g` (aim.js guide), and the pull while `pulling` is one.
 * @param {SavedAim & {pull?: number[] | null, armed?: boolean}} aim the pull's point (m), if any
 * @param {ReturnType<typeof import("./aim.js").guide>} g
 * @param {{mode: string} | null | undefined} pulling the gesture's state
 */
export function aimDrawing(aim, g, pulling) {
  const aiming = Boolean(pulling && pulling.mode === "pull");
  const drawn = {
    from: [aim.x, aim.y], to: g.to, contact: g.contact, deflect: g.deflect,
    power: aim.power, angle: aim.angle,
    pull: aiming ? aim.pull : null,
    armed: aiming ? aim.armed : true,
    handle: aiming ? null : handleAt(aim),
  };
  const note = !aim.ok ? "place.blocked" : aiming && !aim.armed ? "aim.cancel" : null;
  return { aim: drawn, note };
}

/** Power (0-1) of a pull whose pointer is `dist` m from the striker's centre. @param {number} dist */
export function powerOfPull(dist) {
  return Math.max(0, Math.min(1, (dist - REST) / MAX_PULL));
}

/**
 * Pointer gestures on the board canvas for one player. `host` gives:
 *   enabled() -> bool: may this page aim now;
 *   aim() -> {x, y, angle, power}; placement() -> the server's placement;
 *   toWorld(clientX, clientY) -> [x, y] m; toClient(x, y) -> [clientX, clientY];
 *   place(x, y): move the striker along the area line;
 *   pull({angle, power, point, armed}): show a pull in progress;
 *   restore(saved): put the aim back as it was; release(): the pull was released armed: shoot.
 */
export class ShotGesture {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {Host} host
   */
  constructor(canvas, host) {
    this.canvas = canvas;
    this.host = host;
    /** @type {Active | null} */
    this.active = null;
    /** @type {(() => void)[] | undefined} removers of the listeners */
    this.offs = undefined;
    this._listen();
  }

  _listen() {
    const c = this.canvas;
    /**
     * @template {Event} E
     * @param {EventTarget} target
     * @param {string} type
     * @param {(e: E) => void} fn
     * @param {AddEventListenerOptions} [opts]
     */
    const on = (target, type, fn, opts) => {
      const listener = /** @type {EventListener} */ (fn);
      target.addEventListener(type, listener, opts);
      (this.offs ||= []).push(() => target.removeEventListener(type, listener, opts));
    };
    on(c, "pointerdown", (/** @type {PointerEvent} */ e) => this._down(e));
    on(c, "pointermove", (/** @type {PointerEvent} */ e) => this._move(e));
    on(c, "pointerup", (/** @type {PointerEvent} */ e) => this._up(e));
    on(c, "pointercancel", (/** @type {PointerEvent} */ e) => this._isMine(e) && this.cancel());
    on(c, "lostpointercapture", (/** @type {PointerEvent} */ e) => this._isMine(e) && this.cancel());
    on(c, "contextmenu", (e) => {
      e.preventDefault();
      this.cancel();
    });
    // a touch that starts on the striker or the handle is a gesture, not a scroll
    on(c, "touchstart", (/** @type {TouchEvent} */ e) => {
      const t = e.touches[0];
      if (e.touches.length > 1) {
        this.cancel();
        return;
      }
      if (t && this.host.enabled() && this._target(t.clientX, t.clientY)) e.preventDefault();
    }, { passive: false });
    on(window, "keydown", (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape" && this.active) {
        e.preventDefault();
        this.cancel();
      }
    });
  }

  dispose() {
    this.cancel();
    for (const off of this.offs || []) off();
  }

  /** @param {PointerEvent} e */
  _isMine(e) {
    return this.active && e.pointerId === this.active.id;
  }

  /**
   * "striker", "handle" or null: what a press at (clientX, clientY) takes hold of.
   * @param {number} cx
   * @param {number} cy
   */
  _target(cx, cy) {
    const aim = this.host.aim();
    const [sx, sy] = this.host.toClient(aim.x, aim.y);
    const [hx, hy] = this.host.toClient(...handleAt(aim));
    const ds = Math.hypot(cx - sx, cy - sy), dh = Math.hypot(cx - hx, cy - hy);
    if (ds <= GRAB_PX && ds <= dh) return "striker";
    if (dh <= GRAB_PX) return "handle";
    return null;
  }

  /** @param {PointerEvent} e */
  _down(e) {
    if (this.active) {
      // a second finger or another button while pulling: call it off
      if (e.pointerId !== this.active.id || e.button !== 0) this.cancel();
      return;
    }
    if (e.button !== 0 || !e.isPrimary || !this.host.enabled()) return;
    const what = this._target(e.clientX, e.clientY);
    if (!what) return;
    const aim = this.host.aim();
    this.active = {
      id: e.pointerId,
      mode: what === "handle" ? "pull" : "grab",
      start: [e.clientX, e.clientY],
      saved: { x: aim.x, y: aim.y, s: aim.s, ok: aim.ok, angle: aim.angle, power: aim.power },
      moved: false,
      armed: false,
    };
    this.canvas.setPointerCapture?.(e.pointerId);
    this.canvas.focus({ preventScroll: true });
    e.preventDefault();
  }

  /** @param {PointerEvent} e */
  _move(e) {
    const g = this.active;
    if (!g || e.pointerId !== g.id) return;
    if (e.buttons !== undefined && e.pointerType === "mouse" && (e.buttons & ~1) !== 0) {
      this.cancel(); // another mouse button joined in
      return;
    }
    const dx = e.clientX - g.start[0], dy = e.clientY - g.start[1];
    if (!g.moved && Math.hypot(dx, dy) < MOVE_PX) return;
    g.moved = true;
    if (g.mode === "grab") g.mode = this._slides(dx, dy) ? "place" : "pull";
    const [x, y] = this.host.toWorld(e.clientX, e.clientY);
    if (g.mode === "place") {
      this.host.place(x, y);
      return;
    }
    const aim = this.host.aim();
    const vx = aim.x - x, vy = aim.y - y;
    const dist = Math.hypot(vx, vy);
    const [sx, sy] = this.host.toClient(aim.x, aim.y);
    const onStriker = Math.hypot(e.clientX - sx, e.clientY - sy) <= GRAB_PX;
    const power = powerOfPull(dist);
    g.armed = !onStriker && power > 0;
    this.host.pull({
      angle: dist > 1e-6 ? Math.atan2(vy, vx) : aim.angle,
      power: g.armed ? power : 0,
      point: [x, y],
      armed: g.armed,
    });
  }

  /**
   * Does a first move (CSS px) from the striker run along the area line rather than away?
   * @param {number} dx
   * @param {number} dy
   */
  _slides(dx, dy) {
    const p = this.host.placement();
    if (!p || p.kind !== "line") return false;
    const [a, b] = p.line;
    const [ax, ay] = this.host.toClient(a[0], a[1]);
    const [bx, by] = this.host.toClient(b[0], b[1]);
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const along = Math.abs((dx * (bx - ax) + dy * (by - ay)) / len);
    const across = Math.abs((dx * (by - ay) - dy * (bx - ax)) / len);
    return along > 1.5 * across;
  }

  /** @param {PointerEvent} e */
  _up(e) {
    const g = this.active;
    if (!g || e.pointerId !== g.id) return;
    this.active = null;
    this._release(e.pointerId);
    if (g.mode === "pull" && g.moved && g.armed) this.host.release();
    else if (g.mode !== "place") this.host.restore(g.saved);
  }

  /** Call off a gesture in progress: nothing is shot and the aim goes back as it was. */
  cancel() {
    const g = this.active;
    if (!g) return;
    this.active = null;
    this._release(g.id);
    this.host.restore(g.saved);
  }

  /** @param {number} id */
  _release(id) {
    if (this.canvas.hasPointerCapture?.(id)) this.canvas.releasePointerCapture(id);
  }

  /** The pull in progress, for drawing: {mode, armed} or null. */
  get state() {
    return this.active ? { mode: this.active.mode, armed: this.active.armed, moved: this.active.moved } : null;
  }
}
