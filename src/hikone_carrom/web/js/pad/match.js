// A refereed match on the pad (hikone_carrom.scoring: setup.py, tap.py, refereed.py): the set-up,
// the entries and their rulings, recomputed from the entries after every undo or correction.
// Views have the shape the server sends (server/pad_views.py), so the two can be compared.
import {
  DEFAULT_MATCH_TIME_S, DEFAULT_OPTIONS, RulesError, apply, callTime, decideLot, explain,
  explainOutcome, initialState, reportOf, score, seatColor, sentence, skipTurn, stateCounts,
} from "./referee.js";
import { MAX_COUNT, NAME_FORBIDDEN, TAP_FIELD_NAMES } from "./shared-rules.js";

const UNSAFE_NAME = new RegExp(`[${NAME_FORBIDDEN}]`);

/** @type {Record<number, string[]>} */
export const SIDES = { 2: ["S", "N"], 4: ["S", "W", "N", "E"] };

/**
 * What the referee taps in for one shot (scoring/tap.py): pieces pocketed and off the board, the
 * striker's fate, fouls seen (R5e: the seat that shot out of turn, or null).
 * @typedef {{red: number, green: number, jack: boolean, red_off: number, green_off: number,
 *   jack_off: boolean, striker_pocketed: boolean, striker_off: boolean, touched_striker: boolean,
 *   unshootable_hit: boolean, wrong_order_seat: number | null}} Tap
 */

/** @type {Readonly<Tap>} */
export const EMPTY_TAP = Object.freeze({
  red: 0, green: 0, jack: false, red_off: 0, green_off: 0, jack_off: false,
  striker_pocketed: false, striker_off: false, touched_striker: false, unshootable_hit: false,
  wrong_order_seat: null,
});

