// The director's plan settings (settings tab): the day's times and breaks (changeover, opening
// ceremony, lunch, the finals' start) and each division's knockout size, its consequences shown
// before the director confirms. The state lives here; director.js only calls planCards().
import { api, getLang, h, pick } from "./tourney-common.js";

const STR = {
  ja: {
    title: "計画の設定", note: "台割りはこの時刻を守ります：開会式と昼休みの間に試合を入れず、決勝は開始時刻より前に始めません。",
    start: "第1試合", changeover: "入れ替え時間（分）", ceremony: "開会式", ceremonyMin: "開会式の長さ（分）",
    lunch: "昼休み", lunchMin: "昼休みの長さ（分）", finals: "決勝の開始", finalsAfter: "空欄：最後の予選リーグの後",
    save: "計画の設定を保存", saved: "保存しました。台割りを作り直しました。",
    replanNeeded: "保存しました。試合が始まっているため台割りはそのままです。「今から計画し直す」で反映します。",
    replanNow: "今から計画し直す", replanned: "今から計画し直しました。",
    knockout: "決勝トーナメントの大きさ", knockoutNote: "選ぶと下に結果が出ます。確定するまで何も変わりません。",
    confirm: "この大きさで確定", current: "現在", loading: "読み込み中…", noEntries: "エントリーが2組以上になると選べます。",
    "size.full": "全員出場（上位シードに不戦勝）", "size.ranked_byes": "全員出場（成績順に不戦勝）",
    "size.cut": "縮小（2のべき乗に減らす）",
  },
  en: {
    title: "The plan's settings", note: "The board plan keeps these times: no match across the opening ceremony or lunch, and the finals not before their start.",
    start: "First match", changeover: "Changeover (min)", ceremony: "Opening ceremony", ceremonyMin: "Ceremony length (min)",
    lunch: "Lunch", lunchMin: "Lunch length (min)", finals: "Finals start", finalsAfter: "Empty: after the last pool match",
    save: "Save the plan's settings", saved: "Saved; the board plan was made again.",
    replanNeeded: "Saved. Matches have begun, so the board plan is unchanged: press \"Re-plan from now\" to apply.",
    replanNow: "Re-plan from now", replanned: "Re-planned from now.",
    knockout: "Knockout size", knockoutNote: "Pick one to see what it means; nothing changes until you confirm.",
    confirm: "Confirm this size", current: "current", loading: "Loading…", noEntries: "A choice is possible from 2 entries on.",
    "size.full": "Every qualifier (byes to the top seeds)", "size.ranked_byes": "Every qualifier (byes by results)",
    "size.cut": "Cut (down to a power of two)",
  },
};
const s = (key) => STR[getLang()][key] ?? STR.en[key];

let loadedFor = null;  // the event these settings were loaded for
let schedule = null;  // the form's values, as the server's schedule (HH:MM, minutes)
let scheduleNote = null;  // {ok, text, replan}
const knockout = new Map();  // division id -> {size, choices, picked, error}

async function load(id, divisions, rerender) {
  loadedFor = id;
  try {
    schedule = await api(`/api/tournaments/${id}/schedule`);
    for (const d of divisions) knockout.set(d.id, { ...(await api(`/api/tournaments/${id}/divisions/${d.id}/knockout`)), picked: null, error: "" });
  } catch (err) { scheduleNote = { ok: false, text: err.message }; }
  rerender();
}

