// The referee of hikone_carrom.rules (transitions.py, messages.py), carried on the pad so that it
// rules at once and offline. The server re-judges every entry with the library and is the
// authority. What both share as data (default options, pucks, fouls, names, every sentence)
// comes from shared-rules.js, generated from the Python side; the judgement below is a port of
// transitions.py and messages.py, kept equal by tests/js/pad_referee_parity.test.mjs (random
// matches under random rule options, run by tests/js/test_pad_referee_parity.py) and
// tests/e2e/test_pad_parity.py (the pad's match in Chromium).

import {
  COLOR_NAMES, DEFAULT_MATCH_TIME_S, DEFAULT_OPTIONS, FOULS, FOUL_NAMES, FOUL_PENALTY, JACK_SCORE,
  PUCKS, SENTENCES,
} from "./shared-rules.js";

export { DEFAULT_MATCH_TIME_S, DEFAULT_OPTIONS, JACK_SCORE, PUCKS };

/** @typedef {import("./shared-rules.js").Color} Color */
/** @typedef {import("./shared-rules.js").Lang} Lang */
/** @typedef {import("./shared-rules.js").RuleOptions} RuleOptions */
/** @typedef {import("./shared-rules.js").SentenceKey} SentenceKey */
/** @typedef {Color | "jack"} Piece */
/** @typedef {import("./shared-rules.js").Foul} Foul */
/** @typedef {[number, number]} Pair red's then green's (index 0, 1). */

/**
 * How a game ended (report.Outcome).
 * @typedef {{ winner: Color | null, reason: string, scores: Pair }} Outcome
 */

/**
 * The referee's state (state.RefereeState); never changed, every transition gives a new one.
 * @typedef {object} RefState
 * @property {number} players 2 (singles) or 4 (doubles).
 * @property {RuleOptions} options
 * @property {number} shooter the seat to shoot.
 * @property {Pair} pocketed pucks each colour has in the pockets.
 * @property {Pair} debt pucks each colour owes (R5i).
 * @property {Color | null} jack the colour that pocketed the jack (R7a).
 * @property {boolean[]} has_shot per seat: has shot at least once (R2a).
 * @property {number} shots
 * @property {boolean} time_called R7b.
 * @property {number} extra_round extra rounds begun after time (R7c).
 * @property {boolean} awaiting_lot a rock-paper-scissors result is awaited (R7d).
 * @property {Outcome | null} outcome
 */

/**
 * What happened in one shot (report.ShotReport).
 * @typedef {object} ShotReport
 * @property {Piece[]} pocketed
 * @property {Piece[]} off_board
 * @property {boolean} striker_pocketed
 * @property {boolean} striker_off_board
 * @property {boolean} unshootable_hit
 * @property {Foul[]} fouls conduct fouls seen: R5e, R5f.
 * @property {number | null} seat who actually shot (R5e); null = the shooter.
 */

/**
 * What the referee tapped for a shot (scoring/tap.py Tap).
 * @typedef {object} Tap
 * @property {number} red
 * @property {number} green
 * @property {boolean} jack
 * @property {number} red_off
 * @property {number} green_off
 * @property {boolean} jack_off
 * @property {boolean} striker_pocketed
 * @property {boolean} striker_off
 * @property {boolean} touched_striker
 * @property {boolean} unshootable_hit
 * @property {number | null} [wrong_order_seat]
 */

/**
 * What the rules make of a shot or a lost shot (report.Ruling).
 * @typedef {object} Ruling
 * @property {number} seat
 * @property {Color} color
 * @property {number} penalty pucks owed in all (R5g).
 * @property {Foul[]} fouls
 * @property {number[]} foul_counts pucks each foul costs.
 * @property {string[]} reasons every rule id that decided it, in rule-id order.
 * @property {Piece[]} returned to the jack spot, bottom to top (R6d).
 * @property {Piece[]} debt_paid
 * @property {number} voided
 * @property {number} taken
 * @property {number} debt_added
 * @property {number} service
 * @property {Piece[]} off_board
 * @property {boolean} continues
 * @property {boolean} restored
 * @property {boolean} skipped
 * @property {number | null} next_seat
 * @property {Outcome | null} outcome
 */

