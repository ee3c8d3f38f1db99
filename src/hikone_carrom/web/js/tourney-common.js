// Shared by the tournament's public pages and the director's console: strings in Japanese and
// English, a tiny DOM helper, REST calls and the live WebSocket (snapshot, then numbered updates,
// applied by tourney-deltas.js).
import { CAN_INFLATE, applyLive, applyUpdate, decodeMessage, mergeMatches } from "./tourney-deltas.js";

const LANG_KEY = "hikone-carrom.lang";

const STR = {
  ja: {
    "tab.find": "次の試合", "tab.pools": "予選リーグ", "tab.bracket": "決勝トーナメント", "tab.boards": "台",
    "find.label": "名前・よみがなで探す", "find.placeholder": "例：やまだ、山田",
    "find.none": "見つかりません", "find.next": "次の試合", "find.noNext": "予定の試合はありません",
    "find.vs": "対", "find.all": "すべての試合",
    "status.planned": "予定", "status.called": "呼び出し中", "status.playing": "試合中",
    "status.finished": "終了", "status.forfeit": "不戦",
    "board": "第{n}台", "board.free": "空き", "board.left": "残り {m}:{s}", "board.timeup": "時間切れ（R7b）",
    "board.untimed": "時間無制限", "board.active": "試合中の台だけ",
    "pool": "{label}リーグ", "closed": "確定", "complete": "全試合終了",
    "col.place": "順位", "col.name": "名前", "col.w": "勝", "col.d": "分", "col.l": "負",
    "col.pts": "勝点", "col.diff": "得失点差", "col.pucks": "パック", "withdrawn": "棄権",
    "tiebreaks": "順位の決め方：{list}", "decided": "{key}で決定",
    "places": "入賞", "place": "第{n}位", "tbd": "未定", "bye": "不戦",
    "division": "部門", "live.lost": "接続が切れました。再接続しています…", "live.ok": "ライブ",
    "call": "呼び出し", "noevent": "この大会はありません",
    "hall.title": "会場表示", "empty": "まだありません", "loading": "読み込み中…",
    // director
    "d.create": "大会を作る", "d.name": "大会名", "d.date": "日付", "d.boards": "台数", "d.firstMatch": "開始時刻",
    "d.golden": "決勝台", "d.password": "運営パスワード（12文字以上、空欄なら自動）",
    "d.token": "運営トークン", "d.operator": "担当者名（履歴に残ります）", "d.login": "ログイン",
    "d.tokenShown": "運営トークン：{token}（控えてください。もう一度は表示されません）",
    "d.tab.entries": "受付", "d.tab.draw": "組合せ・台割り", "d.tab.boards": "台", "d.tab.results": "結果",
    "d.tab.pools": "リーグ確定", "d.tab.print": "印刷・出力", "d.tab.audit": "履歴",
    "d.import": "CSV取り込み（UTF-8 / Shift_JIS）", "d.importBtn": "取り込む",
    "d.imported": "{n}件取り込みました（{enc}）", "d.problems": "{n}行に問題があります。何も取り込んでいません：",
    "d.row": "{row}行目", "d.checkin": "受付", "d.withdraw": "棄権", "d.undo": "戻す",
    "d.filter": "絞り込み", "d.entries": "エントリー {n}件（受付済み {c}）",
    "d.draw": "組み合わせ", "d.seeded": "シードを使う", "d.drawn": "{n}リーグ",
    "d.plan": "台割りを作る", "d.planned": "台割り：{n}試合、終了見込み {end}",
    "d.replan": "今から台割りを作り直す", "d.now": "現在時刻（空欄なら今）",
    "d.broken": "使えない台（例：5, 17）", "d.callNext": "次を呼ぶ", "d.start": "開始",
    "d.result": "結果入力", "d.correct": "訂正", "d.score": "得点（R7b）", "d.pucks": "パック数",
    "d.winner": "同点のときの勝者（R7c/R7d）", "d.none": "引き分け", "d.forfeit": "不戦（来なかった側）",
    "d.save": "保存", "d.cancel": "やめる", "d.close": "確定する", "d.reopen": "確定を取り消す",
    "d.print.pools": "予選リーグ表", "d.print.plan": "台割り表", "d.print.bracket": "トーナメント表",
    "d.print.results": "成績表", "d.print.certificates": "賞状（1〜3位）", "d.csv": "結果CSV",
    "d.public": "公開ページ", "d.hall": "会場表示", "d.all": "全部門",
    "d.audit.who": "担当", "d.audit.what": "操作", "d.audit.when": "時刻", "d.audit.target": "対象",
    "d.saved": "保存しました", "d.logout": "ログアウト",
    "a.import": "取り込み", "a.status": "受付・棄権", "a.draw": "組み合わせ", "a.plan": "台割り",
    "a.replan": "台割りの作り直し", "a.call": "呼び出し", "a.start": "開始", "a.result": "結果入力",
    "a.correction": "訂正", "a.clear": "結果の取り消し", "a.close": "リーグ確定", "a.reopen": "確定の取り消し",
    "s.entered": "未受付", "s.checked_in": "受付済み", "s.withdrawn": "棄権",
    "a.pad": "パッドに試合", "a.pads": "パッド用意", "a.pad_refused": "パッドの結果を保留", "a.withdraw": "呼び出し取り消し",
    "d.pads": "スコアパッド", "d.makePads": "全台にパッドを用意する",
    "d.padsNote": "各台のパッドはこのリンク（QRコード）で開きます。呼び出すとその台のパッドに試合が開き、審判が確定した結果が順位に入ります。",
    "d.padOf": "第{n}台のパッド", "d.sheet": "記録表",
    "d.online": "オンライン大会（ブラウザ版の対局室で対戦）", "d.players": "選手用リンク",
    "d.playersNote": "オンライン大会では、各選手に本人用のリンクを送ってください。呼び出されるとそのリンクから対局室の自分の席に入れます。",
    "d.copy": "コピー", "d.copied": "コピーしました", "d.watchRoom": "対局室を見る",
    "room.n": "対局{n}", "play": "対局する", "play.wait": "呼び出されると「対局する」が押せます",
    "a.room": "対局室を用意", "a.seat": "着席", "a.room_refused": "対局結果を保留", "d.padError": "パッドに試合を開けませんでした：{why}",
    "a.begin": "試合開始", "a.entry_add": "エントリー追加", "a.entry_edit": "エントリー訂正", "a.rules": "順位の決め方",
    "a.schedule": "計画の設定", "a.knockout_size": "決勝トーナメントの大きさ",
    "d.entry.add": "エントリーを追加", "d.entry.edit": "エントリーを訂正（{id}）", "d.entry.division": "部門",
    "d.entry.member": "選手", "d.entry.partner": "ペアの相手", "d.entry.name": "氏名", "d.entry.reading": "よみがな（かな）",
    "d.entry.club": "所属", "d.entry.prefecture": "都道府県", "d.entry.age": "年齢", "d.entry.grade": "学年（小3、中1、一般など。18歳未満は必須）",
    "d.entry.seed": "シード（1が最上位、空欄可）", "d.entry.save": "追加する", "d.entry.update": "訂正を保存",
    "d.entry.added": "{id} を追加しました", "d.entry.late": "{id} を追加しました（{pool}リーグに入り、台割りに加えました）",
    "d.entry.updated": "{id} を訂正しました", "d.entry.note": "組み合わせ後の追加は、まだ始まっていないリーグのうち一番少ないリーグに入ります（リーグの人数＋1まで）。",
    "d.edit": "訂正", "d.tab.settings": "設定",
    "d.rules": "順位の決め方", "d.rules.note": "上から順に比べます。使わない項目は外せます。抽選がなければ、並んだ人は同じ順位です。確定したリーグがあると変更できません。",
    "d.rules.use": "使う", "d.rules.up": "上へ", "d.rules.down": "下へ", "d.rules.points": "勝ち点",
    "d.rules.win": "勝ち", "d.rules.draw": "引き分け", "d.rules.loss": "負け", "d.rules.save": "順位の決め方を保存",
    "tb.match_points": "勝ち点", "tb.point_difference": "得失点差", "tb.head_to_head": "直接対決", "tb.pucks": "パック数", "tb.lot": "抽選",
  },
  en: {
    "tab.find": "My next match", "tab.pools": "Pools", "tab.bracket": "Knockout", "tab.boards": "Boards",
    "find.label": "Find by name or kana reading", "find.placeholder": "e.g. やまだ, 山田, Yamada",
    "find.none": "Nobody found", "find.next": "Next match", "find.noNext": "No match to come",
    "find.vs": "v", "find.all": "All matches",
    "status.planned": "Planned", "status.called": "Called", "status.playing": "Playing",
    "status.finished": "Finished", "status.forfeit": "Forfeit",
    "board": "Board {n}", "board.free": "Free", "board.left": "{m}:{s} left", "board.timeup": "Time called (R7b)",
    "board.untimed": "Untimed", "board.active": "Boards in play only",
    "pool": "Pool {label}", "closed": "Closed", "complete": "All played",
    "col.place": "Pl", "col.name": "Name", "col.w": "W", "col.d": "D", "col.l": "L",
    "col.pts": "Pts", "col.diff": "Diff", "col.pucks": "Pucks", "withdrawn": "withdrawn",
    "tiebreaks": "Ranking: {list}", "decided": "by {key}",
    "places": "Places", "place": "Place {n}", "tbd": "TBD", "bye": "bye",
    "division": "Division", "live.lost": "Connection lost, reconnecting…", "live.ok": "Live",
    "call": "Call", "noevent": "This event does not exist",
    "hall.title": "Hall display", "empty": "Nothing yet", "loading": "Loading…",
    "d.create": "Create an event", "d.name": "Event name", "d.date": "Date", "d.boards": "Boards", "d.firstMatch": "First match",
    "d.golden": "Golden board", "d.password": "Director password (12+ characters, blank for a generated token)",
    "d.token": "Director token", "d.operator": "Your name (kept in the audit trail)", "d.login": "Log in",
    "d.tokenShown": "Director token: {token} (write it down; it is not shown again)",
    "d.tab.entries": "Check-in", "d.tab.draw": "Draw & plan", "d.tab.boards": "Boards", "d.tab.results": "Results",
    "d.tab.pools": "Close pools", "d.tab.print": "Print & export", "d.tab.audit": "Audit",
    "d.import": "Import CSV (UTF-8 / Shift_JIS)", "d.importBtn": "Import",
    "d.imported": "Imported {n} entries ({enc})", "d.problems": "{n} rows have problems; nothing was imported:",
    "d.row": "Row {row}", "d.checkin": "Check in", "d.withdraw": "Withdraw", "d.undo": "Undo",
    "d.filter": "Filter", "d.entries": "{n} entries ({c} checked in)",
    "d.draw": "Draw", "d.seeded": "Use seeds", "d.drawn": "{n} pools",
    "d.plan": "Make the board plan", "d.planned": "Board plan: {n} matches, ends about {end}",
    "d.replan": "Re-plan from now", "d.now": "Now (blank: the server's clock)",
    "d.broken": "Boards out of service (e.g. 5, 17)", "d.callNext": "Call next", "d.start": "Start",
    "d.result": "Enter result", "d.correct": "Correct", "d.score": "Score (R7b)", "d.pucks": "Pucks",
    "d.winner": "Winner of a level score (R7c/R7d)", "d.none": "Draw", "d.forfeit": "Forfeit (side absent)",
    "d.save": "Save", "d.cancel": "Cancel", "d.close": "Close pool", "d.reopen": "Reopen pool",
    "d.print.pools": "Pool sheets", "d.print.plan": "Board plan", "d.print.bracket": "Brackets",
    "d.print.results": "Results", "d.print.certificates": "Certificates (places 1-3)", "d.csv": "Results CSV",
    "d.public": "Public page", "d.hall": "Hall display", "d.all": "All divisions",
    "d.audit.who": "Who", "d.audit.what": "What", "d.audit.when": "When", "d.audit.target": "Target",
    "d.saved": "Saved", "d.logout": "Log out",
    "a.import": "Import", "a.status": "Check-in / withdrawal", "a.draw": "Draw", "a.plan": "Board plan",
    "a.replan": "Re-plan", "a.call": "Call", "a.start": "Start", "a.result": "Result",
    "a.correction": "Correction", "a.clear": "Result removed", "a.close": "Pool closed", "a.reopen": "Pool reopened",
    "s.entered": "entered", "s.checked_in": "checked in", "s.withdrawn": "withdrawn",
    "a.pad": "Match on the pad", "a.pads": "Pads made", "a.pad_refused": "Pad result held back", "a.withdraw": "Call withdrawn",
    "d.pads": "Scoring pads", "d.makePads": "Give every board a pad",
    "d.padsNote": "Open each board's pad with its link (QR code). A call opens the match on that board's pad; the result the referee confirms goes into the standings.",
    "d.padOf": "Pad of board {n}", "d.sheet": "Score sheet",
    "d.online": "Online event (games in online rooms of the browser game)", "d.players": "Player links",
    "d.playersNote": "In an online event, send each player their own link: once their match is called it takes them to their seat in its room.",
    "d.copy": "Copy", "d.copied": "Copied", "d.watchRoom": "Watch the room",
    "room.n": "Game {n}", "play": "Play", "play.wait": "\"Play\" opens once your match is called",
    "a.room": "Room opened", "a.seat": "Seat taken", "a.room_refused": "Game result held back", "d.padError": "The pad could not open the match: {why}",
    "a.begin": "Match begun", "a.entry_add": "Entry added", "a.entry_edit": "Entry corrected", "a.rules": "Ranking rules",
    "a.schedule": "Plan settings", "a.knockout_size": "Knockout size",
    "d.entry.add": "Add an entry", "d.entry.edit": "Correct entry {id}", "d.entry.division": "Division",
    "d.entry.member": "Player", "d.entry.partner": "Partner", "d.entry.name": "Name", "d.entry.reading": "Reading (kana)",
    "d.entry.club": "Club", "d.entry.prefecture": "Prefecture", "d.entry.age": "Age", "d.entry.grade": "School year (小3, 中1, 一般...; needed under 18)",
    "d.entry.seed": "Seed (1 = strongest; optional)", "d.entry.save": "Add", "d.entry.update": "Save the correction",
    "d.entry.added": "Added {id}", "d.entry.late": "Added {id} (into pool {pool} and the board plan)",
    "d.entry.updated": "Corrected {id}", "d.entry.note": "After the draw, a new entry joins the pool with the fewest entries among those not begun (up to one more than the pool size).",
    "d.edit": "Correct", "d.tab.settings": "Settings",
    "d.rules": "Ranking rules", "d.rules.note": "Compared from the top down. Untick what the event does not use. Without the lot, entries still level share a place. Refused while a pool is closed.",
    "d.rules.use": "Use", "d.rules.up": "Up", "d.rules.down": "Down", "d.rules.points": "Match points",
    "d.rules.win": "Win", "d.rules.draw": "Draw", "d.rules.loss": "Loss", "d.rules.save": "Save the ranking rules",
    "tb.match_points": "match points", "tb.point_difference": "point difference", "tb.head_to_head": "head-to-head", "tb.pucks": "pucks pocketed", "tb.lot": "lot",
  },
};

