// Replays recorded live-socket sessions with the pages' own delta code (web/js/tourney-deltas.js)
// for tests/server/tournaments/test_tournament_deltas.py: reads {name: [messages]} as JSON on
// stdin (a compressed frame as {"deflated": base64}, inflated by the pages' own decodeMessage),
// writes {name: the event the page holds at the end} as JSON on stdout. Not a test file.
import { readFileSync } from "node:fs";

import {
  applyLive, applyUpdate, decodeMessage, mergeMatches,
} from "../../src/hikone_carrom/web/js/tourney-deltas.js";

/** @param {any} frame */
async function decoded(frame) {
  if (frame.deflated === undefined) return frame;
  const bytes = Buffer.from(frame.deflated, "base64");
  return decodeMessage(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

/** @param {any[]} frames */
async function replay(frames) {
  let event = null;
  for (const frame of frames) {
    const msg = await decoded(frame);
    if (msg.type === "snapshot") {
      event = msg.event;
      applyLive(event, msg.scores, msg.clocks);
    } else if (msg.type === "division") {
      const div = event.divisions.find((/** @type {any} */ d) => d.id === msg.data.division.id);
      if (msg.data.part === "pools") div.pools = msg.data.division.pools;
      div.places = msg.data.division.places;
      mergeMatches(event, msg.data.matches);
    } else if (msg.type === "live") {
      applyLive(event, msg.scores, msg.clocks);
    } else if (msg.type === "update") {
      applyUpdate(event, msg);
    }
  }
  return event;
}

const sessions = JSON.parse(readFileSync(0, "utf-8"));
const held = await Promise.all(Object.entries(sessions).map(
  async ([name, frames]) => [name, await replay(/** @type {any[]} */ (frames))]));
process.stdout.write(JSON.stringify(Object.fromEntries(held)));
