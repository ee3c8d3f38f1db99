// The director's automatic mode (自動進行): the switch, why each planned match is waiting, and
// the pools held open. The server calls the boards and closes the pools; this panel only shows
// its answer (GET /auto) again after each change of the event.
import { api, getLang, h, pick, sideName } from "./tourney-common.js";

/** @type {Record<string, Record<string, string>>} */
const TEXT = {
  ja: {
    title: "自動進行", on: "自動進行中：空いた台に次の試合を呼び出し、最後の結果でリーグを確定します",
    off: "停止中：呼び出しとリーグの確定は手動です", start: "自動進行を開始", pause: "一時停止",
    waiting: "待っている試合", none: "待っている試合はありません", more: "ほか {n} 試合",
    held: "確定保留中のリーグ", hold: "確定を保留", unhold: "保留を解除",
  },
  en: {
    title: "Automatic mode", on: "On: free boards get the next match, a pool closes on its last result",
    off: "Paused: calls and pool closes are by hand", start: "Start automatic mode", pause: "Pause",
    waiting: "Matches waiting", none: "No match is waiting", more: "{n} more",
    held: "Pools held open", hold: "Hold open", unhold: "Let it close",
  },
};

/** @param {string} key @param {Record<string, string | number>} [params] */
function say(key, params = {}) {
  const text = (TEXT[getLang()] || TEXT.ja)[key] ?? TEXT.ja[key];
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ""));
}

const SHOWN = 40;  // waiting matches listed (the first in plan order)
const REFRESH_MS = 400;  // answers gathered: one request however many updates arrive meanwhile

export class AutoPanel {
  /**
   * @param {string} id the event
   * @param {() => string | null} token the director's token
   * @param {() => void} onChange redraws the console
   * @param {() => boolean} shown whether the console shows the panel now
   */
  constructor(id, token, onChange, shown) {
    this.id = id;
    this.token = token;
    this.onChange = onChange;
    this.shown = shown;
    /** @type {{on: boolean, held: [string, number][], waiting: any[]} | null} */
    this.state = null;
    this.stale = true;
    this.error = "";
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /** Ask the server again soon (after an update of the event); while the panel is not shown,
   * only when it is next shown: a redraw would reset the forms of the other tabs. */
  refresh() {
    this.stale = true;
    if (this.timer !== null || !this.shown()) return;
    this.timer = setTimeout(() => { this.timer = null; if (this.shown()) this.load(); }, REFRESH_MS);
  }

  async load() {
    this.stale = false;
    const before = JSON.stringify([this.state, this.error]);
    try {
      this.state = await api(`/api/tournaments/${this.id}/auto`, { token: this.token() });
      this.error = "";
    } catch (err) { this.error = err.message; }
    if (JSON.stringify([this.state, this.error]) !== before) this.onChange();
  }

  /** @param {string} path @param {object} body */
  async put(path, body) {
    try {
      this.state = await api(`/api/tournaments/${this.id}/auto${path}`, { method: "PUT", body, token: this.token() });
      this.error = "";
    } catch (err) { this.error = err.message; }
    this.onChange();
  }

  /** The boards tab's card: the switch and the waiting matches with their reasons. */
  card(event) {
    if (this.stale && this.timer === null) this.load();
    if (this.state === null) return null;
    const { on, held, waiting } = this.state;
    const byId = new Map(event.matches.map((m) => [m.id, m]));
    const pool = (d, n) => {
      const div = event.divisions.find((x) => x.id === d);
      const p = div && div.pools.find((x) => x.number === n);
      return `${div ? pick(div.name) : d} ${p ? p.label : n}`;
    };
    return h("section.card.auto", { id: "auto" },
      h("h3", {}, say("title")),
      h("p", { id: "auto-state", "data-on": String(on) }, say(on ? "on" : "off")),
      h("div.drow", {}, h(`button${on ? "" : ".primary"}`, { id: "auto-toggle", onclick: () => this.put("", { on: !on }) },
        say(on ? "pause" : "start"))),
      this.error ? h("p.form-error", { role: "alert" }, this.error) : null,
      held.length ? h("p", { id: "auto-held" }, `${say("held")}: `, held.map(([d, n]) => pool(d, n)).join("、")) : null,
      h("details", { open: true }, h("summary", {}, `${say("waiting")} (${waiting.length})`),
        waiting.length ? h("div.table-wrap", {}, h("table.dtable", { id: "auto-waiting" }, h("tbody", {},
          waiting.slice(0, SHOWN).map((w) => {
            const m = byId.get(w.match);
            return h("tr", { "data-match": w.match, "data-code": w.code },
              h("td", {}, w.match), h("td", {}, m ? pick(m.name) : ""),
              h("td", {}, m ? `${sideName(m.sides[0])} / ${sideName(m.sides[1])}` : ""),
              h("td", {}, pick(w.text)));
          })))) : h("p.empty", {}, say("none")),
        waiting.length > SHOWN ? h("p.meta", {}, say("more", { n: waiting.length - SHOWN })) : null));
  }

  /** The pools tab's button holding an open pool (its last result does not close it). */
  holdButton(division, p) {
    if (this.stale && this.timer === null) this.load();
    if (this.state === null || p.closed) return null;
    const held = this.state.held.some(([d, n]) => d === division && n === p.number);
    return h("button", { "data-action": held ? "unhold" : "hold",
      onclick: () => this.put(`/holds/${division}/${p.number}`, { held: !held }) }, say(held ? "unhold" : "hold"));
  }
}