/** An error the referee raises: English and Japanese, nothing changed. */
export class RulesError extends Error {
  /** @param {string} en @param {string} ja @param {string} [code] */
  constructor(en, ja, code = "rules") {
    super(`${en} / ${ja}`);
    this.en = en;
    this.ja = ja;
    this.code = code;
  }
}

/** @param {Color} color @returns {0 | 1} */
const idx = (color) => (color === "red" ? 0 : 1);
/** @param {Color} color @returns {Color} */
export const opponent = (color) => (color === "red" ? "green" : "red");
/** The colour of a seat when seat `first` plays red (R1b, R1c). @param {number} seat @param {number} [first] @returns {Color} */
export const seatColor = (seat, first = 0) => ((((seat - first) % 2) + 2) % 2 === 0 ? "red" : "green");
const JA_COLOR = COLOR_NAMES.ja;

/** @param {number} players @param {RuleOptions} options @returns {RefState} */
export function initialState(players, options) {
  return {
    players, options, shooter: options.first_seat, pocketed: [0, 0], debt: [0, 0], jack: null,
    has_shot: Array(players).fill(false), shots: 0, time_called: false, extra_round: 0,
    awaiting_lot: false, outcome: null,
  };
}

/** @param {RefState} s */
const lastSeat = (s) => (((s.options.first_seat - 1) % s.players) + s.players) % s.players;
/** @param {number} seat @param {number} players */
const nextSeat = (seat, players) => (seat + 1) % players;
/** @param {RefState} s @param {Color} color */
const onBoard = (s, color) => PUCKS - s.pocketed[idx(color)];

/** Score now as R7b counts it: 100 x jack + pucks pocketed - debt (by the option). @param {RefState} s @param {Color} color */
export function score(s, color) {
  let v = s.pocketed[idx(color)] + (s.jack === color ? JACK_SCORE : 0);
  if (s.options.debt_counts_in_score) v -= s.debt[idx(color)];
  return v;
}

/** @param {string} id @returns {[number, string]} */
const ruleKey = (id) => [Number(id[1]), id.slice(2)];
/** @param {Set<string>} set */
function sortedIds(set) {
  return [...set].sort((a, b) => {
    const [x, y] = [ruleKey(a), ruleKey(b)];
    return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
  });
}

/** @param {Foul} foul @param {RuleOptions} options */
const foulCount = (foul, options) => (foul === "R4c" ? options.unshootable_penalty : FOUL_PENALTY[foul]);

/** @param {RefState} s */
function checkPlaying(s) {
  if (s.outcome) throw new RulesError("the game is over; nothing more can be reported (R7)", "試合は終わっています。これ以上報告できません（R7）", "game_over");
  if (s.awaiting_lot) throw new RulesError("the game is deadlocked: give the rock-paper-scissors result first (R7d)", "こう着状態です。先にじゃんけんの結果を入力してください（R7d）", "lot_pending");
}

/** @template T @param {readonly T[]} list @param {T} p */
const count = (list, p) => list.filter((x) => x === p).length;

/** A ShotReport from a tap (scoring/tap.py Tap.report). @param {Tap} tap @returns {ShotReport} */
export function reportOf(tap) {
  /** @param {number} r @param {number} g @param {boolean} j @returns {Piece[]} */
  const pieces = (r, g, j) => [...Array(r).fill("red"), ...Array(g).fill("green"), ...(j ? ["jack"] : [])];
  /** @type {Foul[]} */
  const fouls = [];
  if (tap.wrong_order_seat !== null && tap.wrong_order_seat !== undefined) fouls.push("R5e");
  if (tap.touched_striker) fouls.push("R5f");
  return {
    pocketed: pieces(tap.red, tap.green, tap.jack),
    off_board: pieces(tap.red_off, tap.green_off, tap.jack_off),
    striker_pocketed: tap.striker_pocketed, striker_off_board: tap.striker_off,
    unshootable_hit: tap.unshootable_hit, fouls, seat: tap.wrong_order_seat ?? null,
  };
}

