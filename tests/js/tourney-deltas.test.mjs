// How a tournament page applies the live socket's messages (web/js/tourney-deltas.js): patches of
// the matches it holds, whole matches, tables, tiles, calls, the console's structural parts.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyLive, applyPatches, applyUpdate, mergeMatches } from "../../src/hikone_carrom/web/js/tourney-deltas.js";

/** A page's event: two boards, one match called, one planned, a division with one pool. */
function held() {
  return {
    name: "大会", tiebreaks: [], tiles: [[1, "GS-A-01", "GS-A-02"], [2, null, null]],
    divisions: [{ id: "GS", places: {}, pools: [{ division: "GS", number: 1, standings: [] }] }],
    entries: [{ id: "GS-001", status: "entered" }],
    matches: [
      { id: "GS-A-01", status: "called", board: 1, called_at: "09:30" },
      { id: "GS-A-02", status: "planned", board: 1 },
    ],
    calls: [],
  };
}

test("a patch changes the fields it names and removes those sent as null", () => {
  const event = held();
  applyPatches(event, [{ id: "GS-A-01", status: "playing", started_at: "09:31", called_at: null }]);
  assert.deepEqual(event.matches[0], { id: "GS-A-01", status: "playing", board: 1, started_at: "09:31" });
});

test("a patch of a match the page does not hold is ignored", () => {
  const event = held();
  applyPatches(event, [{ id: "GS-B-09", status: "finished" }]);
  assert.equal(event.matches.length, 2);
});

test("a match being played keeps its live score until its result comes", () => {
  const event = held();
  applyLive(event, { "GS-A-01": [3, 0] }, { "GS-A-01": { elapsed: 12, running: true, at_ms: 1 } });
  mergeMatches(event, [{ id: "GS-A-01", status: "playing", board: 1 }]);
  assert.deepEqual(event.matches[0].live_score, [3, 0]);
  assert.equal(event.matches[0].clock.elapsed, 12);
  applyPatches(event, [{ id: "GS-A-01", status: "finished", result: { scores: [112, 0] } }]);
  assert.equal(event.matches[0].live_score, undefined);
  assert.equal(event.matches[0].clock, undefined);
  applyLive(event, { "GS-A-01": [5, 5] }, {});
  assert.equal(event.matches[0].live_score, undefined);  // a late live score never hides it
});

test("an update replaces the tables, tiles and places it carries and adds its call", () => {
  const event = held();
  const table = { division: "GS", number: 1, standings: [{ entry: "GS-001", place: 1 }] };
  applyUpdate(event, {
    seq: 5, type: "update", matches: [{ id: "GS-A-03", status: "planned", board: 2 }],
    pools: [table, { division: "GS", number: 9, standings: [] }], places: { GS: { 1: ["GS-001"] } },
    tiles: [[2, null, "GS-A-03"]], call: { match: "GS-A-01", board: 1 },
  });
  assert.deepEqual(event.divisions[0].pools, [table]);  // a table the page never loaded stays out
  assert.deepEqual(event.divisions[0].places, { 1: ["GS-001"] });
  assert.deepEqual(event.tiles, [[1, "GS-A-01", "GS-A-02"], [2, null, "GS-A-03"]]);
  assert.deepEqual(event.matches.map((m) => m.id), ["GS-A-01", "GS-A-02", "GS-A-03"]);
  assert.deepEqual(event.calls, [{ match: "GS-A-01", board: 1 }]);
});

test("the console takes the parts of a change of structure", () => {
  const event = held();
  applyUpdate(event, {
    seq: 6, type: "update", header: { name: "新しい大会" },
    divisions: [{ id: "GS", places: {}, pools: [] }, { id: "JA", places: {}, pools: [] }],
    entries: [{ id: "GS-001", status: "checked_in" }, { id: "GS-002", status: "entered" }],
    matches: [{ id: "GS-A-04", status: "planned" }], removed: ["GS-A-02"],
    order: ["GS-A-04", "GS-A-01"], calls: [{ match: "GS-A-01", board: 1 }],
  });
  assert.equal(event.name, "新しい大会");
  assert.deepEqual(event.divisions.map((d) => d.id), ["GS", "JA"]);
  assert.deepEqual(event.entries, [{ id: "GS-001", status: "checked_in" }, { id: "GS-002", status: "entered" }]);
  assert.deepEqual(event.matches.map((m) => m.id), ["GS-A-04", "GS-A-01"]);
  assert.deepEqual(event.calls, [{ match: "GS-A-01", board: 1 }]);
});
