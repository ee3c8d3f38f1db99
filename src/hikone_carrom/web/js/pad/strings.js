// Japanese first, English on a switch: every word of the scoring pad. Rule terms follow RULES.md:
// パック, ジャック, ストライカー, ジャックスポット.

/** @type {Record<"ja" | "en", Record<string, string>>} */
const STRINGS = {
  ja: {
    "app.title": "彦根カロム 審判パッド",
    "lang.switch": "English",
    "status.online": "オンライン", "status.offline": "オフライン", "status.kept": "入力はこの端末に保存され、接続が戻ると送信されます",
    "status.pending": "未送信 {n}件", "status.synced": "送信済み",
    "create.title": "ボードを作る", "create.lede": "会場の台ごとにボードを作り、QRコードを審判の端末で読み取ります。",
    "create.name": "ボード名（例：第17台）", "create.submit": "作成",
    "create.done": "ボード「{name}」ができました", "create.pad": "審判用リンク（このQRコード）",
    "create.watch": "観戦用リンク", "create.open": "この端末で審判パッドを開く",
    "create.keep": "このリンクとQRコードは審判用です。トークンが含まれるので、観戦者には観戦用リンクを渡してください。",
    "create.print": "印刷",
    "blocked.title": "このボードは別の端末で記録中です",
    "blocked.text": "1台のボードに使えるパッドは1つだけです。その端末で続けてください。端末を替える場合は審判が引き継ぎます。",
    "blocked.takeover": "この端末に引き継ぐ",
    "blocked.confirm": "このボードをこの端末に引き継ぎますか？ 別の端末でまだ送信されていない入力は受け付けられなくなります。",
    "token.missing": "この端末にはボードのトークンがありません。ボードのQRコードかリンクから開いてください。",
    "setup.title": "試合の設定", "setup.singles": "シングルス", "setup.doubles": "ダブルス",
    "setup.red": "赤（じゃんけんの勝者・先攻）", "setup.green": "緑",
    "setup.red2": "赤 パートナー", "setup.green2": "緑 パートナー",
    "setup.order": "打つ順番", "setup.time": "試合時間", "setup.minutes": "分",
    "setup.untimed": "時間制限なし（決勝など）", "setup.deadlock": "延長しても同点のとき（R7d）",
    "setup.draw": "引き分け", "setup.lot": "じゃんけん", "setup.titlefield": "試合名（任意）",
    "setup.start": "試合を始める",
    "clock.start": "時計スタート", "clock.pause": "一時停止", "clock.resume": "再開",
    "clock.ready": "試合時間 {t}", "clock.paused": "一時停止中", "clock.left": "残り",
    "clock.ten": "10秒 開始", "clock.tenrule": "10秒ルール（R8a）",
    "clock.called": "試合時間終了（R7b）：{name}（席{seat}）が打ち終わるまで続けます",
    "clock.untimed": "時間制限なし",
    "countdown.label": "秒",
    "turn.now": "{name} の番", "turn.extra": "延長{n}巡目（R7c）",
    "counts.in": "入ったパック", "counts.debt": "借り", "counts.score": "得点",
    "entry.title": "このショット", "entry.fix": "{n}番目を訂正", "entry.red": "赤パック",
    "entry.green": "緑パック", "entry.jack": "ジャック", "entry.striker": "ストライカーがポケット",
    "entry.striker_off": "ストライカー盤外", "entry.jack_off": "ジャック盤外",
    "entry.off": "盤外に出たパック", "entry.red_off": "赤 盤外", "entry.green_off": "緑 盤外",
    "entry.conduct": "反則", "entry.touched": "ストライカーに接触（R5f）",
    "entry.wrong": "順番違い（R5e）：打った人", "entry.unshootable": "打てないパックに直接（R4c）",
    "entry.none": "ポケットなし", "entry.record": "記録する", "entry.save": "訂正を保存",
    "entry.cancel": "やめる", "entry.clear": "クリア",
    "ruling.title": "裁定", "ruling.penalty": "ペナルティ {n}個", "ruling.none": "ペナルティなし",
    "ruling.continue": "成功：{name} が続けて打つ", "ruling.next": "次は {name}",
    "ruling.restored": "元に戻す（R4c）", "ruling.lost": "打つ権利を失った（R8a）",
    "ruling.pile": "ジャックスポットに戻す（下→上）", "ruling.empty": "まだ入力がありません",
    "lot.title": "こう着状態（R7d）：じゃんけんの勝者は？", "lot.red": "赤の勝ち", "lot.green": "緑の勝ち",
    "end.win": "{color}の勝ち", "end.draw": "引き分け", "end.score": "得点（R7b：ジャック100＋パック−借り）",
    "end.confirm": "結果を確定する", "end.confirmq": "この結果で確定しますか？ 確定後は訂正できません。",
    "withdrawn.title": "この試合は取り消されました（{by}）",
    "withdrawn.text": "訂正で対戦者が変わったため、この試合の入力はできません。このボードへの次の呼び出しを待ってください。",
    "withdrawn.before": "前の試合（{names}）は取り消されました（{by}）",
    "end.confirmed": "結果は確定しました", "end.pdf": "記録用紙（PDF）", "end.csv": "CSV",
    "end.record": "試合記録（JSON）", "end.next": "次の試合", "end.sheet_en": "PDF（English）",
    "history.title": "記録", "history.referee": "審判", "history.undo": "最後の入力を取り消す", "history.fix": "訂正",
    "history.empty": "まだ入力がありません", "history.time": "試合時間終了（R7b）",
    "history.lost": "打つ権利を失った（R8a）", "history.lot": "じゃんけん：{color}の勝ち（R7d）",
    "color.red": "赤", "color.green": "緑",
    "side.S": "南", "side.W": "西", "side.N": "北", "side.E": "東",
    "piece.red": "赤", "piece.green": "緑", "piece.jack": "ジャック",
    "watch.title": "観戦", "watch.readonly": "見るだけの画面です", "watch.nomatch": "このボードでは試合が始まっていません",
    "error.rejected": "サーバーが{n}番目の送信を受け付けませんでした：{why} サーバーの記録を表示します。",
    "error.noboard": "このボードはありません。",
    "tap.none": "ポケットなし",
  },
  en: {
    "app.title": "Hikone Carrom referee pad",
    "lang.switch": "日本語",
    "status.online": "Online", "status.offline": "Offline", "status.kept": "Entries are kept on this device and sent when the connection returns",
    "status.pending": "{n} not sent", "status.synced": "All sent",
    "create.title": "Create a board", "create.lede": "Create one board per table of the hall; the table referee scans its QR code.",
    "create.name": "Board name (e.g. Board 17)", "create.submit": "Create",
    "create.done": "Board “{name}” is ready", "create.pad": "Referee link (this QR code)",
    "create.watch": "Link for spectators", "create.open": "Open the referee pad on this device",
    "create.keep": "The referee link and QR code carry the board's token: give spectators the watch link instead.",
    "create.print": "Print",
    "blocked.title": "This board is being scored on another device",
    "blocked.text": "Only one pad per board: continue on that device. To change devices, the referee takes the board over.",
    "blocked.takeover": "Take the board over on this device",
    "blocked.confirm": "Take this board over on this device? Entries the other device has not sent yet will be refused.",
    "token.missing": "This device has no token for the board: open it from the board's QR code or link.",
    "setup.title": "Match set-up", "setup.singles": "Singles", "setup.doubles": "Doubles",
    "setup.red": "Red (won rock-paper-scissors, shoots first)", "setup.green": "Green",
    "setup.red2": "Red partner", "setup.green2": "Green partner",
    "setup.order": "Order of play", "setup.time": "Match time", "setup.minutes": "min",
    "setup.untimed": "Untimed (finals)", "setup.deadlock": "Still level after extra rounds (R7d)",
    "setup.draw": "Draw", "setup.lot": "Rock-paper-scissors", "setup.titlefield": "Match name (optional)",
    "setup.start": "Start the match",
    "clock.start": "Start clock", "clock.pause": "Pause", "clock.resume": "Resume",
    "clock.ready": "Match time {t}", "clock.paused": "Paused", "clock.left": "left",
    "clock.ten": "Start 10 s", "clock.tenrule": "10-second rule (R8a)",
    "clock.called": "Time called (R7b): play on until {name} (seat {seat}) has shot",
    "clock.untimed": "Untimed",
    "countdown.label": "s",
    "turn.now": "{name} to shoot", "turn.extra": "Extra round {n} (R7c)",
    "counts.in": "Pucks in", "counts.debt": "Debt", "counts.score": "Score",
    "entry.title": "This shot", "entry.fix": "Correct entry {n}", "entry.red": "Red pucks",
    "entry.green": "Green pucks", "entry.jack": "Jack", "entry.striker": "Striker pocketed",
    "entry.striker_off": "Striker off", "entry.jack_off": "Jack off",
    "entry.off": "Pucks off the board", "entry.red_off": "Red off", "entry.green_off": "Green off",
    "entry.conduct": "Fouls", "entry.touched": "Striker touched (R5f)",
    "entry.wrong": "Out of turn (R5e): who shot", "entry.unshootable": "Unshootable hit (R4c)",
    "entry.none": "No pocket", "entry.record": "Record", "entry.save": "Save correction",
    "entry.cancel": "Cancel", "entry.clear": "Clear",
    "ruling.title": "Ruling", "ruling.penalty": "Penalty {n}", "ruling.none": "No penalty",
    "ruling.continue": "Success: {name} shoots again", "ruling.next": "Next: {name}",
    "ruling.restored": "Board restored (R4c)", "ruling.lost": "Shot lost (R8a)",
    "ruling.pile": "Back to the jack spot (bottom → top)", "ruling.empty": "No entry yet",
    "lot.title": "Deadlock (R7d): who won rock-paper-scissors?", "lot.red": "Red won", "lot.green": "Green won",
    "end.win": "{color} wins", "end.draw": "Draw", "end.score": "Score (R7b: 100 × jack + pucks − debt)",
    "end.confirm": "Confirm the result", "end.confirmq": "Confirm this result? It cannot be corrected afterwards.",
    "withdrawn.title": "This match was withdrawn (by {by})",
    "withdrawn.text": "A correction changed who plays it, so it takes no more entries. Wait for the next call to this board.",
    "withdrawn.before": "The previous match ({names}) was withdrawn (by {by})",
    "end.confirmed": "Result confirmed", "end.pdf": "Score sheet (PDF)", "end.csv": "CSV",
    "end.record": "Match record (JSON)", "end.next": "Next match", "end.sheet_en": "PDF (日本語)",
    "history.title": "History", "history.referee": "Referee", "history.undo": "Undo the last entry", "history.fix": "Correct",
    "history.empty": "No entry yet", "history.time": "Time called (R7b)",
    "history.lost": "Shot lost (R8a)", "history.lot": "Rock-paper-scissors: {color} (R7d)",
    "color.red": "Red", "color.green": "Green",
    "side.S": "South", "side.W": "West", "side.N": "North", "side.E": "East",
    "piece.red": "red", "piece.green": "green", "piece.jack": "jack",
    "watch.title": "Watching", "watch.readonly": "Read-only view", "watch.nomatch": "No match on this board yet",
    "error.rejected": "The server refused entry {n}: {why} The pad now shows the server's sheet.",
    "error.noboard": "This board does not exist.",
    "tap.none": "no pocket",
  },
};