/** @param {RefState} s @param {ShotReport} r @param {number} seat */
function checkReport(s, r, seat) {
  if (r.striker_pocketed && r.striker_off_board) throw new RulesError("the striker cannot be both pocketed and off the board", "ストライカーがポケットに入り、同時に盤の外に出ることはありません");
  for (const color of /** @type {Color[]} */ (["red", "green"])) {
    const moved = count(r.pocketed, color) + count(r.off_board, color);
    const on = onBoard(s, color);
    if (moved > on) throw new RulesError(`${moved} ${color} pucks reported pocketed or off the board, but only ${on} are outside the pockets`, `${JA_COLOR[color]}のパックが${moved}個報告されましたが、ポケットの外には${on}個しかありません`);
  }
  if (count(r.pocketed, "jack") + count(r.off_board, "jack") > 1) throw new RulesError("there is one jack; it was reported twice", "ジャックは1個です。2回報告されています");
  const wrongOrder = seat !== s.shooter;
  if (r.fouls.includes("R5e") && !wrongOrder) throw new RulesError("a shot out of turn (R5e) needs the seat that actually shot, other than the shooter's", "順番違い（R5e）には、実際に打った（手番でない）席を指定してください");
  if ((wrongOrder || r.fouls.length) && !s.options.refereed_fouls) throw new RulesError("shots out of turn and touched strikers are not reported in this game (R5k)", "この試合では順番違いとストライカーへの接触は報告できません（R5k）");
  if (r.unshootable_hit && s.players === 2) throw new RulesError("in singles every piece may be hit directly: no unshootable pieces (R4e)", "シングルスでは全てのパックとジャックを直接ねらえます（R4e）");
}

/**
 * After time is called, close the round when the last seat's turn ends (R7b-R7d).
 * @param {RefState} before @param {RefState} after @param {boolean} turnPassed
 * @returns {[RefState, string[]]}
 */
function afterTurn(before, after, turnPassed) {
  if (!(after.time_called && turnPassed && before.shooter === lastSeat(before))) return [after, []];
  /** @type {Pair} */
  const scores = [score(after, "red"), score(after, "green")];
  const reason = after.extra_round === 0 ? "R7b" : "R7c";
  if (scores[0] !== scores[1]) {
    const winner = scores[0] > scores[1] ? "red" : "green";
    return [{ ...after, outcome: { winner, reason, scores } }, [reason]];
  }
  const cap = after.options.max_extra_rounds;
  if (cap === null || after.extra_round < cap) return [{ ...after, extra_round: after.extra_round + 1 }, [reason, "R7c"]];
  if (after.options.deadlock === "lot") return [{ ...after, awaiting_lot: true }, [reason, "R7d"]];
  return [{ ...after, outcome: { winner: null, reason: "R7d", scores } }, [reason, "R7d"]];
}

/** @param {number} seat @param {Color} color @param {Partial<Ruling>} f @returns {Ruling} */
function ruling(seat, color, f) {
  return {
    seat, color, penalty: 0, fouls: [], foul_counts: [], reasons: [], returned: [], debt_paid: [],
    voided: 0, taken: 0, debt_added: 0, service: 0, off_board: [], continues: false,
    restored: false, skipped: false, next_seat: null, outcome: null, ...f,
  };
}

/**
 * Judge one shot (transitions.apply). Throws RulesError, changing nothing.
 * @param {RefState} s @param {ShotReport} r @returns {[RefState, Ruling]}
 */