let lang = localStorage.getItem(LANG_KEY) || ((navigator.language || "ja").startsWith("ja") ? "ja" : "en");
const langListeners = new Set();

export function getLang() { return lang; }

export function setLang(next) {
  lang = next === "en" ? "en" : "ja";
  localStorage.setItem(LANG_KEY, lang);
  document.documentElement.lang = lang;
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  }
  for (const fn of langListeners) fn(lang);
}

export function onLang(fn) { langListeners.add(fn); }

export function t(key, params = {}) {
  let text = STR[lang][key] ?? STR.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

/** A string in a given language, whatever the page's language ("en" or "ja"). */
export function tIn(language, key) {
  return STR[language][key] ?? key;
}

/** A {ja, en} pair from the server in the current language. */
export function pick(pair) {
  if (!pair) return "";
  return typeof pair === "string" ? pair : (pair[lang] ?? pair.en ?? "");
}

/** h("div.card", {onclick}, child, ...) builds an element. */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function wireLangSwitch() {
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  }
  setLang(lang);
}

/**
 * JSON over REST; a refusal throws an Error whose message is in the current language.
 * @param {string} path
 * @param {{method?: string, body?: unknown, token?: string | null, raw?: BodyInit}} [options]
 *   body is sent as JSON, raw (a CSV file) as it is; token is the director's
 */
