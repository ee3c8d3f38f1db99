// Exact piecewise motion from the server: in each segment a disk moves with constant
// deceleration (mu*g against its velocity), so x(t) = x0 + vx*dt + ax*dt^2/2.

export const SWALLOW_S = 0.28; // s: a pocketed disk sinks into the hole
export const FLY_S = 0.45; // s: a disk flying off the board rises and leaves

/** Disk state at time t (s after the shot began) from one track. */
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

/** Time (s) at which every disk of a shot has come to rest or left the board. */
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
 */
export function disksAt(ev, t) {
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

/** Call draw(now) on every display frame until alive() is false. */
export function everyFrame(draw, alive) {
  const loop = (now) => {
    if (!alive()) return;
    draw(now);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}
