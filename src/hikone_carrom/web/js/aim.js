// Display helpers for aiming: where the striker may go and where it would first touch something.
// The server decides legality; these only show it before the shot (R2a, R2b).

/** @type {Record<string, number>} */
const AHEAD = { south: Math.PI / 2, west: 0, north: -Math.PI / 2, east: Math.PI };

/**
 * Where the striker may stand (the server's Placement.to_dict()): a point, or the area line from
 * line[0] to line[1] (m) of which the fractions in `free` ([lo, hi] pairs) are not covered.
 * @typedef {{kind: "point", point: number[], line?: null, free?: number[][]}
 *   | {kind: "line", line: number[][], point?: null, free: number[][]}} Placement
 */

/**
 * A shooter's own frame on the side they sit: `ahead`, the world angle (rad) straight towards
 * the opposite rail, and `right`, the unit vector to their right hand.
 * @param {string} side
 */
export function shooterFrame(side) {
  const ahead = AHEAD[side] ?? AHEAD.south;
  return { ahead, right: [Math.sin(ahead), -Math.cos(ahead)] };
}

/**
 * Project (x, y) m on a placement: returns {x, y, s, ok}.
 * s is the fraction along the area line; ok says whether the striker may stand there.
 * @param {Placement} placement
 * @param {number} x
 * @param {number} y
 */
export function placeOn(placement, x, y) {
  if (placement.kind === "point") {
    return { x: placement.point[0], y: placement.point[1], s: 0.5, ok: true };
  }
  const [a, b] = placement.line;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let s = len2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / len2 : 0;
  s = Math.max(0, Math.min(1, s));
  return { x: a[0] + dx * s, y: a[1] + dy * s, s, ok: isFree(placement, s) };
}

/**
 * Is the fraction s of the area line free for the striker's centre?
 * @param {Placement} placement
 * @param {number} s
 */
export function isFree(placement, s) {
  return (placement.free || []).some(([lo, hi]) => s >= lo && s <= hi);
}

/**
 * The free fraction of the area line nearest s (for the default spot and keyboard moves).
 * @param {Placement} placement
 * @param {number} s
 */
export function nearestFree(placement, s) {
  if (placement.kind === "point" || isFree(placement, s)) return s;
  let best = s, gap = Infinity;
  for (const [lo, hi] of placement.free || []) {
    const inset = Math.min(1e-6, (hi - lo) / 2);
    const f = Math.min(Math.max(s, lo + inset), hi - inset);
    if (Math.abs(f - s) < gap) {
      gap = Math.abs(f - s);
      best = f;
    }
  }
  return best;
}

/**
 * Point at fraction s of the area line.
 * @param {Placement} placement
 * @param {number} s
 * @returns {number[]} [x, y] m
 */
export function pointAt(placement, s) {
  if (placement.kind === "point") return placement.point;
  const [a, b] = placement.line;
  return [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
}

/**
 * The guide line: from the striker at (x, y) along angle (rad) to the first disk it would touch
 * (same layer) or the first rail. Returns {to, contact, deflect}.
 * @param {{puck_radius: number, half: number}} geometry lengths in m
 * @param {{id: string, kind: string, x: number, y: number, r: number, layer: number}[]} disks
 * @param {number} x
 * @param {number} y
 * @param {number} angle
 * @param {string} strikerId
 * @returns {{to: number[], contact: string | null, deflect: {from: number[], to: number[]} | null}}
 */
export function guide(geometry, disks, x, y, angle, strikerId) {
  const r = geometry.puck_radius;
  const dx = Math.cos(angle), dy = Math.sin(angle);
  let best = Infinity;
  /** @type {typeof disks[number] | null} */
  let hit = null;
  for (const d of disks) {
    if (d.id === strikerId || d.kind === "striker" || d.layer !== 0) continue;
    const R = r + d.r;
    const fx = x - d.x, fy = y - d.y;
    const b = fx * dx + fy * dy;
    const c = fx * fx + fy * fy - R * R;
    const disc = b * b - c;
    if (disc < 0) continue;
    const t = -b - Math.sqrt(disc);
    if (t > 1e-6 && t < best) {
      best = t;
      hit = d;
    }
  }
  const h = geometry.half - r;
  for (const [n, lim] of [[dx, h], [-dx, h], [dy, h], [-dy, h]]) {
    if (n <= 1e-9) continue;
    const pos = n === dx || n === -dx ? (n === dx ? x : -x) : (n === dy ? y : -y);
    const t = (lim - pos) / n;
    if (t > 0 && t < best) {
      best = t;
      hit = null;
    }
  }
  if (!Number.isFinite(best)) best = 0;
  const to = [x + dx * best, y + dy * best];
  if (!hit) return { to, contact: null, deflect: null };
  const nx = hit.x - to[0], ny = hit.y - to[1];
  const nl = Math.hypot(nx, ny) || 1;
  const reach = 0.12;
  return {
    to,
    contact: hit.id,
    deflect: { from: [hit.x, hit.y], to: [hit.x + (nx / nl) * reach, hit.y + (ny / nl) * reach] },
  };
}
