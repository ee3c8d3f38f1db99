// Canvas view of the board, drawn to scale from the server's geometry (metres).
// World frame: origin at the jack spot, x right, y up (DESIGN.md). The view turns the board so
// that the viewer's own side is at the bottom.

const SIDE_TURN = { south: 0, west: Math.PI / 2, north: Math.PI, east: -Math.PI / 2 };
const MARGIN = 0.045; // m of table shown around the frame

export const PIECE_STYLE = {
  red: { base: "#cf4a36", dark: "#8e2619", light: "#f08a6d", mark: "#fbe3d2" },
  green: { base: "#2c7048", dark: "#17402a", light: "#5fa47a", mark: "#dcefd9" },
};

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What draw() shows over the disks (lengths in m, angles in rad).
 * @typedef {{
 *   placement?: import("./aim.js").Placement | null,
 *   aim?: {from: number[], to: number[], contact?: string | null,
 *     deflect?: {from: number[], to: number[]} | null, power: number, angle: number,
 *     pull?: number[] | null, armed?: boolean, handle?: number[] | null} | null,
 *   note?: string | null,
 *   unshootable?: string[] | null,
 *   paths?: {kind: string, color: string | null, points: number[][]}[] | null,
 *   hint?: {from: number[], to: number[], angle: number, power: number, label: string,
 *     target: number[] | null, pocket: number[] | null, color: string} | null,
 * }} Overlay
 */