export async function api(path, { method = "GET", body, token, raw } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    headers["X-Operator"] = encodeURIComponent(localStorage.getItem("hikone-carrom.operator") || "");
  }
  let payload;
  if (raw !== undefined) { payload = raw; headers["Content-Type"] = "text/csv"; }
  else if (body !== undefined) { payload = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, { method, headers, body: payload });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    const msg = d && typeof d === "object" && !Array.isArray(d) ? pick(d) : `HTTP ${res.status}`;
    const err = /** @type {Error & {status: number, code?: string, detail?: any}} */ (new Error(msg));
    err.status = res.status;
    err.code = d && d.code;
    err.detail = d;
    throw err;
  }
  return data;
}

/**
 * The event live over one WebSocket: calls onChange(event, message) after the snapshot, every
 * update, every answer and the live scores. The director's console ({full: true, token}) holds
 * the whole event once its first message, a hello, carries the director's token (never in the
 * URL); a spectator's page holds the compact snapshot (every board's current and next match, the
 * calls) and asks for what it shows with want("division", "GS:pools"), want("division",
 * "GS:bracket"), want("entry", "GS-001") or search("やまだ"); answers come in order with the
 * numbered updates and are asked again after a new snapshot.
 */
export class LiveEvent {
  /**
   * @param {string | null} id
   * @param {(event: any, message: any) => void} onChange
   * @param {(connected: boolean, why?: string) => void} [onStatus]
   * @param {{full?: boolean, token?: string | null, watching?: string}} [options]
   */
  constructor(id, onChange, onStatus, { full = false, token = null, watching = "all" } = {}) {
    this.id = id;
    this.onChange = onChange;
    this.onStatus = onStatus || (() => {});
    this.full = full;
    this.token = token;
    this.event = null;
    this.seq = 0;
    this.backoff = 500;
    this.asked = new Set();  // requests sent since the last snapshot
    this.people = new Map();  // entry id -> entry (with its match ids), from "entry" answers
    this.found = null;  // the last "search" answer
    this.query = "";
    this.watching = watching;  // whose live scores the page shows (see watch)
    this.resyncing = false;  // a resync asked for, its snapshot not yet here
    this.trimmed = false;  // the snapshot held has no board's matches (watching "find" or "none")
    this.inbox = Promise.resolve();  // compressed messages are inflated one after the other
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams();
    if (this.full) query.set("full", "1");
    else if (this.watching !== "all") query.set("watch", this.watching);  // a trimmed snapshot
    if (CAN_INFLATE) query.set("z", "1");
    const asked = this.watching;
    const ws = new WebSocket(`${proto}://${location.host}/ws/tournaments/${this.id}?${query}`);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.resyncing = false;
      if (this.full) this.send({ type: "hello", token: this.token });
      else if (this.watching !== asked) this.send({ type: "watch", key: this.watching });
      this.onStatus(true);
    };
    ws.onmessage = (ev) => {
      this.inbox = this.inbox.then(() => decodeMessage(ev.data)).then((msg) => this.receive(msg))
        .catch((err) => console.error("live socket", err));
    };
    ws.onclose = () => {
      this.onStatus(false);
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Ask once per snapshot for a view: ("division", "GS:pools"), ("entry", "GS-001"). The
   * updates carry the pool tables of the last division asked for only: the others' tables are
   * asked for again when shown. */
  want(type, key) {
    const k = `${type}\n${key}`;
    if (this.full || !this.event || this.asked.has(k)) return;
    if (type === "division" && key.endsWith(":pools")) {
      for (const d of this.event.divisions) {
        if (d.loaded && d.loaded.pools) d.loaded = { ...d.loaded, pools: false };
        this.asked.delete(`division\n${d.id}:pools`);
      }
    }
    this.asked.add(k);
    this.send({ type, key });
  }

  /** Find entries by name or kana reading; the answer is in this.found. */
  search(q) {
    this.query = q;
    if (!q.trim()) { this.found = null; return; }
    this.send({ type: "search", key: q.slice(0, 40) });
  }

  merge(matches) { mergeMatches(this.event, matches); }

  /** Say whose live scores the page shows: "all" (the boards), "find" (the entries it asked
   * for) or "none"; kept for the connections to come. */
  watch(key) {
    if (this.full || this.watching === key) return;
    this.watching = key;
    this.send({ type: "watch", key });
    if (key === "all" && this.trimmed) this.resync();
  }

  /** Ask for a whole snapshot (the boards' matches a trimmed one left out). */
  resync() {
    if (this.resyncing) return;
    this.send({ type: "resync" });
    this.resyncing = true;
  }

  receive(msg) {
    if (msg.type === "error") { this.onStatus(false, pick(msg.message)); return; }
    if (msg.type === "pong") return;
    if (msg.type === "live") {  // scores and clocks of matches being played: not numbered
      if (!this.event) return;
      this.applyLive(msg.scores, msg.clocks);
      this.onChange(this.event, msg);
      return;
    }
    if (msg.type === "snapshot") {
      this.event = msg.event; this.seq = msg.seq; this.resyncing = false;
      this.trimmed = Boolean(msg.trimmed);
      this.asked = new Set();
      this.people = new Map();
      this.applyLive(msg.scores, msg.clocks);
      if (this.query.trim()) this.search(this.query);
      if (this.trimmed && this.watching === "all") this.resync();  // turned to the boards meanwhile
      this.onChange(this.event, msg); return;
    }
    if (msg.type === "division" || msg.type === "entry" || msg.type === "search") {
      if (!this.event) return;
      this.answer(msg);
      this.onChange(this.event, msg);
      return;
    }
    if (msg.type === "reload" || msg.seq !== this.seq + 1 || !this.event) {
      // one resync at a time: the updates already on their way are older than its snapshot
      this.resync();
      return;
    }
    this.seq = msg.seq;
    applyUpdate(this.event, msg);
    this.onChange(this.event, msg);
  }

  answer(msg) {
    const data = msg.data;
    if (msg.type === "division") {
      const div = this.event.divisions.find((d) => d.id === data.division.id);
      if (div) {
        if (data.part === "pools") div.pools = data.division.pools;
        div.places = data.division.places;
        div.loaded = { ...(div.loaded || {}), [data.part]: true };
      }
      this.merge(data.matches);
    } else if (msg.type === "entry") {
      this.merge(data.matches);
      this.people.set(data.id, { ...data, matches: data.matches.map((m) => m.id) });
    } else {
      for (const e of data.entries) this.merge(e.matches);
      if (msg.key === this.query.slice(0, 40)) this.found = data;
    }
  }

  applyLive(scores, clocks) { applyLive(this.event, scores, clocks); }
}

/** A name by entry id from whatever the page holds: the entries, a table, a match's sides. */
export function nameOf(event, id) {
  const e = (event.entries || []).find((x) => x.id === id);
  if (e) return e.name;
  for (const d of event.divisions) {
    for (const p of d.pools || []) {
      const s = p.standings.find((x) => x.entry === id);
      if (s && s.name) return s.name;
    }
  }
  for (const m of event.matches) {
    const side = m.sides.find((x) => x && x.id === id);
    if (side) return side.name;
  }
  return id;
}

export function sideName(side) {
  if (!side) return t("tbd");
  if (side.id === "") return t("bye");
  return side.name;
}

/** "第17台", or "対局17" in an online event (a board is then one game at a time). */
export function boardName(event, n) {
  return t(event && event.online ? "room.n" : "board", { n });
}

/** Seconds of match time left now: from the live clock of its pad or room when there is one
 * (the referee may pause it), else from when it started. */
export function secondsLeft(match, now = Date.now()) {
  const c = match.clock;
  if (c) return match.match_time_s - (c.elapsed + (c.running ? (now - c.at_ms) / 1000 : 0));
  return match.match_time_s - (now - Date.parse(match.started_at)) / 1000;
}

/** "3:41 left" for a match playing now, "Time called" after its time. */
export function timeLeft(match, now = Date.now()) {
  if (!match.started_at && !match.clock) return "";
  if (!match.match_time_s) return t("board.untimed");
  const left = secondsLeft(match, now);
  if (left <= 0) return t("board.timeup");
  const m = Math.floor(left / 60);
  const s = String(Math.floor(left % 60)).padStart(2, "0");
  return t("board.left", { m, s });
}

/** The board view: for each board its current match (called or playing) and its next one. */
export function boards(event) {
  if (event.tiles) {
    const byId = new Map(event.matches.map((m) => [m.id, m]));
    return event.tiles.map(([n, now, next]) => ({ n, now: byId.get(now) || null, next: byId.get(next) || null }));
  }
  /** @type {{n: number, now: any, next: any}[]} */
  const out = [];
  for (let n = 1; n <= event.boards; n++) out.push({ n, now: null, next: null });
  for (const m of event.matches) {
    const b = m.board ? out[m.board - 1] : null;
    if (!b) continue;
    if (m.status === "called" || m.status === "playing") b.now = m;
    else if (m.status === "planned" && m.planned && m.planned.board === m.board) {
      if (!b.next || m.planned.start_s < b.next.planned.start_s) b.next = m;
    }
  }
  return out;
}

/** The newest board call whose match is still waiting to start (the hall's announcement), or
 * the newest entry of the call feed when it is a call withdrawn by a correction. */
export function currentCall(event) {
  if (!event || !event.calls) return null;
  if (event.calls[0] && event.calls[0].withdrawn) return event.calls[0];
  const status = new Map(event.matches.map((m) => [m.id, m.status]));
  return event.calls.find((c) => status.get(c.match) === "called") || null;
}

/** "112 - 4" for a result, or the live score of a match being played (from its pad). */
export function scoreText(m) {
  const s = m.result ? m.result.scores : m.live_score;
  return s ? `${s[0]} - ${s[1]}` : "";
}
