// Exact piecewise motion from the server: in each segment a disk moves with constant
// deceleration (mu*g against its velocity), so x(t) = x0 + vx*dt + ax*dt^2/2.

export const SWALLOW_S = 0.28; // s: a pocketed disk sinks into the hole
export const FLY_S = 0.45; // s: a disk flying off the board rises and leaves

/**
 * One stretch of constant deceleration: from (x, y) m with velocity (vx, vy) m/s and
 * acceleration (ax, ay) m/s² between t0 and t1 s; layer 0 is the board, 1 on top of a disk.
 * @typedef {{t0: number, t1: number, x: number, y: number, vx: number, vy: number,
 *   ax: number, ay: number, layer: number}} Segment
 */
/**
 * A disk's motion in a shot; fate "pocket" or "off" (the board) at fate_t s, pocket [x, y] m.
 * @typedef {{id: string, kind: string, color: string | null, r: number, segments: Segment[],
 *   fate: string | null, fate_t: number, pocket?: number[] | null}} Track
 */
/**
 * A disk as drawn: centre (x, y) m, radius r m.
 * @typedef {{id: string, kind: string, color?: string | null, r: number, x: number, y: number,
 *   layer: number, alpha?: number, scale?: number}} Disk
 */

/**
 * Disk state at time t (s after the shot began) from one track.
 * @param {Track} track
 * @param {number} t
 * @returns {{x: number, y: number, layer: number, alpha: number, scale: number}}
 */
export function trackAt(track, t) {
  const segs = track.segments;
  let seg = segs[0];
  for (let i = 0; i < segs.length; i++) {
    if (segs[i].t0 <= t) seg = segs[i];
    else break;
  }
  const dt = Math.max(0, Math.min(t, seg.t1) - seg.t0);
  const x = seg.x + seg.vx * dt + 0.5 * seg.ax * dt * dt;
  const y = seg.y + seg.vy * dt + 0.5 * seg.ay * dt * dt;
  const out = { x, y, layer: seg.layer, alpha: 1, scale: 1 };
  if (track.fate && t >= track.fate_t) {
    const k = Math.min(1, (t - track.fate_t) / (track.fate === "pocket" ? SWALLOW_S : FLY_S));
    if (track.fate === "pocket") {
      const [px, py] = track.pocket || [Math.sign(x) * 0.3, Math.sign(y) * 0.3];
      out.x = x + (px - x) * k * 0.6;
      out.y = y + (py - y) * k * 0.6;
      out.scale = 1 - 0.45 * k;
      out.alpha = 1 - k;
    } else {
      out.scale = 1 + 0.5 * Math.sin(Math.min(1, k) * Math.PI * 0.5);
      out.alpha = 1 - k;
    }
  }
  return out;
}

/**
 * Time (s) at which every disk of a shot has come to rest or left the board.
 * @param {Track[]} tracks
 */
export function tracksDuration(tracks) {
  let end = 0;
  for (const tr of tracks) {
    const last = tr.segments[tr.segments.length - 1];
    end = Math.max(end, last.t1);
    if (tr.fate) end = Math.max(end, tr.fate_t + (tr.fate === "pocket" ? SWALLOW_S : FLY_S));
  }
  return end;
}

/**
 * Every disk to draw at time t (s) of a shot event: the moving ones from their tracks (those
 * swallowed or gone are left out) and the ones that did not move from the layout before it.
 * @param {{tracks: Track[], before?: Disk[] | null}} ev
 * @param {number} t
 * @returns {Disk[]}
 */
export function disksAt(ev, t) {
  /** @type {Disk[]} */
  const disks = [];
  const moving = new Set();
  for (const tr of ev.tracks) {
    moving.add(tr.id);
    const at = trackAt(tr, t);
    if (at.alpha > 0) disks.push({ id: tr.id, kind: tr.kind, color: tr.color, r: tr.r, ...at });
  }
  for (const d of ev.before || []) if (!moving.has(d.id)) disks.push(d);
  return disks;
}

/**
 * Call draw(now) on every display frame until alive() is false.
 * @param {(now: number) => void} draw
 * @param {() => boolean} alive
 */
export function everyFrame(draw, alive) {
  /** @param {number} now */
  const loop = (now) => {
    if (!alive()) return;
    draw(now);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}