export class BoardView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {any} geometry board dict from the server (all lengths in m)
   */
  constructor(canvas, geometry) {
    this.canvas = canvas;
    this.g = geometry;
    this.turn = 0;
    this.side = "south";
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    /** @type {HTMLCanvasElement | null} */
    this.staticLayer = null;
    this.cssSize = 0;
    this.dpr = 1; // device px per CSS px, and device px per metre: both set by resize()
    this.scale = 1;
    this.hc = false; // drawn in high contrast
    /** @type {string | null} */
    this.drawn = null; // the scene on the canvas (see draw)
    // a canvas whose memory the browser dropped comes back blank: draw it again
    canvas.addEventListener("contextrestored", () => (this.drawn = null));
    this.resize();
  }

  /** Show side ("south", "west", "north", "east") at the bottom. */
  setViewSide(side) {
    if (!(side in SIDE_TURN)) return;
    this.side = side;
    const turn = SIDE_TURN[side];
    if (turn !== this.turn) {
      this.turn = turn;
      this.staticLayer = null;
    }
  }

  get extent() {
    return this.g.half + this.g.rail_width + MARGIN;
  }

  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const css = Math.max(200, Math.round(Math.min(rect.width || 640, rect.height || rect.width || 640)));
    const dpr = window.devicePixelRatio || 1;
    if (css !== this.cssSize || this.canvas.width !== Math.round(css * dpr)) {
      this.cssSize = css;
      this.dpr = dpr;
      this.canvas.width = Math.round(css * dpr);
      this.canvas.height = Math.round(css * dpr);
      this.staticLayer = null;
    }
    this.scale = (this.canvas.width / 2) / this.extent; // device px per metre
  }

  /** World (m) to device pixels. */
  toScreen(x, y) {
    const c = Math.cos(this.turn), s = Math.sin(this.turn);
    const vx = x * c - y * s, vy = x * s + y * c;
    return [this.canvas.width / 2 + vx * this.scale, this.canvas.height / 2 - vy * this.scale];
  }

  /** CSS pixels relative to the canvas to world (m). */
  fromClient(cx, cy) {
    const px = cx * this.dpr, py = cy * this.dpr;
    const vx = (px - this.canvas.width / 2) / this.scale, vy = -(py - this.canvas.height / 2) / this.scale;
    const c = Math.cos(-this.turn), s = Math.sin(-this.turn);
    return [vx * c - vy * s, vx * s + vy * c];
  }

  /** Set ctx so that drawing in world metres lands on the turned view (device pixels). */
  _applyWorld(ctx) {
    ctx.translate(this.canvas.width / 2, this.canvas.height / 2);
    ctx.scale(this.scale, -this.scale);
    ctx.rotate(this.turn);
  }

  _buildStatic() {
    const layer = document.createElement("canvas");
    layer.width = this.canvas.width;
    layer.height = this.canvas.height;
    const ctx = /** @type {CanvasRenderingContext2D} */ (layer.getContext("2d"));
    const g = this.g;
    const h = g.half, rail = g.rail_width, px = 1 / this.scale;
    ctx.save();
    this._applyWorld(ctx);

    // table shadow under the box
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.55)";
    ctx.shadowBlur = 28 * this.dpr;
    ctx.shadowOffsetY = -10 * this.dpr;
    ctx.fillStyle = "#3a2416";
    roundRect(ctx, -h - rail, -h - rail, 2 * (h + rail), 2 * (h + rail), rail * 0.6);
    ctx.fill();
    ctx.restore();

    // frame: dark lacquered wood with grain
    const frame = ctx.createLinearGradient(-h - rail, h + rail, h + rail, -h - rail);
    frame.addColorStop(0, "#7a4524");
    frame.addColorStop(0.5, "#5a3019");
    frame.addColorStop(1, "#43220f");
    ctx.fillStyle = frame;
    roundRect(ctx, -h - rail, -h - rail, 2 * (h + rail), 2 * (h + rail), rail * 0.6);
    ctx.fill();
    this._grain(ctx, -h - rail, -h - rail, 2 * (h + rail), 2 * (h + rail), 7, "rgba(30,12,4,0.22)", 90);
    // frame bevel highlight
    ctx.lineWidth = 2 * px;
    ctx.strokeStyle = "rgba(255,220,170,0.25)";
    roundRect(ctx, -h - rail + px, -h - rail + px, 2 * (h + rail) - 2 * px, 2 * (h + rail) - 2 * px, rail * 0.6);
    ctx.stroke();

    // playing surface: pale maple with grain and warm lighting
    ctx.save();
    ctx.beginPath();
    ctx.rect(-h, -h, 2 * h, 2 * h);
    ctx.clip();
    const surf = ctx.createRadialGradient(-0.08, 0.1, 0.02, 0, 0, h * 1.5);
    surf.addColorStop(0, "#f3ddb0");
    surf.addColorStop(0.55, "#e6c68e");
    surf.addColorStop(1, "#c99e62");
    ctx.fillStyle = surf;
    ctx.fillRect(-h, -h, 2 * h, 2 * h);
    this._grain(ctx, -h, -h, 2 * h, 2 * h, 11, "rgba(140,90,40,0.13)", 140);
    // inner shadow cast by the rails onto the surface
    const edge = 0.014;
    const strips = [
      [-h, h - edge, 2 * h, edge, 0, h, 0, h - edge],
      [-h, -h, 2 * h, edge, 0, -h, 0, -h + edge],
      [-h, -h, edge, 2 * h, -h, 0, -h + edge, 0],
      [h - edge, -h, edge, 2 * h, h, 0, h - edge, 0],
    ];
    for (const [rx, ry, rw, rh, x0, y0, x1, y1] of strips) {
      const grad = ctx.createLinearGradient(x0, y0, x1, y1);
      grad.addColorStop(0, "rgba(60,30,10,0.42)");
      grad.addColorStop(1, "rgba(60,30,10,0)");
      ctx.fillStyle = grad;
      ctx.fillRect(rx, ry, rw, rh);
    }
    // pockets: quarter circles about each corner
    for (const [cx, cy] of [[-h, -h], [h, -h], [h, h], [-h, h]]) {
      const hole = ctx.createRadialGradient(cx, cy, 0, cx, cy, g.pocket_radius);
      hole.addColorStop(0, "#0c0603");
      hole.addColorStop(0.82, "#1d0f07");
      hole.addColorStop(1, "#3a2212");
      ctx.fillStyle = hole;
      ctx.beginPath();
      ctx.arc(cx, cy, g.pocket_radius, 0, Math.PI * 2);
      ctx.fill();
      ctx.lineWidth = 2.2 * px;
      ctx.strokeStyle = "rgba(255,236,200,0.35)";
      ctx.beginPath();
      ctx.arc(cx, cy, g.pocket_radius + 1.2 * px, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.restore();

    // markings in ink
    const ink = this.hc ? "#000000" : "rgba(35,20,10,0.82)"; // high contrast: black markings
    ctx.strokeStyle = ink;
    ctx.fillStyle = ink;
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(1.4 * px, 0.0016);
    ctx.beginPath();
    ctx.arc(0, 0, g.centre_circle_radius, 0, Math.PI * 2);
    ctx.stroke();
    ctx.lineWidth = Math.max(1.1 * px, 0.0011);
    ctx.beginPath();
    ctx.arc(0, 0, g.centre_circle_radius * 0.55, 0, Math.PI * 2);
    ctx.globalAlpha = 0.35;
    ctx.stroke();
    ctx.globalAlpha = 1;
    // jack spot
    ctx.beginPath();
    ctx.arc(0, 0, g.jack_radius * 0.42, 0, Math.PI * 2);
    ctx.lineWidth = Math.max(1.2 * px, 0.0012);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(0, 0, 0.0022, 0, Math.PI * 2);
    ctx.fill();
    // puck marks on the centre circle (R1a)
    for (let i = 0; i < 24; i++) {
      const a = (i / 24) * Math.PI * 2;
      ctx.beginPath();
      ctx.arc(Math.cos(a) * g.centre_circle_radius, Math.sin(a) * g.centre_circle_radius, 0.0016, 0, Math.PI * 2);
      ctx.fill();
    }
    // area lines with tee spots, one per side
    const lineWidth = Math.max((this.hc ? 3 : 2) * px, 0.0022);
    ctx.lineWidth = lineWidth;
    for (const line of g.area_lines) {
      ctx.beginPath();
      ctx.moveTo(line.a[0], line.a[1]);
      ctx.lineTo(line.b[0], line.b[1]);
      ctx.stroke();
      // end ticks
      const dx = line.b[0] - line.a[0], dy = line.b[1] - line.a[1];
      const len = Math.hypot(dx, dy), nx = -dy / len, ny = dx / len, tick = 0.006;
      for (const p of [line.a, line.b]) {
        ctx.beginPath();
        ctx.moveTo(p[0] - nx * tick, p[1] - ny * tick);
        ctx.lineTo(p[0] + nx * tick, p[1] + ny * tick);
        ctx.stroke();
      }
      ctx.beginPath();
      ctx.arc(line.tee[0], line.tee[1], g.puck_radius * 0.62, 0, Math.PI * 2);
      ctx.lineWidth = Math.max(1.4 * px, 0.0014);
      ctx.stroke();
      ctx.lineWidth = lineWidth;
    }
    ctx.restore();
    this.staticLayer = layer;
  }

  _grain(ctx, x, y, w, hgt, seed, color, count) {
    const rnd = mulberry32(seed);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, hgt);
    ctx.clip();
    ctx.strokeStyle = color;
    for (let i = 0; i < count; i++) {
      const y0 = y + rnd() * hgt;
      const amp = 0.002 + rnd() * 0.006;
      const freq = 6 + rnd() * 14;
      const phase = rnd() * 6.28;
      ctx.lineWidth = 0.0003 + rnd() * 0.0012;
      ctx.globalAlpha = 0.4 + rnd() * 0.6;
      ctx.beginPath();
      for (let k = 0; k <= 40; k++) {
        const xx = x + (k / 40) * w;
        const yy = y0 + amp * Math.sin(freq * xx + phase) + amp * 0.5 * Math.sin(freq * 2.3 * xx);
        if (k === 0) ctx.moveTo(xx, yy);
        else ctx.lineTo(xx, yy);
      }
      ctx.stroke();
    }
    ctx.restore();
  }

  /**
   * Draw one frame.
   * disks: [{id, kind: "red"|"green"|"jack"|"striker", color, x, y, layer, r, alpha, scale}]
   * overlay: optional {placement, aim: {from, to, contact, deflect, power, angle, pull, armed,
   *   handle}, note, unshootable: [disk id], paths: [{kind, color, points: [[x, y]]}],
   *   hint: {from, to, angle, power, label, target: [x, y, r] | null, pocket: [x, y] | null, color}}
   * Draws only if the scene differs from the one on the canvas: the disks, the overlay and
   * everything else the picture depends on (canvas size, pixel ratio, side at the bottom, high
   * contrast, language of the text drawn). True if it drew.
   * @param {import("./tracks.js").Disk[]} disks
   * @param {Overlay | null} [overlay]
   */
  draw(disks, overlay = null) {
    this.resize();
    const hc = document.documentElement.classList.contains("hc");
    if (hc !== this.hc) {
      this.hc = hc; // high contrast: stronger markings and guides
      this.staticLayer = null;
    }
    const scene = JSON.stringify([
      this.canvas.width, this.canvas.height, this.dpr, this.turn, hc, document.documentElement.lang,
      disks, overlay,
    ]);
    if (scene === this.drawn && this.staticLayer) return false;
    this.drawn = scene;
    if (!this.staticLayer) this._buildStatic();
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(/** @type {HTMLCanvasElement} */ (this.staticLayer), 0, 0);
    ctx.save();
    this._applyWorld(ctx);
    if (overlay && overlay.placement) this._drawPlacement(ctx, overlay);
    if (overlay && overlay.paths) this._drawPaths(ctx, overlay.paths);
    const sorted = [...disks].sort((a, b) => (a.layer - b.layer) || Number(a.kind === "striker") - Number(b.kind === "striker"));
    const stackCount = new Map();
    for (const d of sorted) {
      if (d.layer > 0) {
        const key = `${Math.round(d.x * 200)},${Math.round(d.y * 200)}`;
        stackCount.set(key, Math.max(stackCount.get(key) || 0, d.layer + 1));
      }
    }
    for (const d of sorted) this._drawDisk(ctx, d);
    if (overlay && overlay.unshootable) {
      for (const id of overlay.unshootable) {
        const d = sorted.find((disk) => disk.id === id);
        if (d) this._drawUnshootable(ctx, d);
      }
    }
    if (overlay && overlay.hint) this._drawHint(ctx, overlay.hint);
    if (overlay && overlay.aim) this._drawAim(ctx, overlay.aim);
    ctx.restore();
    if (overlay && overlay.hint) this._hintLabel(overlay.hint);
    // stack height badges in screen space so text stays upright
    for (const [key, n] of stackCount) {
      const [ix, iy] = key.split(",").map(Number);
      const [sx, sy] = this.toScreen(ix / 200, iy / 200);
      this._badge(sx + this.g.puck_radius * this.scale * 0.9, sy - this.g.puck_radius * this.scale * 1.3, `×${n}`);
    }
    if (overlay && overlay.note) this._note(overlay.note);
    return true;
  }

  _badge(x, y, text) {
    const ctx = this.ctx;
    ctx.save();
    ctx.font = `600 ${12 * this.dpr}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 10 * this.dpr, hh = 18 * this.dpr;
    ctx.fillStyle = "rgba(28,18,11,0.88)";
    roundRect(ctx, x - w / 2, y - hh / 2, w, hh, hh / 2);
    ctx.fill();
    ctx.fillStyle = "#f6eddc";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, x, y + 0.5);
    ctx.restore();
  }

  _note(text) {
    const ctx = this.ctx;
    ctx.save();
    ctx.font = `500 ${13 * this.dpr}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 24 * this.dpr, hh = 26 * this.dpr;
    const x = this.canvas.width / 2, y = this.canvas.height - 18 * this.dpr;
    ctx.fillStyle = "rgba(120,24,14,0.92)";
    roundRect(ctx, x - w / 2, y - hh, w, hh, hh / 2);
    ctx.fill();
    ctx.fillStyle = "#fff3e6";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, x, y - hh / 2 + 0.5);
    ctx.restore();
  }

  _drawDisk(ctx, d) {
    if (d.alpha !== undefined && d.alpha <= 0) return;
    const r = d.r * (d.scale ?? 1);
    const lift = d.layer * (this.g.thickness || 0.008) * 0.5; // stacked pieces drawn raised
    const ux = Math.sin(this.turn), uy = Math.cos(this.turn); // the view's "up" in world axes
    const [x, y] = [d.x + ux * lift, d.y + uy * lift];
    const sx = ux * r * 0.2 - uy * r * 0.12, sy = -uy * r * 0.2 - ux * r * 0.12; // shadow offset
    ctx.save();
    if (d.alpha !== undefined) ctx.globalAlpha = Math.max(0, Math.min(1, d.alpha));
    // shadow
    ctx.fillStyle = "rgba(40,20,5,0.38)";
    ctx.beginPath();
    ctx.ellipse(x + sx - ux * lift * 0.3, y - sy - uy * lift * 0.3, r * 1.02, r * 0.98, 0, 0, Math.PI * 2);
    ctx.fill();
    // edge (side of the cylinder)
    const style = d.kind === "red" || d.kind === "green" ? PIECE_STYLE[d.kind] : null;
    ctx.fillStyle = style ? style.dark : d.kind === "jack" ? "#9a7240" : "#8f6a3c";
    ctx.beginPath();
    ctx.arc(x - ux * r * 0.1, y - uy * r * 0.1, r, 0, Math.PI * 2);
    ctx.fill();
    // top face with light from the upper left
    const lx = -uy * 0.4 + ux * 0.45, ly = ux * 0.4 + uy * 0.45; // light from the view's upper left
    const grad = ctx.createRadialGradient(x + lx * r, y + ly * r, r * 0.1, x, y, r * 1.05);
    if (style) {
      grad.addColorStop(0, style.light);
      grad.addColorStop(0.55, style.base);
      grad.addColorStop(1, style.dark);
    } else {
      grad.addColorStop(0, "#fbeacb");
      grad.addColorStop(0.6, "#e6c38b");
      grad.addColorStop(1, "#b88c52");
    }
    ctx.fillStyle = grad;
    ctx.beginPath();
    ctx.arc(x, y, r * 0.96, 0, Math.PI * 2);
    ctx.fill();
    ctx.lineWidth = r * 0.05;
    ctx.strokeStyle = "rgba(0,0,0,0.25)";
    ctx.stroke();
    // engraved pattern: red = rings, green = cross (colour-blind safe)
    ctx.lineWidth = r * 0.11;
    if (d.kind === "red") {
      ctx.strokeStyle = style.mark;
      ctx.globalAlpha *= 0.9;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.6, 0, Math.PI * 2);
      ctx.stroke();
      ctx.fillStyle = style.mark;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.16, 0, Math.PI * 2);
      ctx.fill();
    } else if (d.kind === "green") {
      ctx.strokeStyle = style.mark;
      ctx.globalAlpha *= 0.9;
      ctx.lineCap = "round";
      const k = r * 0.5;
      ctx.beginPath();
      ctx.moveTo(x - k, y - k); ctx.lineTo(x + k, y + k);
      ctx.moveTo(x - k, y + k); ctx.lineTo(x + k, y - k);
      ctx.stroke();
    } else if (d.kind === "jack") {
      ctx.lineWidth = r * 0.13;
      ctx.strokeStyle = PIECE_STYLE.red.base;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.68, 0, Math.PI * 2);
      ctx.stroke();
      ctx.strokeStyle = PIECE_STYLE.green.base;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.38, 0, Math.PI * 2);
      ctx.stroke();
    } else if (d.kind === "striker") {
      const st = PIECE_STYLE[d.color] || PIECE_STYLE.red;
      ctx.lineWidth = r * 0.2;
      ctx.strokeStyle = st.base;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.62, 0, Math.PI * 2);
      ctx.stroke();
      if (d.invalid) {
        ctx.globalAlpha = 1;
        dashedRing(ctx, x, y, r * 1.18, r * 0.14, "#b3170a", [r * 0.3, r * 0.2]);
        ctx.lineWidth = r * 0.14;
        ctx.strokeStyle = "#b3170a";
        ctx.beginPath();
        ctx.moveTo(x - r * 0.5, y - r * 0.5); ctx.lineTo(x + r * 0.5, y + r * 0.5);
        ctx.moveTo(x - r * 0.5, y + r * 0.5); ctx.lineTo(x + r * 0.5, y - r * 0.5);
        ctx.stroke();
      } else if (d.ghost) {
        dashedRing(ctx, x, y, r * 1.22, r * 0.08, "rgba(255,248,230,0.9)", [r * 0.25, r * 0.18]);
      }
    }
    // specular glint
    ctx.globalAlpha = (d.alpha ?? 1) * 0.35;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.ellipse(x + lx * r * 0.9, y + ly * r * 0.9, r * 0.28, r * 0.13, -0.6 + this.turn, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  /** Where the striker may stand (R2b): free stretches of the area line as a wide solid
   * band, blocked ones as a thin line crossed by x marks, so they differ by shape, not only
   * colour. */
  _drawPlacement(ctx, overlay) {
    const p = overlay.placement;
    const px = 1 / this.scale;
    const r = this.g.puck_radius;
    if (p.kind === "line") {
      const [a, b] = p.line;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
      ctx.save();
      ctx.lineCap = "round";
      ctx.strokeStyle = this.hc ? "rgba(255,214,0,0.95)" : "rgba(233,185,73,0.6)";
      ctx.lineWidth = r * 2;
      for (const [s0, s1] of p.free || []) {
        const q0 = lerp2(a, b, s0), q1 = lerp2(a, b, s1);
        ctx.beginPath();
        ctx.moveTo(q0[0], q0[1]);
        ctx.lineTo(q1[0], q1[1]);
        ctx.stroke();
      }
      const ink = this.hc ? "#000000" : "rgba(150,20,8,0.85)";
      ctx.strokeStyle = ink;
      ctx.lineCap = "butt";
      const step = r * 1.1, k = r * 0.45;
      for (const [s0, s1] of blocked(p.free || [])) {
        const q0 = lerp2(a, b, s0), q1 = lerp2(a, b, s1);
        ctx.lineWidth = (this.hc ? 3 : 2) * px;
        ctx.beginPath();
        ctx.moveTo(q0[0], q0[1]);
        ctx.lineTo(q1[0], q1[1]);
        ctx.stroke();
        ctx.lineWidth = (this.hc ? 2.6 : 1.8) * px;
        const n = Math.max(1, Math.floor(((s1 - s0) * len) / step));
        for (let i = 0; i < n; i++) {
          const t = s0 + ((i + 0.5) / n) * (s1 - s0);
          const [cx, cy] = lerp2(a, b, t);
          ctx.beginPath();
          ctx.moveTo(cx - (ux + uy) * k, cy - (uy - ux) * k);
          ctx.lineTo(cx + (ux + uy) * k, cy + (uy - ux) * k);
          ctx.moveTo(cx - (ux - uy) * k, cy - (uy + ux) * k);
          ctx.lineTo(cx + (ux - uy) * k, cy + (uy + ux) * k);
          ctx.stroke();
        }
      }
      ctx.restore();
    } else if (p.kind === "point") {
      const [x, y] = p.point;
      dashedRing(ctx, x, y, r * 1.45, 2.5 * px, this.hc ? "#ffd600" : "rgba(233,185,73,0.9)", [5 * px, 4 * px]);
    }
  }

  /** A piece the shooter may not hit directly (R4a): hatched over, ringed with a dashed dark
   * circle and struck through, readable without colour. */
  _drawUnshootable(ctx, d) {
    const px = 1 / this.scale;
    const R = d.r * 1.3;
    ctx.save();
    ctx.beginPath();
    ctx.arc(d.x, d.y, d.r, 0, Math.PI * 2);
    ctx.clip();
    ctx.strokeStyle = "rgba(20,10,4,0.55)";
    ctx.lineWidth = d.r * 0.16;
    for (let k = -3; k <= 3; k++) {
      const o = k * d.r * 0.42;
      ctx.beginPath();
      ctx.moveTo(d.x - d.r + o, d.y - d.r - o);
      ctx.lineTo(d.x + d.r + o, d.y + d.r - o);
      ctx.stroke();
    }
    ctx.restore();
    ctx.save();
    for (const [color, width] of [["#fff8ea", 4.5 * px], [this.hc ? "#000" : "#1c120b", 2.5 * px]]) {
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.setLineDash([4 * px, 3 * px]);
      ctx.beginPath();
      ctx.arc(d.x, d.y, R, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(d.x - R * 0.7071, d.y + R * 0.7071);
      ctx.lineTo(d.x + R * 0.7071, d.y - R * 0.7071);
      ctx.stroke();
    }
    ctx.restore();
  }

  /** Each moving disk's way in a shot (replay): its track's corners joined, the striker dashed. */
  _drawPaths(ctx, paths) {
    const px = 1 / this.scale;
    ctx.save();
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    for (const path of paths) {
      if (path.points.length < 2) continue;
      const style = PIECE_STYLE[path.kind] || PIECE_STYLE[path.color];
      ctx.strokeStyle = path.kind === "jack" ? "#8a6a3a" : style ? style.dark : "#3b2718";
      ctx.globalAlpha = 0.8;
      ctx.lineWidth = (path.kind === "striker" ? 2.4 : 1.8) * px * (this.hc ? 1.5 : 1);
      ctx.setLineDash(path.kind === "striker" ? [7 * px, 5 * px] : []);
      ctx.beginPath();
      ctx.moveTo(path.points[0][0], path.points[0][1]);
      for (const [x, y] of path.points.slice(1)) ctx.lineTo(x, y);
      ctx.stroke();
    }
    ctx.restore();
  }

  /** The expert's suggestion: a dashed ghost striker where it stands, a dashed aim line to the
   * first contact, a power ring, and the target piece's dotted way to its pocket. */
  _drawHint(ctx, hint) {
    const px = 1 / this.scale;
    const r = this.g.puck_radius;
    const ink = "rgba(120,214,245,0.95)";
    ctx.save();
    ctx.lineCap = "round";
    ctx.shadowColor = "rgba(0,0,0,0.5)";
    ctx.shadowBlur = 3;
    dashedRing(ctx, hint.from[0], hint.from[1], r, 2.2 * px, ink, [4 * px, 3 * px]);
    const start = [hint.from[0] + Math.cos(hint.angle) * r, hint.from[1] + Math.sin(hint.angle) * r];
    ctx.setLineDash([9 * px, 6 * px]);
    for (const [style, width] of [["rgba(10,40,55,0.6)", 5 * px], [ink, 2.8 * px]]) {
      ctx.strokeStyle = style;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.moveTo(start[0], start[1]);
      ctx.lineTo(hint.to[0], hint.to[1]);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.strokeStyle = ink;
    ctx.shadowBlur = 0;
    ctx.lineWidth = 1.4 * px;
    ctx.beginPath();
    ctx.arc(hint.to[0], hint.to[1], r, 0, Math.PI * 2);
    ctx.stroke();
    if (hint.target) {
      const [tx, ty, tr] = hint.target;
      dashedRing(ctx, tx, ty, tr * 1.35, 2 * px, ink, [3 * px, 3 * px]);
      if (hint.pocket) {
        ctx.setLineDash([2 * px, 5 * px]);
        ctx.lineWidth = 2 * px;
        ctx.beginPath();
        ctx.moveTo(tx, ty);
        ctx.lineTo(hint.pocket[0], hint.pocket[1]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    // power ring: the filled share of the circle is the suggested power
    const R = r * 1.9;
    ctx.lineWidth = 4 * px;
    ctx.strokeStyle = "rgba(10,40,55,0.45)";
    ctx.beginPath();
    ctx.arc(hint.from[0], hint.from[1], R, 0, Math.PI * 2);
    ctx.stroke();
    ctx.strokeStyle = ink;
    const heat = Math.max(0, Math.min(1, hint.power));
    ctx.beginPath();
    ctx.arc(hint.from[0], hint.from[1], R, hint.angle + Math.PI - Math.PI * heat, hint.angle + Math.PI + Math.PI * heat);
    ctx.stroke();
    ctx.restore();
  }

  /** The suggested speed and power as a badge beside the suggested striker (screen space). */
  _hintLabel(hint) {
    const ctx = this.ctx;
    const [sx, sy] = this.toScreen(hint.from[0], hint.from[1]);
    const off = this.g.puck_radius * this.scale * 2.6;
    ctx.save();
    ctx.font = `600 ${12 * this.dpr}px system-ui, sans-serif`;
    const w = ctx.measureText(hint.label).width + 14 * this.dpr, hh = 20 * this.dpr;
    const x = Math.min(Math.max(sx + off + w / 2, w / 2 + 4), this.canvas.width - w / 2 - 4);
    const y = Math.min(Math.max(sy + off * 0.8, hh), this.canvas.height - hh);
    ctx.fillStyle = "rgba(10,40,55,0.9)";
    roundRect(ctx, x - w / 2, y - hh / 2, w, hh, hh / 2);
    ctx.fill();
    ctx.fillStyle = "#bfeeff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(hint.label, x, y + 0.5);
    ctx.restore();
  }

  /** The aim handle: a round grip behind the striker, joined to it by a thin band; press it
   * (or the striker) and pull back to shoot. */
  _drawHandle(ctx, aim) {
    const px = 1 / this.scale;
    const [hx, hy] = aim.handle;
    const R = Math.max(this.g.puck_radius * 0.75, 9 * px);
    ctx.save();
    ctx.strokeStyle = "rgba(28,18,11,0.45)";
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([3 * px, 3 * px]);
    ctx.beginPath();
    ctx.moveTo(aim.from[0], aim.from[1]);
    ctx.lineTo(hx, hy);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = this.hc ? "#ffd600" : "rgba(255,248,230,0.92)";
    ctx.strokeStyle = this.hc ? "#000000" : "rgba(28,18,11,0.8)";
    ctx.lineWidth = 2 * px;
    ctx.beginPath();
    ctx.arc(hx, hy, R, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // three grip ridges across the pull direction
    const ax = Math.cos(aim.angle), ay = Math.sin(aim.angle);
    ctx.lineWidth = 1.6 * px;
    for (const k of [-0.35, 0, 0.35]) {
      const cx = hx + ax * R * k, cy = hy + ay * R * k;
      ctx.beginPath();
      ctx.moveTo(cx - ay * R * 0.5, cy + ax * R * 0.5);
      ctx.lineTo(cx + ay * R * 0.5, cy - ax * R * 0.5);
      ctx.stroke();
    }
    ctx.restore();
  }

  _drawAim(ctx, aim) {
    const px = 1 / this.scale;
    ctx.save();
    ctx.lineCap = "round";
    // pull-back band: solid when letting go shoots, dotted while letting go cancels
    if (aim.pull) {
      ctx.strokeStyle = aim.armed ? "rgba(28,18,11,0.75)" : "rgba(28,18,11,0.45)";
      ctx.lineWidth = (aim.armed ? 3.5 : 2.5) * px;
      ctx.setLineDash(aim.armed ? [] : [2 * px, 5 * px]);
      ctx.beginPath();
      ctx.moveTo(aim.from[0], aim.from[1]);
      ctx.lineTo(aim.pull[0], aim.pull[1]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (aim.handle) this._drawHandle(ctx, aim);
    if (aim.armed === false) ctx.globalAlpha = 0.45;
    // guide to the first contact
    const heat = Math.min(1, aim.power);
    ctx.strokeStyle = this.hc ? "#ffffff" : `rgba(255,${Math.round(240 - 140 * heat)},${Math.round(200 - 150 * heat)},0.95)`;
    if (this.hc) {
      ctx.save();
      ctx.strokeStyle = "#000000";
      ctx.lineWidth = 5 * px;
      ctx.beginPath();
      ctx.moveTo(aim.from[0], aim.from[1]);
      ctx.lineTo(aim.to[0], aim.to[1]);
      ctx.stroke();
      ctx.restore();
    }
    ctx.lineWidth = (this.hc ? 3 : 2.4) * px;
    ctx.shadowColor = "rgba(0,0,0,0.45)";
    ctx.shadowBlur = 3;
    ctx.beginPath();
    ctx.moveTo(aim.from[0], aim.from[1]);
    ctx.lineTo(aim.to[0], aim.to[1]);
    ctx.stroke();
    ctx.shadowBlur = 0;
    if (aim.contact) {
      // ghost striker at contact and the struck piece's line
      ctx.strokeStyle = "rgba(255,250,235,0.9)";
      ctx.lineWidth = 1.6 * px;
      ctx.beginPath();
      ctx.arc(aim.to[0], aim.to[1], this.g.puck_radius, 0, Math.PI * 2);
      ctx.stroke();
      if (aim.deflect) {
        ctx.setLineDash([6 * px, 5 * px]);
        ctx.strokeStyle = "rgba(255,250,235,0.7)";
        ctx.beginPath();
        ctx.moveTo(aim.deflect.from[0], aim.deflect.from[1]);
        ctx.lineTo(aim.deflect.to[0], aim.deflect.to[1]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    } else {
      ctx.fillStyle = "rgba(255,250,235,0.9)";
      ctx.beginPath();
      ctx.arc(aim.to[0], aim.to[1], 3 * px, 0, Math.PI * 2);
      ctx.fill();
    }
    // power arc around the striker
    ctx.lineWidth = 5 * px;
    ctx.strokeStyle = "rgba(28,18,11,0.35)";
    const R = this.g.puck_radius * 1.9;
    ctx.beginPath();
    ctx.arc(aim.from[0], aim.from[1], R, 0, Math.PI * 2);
    ctx.stroke();
    ctx.strokeStyle = heat > 0.85 ? "#d4503e" : "#e9b949";
    ctx.beginPath();
    ctx.arc(aim.from[0], aim.from[1], R, aim.angle + Math.PI - Math.PI * heat, aim.angle + Math.PI + Math.PI * heat);
    ctx.stroke();
    ctx.restore();
  }
}

/** Stroke a dashed circle of radius r (m) and line width w (m) about (x, y). */
function dashedRing(ctx, x, y, r, w, color, dash) {
  ctx.save();
  ctx.lineWidth = w;
  ctx.strokeStyle = color;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}

/** The stretches of [0, 1] not covered by the free intervals (sorted, disjoint). */
function blocked(free) {
  const out = [];
  let at = 0;
  for (const [lo, hi] of [...free].sort((p, q) => p[0] - q[0])) {
    if (lo > at + 1e-6) out.push([at, lo]);
    at = Math.max(at, hi);
  }
  if (at < 1 - 1e-6) out.push([at, 1]);
  return out;
}

function lerp2(a, b, s) {
  return [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.lineTo(x + w - r, y);
  ctx.quadraticCurveTo(x + w, y, x + w, y + r);
  ctx.lineTo(x + w, y + h - r);
  ctx.quadraticCurveTo(x + w, y + h, x + w - r, y + h);
  ctx.lineTo(x + r, y + h);
  ctx.quadraticCurveTo(x, y + h, x, y + h - r);
  ctx.lineTo(x, y + r);
  ctx.quadraticCurveTo(x, y, x + r, y);
  ctx.closePath();
}