export function apply(s, r) {
  checkPlaying(s);
  let seat = s.shooter;
  if (r.seat !== null && r.seat !== undefined) {
    if (!Number.isInteger(r.seat) || r.seat < 0 || r.seat >= s.players) throw new RulesError(`seat ${r.seat} is not 0..${s.players - 1}`, `席 ${r.seat} は 0〜${s.players - 1} ではありません`);
    seat = r.seat;
  }
  checkReport(s, r, seat);
  const color = seatColor(seat, s.options.first_seat);
  const opp = opponent(color);
  const wrongOrder = seat !== s.shooter;
  /** @type {Foul[]} */
  const conduct = wrongOrder ? ["R5e"] : [];
  if (r.fouls.includes("R5f")) conduct.push("R5f");
  /** @type {Pair} */
  const pocketed = [s.pocketed[0], s.pocketed[1]];
  /** @type {Pair} */
  const debt = [s.debt[0], s.debt[1]];
  /** @type {Set<string>} */
  const reasons = new Set();
  let pile = { opponent: 0, own: 0, jack: false };
  /** @type {Piece[]} */
  let debtPaid = [];
  let voided = 0, taken = 0, debtAdded = 0, service = 0;
  /** @type {Piece[]} */
  let offBoard = [];
  let continues = false, restored = false;
  /** @type {Outcome | null} */
  let outcome = null;
  /** @type {Foul[]} */
  let fouls;
  if (r.unshootable_hit) {
    restored = true;
    reasons.add("R4c");
    fouls = FOULS.filter((f) => f === "R4c" || conduct.includes(f));
  } else {
    const ownIn = count(r.pocketed, color), oppIn = count(r.pocketed, opp);
    const jackIn = r.pocketed.includes("jack"), jackOff = r.off_board.includes("jack");
    const ownOff = count(r.off_board, color), oppOff = count(r.off_board, opp);
    offBoard = [...r.off_board];
    const allInBefore = s.pocketed[idx(color)] === PUCKS;
    const found = [...conduct];
    if (r.striker_pocketed) found.push("R5a");
    if (r.striker_off_board) found.push("R5c");
    if (jackIn && !allInBefore) {
      found.push("R5b");
      if (ownIn === onBoard(s, color)) reasons.add("R6a");
    }
    if (jackOff) found.push("R5d");
    fouls = FOULS.filter((f) => found.includes(f));
    if (ownOff || oppOff) reasons.add("R6c");
    const win = jackIn && allInBefore && (!fouls.length || !s.options.foul_voids_win);
    if (win) {
      fouls = [];
      reasons.add("R6b");
      reasons.add("R7a");
    } else if (jackIn && allInBefore) reasons.add("R6b");
    const paidOpp = Math.min(oppIn, debt[idx(opp)]);
    debt[idx(opp)] -= paidOpp;
    pocketed[idx(opp)] += oppIn - paidOpp;
    service = oppIn - paidOpp;
    let paidOwn = 0;
    if (fouls.length) {
      voided = ownIn;
      if (voided) reasons.add("R5h");
      if (jackIn || jackOff) reasons.add("R5j");
    } else if (!win) {
      paidOwn = Math.min(ownIn, debt[idx(color)]);
      debt[idx(color)] -= paidOwn;
      pocketed[idx(color)] += ownIn - paidOwn;
      const counted = s.options.debt_payment_is_success ? ownIn : ownIn - paidOwn;
      continues = counted > 0;
      if (continues) {
        reasons.add("R3a");
        if (offBoard.length) reasons.add("R3c");
      }
    }
    if (service) reasons.add("R3b");
    debtPaid = [...Array(paidOpp).fill(opp), ...Array(paidOwn).fill(color)];
    if (debtPaid.length) reasons.add("R5i");
    pile = { opponent: paidOpp + oppOff, own: voided + paidOwn + ownOff, jack: fouls.length > 0 && (jackIn || jackOff) };
    if (win) {
      const probe = { ...s, pocketed, debt, jack: color };
      outcome = { winner: color, reason: "R7a", scores: [score(probe, "red"), score(probe, "green")] };
    }
  }
  const counts = fouls.map((f) => foulCount(f, s.options));
  const penalty = counts.length ? (s.options.penalties_add_up ? counts.reduce((a, b) => a + b, 0) : Math.max(...counts)) : 0;
  for (const f of fouls) reasons.add(f);
  if (penalty) {
    if (fouls.length > 1) reasons.add("R5g");
    taken = Math.min(penalty, pocketed[idx(color)]);
    pocketed[idx(color)] -= taken;
    debtAdded = penalty - taken;
    debt[idx(color)] += debtAdded;
    pile = { ...pile, own: pile.own + taken };
    if (taken) reasons.add("R5h");
    if (debtAdded) reasons.add("R5i");
  }
  /** @type {Piece[]} */
  const returned = [...Array(pile.opponent).fill(opp), ...Array(pile.own).fill(color), ...(pile.jack ? ["jack"] : [])];
  if (pile.opponent && (pile.own || pile.jack)) reasons.add("R6d");
  if (returned.length) reasons.add("R6e");
  const hasShot = s.has_shot.map((h, i) => h || i === seat);
  /** @type {RefState} */
  let next = { ...s, pocketed, debt, has_shot: hasShot, shots: s.shots + 1, jack: outcome ? color : null };
  if (outcome) {
    next = { ...next, outcome };
    return [next, ruling(seat, color, { reasons: sortedIds(reasons), returned, debt_paid: debtPaid, service, off_board: offBoard, outcome })];
  }
  let shooter, turnPassed;
  if (continues) [shooter, turnPassed] = [seat, false];
  else if (wrongOrder && s.options.wrong_order_turn === "rightful") [shooter, turnPassed] = [s.shooter, false];
  else if (wrongOrder) [shooter, turnPassed] = [nextSeat(seat, s.players), true];
  else [shooter, turnPassed] = [nextSeat(s.shooter, s.players), true];
  if (turnPassed) reasons.add("R3d");
  next = { ...next, shooter };
  const [ended, endReasons] = afterTurn(s, next, turnPassed);
  for (const id of endReasons) reasons.add(id);
  return [ended, ruling(seat, color, {
    penalty, fouls, foul_counts: counts, reasons: sortedIds(reasons), returned, debt_paid: debtPaid,
    voided, taken, debt_added: debtAdded, service, off_board: offBoard, continues, restored,
    next_seat: ended.outcome || ended.awaiting_lot ? null : ended.shooter, outcome: ended.outcome,
  })];
}