/** A value as Python's repr() writes it in the library's messages, so both sides say alike. @param {unknown} v */
function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return v.includes("'") && !v.includes('"') ? `"${v}"` : `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  return typeof v === "number" ? String(v) : JSON.stringify(v);
}

/** @param {string} en @param {string} ja */
const badTap = (en, ja) => new RulesError(en, ja, "bad_tap");
/** @param {string} en @param {string} ja */
const badEntry = (en, ja) => new RulesError(en, ja, "bad_entry");
/** @param {string} en @param {string} ja */
const badCorrection = (en, ja) => new RulesError(en, ja, "correction");

const COUNTS = /** @type {const} */ (["red", "green", "red_off", "green_off"]);
const FLAGS = /** @type {const} */ (["jack", "jack_off", "striker_pocketed", "striker_off", "touched_striker", "unshootable_hit"]);

/**
 * A full tap dict (missing fields take their defaults), checked as tap.py (Tap.from_dict) does,
 * with its messages: unknown fields, counts 0..12, yes-or-no flags, a seat number.
 * @param {Partial<Tap>} [fields]
 * @returns {Tap}
 */
export function makeTap(fields = {}) {
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) throw badTap("a tap must be an object", "タップの内容はオブジェクトが必要です");
  const unknown = Object.keys(fields).filter((k) => !Object.keys(EMPTY_TAP).includes(k)).sort();
  if (unknown.length) throw badTap(`unknown tap fields: ${unknown.join(", ")}`, `不明なタップの項目: ${unknown.join(", ")}`);
  const tap = { ...EMPTY_TAP, ...fields };
  for (const k of COUNTS) {
    const { en, ja } = TAP_FIELD_NAMES[k];
    const v = tap[k];
    if (typeof v !== "number" || !Number.isInteger(v)) throw badTap(`${en} must be a whole number, not ${pyRepr(v)}`, `${ja}は整数で入力してください（${pyRepr(v)} は不可）`);
    if (v < 0) throw badTap(`${en} cannot be negative (${v})`, `${ja}に負の数（${v}）は入力できません`);
    if (v > MAX_COUNT) throw badTap(`${en}: ${v} is more than the ${MAX_COUNT} pucks of a colour (R1a)`, `${ja}：${v}個は1色の${MAX_COUNT}個を超えています（R1a）`);
  }
  for (const k of FLAGS) {
    const { en, ja } = TAP_FIELD_NAMES[k];
    if (typeof tap[k] !== "boolean") throw badTap(`${en} must be yes or no`, `${ja}は「はい」か「いいえ」です`);
  }
  const seat = tap.wrong_order_seat;
  if (seat !== null && (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0)) throw badTap(`the seat that shot out of turn must be a seat number, not ${pyRepr(seat)} (R5e)`, `順番違いで打った席は席番号で指定してください（${pyRepr(seat)} は不可、R5e）`);
  if (tap.jack && tap.jack_off) throw badTap("there is one jack: it cannot be both pocketed and off the board", "ジャックは1個です。ポケットに入り、同時に盤の外に出ることはありません");
  if (tap.striker_pocketed && tap.striker_off) throw badTap("the striker cannot be both pocketed and off the board", "ストライカーがポケットに入り、同時に盤の外に出ることはありません");
  return tap;
}

const KINDS = ["shot", "skip", "call_time", "lot"];

/**
 * An entry checked and filled in as refereed.py (SheetLine.from_dict) does, with its messages:
 * a known kind and fields, a tap for a shot only, red or green for a lot only, at s >= 0 or null.
 * @param {unknown} data
 * @returns {Entry}
 */
export function makeEntry(data) {
  if (data === null || typeof data !== "object" || Array.isArray(data) || !("kind" in data)) throw badEntry("an entry must be an object with a kind", "入力には種類が必要です");
  const raw = /** @type {Record<string, any>} */ (data);
  const unknown = Object.keys(raw).filter((k) => !["kind", "tap", "winner", "at"].includes(k)).sort();
  if (unknown.length) throw badEntry(`unknown entry fields: ${unknown.join(", ")}`, `不明な入力の項目: ${unknown.join(", ")}`);
  const tap = raw.tap === null || raw.tap === undefined ? null : makeTap(raw.tap);
  const winner = raw.winner ?? null;
  if (winner !== null && winner !== "red" && winner !== "green") throw badEntry(`the winner must be red or green, not ${pyRepr(winner)}`, `勝った色は赤か緑です（${pyRepr(winner)} は不可）`);
  const kind = raw.kind;
  if (!KINDS.includes(kind)) throw badEntry(`unknown entry kind ${pyRepr(kind)}`, `不明な入力の種類 ${pyRepr(kind)}`);
  if ((kind === "shot") !== (tap !== null)) throw badEntry("a shot entry needs what was tapped, and only a shot has it", "ショットの入力にはタップの内容が必要です（ショット以外には不要です）");
  if ((kind === "lot") !== (winner !== null)) throw badEntry("a rock-paper-scissors entry names the winning colour, and only it does (R7d)", "じゃんけんの入力には勝った色が必要です（R7d）");
  const at = raw.at ?? null;
  if (at !== null && (typeof at !== "number" || !(at >= 0 && at < 1e6))) throw badEntry(`the entry's match time must be seconds >= 0, not ${pyRepr(at)}`, `入力の試合時間は0秒以上で指定してください（${pyRepr(at)} は不可）`);
  /** @type {Entry} */
  const entry = { kind, at };
  if (tap) entry.tap = tap;
  if (winner) entry.winner = winner;
  return entry;
}

/** @param {Tap} tap */
export const isNoPocket = (tap) => /** @type {(keyof Tap)[]} */ (Object.keys(EMPTY_TAP)).every((k) => tap[k] === EMPTY_TAP[k]);

/**
 * The set-up dict as MatchSetup.to_dict gives it (every rule option filled in).
 * @param {{names: unknown[], match_time_s?: number | null, deadlock?: string, title?: string,
 *   options?: object}} fields match time in s, null when untimed
 */
