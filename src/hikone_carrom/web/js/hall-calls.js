// The hall's board calls, pure (no DOM): the queue of recent calls, their age, the spoken text
// of a call and the queue of announcements that lets every call be heard to its end.

/**
 * A board call as the server sends it (server/tournaments/hub_calls.py BoardCall.to_dict).
 * @typedef {{match: string, board: number, sides: string[], division: string,
 *   text: {ja: string, en: string}}} Call
 */
/**
 * What the queue needs of a match: its status, board and when it was called (ISO time).
 * @typedef {{status: string, board?: number | null, called_at?: string | null}} CallMatch
 */
/** @typedef {{call: Call, status: string | null, calledAt: number | null}} QueuedCall */

/** A call whose match is under way stays listed this long after it was called (s). */
export const PLAYING_KEPT_S = 600;

/**
 * The calls to list, newest first, one per match: a call waiting for its players always, a call
 * whose match is being played for PLAYING_KEPT_S after it, never one whose match is over or was
 * withdrawn (back to planned).
 * @param {Call[]} calls newest first
 * @param {Map<string, CallMatch>} matches by id
 * @param {number} now ms
 * @param {number} limit
 * @returns {QueuedCall[]}
 */
export function recentCalls(calls, matches, now, limit) {
  /** @type {QueuedCall[]} */
  const out = [];
  const seen = new Set();
  for (const call of calls) {
    if (out.length >= limit) break;
    if (seen.has(call.match)) continue;
    seen.add(call.match);
    const m = matches.get(call.match);
    const status = m ? m.status : null;
    if (status !== null && status !== "called" && status !== "playing") continue;
    const calledAt = calledAtOf(call, m);
    if (status === "playing" && calledAt !== null && now - calledAt > PLAYING_KEPT_S * 1000) continue;
    out.push({ call, status, calledAt });
  }
  return out;
}

/** When the call was made (ms), from its match while the match is still on the call's board.
 * @param {Call} call @param {CallMatch | undefined} m */
function calledAtOf(call, m) {
  if (!m || !m.called_at || (m.board != null && m.board !== call.board)) return null;
  const at = Date.parse(m.called_at);
  return Number.isNaN(at) ? null : at;
}

const AGE = {
  ja: { now: "たった今", min: "{m}分前" },
  en: { now: "just now", min: "{m} min ago" },
};

/** "3分前" / "3 min ago" for a call made `seconds` ago.
 * @param {number} seconds @param {"ja" | "en"} lang */
export function ageText(seconds, lang) {
  const words = AGE[lang] || AGE.ja;
  if (seconds < 60) return words.now;
  return words.min.replace("{m}", String(Math.floor(seconds / 60)));
}

/**
 * What the hall says for a call: 「第17台、山田 太郎さん、佐藤 花子さん」, "Board 17: Yamada Taro,
 * Sato Hanako"; an online event's game is 「対局17」, "Game 17". A pair's names are joined by 「・」.
 * @param {Call} call @param {"ja" | "en"} lang @param {boolean} [online]
 */
export function speechText(call, lang, online = false) {
  if (lang === "en") {
    return `${online ? "Game" : "Board"} ${call.board}: ${call.sides.join(", ")}`;
  }
  const names = call.sides.map((side) => side.split("・").map((n) => `${n}さん`).join("・"));
  return [online ? `対局${call.board}` : `第${call.board}台`, ...names].join("、");
}

/** The key of one call of a match to a board (a match called again after a withdrawal is
 * another call). @param {Call} call @param {CallMatch | undefined} m */
export function callKey(call, m) {
  return `${call.match}@${call.board}@${calledAtOf(call, m) ?? ""}`;
}

/**
 * The calls not yet announced: the first look only notes what is there (a page opened or a
 * toggle switched on mid-day does not read out the old calls); later looks give, oldest first,
 * the new calls whose players are still awaited.
 */
export class CallWatch {
  constructor() {
    /** @type {Set<string> | null} */
    this.seen = null;
  }

  /** @param {Call[]} calls newest first @param {Map<string, CallMatch>} matches @returns {Call[]} */
  fresh(calls, matches) {
    const first = this.seen === null;
    const seen = this.seen || new Set();
    this.seen = seen;
    /** @type {Call[]} */
    const out = [];
    for (const call of calls) {
      const key = callKey(call, matches.get(call.match));
      if (seen.has(key)) continue;
      seen.add(key);
      if (!first && matches.get(call.match)?.status === "called") out.unshift(call);
    }
    return out;
  }
}

/**
 * The parts of the browser's speech synthesis the queue uses (window.speechSynthesis).
 * @typedef {{speak(u: any): void, cancel(): void}} Synth
 */
/**
 * An utterance: made by `utter`, it calls onend (or onerror) once spoken.
 * @typedef {{onend: ((ev: any) => void) | null, onerror: ((ev: any) => void) | null}} Utterance
 */

/**
 * Announcements one after the other: the next is spoken once the one before has ended (or
 * failed, or after `timeoutMs` in case the browser never says it ended), so that a call never
 * cuts another off.
 */
export class SpeechQueue {
  /**
   * @param {Synth} synth
   * @param {(text: string, lang: string) => Utterance} utter
   * @param {{timeoutMs?: number, setTimer?: (fn: () => void, ms: number) => any,
   *   clearTimer?: (t: any) => void}} [options]
   */
  constructor(synth, utter, { timeoutMs = 15000, setTimer = setTimeout, clearTimer = clearTimeout } = {}) {
    this.synth = synth;
    this.utter = utter;
    this.timeoutMs = timeoutMs;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    /** @type {{text: string, lang: string}[]} */
    this.waiting = [];
    /** @type {Utterance | null} */
    this.current = null;
    this.timer = null;
  }

  /** Queue `text` in `lang` ("ja-JP", "en-US"). @param {string} text @param {string} lang */
  say(text, lang) {
    this.waiting.push({ text, lang });
    if (!this.current) this.next();
  }

  /** Drop what is waiting and stop what is being said. */
  clear() {
    this.waiting = [];
    this.finish();
    this.synth.cancel();
  }

  /** @private */
  finish() {
    if (this.current) this.current.onend = this.current.onerror = null;
    this.current = null;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  /** @private */
  next() {
    const item = this.waiting.shift();
    if (!item) return;
    const u = this.utter(item.text, item.lang);
    const done = () => {
      if (this.current !== u) return;
      this.finish();
      this.next();
    };
    u.onend = done;
    u.onerror = done;
    this.current = u;
    this.timer = this.setTimer(done, this.timeoutMs);
    this.synth.speak(u);
  }
}