/** R8a: the shot is lost and the turn passes (transitions.skip_turn). @param {RefState} s @returns {[RefState, Ruling]} */
export function skipTurn(s) {
  checkPlaying(s);
  const seat = s.shooter;
  const [ended, endReasons] = afterTurn(s, { ...s, shooter: nextSeat(seat, s.players) }, true);
  return [ended, ruling(seat, seatColor(seat, s.options.first_seat), {
    reasons: sortedIds(new Set(["R8a", "R3d", ...endReasons])), skipped: true,
    next_seat: ended.outcome || ended.awaiting_lot ? null : ended.shooter, outcome: ended.outcome,
  })];
}

/** R7b: time is called (transitions.call_time). @param {RefState} s @returns {RefState} */
export function callTime(s) {
  checkPlaying(s);
  if (s.time_called) throw new RulesError("time has already been called (R7b)", "試合時間の終了はすでに宣言されています（R7b）");
  return { ...s, time_called: true };
}

/** R7d: the rock-paper-scissors result (transitions.decide_lot). @param {RefState} s @param {Color} winner @returns {RefState} */
export function decideLot(s, winner) {
  if (!s.awaiting_lot) throw new RulesError("no rock-paper-scissors decision is awaited (R7d)", "じゃんけんで決める場面ではありません（R7d）");
  return { ...s, awaiting_lot: false, outcome: { winner, reason: "R7d", scores: [score(s, "red"), score(s, "green")] } };
}

/**
 * The counts a record stores (records.codec.state_counts).
 * @param {RefState} s
 * @returns {{ pocketed: { red: number, green: number }, debt: { red: number, green: number }, jack: Color | null, next_seat: number | null }}
 */
export function stateCounts(s) {
  return {
    pocketed: { red: s.pocketed[0], green: s.pocketed[1] },
    debt: { red: s.debt[0], green: s.debt[1] },
    jack: s.jack,
    next_seat: s.outcome ? null : s.shooter,
  };
}

// -- rulings in words (rules/messages.py) ------------------------------------------------------

/** @param {Color} c @param {Lang} lang */
export const colorName = (c, lang) => COLOR_NAMES[lang][c];
/** @param {Foul} f @param {Lang} lang */
export const foulName = (f, lang) => FOUL_NAMES[f][lang === "ja" ? "ja" : "en"];

/**
 * Sentence `key` in `lang`, its fields filled and its rule id appended (messages.sentence).
 * @param {Lang} lang @param {SentenceKey} key @param {Record<string, string | number>} [fields]
 */