export function makeSetup({ names, match_time_s = DEFAULT_MATCH_TIME_S, deadlock = DEFAULT_OPTIONS.deadlock, title = "", options = {} }) {
  const clean = (names || []).map((n) => String(n ?? "").trim());
  if (clean.length !== 2 && clean.length !== 4) throw new RulesError("a match has 2 players (singles) or 4 (doubles)", "試合は2人（シングルス）か4人（ダブルス）です", "bad_setup");
  if (clean.some((n) => !n || n.length > 40 || UNSAFE_NAME.test(n))) throw new RulesError("every player needs a name of 1 to 40 characters (no < >)", "全員に1〜40文字の名前が必要です（< > は不可）", "bad_setup");
  if (match_time_s !== null && !(match_time_s > 0 && match_time_s <= 7200)) throw new RulesError("the match time must be more than 0 and at most 120 minutes", "試合時間は0分より長く120分以内です", "bad_setup");
  if (deadlock !== "draw" && deadlock !== "lot") throw new RulesError('the deadlock result must be "draw" or "lot" (R7d)', "こう着時の決め方は「引き分け」か「じゃんけん」です（R7d）", "bad_setup");
  const opts = { ...DEFAULT_OPTIONS, ...options, match_time_s, deadlock, refereed_fouls: true, first_seat: 0 };
  return { names: clean, match_time_s, deadlock, title: String(title || "").slice(0, 80), options: opts };
}

/**
 * The set-up of a match as makeSetup gives it.
 * @typedef {ReturnType<typeof makeSetup>} Setup
 * @typedef {any} State the referee's state (referee.js initialState)
 * @typedef {any} Ruling the referee's ruling of a shot (referee.js apply)
 */
/**
 * One entry of the referee: a shot's tap, a skipped turn (R8a), time called (R7b) or the
 * rock-paper-scissors winner (R7d); at, the match time (s) it was made at, or null.
 * @typedef {{kind: "shot" | "skip" | "call_time" | "lot", tap?: Tap, winner?: string,
 *   at?: number | null}} Entry
 */
/**
 * An entry judged: its number n (from 1), the seat that shot, the ruling (shots and skipped
 * turns) and the states before and after it.
 * @typedef {{n: number, entry: Entry, seat: number, ruling: Ruling | null, before: State,
 *   after: State}} Step
 */

/** @param {number} players */
const lastSeat = (players) => players - 1;

/**
 * A shot is lost to the 10-second rule only in the last minute (R8a) or while the round after
 * time is finished (refereed.py _require_final_phase); at null (no clock ran) is taken as it comes.
 * @param {State} state
 * @param {number | null} at match time, s
 */
function requireFinalPhase(state, at) {
  const o = state.options;
  if (at !== null && !state.time_called && at < o.match_time_s - o.final_phase_s) {
    throw new RulesError("the 10-second rule applies only in the last minute (R8a)", "10秒ルールは残り1分からです（R8a）", "clock");
  }
}

/**
 * @param {State} state
 * @param {Entry} entry
 * @param {number} n
 * @returns {Step}
 */
function judge(state, entry, n) {
  let ruling = null, after, seat = state.shooter;
  if (entry.kind === "shot") {
    [after, ruling] = apply(state, reportOf(/** @type {Tap} */ (entry.tap)));
    seat = ruling.seat;
  } else if (entry.kind === "skip" || entry.kind === "call_time") {
    if (state.outcome) callTime(state);
    if (state.options.match_time_s === null) {
      const rule = entry.kind === "skip" ? "R8a" : "R7b";
      throw new RulesError(`this match is untimed: no time call and no 10-second rule (${rule})`, `この試合は時間制限なしです。試合時間の終了も10秒ルールもありません（${rule}）`, "untimed");
    }
    if (entry.kind === "skip") {
      requireFinalPhase(state, entry.at ?? null);
      [after, ruling] = skipTurn(state);
    }
    else after = callTime(state);
  } else after = decideLot(state, /** @type {import("./referee.js").Color} */ (entry.winner));
  return { n, entry, seat, ruling, before: state, after };
}

/** @param {Step} step @param {"en" | "ja"} lang @returns {string[]} */
function stepExplain(step, lang) {
  if (step.ruling) return explain(step.ruling, lang);
  if (step.entry.kind === "call_time") {
    const last = lastSeat(step.before.players);
    return [sentence(lang, "time_called", { last })];
  }
  return [explainOutcome(step.after.outcome, lang)];
}

/** One judged entry as the server's step_view. @param {Step} step */
export function stepView(step) {
  const e = step.entry;
  return {
    n: step.n, kind: e.kind, seat: step.seat, turn: step.before.shooter,
    tap: e.tap ?? null, winner: e.winner ?? null, at: e.at ?? null,
    ruling: step.ruling, explain: { en: stepExplain(step, "en"), ja: stepExplain(step, "ja") },
    counts: stateCounts(step.after),
  };
}

