// The pad's offline referee (web/js/pad/referee.js) and match (match.js) answer exactly as the
// library on random matches under random rule options: every refusal, state field, ruling,
// sentence (ja/en) and, for whole matches, the view the server sends. Python is the reference:
// the cases and the library's answers come from tests/js/pad_referee_cases.py, read from the
// file named by PAD_REFEREE_CASES (tests/js/test_pad_referee_parity.py writes one) or made by
// running it with $PYTHON (default: the repository's .venv, else python3).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { PadMatch, makeSetup } from "../../src/hikone_carrom/web/js/pad/match.js";
import * as referee from "../../src/hikone_carrom/web/js/pad/referee.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

/**
 * @typedef {{ kind: "shot", report: referee.ShotReport } | { kind: "skip" } | { kind: "call_time" } | { kind: "lot", winner: referee.Color }} RefEvent
 * @typedef {{ players: number, options: referee.RuleOptions, events: RefEvent[], expected: object[] }} RefereeCase
 * @typedef {{ setup: any, entries: any[], correction: [number, any] | null, expected: { refused: any[], corrected: any, view: object } }} MatchCase
 * @typedef {{ seed: number, referee: RefereeCase[], matches: MatchCase[] }} Cases
 */

/** @returns {Cases} */
function loadCases() {
  const path = process.env.PAD_REFEREE_CASES;
  if (path) return JSON.parse(readFileSync(path, "utf8"));
  const venv = join(root, ".venv", "bin", "python");
  const python = process.env.PYTHON || (existsSync(venv) ? venv : "python3");
  const src = join(root, "src");
  const env = { ...process.env, PYTHONPATH: [src, process.env.PYTHONPATH].filter(Boolean).join(delimiter) };
  const out = execFileSync(python, [join(here, "pad_referee_cases.py")], { env, encoding: "utf8", maxBuffer: 1 << 30 });
  return JSON.parse(out);
}

const cases = loadCases();

/**
 * One event through the pad's referee: the refusal, or what the library's case records.
 * @param {referee.RefState} state @param {RefEvent} event @returns {[referee.RefState, object]}
 */
function judge(state, event) {
  try {
    let ruling = null;
    if (event.kind === "shot") [state, ruling] = referee.apply(state, event.report);
    else if (event.kind === "skip") [state, ruling] = referee.skipTurn(state);
    else if (event.kind === "call_time") state = referee.callTime(state);
    else state = referee.decideLot(state, event.winner);
    const o = state.outcome;
    return [state, {
      state,
      scores: { red: referee.score(state, "red"), green: referee.score(state, "green") },
      ruling,
      explain: ruling && { en: referee.explain(ruling, "en"), ja: referee.explain(ruling, "ja") },
      outcome: o && { en: referee.explainOutcome(o, "en"), ja: referee.explainOutcome(o, "ja") },
    }];
  } catch (err) {
    if (!(err instanceof referee.RulesError)) throw err;
    return [state, { refused: { en: err.en, ja: err.ja } }];
  }
}

test("the pad's referee rules as the library under random rule options", (t) => {
  for (const [i, c] of cases.referee.entries()) {
    let state = referee.initialState(c.players, c.options);
    c.events.forEach((event, k) => {
      /** @type {object} */
      let got;
      [state, got] = judge(state, event);
      assert.deepStrictEqual(got, c.expected[k], `seed ${cases.seed}, referee case ${i}, event ${k}: ${JSON.stringify(event)}\noptions ${JSON.stringify(c.options)}`);
    });
  }
  t.diagnostic(`${cases.referee.length} games equal`);
});

test("the pad's match shows what the server shows, corrections included", (t) => {
  for (const [i, c] of cases.matches.entries()) {
    const m = new PadMatch(makeSetup(c.setup));
    /** @type {[number, string, string][]} */
    const refused = [];
    c.entries.forEach((e, k) => {
      try {
        m.add(e);
      } catch (err) {
        if (!(err instanceof referee.RulesError)) throw err;
        refused.push([k, err.en, err.ja]);
      }
    });
    /** @type {"ok" | [string, string] | null} */
    let corrected = null;
    if (c.correction) {
      try {
        m.correct(c.correction[0], c.correction[1]);
        corrected = "ok";
      } catch (err) {
        if (!(err instanceof referee.RulesError)) throw err;
        corrected = [err.en, err.ja];
      }
    }
    const where = `seed ${cases.seed}, match case ${i}`;
    assert.deepStrictEqual(refused, c.expected.refused, where);
    assert.deepStrictEqual(corrected, c.expected.corrected, where);
    assert.deepStrictEqual(m.view(1, null), c.expected.view, where);
  }
  t.diagnostic(`${cases.matches.length} matches equal`);
});