export function sentence(lang, key, fields = {}) {
  const { rule, en, ja } = SENTENCES[key];
  /** @param {string} template */
  const fill = (template) => template.replace(/\{(\w+)\}/g, (_, name) => String(fields[name]));
  const text = fill(lang === "ja" ? ja : en);
  if (rule === null) return text;
  return lang === "ja" ? `${text}（${fill(rule)}）` : `${text} (${fill(rule)})`;
}

/** The fields of a sentence that tell a count `n` (messages._count). @param {number} n */
const counted = (n) => ({ count: n, pucks: n === 1 ? `${n} puck` : `${n} pucks`, goes: n === 1 ? "goes" : "go", stays: n === 1 ? "stays" : "stay" });

/** The ruling as sentences, each ending with its rule id (messages.explain). @param {Ruling} r @param {Lang} lang @returns {string[]} */
export function explain(r, lang) {
  /** @type {string[]} */
  const out = [];
  /** @param {SentenceKey} key @param {Record<string, string | number>} [fields] */
  const say = (key, fields) => out.push(sentence(lang, key, fields));
  const color = colorName(r.color, lang);
  const reasons = new Set(r.reasons);
  if (r.skipped && reasons.has("R8a")) say("shot_lost", { shooter: color });
  else if (r.skipped && reasons.has("R2b")) say("no_place", { shooter: color });
  else if (r.skipped) say("passes", { shooter: color });
  if (r.restored) say("restored");
  if (reasons.has("R6a")) say("last_with_jack");
  if (reasons.has("R6b") && r.outcome === null) say("win_voided");
  r.fouls.forEach((f, i) => {
    const c = r.foul_counts[i];
    if (f === "R4c" && c === 0) return;
    say("foul", { rule: f, foul: foulName(f, lang), ...counted(c) });
  });
  const total = r.foul_counts.reduce((a, b) => a + b, 0);
  if (reasons.has("R5g") && r.penalty === total) say("penalties_add_up", counted(r.penalty));
  else if (reasons.has("R5g")) say("largest_penalty", counted(r.penalty));
  if (r.voided) say("voided", { color, ...counted(r.voided) });
  if (r.taken) say("taken", { color, ...counted(r.taken) });
  if (r.debt_added) say("debt_added", { color, ...counted(r.debt_added) });
  for (const pc of /** @type {Color[]} */ (["red", "green"])) {
    const paid = count(r.debt_paid, pc);
    if (paid) say("debt_paid", { color: colorName(pc, lang), ...counted(paid) });
  }
  const flown = r.off_board.filter((p) => p !== "jack").length;
  if (flown) say("off_board", counted(flown));
  if (reasons.has("R5j")) say("jack_back");
  if (reasons.has("R6d")) say("stack_order");
  if (r.returned.length) say("stack");
  if (r.service) say("service", counted(r.service));
  if (r.continues) {
    say("shoots_again", { shooter: color });
    if (reasons.has("R3c")) say("success_despite_off");
  } else if (r.next_seat !== null) {
    // the next seat named by its colour: colours alternate round the table (R1c)
    const same = Math.abs(r.next_seat - r.seat) % 2 === 0;
    const next = colorName(same ? r.color : opponent(r.color), lang);
    say(reasons.has("R3d") ? "turn_passes" : "rightful_shoots", { next });
  }
  if (r.outcome === null && reasons.has("R7d")) say("lot_needed");
  else if (r.outcome === null && reasons.has("R7c")) say("extra_round");
  if (r.outcome !== null) out.push(explainOutcome(r.outcome, lang));
  return out;
}

/** How the game ended (messages.explain_outcome). @param {Outcome} o @param {Lang} lang */
export function explainOutcome(o, lang) {
  const [red, green] = o.scores;
  if (o.reason === "agreed") return sentence(lang, "agreed", { red, green });
  if (o.reason === "resign" && o.winner !== null) return sentence(lang, "resigned", { loser: colorName(opponent(o.winner), lang), winner: colorName(o.winner, lang) });
  if (o.winner === null) return sentence(lang, "draw", { rule: o.reason, red, green });
  const winner = colorName(o.winner, lang);
  /** @type {SentenceKey} */
  const key = o.reason === "R7a" ? "won_jack" : o.reason === "R7b" ? "won_time" : o.reason === "R7c" ? "won_extra" : "won_lot";
  return sentence(lang, key, { winner, red, green });
}