/** The referee's state as the server's state_view. @param {State} s */
export function stateView(s) {
  return {
    ...stateCounts(s), shooter: s.shooter,
    scores: { red: score(s, "red"), green: score(s, "green") },
    time_called: s.time_called, extra_round: s.extra_round, awaiting_lot: s.awaiting_lot,
    outcome: s.outcome,
  };
}

/** A refereed match: set-up and entries in, steps out; every change all or nothing. */
export class PadMatch {
  /**
   * @param {Setup} setup
   * @param {Entry[]} [entries]
   * @param {boolean} [confirmed]
   */
  constructor(setup, entries = [], confirmed = false) {
    this.setup = setup;
    this.players = setup.names.length;
    this.steps = PadMatch.judgeAll(setup, entries);
    this.confirmed = confirmed;
  }

  /**
   * @param {Setup} setup
   * @param {Entry[]} entries
   * @returns {Step[]}
   */
  static judgeAll(setup, entries) {
    let state = initialState(setup.names.length, setup.options);
    /** @type {Step[]} */
    const steps = [];
    entries.map(makeEntry).forEach((entry, i) => {
      let step;
      try {
        step = judge(state, entry, i + 1);
      } catch (err) {
        if (!(err instanceof RulesError)) throw err;
        throw new RulesError(`entry ${i + 1} would no longer be possible: ${err.en}`, `${i + 1}番目の入力が成り立たなくなります：${err.ja}`, "correction");
      }
      steps.push(step);
      state = step.after;
    });
    return steps;
  }

  get state() {
    return this.steps.length ? this.steps[this.steps.length - 1].after : initialState(this.players, this.setup.options);
  }

  get entries() {
    return this.steps.map((s) => s.entry);
  }

  checkOpen() {
    if (this.confirmed) throw new RulesError("the result has been confirmed: the match can no longer change", "結果は確定済みです。試合の内容はもう変えられません", "confirmed");
  }

  /** Judge an entry without keeping it (throws RulesError). @param {Entry} entry */
  preview(entry) {
    this.checkOpen();
    return judge(this.state, makeEntry(entry), this.steps.length + 1);
  }

  /** @param {Entry} entry */
  add(entry) {
    const step = this.preview(entry);
    this.steps.push(step);
    return step;
  }

  /** Take back the last count entries; returns them. @param {number} [count] */
  undo(count = 1) {
    this.checkOpen();
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) throw badCorrection(`undo takes a number of entries >= 1, not ${pyRepr(count)}`, `取り消す入力の数は1以上です（${pyRepr(count)} は不可）`);
    if (count > this.steps.length) throw new RulesError(`only ${this.steps.length} entries to undo`, `取り消せる入力は${this.steps.length}件だけです`, "correction");
    return this.steps.splice(this.steps.length - count, count).map((s) => s.entry);
  }

  /** Replace entry n (from 1), keeping its time, and judge the rest again. @param {number} n @param {Entry} entry */
  correct(n, entry) {
    this.checkOpen();
    const len = this.steps.length;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > len) throw badCorrection(`there is no entry ${pyRepr(n)} to correct (1..${len})`, `訂正する${pyRepr(n)}番目の入力はありません（1〜${len}）`);
    const given = makeEntry(entry);
    const fixed = { ...given, at: given.at ?? this.steps[n - 1].entry.at };
    const entries = [...this.entries.slice(0, n - 1), fixed, ...this.entries.slice(n)];
    this.steps = PadMatch.judgeAll(this.setup, entries);
  }

  confirm() {
    if (!this.state.outcome) throw new RulesError("the match is not over: there is no result to confirm yet", "試合はまだ終わっていません。確定する結果がありません", "not_over");
    this.confirmed = true;
  }

  /** @param {number} seat */
  colorOf(seat) {
    return seatColor(seat);
  }

  /**
   * The match as the server's match_view.
   * @param {number} number
   * @param {unknown} clock
   */
  view(number, clock) {
    return { number, setup: this.setup, steps: this.steps.map(stepView), state: stateView(this.state), confirmed: this.confirmed, clock };
  }
}