function scheduleCard(id, token, rerender) {
  const v = schedule;
  const field = (key, name, type, extra = {}) => h("label", {}, s(key), h("input", { id: `plan-${name}`, name, type,
    value: v[name] ?? "", ...extra, oninput: (e) => { v[name] = e.target.value; } }));
  const save = async () => {
    try {
      const r = await api(`/api/tournaments/${id}/schedule`, { method: "PUT", token, body: {
        start: v.start, changeover_min: Number(v.changeover_min), ceremony: v.ceremony,
        ceremony_min: Number(v.ceremony_min), lunch: v.lunch, lunch_min: Number(v.lunch_min), finals: v.finals || null } });
      schedule = { ...r };
      delete schedule.replan;
      scheduleNote = { ok: true, text: s(r.replan ? "replanNeeded" : "saved"), replan: r.replan };
    } catch (err) { scheduleNote = { ok: false, text: err.message }; }
    rerender();
  };
  const replan = async () => {
    try {
      await api(`/api/tournaments/${id}/replan`, { method: "POST", token, body: { out_of_service: [] } });
      scheduleNote = { ok: true, text: s("replanned") };
    } catch (err) { scheduleNote = { ok: false, text: err.message }; }
    rerender();
  };
  return h("section.card.dform", { id: "plan-settings" }, h("h3", {}, s("title")), h("p.meta", {}, s("note")),
    field("start", "start", "time"), field("changeover", "changeover_min", "number", { min: 0, max: 30 }),
    field("ceremony", "ceremony", "time"), field("ceremonyMin", "ceremony_min", "number", { min: 0, max: 240 }),
    field("lunch", "lunch", "time"), field("lunchMin", "lunch_min", "number", { min: 0, max: 240 }),
    field("finals", "finals", "time", { "aria-describedby": "plan-finals-note" }), h("small", { id: "plan-finals-note" }, s("finalsAfter")),
    scheduleNote ? h(`p.${scheduleNote.ok ? "ok" : "form-error"}`, { id: "plan-note", role: "status" }, scheduleNote.text) : null,
    h("div.drow", {}, h("button.primary", { type: "button", id: "plan-save", onclick: save }, s("save")),
      scheduleNote && scheduleNote.replan ? h("button", { type: "button", id: "plan-replan", onclick: replan }, s("replanNow")) : null));
}

function knockoutCard(id, token, division, rerender) {
  const k = knockout.get(division.id);
  if (!k) return null;
  const picked = k.picked || k.size;
  const confirm = async () => {
    try {
      const r = await api(`/api/tournaments/${id}/divisions/${division.id}/knockout`, { method: "PUT", token, body: { size: picked } });
      knockout.set(division.id, { ...r, picked: null, error: "" });
    } catch (err) { k.error = err.message; }
    rerender();
  };
  const choices = k.choices.map((c) => h("li", { "data-size": c.size },
    h("label.check", {}, h("input", { type: "radio", name: `ko-${division.id}`, value: c.size, checked: c.size === picked,
      onchange: () => { k.picked = c.size; rerender(); } }),
    h("strong", {}, s(`size.${c.size}`)), c.size === k.size ? ` （${s("current")}）` : ""),
    h("p.meta.ko-consequence", {}, pick({ ja: c.ja, en: c.en }))));
  return h("section.card", { id: `knockout-${division.id}`, "data-division": division.id },
    h("h4", {}, `${s("knockout")}：${pick(division.name)}`),
    k.choices.length ? [h("p.meta", {}, s("knockoutNote")), h("ul.ko-choices", {}, choices),
      h("p.form-error", { role: "alert" }, k.error || ""),
      h("button.primary", { type: "button", "data-action": "knockout-confirm", disabled: picked === k.size, onclick: confirm }, s("confirm"))]
      : h("p.meta", {}, s("noEntries")));
}

/**
 * The settings tab's plan cards: the day's times and a knockout card per division.
 * @param {string | null} id the event
 * @param {string | null} token the director's token
 * @param {{divisions: {id: string, name: unknown}[]}} event the live event
 * @param {() => void} rerender draws the console again
 */
export function planCards(id, token, event, rerender) {
  if (loadedFor !== id) {
    load(id, event.divisions, rerender);
    return [h("section.card", { id: "plan-settings" }, s("loading"))];
  }
  if (!schedule) return [h("section.card", { id: "plan-settings" }, scheduleNote ? scheduleNote.text : s("loading"))];
  return [scheduleCard(id, token, rerender), ...event.divisions.map((d) => knockoutCard(id, token, d, rerender))];
}

/** Load the settings again next time (another tab was open: the event may have changed). */
export function forgetPlanCards() { loadedFor = null; scheduleNote = null; }
