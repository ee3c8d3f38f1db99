// How a tournament page brings the event it holds up to date from the live socket's messages:
// pure functions over plain objects (no DOM, no socket), shared by the public pages and the
// director's console and tested under Node (tests/js/tourney-deltas.test.mjs).
//
// A numbered update (docs/protocol.md) carries what changed: matches sent whole ("matches"),
// the changed fields of matches every page holds ("patches": {id, field: value}, null for a field
// that became empty), pool tables, divisions' places and board tiles that changed, a new call;
// the director's console also gets the rows of changed entries and, after a change of the event's
// structure, its header fields, whole divisions, the matches gone ("removed"), the new order of
// the matches ("order") and the calls.
//
// A page that can inflate (DecompressionStream) asks for "?z=1": each message then comes as one
// binary frame, its JSON text raw-deflated on its own (server/tournaments/feed_wire.py).

/** Whether this browser can inflate the socket's compressed frames. */
export const CAN_INFLATE = typeof DecompressionStream === "function";

/**
 * One message of the live socket: JSON text, or a binary frame of raw-deflated JSON text.
 * @param {string | ArrayBuffer} data
 * @returns {Promise<any>}
 */
export async function decodeMessage(data) {
  if (typeof data === "string") return JSON.parse(data);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

/**
 * Merge whole match views into event.matches (new ones at the end); a match being played keeps
 * its live score and clock until its result comes.
 * @param {any} event
 * @param {any[] | undefined} matches
 */
export function mergeMatches(event, matches) {
  const at = new Map(event.matches.map((m, i) => [m.id, i]));
  for (const m of matches || []) {
    const old = at.get(m.id);
    const known = old === undefined ? null : event.matches[old];
    if (known && known.live_score && !m.result) m.live_score = known.live_score;
    if (known && known.clock && !m.result) m.clock = known.clock;
    if (old === undefined) { at.set(m.id, event.matches.length); event.matches.push(m); } else event.matches[old] = m;
  }
}

/**
 * Apply the changed fields of matches the page holds (a patch of any other match is ignored:
 * the page does not show it).
 * @param {any} event
 * @param {any[] | undefined} patches
 */
export function applyPatches(event, patches) {
  if (!patches || !patches.length) return;
  const byId = new Map(event.matches.map((m) => [m.id, m]));
  for (const p of patches) {
    const m = byId.get(p.id);
    if (!m) continue;
    for (const [k, v] of Object.entries(p)) {
      if (v === null) delete m[k]; else m[k] = v;
    }
    if (m.result) { delete m.live_score; delete m.clock; }
  }
}

/**
 * Bring `event` up to date with one numbered update (in place).
 * @param {any} event
 * @param {any} msg
 */
export function applyUpdate(event, msg) {
  if (msg.header) Object.assign(event, msg.header);
  for (const d of msg.divisions || []) {
    const i = event.divisions.findIndex((x) => x.id === d.id);
    if (i >= 0) event.divisions[i] = d; else event.divisions.push(d);
  }
  if (msg.entries && event.entries) {
    const at = new Map(event.entries.map((e, i) => [e.id, i]));
    for (const e of msg.entries) {
      const i = at.get(e.id);
      if (i === undefined) event.entries.push(e); else event.entries[i] = e;
    }
  }
  if (msg.removed) {
    const gone = new Set(msg.removed);
    event.matches = event.matches.filter((m) => !gone.has(m.id));
  }
  mergeMatches(event, msg.matches);
  applyPatches(event, msg.patches);
  if (msg.order) {
    const byId = new Map(event.matches.map((m) => [m.id, m]));
    event.matches = msg.order.map((id) => byId.get(id)).filter(Boolean);
  }
  for (const p of msg.pools || []) {
    const div = event.divisions.find((d) => d.id === p.division);
    if (!div) continue;
    const i = div.pools.findIndex((q) => q.number === p.number);
    if (i >= 0) div.pools[i] = p;
  }
  for (const [d, places] of Object.entries(msg.places || {})) {
    const div = event.divisions.find((x) => x.id === d);
    if (div) div.places = places;
  }
  if (event.tiles) {
    for (const tile of msg.tiles || []) event.tiles[tile[0] - 1] = tile;
  }
  if (msg.calls) event.calls = msg.calls;
  if (msg.call) event.calls = [msg.call, ...(event.calls || [])].slice(0, 20);
}

/**
 * The live scores and clocks of matches being played (a finished match keeps its result).
 * @param {any} event
 * @param {Record<string, number[]> | undefined} scores
 * @param {Record<string, any> | undefined} clocks
 */
export function applyLive(event, scores, clocks) {
  const byId = new Map(event.matches.map((m) => [m.id, m]));
  for (const [id, s] of Object.entries(scores || {})) {
    const m = byId.get(id);
    if (m && !m.result) m.live_score = s;
  }
  for (const [id, c] of Object.entries(clocks || {})) {
    const m = byId.get(id);
    if (m && !m.result) m.clock = c;
  }
}
