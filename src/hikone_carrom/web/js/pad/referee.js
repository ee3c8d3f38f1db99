// The referee of hikone_carrom.rules (transitions.py, messages.py), carried on the pad so that it
// rules at once and offline. The server re-judges every entry with the library and is the
// authority; tests/e2e/test_pad_parity.py checks on random matches that both give the same
// rulings and sentences. Keep this file in step with rules/transitions.py and rules/messages.py.

export const PUCKS = 12;
export const JACK_SCORE = 100;
const FOULS = ["R4c", "R5a", "R5b", "R5c", "R5d", "R5e", "R5f"];

/** RuleOptions defaults (rules/options.py). */
export const DEFAULT_OPTIONS = Object.freeze({
  first_seat: 0, first_shot_per_player: true, unshootable_penalty: 0, penalties_add_up: true,
  debt_payment_is_success: true, foul_voids_win: true, debt_counts_in_score: true,
  deadlock: "draw", max_extra_rounds: 3, shot_clock_each_shot: true, refereed_fouls: true,
  wrong_order_turn: "rightful", match_time_s: null, final_phase_s: 60.0, shot_time_s: 10.0,
  covered_area_line: "nearest_free",
});

/** An error the referee raises: English and Japanese, nothing changed. */
export class RulesError extends Error {
  constructor(en, ja, code = "rules") {
    super(`${en} / ${ja}`);
    this.en = en;
    this.ja = ja;
    this.code = code;
  }
}

const idx = (color) => (color === "red" ? 0 : 1);
export const opponent = (color) => (color === "red" ? "green" : "red");
export const seatColor = (seat, first = 0) => ((((seat - first) % 2) + 2) % 2 === 0 ? "red" : "green");
const JA_COLOR = { red: "赤", green: "緑" };

export function initialState(players, options) {
  return {
    players, options, shooter: options.first_seat, pocketed: [0, 0], debt: [0, 0], jack: null,
    has_shot: Array(players).fill(false), shots: 0, time_called: false, extra_round: 0,
    awaiting_lot: false, outcome: null,
  };
}

const lastSeat = (s) => (((s.options.first_seat - 1) % s.players) + s.players) % s.players;
const nextSeat = (seat, players) => (seat + 1) % players;
const onBoard = (s, color) => PUCKS - s.pocketed[idx(color)];

export function score(s, color) {
  let v = s.pocketed[idx(color)] + (s.jack === color ? JACK_SCORE : 0);
  if (s.options.debt_counts_in_score) v -= s.debt[idx(color)];
  return v;
}

const ruleKey = (id) => [Number(id[1]), id.slice(2)];
function sortedIds(set) {
  return [...set].sort((a, b) => {
    const [x, y] = [ruleKey(a), ruleKey(b)];
    return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
  });
}

function foulCount(foul, options) {
  if (foul === "R4c") return options.unshootable_penalty;
  if (foul === "R5b" || foul === "R5d") return 5;
  return 1;
}

function checkPlaying(s) {
  if (s.outcome) throw new RulesError("the game is over; nothing more can be reported (R7)", "試合は終わっています。これ以上報告できません（R7）", "game_over");
  if (s.awaiting_lot) throw new RulesError("the game is deadlocked: give the rock-paper-scissors result first (R7d)", "こう着状態です。先にじゃんけんの結果を入力してください（R7d）", "lot_pending");
}

const count = (list, p) => list.filter((x) => x === p).length;