const KEY = "hikone-carrom.lang";
/** @type {"ja" | "en"} */
let current = localStorage.getItem(KEY) === "en" ? "en" : "ja";
/** @type {Set<(lang: "ja" | "en") => void>} */
const listeners = new Set();

export const lang = () => current;

/** @param {string} next */
export function setLang(next) {
  current = next === "en" ? "en" : "ja";
  localStorage.setItem(KEY, current);
  document.documentElement.lang = current;
  for (const fn of listeners) fn(current);
}

/** @param {(lang: "ja" | "en") => void} fn */
export const onLang = (fn) => listeners.add(fn);

/**
 * The text of key in the pad's language, {name} placeholders filled from params.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params = {}) {
  let s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/**
 * Short description of a tap: "赤2、ジャック" / "red 2, jack" (scoring.describe_tap).
 * @param {import("./match.js").Tap} tap
 * @param {string[] | null} [names] the players, to name a seat that shot out of turn
 */
export function describeTap(tap, names) {
  const ja = current === "ja";
  const parts = [];
  if (tap.red) parts.push(ja ? `赤${tap.red}` : `red ${tap.red}`);
  if (tap.green) parts.push(ja ? `緑${tap.green}` : `green ${tap.green}`);
  if (tap.jack) parts.push(ja ? "ジャック" : "jack");
  if (tap.red_off) parts.push(ja ? `赤${tap.red_off}盤外` : `red ${tap.red_off} off`);
  if (tap.green_off) parts.push(ja ? `緑${tap.green_off}盤外` : `green ${tap.green_off} off`);
  if (tap.jack_off) parts.push(ja ? "ジャック盤外" : "jack off");
  if (tap.striker_pocketed) parts.push(ja ? "ストライカーがポケット" : "striker pocketed");
  if (tap.striker_off) parts.push(ja ? "ストライカー盤外" : "striker off");
  if (tap.touched_striker) parts.push(ja ? "ストライカーに接触" : "striker touched");
  if (tap.unshootable_hit) parts.push(ja ? "打てないパック" : "unshootable hit");
  if (tap.wrong_order_seat !== null && tap.wrong_order_seat !== undefined) {
    const who = names ? names[tap.wrong_order_seat] : `#${tap.wrong_order_seat}`;
    parts.push(ja ? `順番違い：${who}` : `out of turn: ${who}`);
  }
  return parts.length ? parts.join(ja ? "、" : ", ") : t("tap.none");
}