/** A ShotReport {pocketed, off_board, striker_pocketed, striker_off_board, unshootable_hit, fouls, seat} from a tap. */
export function reportOf(tap) {
  const pieces = (r, g, j) => [...Array(r).fill("red"), ...Array(g).fill("green"), ...(j ? ["jack"] : [])];
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

function checkReport(s, r, seat) {
  if (r.striker_pocketed && r.striker_off_board) throw new RulesError("the striker cannot be both pocketed and off the board", "ストライカーがポケットに入り、同時に盤の外に出ることはありません");
  for (const color of ["red", "green"]) {
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

function afterTurn(before, after, turnPassed) {
  if (!(after.time_called && turnPassed && before.shooter === lastSeat(before))) return [after, []];
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

function ruling(seat, color, f) {
  return {
    seat, color, penalty: 0, fouls: [], foul_counts: [], reasons: [], returned: [], debt_paid: [],
    voided: 0, taken: 0, debt_added: 0, service: 0, off_board: [], continues: false,
    restored: false, skipped: false, next_seat: null, outcome: null, ...f,
  };
}

/** Judge one shot: [state, ruling] (transitions.apply). Throws RulesError, changing nothing. */
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
  const conduct = wrongOrder ? ["R5e"] : [];
  if (r.fouls.includes("R5f")) conduct.push("R5f");
  const pocketed = [...s.pocketed];
  const debt = [...s.debt];
  const reasons = new Set();
  let pile = { opponent: 0, own: 0, jack: false };
  let debtPaid = [];
  let voided = 0, taken = 0, debtAdded = 0, service = 0;
  let offBoard = [];
  let continues = false, restored = false, outcome = null, fouls;
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
  const returned = [...Array(pile.opponent).fill(opp), ...Array(pile.own).fill(color), ...(pile.jack ? ["jack"] : [])];
  if (pile.opponent && (pile.own || pile.jack)) reasons.add("R6d");
  if (returned.length) reasons.add("R6e");
  const hasShot = s.has_shot.map((h, i) => h || i === seat);
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

/** R8a: the shot is lost and the turn passes (transitions.skip_turn). */
export function skipTurn(s) {
  checkPlaying(s);
  const seat = s.shooter;
  const [ended, endReasons] = afterTurn(s, { ...s, shooter: nextSeat(seat, s.players) }, true);
  return [ended, ruling(seat, seatColor(seat, s.options.first_seat), {
    reasons: sortedIds(new Set(["R8a", "R3d", ...endReasons])), skipped: true,
    next_seat: ended.outcome || ended.awaiting_lot ? null : ended.shooter, outcome: ended.outcome,
  })];
}

/** R7b: time is called (transitions.call_time). */
export function callTime(s) {
  checkPlaying(s);
  if (s.time_called) throw new RulesError("time has already been called (R7b)", "試合時間の終了はすでに宣言されています（R7b）");
  return { ...s, time_called: true };
}

/** R7d: the rock-paper-scissors result (transitions.decide_lot). */
export function decideLot(s, winner) {
  if (!s.awaiting_lot) throw new RulesError("no rock-paper-scissors decision is awaited (R7d)", "じゃんけんで決める場面ではありません（R7d）");
  return { ...s, awaiting_lot: false, outcome: { winner, reason: "R7d", scores: [score(s, "red"), score(s, "green")] } };
}

/** The counts a record stores (records.codec.state_counts). */
export function stateCounts(s) {
  return {
    pocketed: { red: s.pocketed[0], green: s.pocketed[1] },
    debt: { red: s.debt[0], green: s.debt[1] },
    jack: s.jack,
    next_seat: s.outcome ? null : s.shooter,
  };
}

// -- rulings in words (rules/messages.py) ------------------------------------------------------

const COLOR_NAME = { en: { red: "Red", green: "Green" }, ja: { red: "赤", green: "緑" } };
const FOUL_NAME = {
  R4c: ["Unshootable piece hit directly", "打てないパックを直接打ちました"],
  R5a: ["Striker pocketed", "ストライカーがポケットに入りました"],
  R5b: ["Jack pocketed before all own pucks", "自分のパックが全部入っていないのにジャックが入りました"],
  R5c: ["Striker off the board", "ストライカーが盤の外に飛び出しました"],
  R5d: ["Jack off the board", "ジャックが盤の外に飛び出しました"],
  R5e: ["Shot out of turn", "打つ順番を誤りました"],
  R5f: ["Moving striker touched", "動いているストライカーに触れました"],
};
export const colorName = (c, lang) => COLOR_NAME[lang][c];
export const foulName = (f, lang) => FOUL_NAME[f][lang === "ja" ? 1 : 0];
const pucks = (n) => (n === 1 ? `${n} puck` : `${n} pucks`);
const say = (lang, rule, en, ja) => (lang === "ja" ? `${ja}（${rule}）` : `${en} (${rule})`);

/** The ruling as sentences, each ending with its rule id (messages.explain). */
export function explain(r, lang) {
  const out = [];
  const color = colorName(r.color, lang);
  const reasons = new Set(r.reasons);
  if (r.skipped) out.push(say(lang, "R8a", `10 seconds passed: ${color} loses the shot`, `10秒が過ぎました：${color}はこのショットを打つ権利を失います`));
  if (r.restored) out.push(say(lang, "R4c", "Unshootable piece hit directly: the pieces go back where they were, nothing counts", "打てないパックを直接打ちました：パックを元の位置に戻し、このショットは数えません"));
  if (reasons.has("R6a")) out.push(say(lang, "R6a", "Last puck and jack in the same shot: a failure", "最後のパックと同時にジャックが入りました：失敗です"));
  if (reasons.has("R6b") && r.outcome === null) out.push(say(lang, "R6b", "Jack after all own pucks, but a foul in the same shot voids the win", "全てのパックの後のジャックですが、同じショットの反則により勝ちになりません"));
  r.fouls.forEach((f, i) => {
    const c = r.foul_counts[i];
    if (f === "R4c" && c === 0) return;
    out.push(say(lang, f, `${FOUL_NAME[f][0]}: a penalty of ${pucks(c)}`, `${FOUL_NAME[f][1]}：ペナルティはパック${c}個です`));
  });
  const total = r.foul_counts.reduce((a, b) => a + b, 0);
  if (reasons.has("R5g") && r.penalty === total) out.push(say(lang, "R5g", `Penalties add up: ${pucks(r.penalty)} in all`, `ペナルティは合計${r.penalty}個です`));
  else if (reasons.has("R5g")) out.push(say(lang, "R5g", `Only the largest penalty counts: ${pucks(r.penalty)}`, `ペナルティは最も大きいものだけ数えます：${r.penalty}個`));
  if (r.voided) out.push(say(lang, "R5h", `${pucks(r.voided)} of ${color} pocketed in this shot ${r.voided === 1 ? "goes" : "go"} back to the jack spot`, `このショットで入った${color}のパック${r.voided}個をジャックスポットに戻します`));
  if (r.taken) out.push(say(lang, "R5h", `${pucks(r.taken)} of ${color} taken out of the pockets to the jack spot`, `ポケットから${color}のパック${r.taken}個をジャックスポットに戻します`));
  if (r.debt_added) out.push(say(lang, "R5i", `${color} owes ${pucks(r.debt_added)} more as debt, returned as they go in`, `${color}はパック${r.debt_added}個の借りとなり、入った時点で戻します`));
  for (const pc of ["red", "green"]) {
    const paid = count(r.debt_paid, pc);
    if (paid) {
      const name = colorName(pc, lang);
      out.push(say(lang, "R5i", `${pucks(paid)} of ${name} paid debt and ${paid === 1 ? "goes" : "go"} to the jack spot`, `${name}のパック${paid}個は借りを返してジャックスポットに戻ります`));
    }
  }
  const flown = r.off_board.filter((p) => p !== "jack").length;
  if (flown) out.push(say(lang, "R6c", `${pucks(flown)} flew off the board: back to the jack spot, no penalty`, `盤の外に飛び出したパック${flown}個をジャックスポットに戻します（ペナルティなし）`));
  if (reasons.has("R5j")) out.push(say(lang, "R5j", "The jack goes back on top of the jack spot", "ジャックをジャックスポットの一番上に戻します"));
  if (reasons.has("R6d")) out.push(say(lang, "R6d", "The opponent's pucks go at the bottom, the shooter's above them", "相手のパックを下に、自分のパックを上に重ねます"));
  if (r.returned.length) out.push(say(lang, "R6e", "Stack them on whatever lies on the jack spot", "ジャックスポットにあるものの上に積みます"));
  if (r.service) out.push(say(lang, "R3b", `${pucks(r.service)} of the opponent ${r.service === 1 ? "stays" : "stay"} in the pocket as service`, `相手のパック${r.service}個はサービスとしてポケットに残ります`));
  if (r.continues) {
    out.push(say(lang, "R3a", `Own puck pocketed: ${color} shoots again`, `自分のパックが入りました：${color}が続けて打ちます`));
    if (reasons.has("R3c")) out.push(say(lang, "R3c", "The success counts although pieces flew off the board", "盤の外に飛び出したパックがあっても成功です"));
  } else if (r.next_seat !== null) {
    // the next seat named by its colour: colours alternate round the table (R1c)
    const same = Math.abs(r.next_seat - r.seat) % 2 === 0;
    const n = colorName(same ? r.color : r.color === "red" ? "green" : "red", lang);
    if (reasons.has("R3d")) out.push(say(lang, "R3d", `The turn passes to ${n}`, `${n}の番に交替します`));
    else out.push(say(lang, "R5e", `${n}, whose turn it was, shoots now`, `本来の順番の${n}が打ちます`));
  }
  if (r.outcome === null && reasons.has("R7d")) out.push(say(lang, "R7d", "Still level: decide by rock-paper-scissors", "こう着状態です：じゃんけんで勝敗を決めます"));
  else if (r.outcome === null && reasons.has("R7c")) out.push(say(lang, "R7c", "Level after the round: one more full round", "同点のため、もう一巡します"));
  if (r.outcome !== null) out.push(explainOutcome(r.outcome, lang));
  return out;
}

/** How the game ended (messages.explain_outcome). */
export function explainOutcome(o, lang) {
  const [red, green] = o.scores;
  if (o.winner === null) return say(lang, o.reason, `Still level after the extra rounds (${red} to ${green}): a draw`, `延長しても同点のため（${red}対${green}）引き分けです`);
  const name = colorName(o.winner, lang);
  if (o.reason === "R7a") return say(lang, "R7a", `${name} pocketed the jack after all its pucks and wins`, `${name}が全てのパックの後にジャックを入れて勝ちました`);
  if (o.reason === "R7b") return say(lang, "R7b", `Time: ${name} wins on pucks pocketed, red ${red} to ${green} green`, `試合時間終了：ポケットに入れたパックの数で${name}の勝ち（赤${red}対${green}緑）`);
  if (o.reason === "R7c") return say(lang, "R7c", `After the extra rounds ${name} leads and wins, red ${red} to ${green} green`, `延長の一巡の後、${name}がリードして勝ちました（赤${red}対${green}緑）`);
  return say(lang, "R7d", `Still level: ${name} wins by rock-paper-scissors`, `こう着状態のため、じゃんけんで${name}の勝ち`);
}
