// Japanese and English for everything a player reads. Rule terms follow RULES.md:
// パック (puck), ジャック (jack), ストライカー (striker), エリアライン (area line),
// ティースポット (tee spot), ジャックスポット (jack spot).

/**
 * @typedef {"ja" | "en"} Lang
 * @typedef {{en: string, ja: string}} Pair a sentence in both languages (from the server)
 * @typedef {string | {key: string, params?: Record<string, unknown>} | Pair | (() => string)
 *   | null | undefined} Message a key, a key with its {name} values, a pair, or a function
 */

/** @type {Record<Lang, Record<string, string>>} */
const STRINGS = {
  en: {
    "nav.new": "New game", "nav.games": "Games", "nav.howto": "How to play", "nav.menu": "Menu",
    "nav.puzzles": "Puzzles",
    "pref.contrast": "High contrast", "pref.sound": "Sound",
    "home.title": "A game from Hikone, on one board",
    "home.lede": "Flick the striker, pocket your colour, and take the jack last.",
    "home.mode": "Mode", "home.players": "Players", "home.singles": "2 (singles)",
    "home.doubles": "4 (doubles)", "home.level": "Computer level", "home.name": "Your name",
    "home.timed": "Timed match (R7b, R8a)", "home.minutes": "Minutes", "home.start": "Start",
    "mode.computer": "Against the computer", "mode.computer.sub": "You play red and shoot first; colours change sides in each rematch.",
    "mode.hotseat": "Same device", "mode.hotseat.sub": "Pass the mouse: 2 or 4 players.",
    "mode.online": "Online room",
    "mode.online.sub": "Share the link; friends take the seats, others watch.",
    "color.red": "Red", "color.green": "Green",
    "side.0": "South", "side.1": "North", "side4.0": "South", "side4.1": "West", "side4.2": "North", "side4.3": "East",
    "seat.open": "open seat", "seat.take": "Take seat", "seat.you": "you", "seat.computer": "Computer",
    "seat.player": "Player {n}", "seats.title": "Players",
    "turn.yours": "Your shot", "turn.of": "{name} to shoot", "turn.watch": "Watching",
    "turn.over": "Game over", "turn.wait": "Waiting for players",
    "turn.thinking": "{name} is thinking…",
    "counts.title": "Pockets", "counts.pocketed": "Pucks in", "counts.debt": "Debt",
    "counts.pile": "Jack spot pile", "counts.pile.empty": "empty",
    "controls.title": "Shot",
    "controls.help": "Slide the striker along the area line. To shoot, press the striker or the round handle behind it, pull back and let go. Let go on the striker, or press Esc, to cancel.",
    "controls.power": "Power", "controls.pos": "Position (mm)", "controls.angle": "Angle (°)",
    "controls.speed": "Speed (m/s)", "controls.shoot": "Shoot",
    "controls.keys": "Keys (click the board first): ←/→ move · A/D or ↑/↓ aim left/right (Shift: fine) · W/S power · Space shoot · Esc cancel a pull · H hint · U use it",
    "controls.frame": "Position: + is to your right of the tee spot. Angle: 0 is straight ahead, + turns to your right.",
    "controls.unshootable": "Struck-through pieces lie wholly in your own area: you may not hit them directly (R4a).",
    "form.pos": "Position: a number of mm from -{max} to {max}.",
    "form.angle": "Angle: a number of degrees from -180 to 180.",
    "form.speed": "Speed: a number of m/s above 0, up to {max}.",
    "aim.cancel": "Let go here to cancel; pull further back to shoot.",
    "board.label": "Carrom board",
    "hint.ask": "Hint", "hint.use": "Use this shot", "hint.dismiss": "Dismiss",
    "hint.thinking": "The expert is thinking…", "hint.title": "The expert suggests",
    "hint.used": "Suggested shot set: shoot when ready.", "hint.off": "Hints are off in this room.",
    "controls.first": "First shot: from your tee spot (R2a).",
    "place.blocked": "A piece is in the way: the striker cannot go here (R2b).",
    "log.title": "Rulings", "log.empty": "No shot yet.",
    "share.title": "Invite", "share.link": "Invite link", "share.copy": "Copy", "share.copied": "Copied",
    "clock.match": "Match time", "clock.called": "Time called: the round is played out (R7b)",
    "clock.shot": "{s} s to shoot (R8a)",
    "end.win": "{color} wins", "end.draw": "Draw", "end.rematch": "Rematch", "end.games": "All games",
    "end.reason.R7a": "The jack was pocketed after all {color} pucks (R7a).",
    "end.reason.R7b": "Time: more pucks pocketed (R7b).",
    "end.reason.R7c": "Decided after extra rounds (R7c).",
    "end.reason.R7d": "Still level: decided as fixed beforehand (R7d).",
    "end.score": "Score",
    "games.title": "Finished games", "games.when": "When", "games.mode": "Mode",
    "games.players": "Players", "games.result": "Result", "games.shots": "Shots",
    "games.empty": "No finished game yet.", "games.replay": "Replay",
    "replay.title": "Replay", "replay.again": "Play this shot again", "replay.start": "Start position",
    "conn.connecting": "Connecting…", "conn.reconnecting": "Reconnecting…",
    "conn.retry_in": "Connection lost. Trying again in {s} s…", "conn.offline": "Offline: waiting for the network…",
    "conn.retry": "Retry now",
    "end.close": "Close and look at the board", "end.open": "Show the result",
    "notfound.room.title": "No such room",
    "notfound.room.text": "This link leads to no room on this server: it may be mistyped, or the room was never made here.",
    "notfound.game.title": "No such game",
    "notfound.game.text": "This link leads to no game on this server: it may be mistyped, or the game was never recorded here.",
    "notfound.home": "Start a new game", "notfound.games": "Finished games",
    "howto.title": "How to play",
    "howto.lede": "Hikone Carrom (彦根カロム) in plain words, rule by rule. Every ruling in the game links here by its rule id.",
    "howto.toc": "Contents",
    "rule.explain": "What rule {id} says",
    "replay.board": "Replay board", "replay.first": "First", "replay.prev": "Previous shot",
    "replay.next": "Next shot", "replay.last": "Last", "replay.auto": "Autoplay", "replay.pause": "Pause",
    "replay.link": "Copy link to this shot", "replay.copied": "Link copied",
    "replay.keys": "Keys: ←/→ previous/next shot · Space autoplay on/off · Home/End first/last",
    "r.shot": "{name} shot.",
    "r.pocketed": "Pocketed: {list}.",
    "r.none": "Nothing pocketed.",
    "r.timecalled": "Time is called: play goes on until the round is finished (R7b).",
    "piece.red": "red puck", "piece.green": "green puck", "piece.jack": "jack", "piece.striker": "striker",
    "mode.computer.short": "vs computer", "mode.hotseat.short": "same device", "mode.online.short": "online",
    "msg.rematch": "New game started.",
  },
  ja: {
    "nav.new": "新しい試合", "nav.games": "試合記録", "nav.howto": "遊び方", "nav.menu": "メニュー",
    "nav.puzzles": "詰めカロム",
    "pref.contrast": "ハイコントラスト", "pref.sound": "音",
    "home.title": "彦根のカロムを、盤ひとつで",
    "home.lede": "ストライカーをはじいて自分の色のパックを落とし、最後にジャックを。",
    "home.mode": "モード", "home.players": "人数", "home.singles": "2人（シングルス）",
    "home.doubles": "4人（ダブルス）", "home.level": "コンピュータの強さ", "home.name": "名前",
    "home.timed": "時間制の試合（R7b・R8a）", "home.minutes": "分", "home.start": "はじめる",
    "mode.computer": "コンピュータと対戦", "mode.computer.sub": "あなたが赤で先攻です。再戦ごとに色と先攻が入れ替わります。",
    "mode.hotseat": "1台で対戦", "mode.hotseat.sub": "マウスを交代して2人または4人で。",
    "mode.online": "オンラインの部屋",
    "mode.online.sub": "リンクを送ると友だちが席に着き、ほかの人は観戦できます。",
    "color.red": "赤", "color.green": "緑",
    "side.0": "南", "side.1": "北", "side4.0": "南", "side4.1": "西", "side4.2": "北", "side4.3": "東",
    "seat.open": "空席", "seat.take": "この席に着く", "seat.you": "あなた", "seat.computer": "コンピュータ",
    "seat.player": "プレイヤー {n}", "seats.title": "プレイヤー",
    "turn.yours": "あなたの番です", "turn.of": "{name} の番", "turn.watch": "観戦中",
    "turn.over": "試合終了", "turn.wait": "プレイヤーを待っています",
    "turn.thinking": "{name} が考えています…",
    "counts.title": "ポケット", "counts.pocketed": "落としたパック", "counts.debt": "借り",
    "counts.pile": "ジャックスポットの山", "counts.pile.empty": "なし",
    "controls.title": "ショット",
    "controls.help": "ストライカーをエリアラインに沿ってずらして置きます。打つときはストライカーか後ろの丸い取っ手を押して引き、離します。ストライカーの上で離すかEscキーで取り消し。",
    "controls.power": "強さ", "controls.pos": "位置（mm）", "controls.angle": "角度（°）",
    "controls.speed": "速さ（m/s）", "controls.shoot": "ショット",
    "controls.keys": "キー（先に盤をクリック）：←/→ 移動・A/D または ↑/↓ 狙いを左右に（Shiftで微調整）・W/S 強さ・Space ショット・Esc 引くのを取り消し・H ヒント・U この手を使う",
    "controls.frame": "位置：+ はティースポットから自分の右。角度：0 が正面、+ で右に向きます。",
    "controls.unshootable": "打ち消し線の駒は自分のエリアに入りきっているため、直接打てません（R4a）。",
    "form.pos": "位置は -{max}〜{max} の mm で入力してください。",
    "form.angle": "角度は -180〜180 の度で入力してください。",
    "form.speed": "速さは 0 より大きく {max} までの m/s で入力してください。",
    "aim.cancel": "ここで離すと取り消し。打つにはもっと引いてください。",
    "board.label": "カロム盤",
    "hint.ask": "ヒント", "hint.use": "この手を使う", "hint.dismiss": "閉じる",
    "hint.thinking": "上級者が考えています…", "hint.title": "上級者のおすすめ",
    "hint.used": "おすすめの手をセットしました。準備ができたらショット。", "hint.off": "この部屋ではヒントは使えません。",
    "controls.first": "最初のショットはティースポットから（R2a）。",
    "place.blocked": "ほかの駒があるため、ここにストライカーは置けません（R2b）。",
    "log.title": "裁定", "log.empty": "まだショットはありません。",
    "share.title": "招待", "share.link": "招待リンク", "share.copy": "コピー", "share.copied": "コピーしました",
    "clock.match": "試合時間", "clock.called": "タイム：この巡を最後まで行います（R7b）",
    "clock.shot": "あと {s} 秒でショット（R8a）",
    "end.win": "{color}の勝ち", "end.draw": "引き分け", "end.rematch": "もう一度", "end.games": "試合記録へ",
    "end.reason.R7a": "{color}のパックをすべて落としたあとにジャックを落としました（R7a）。",
    "end.reason.R7b": "時間切れ：落としたパックの多い方の勝ち（R7b）。",
    "end.reason.R7c": "延長の巡で決着（R7c）。",
    "end.reason.R7d": "同点のまま：事前の取り決めで決着（R7d）。",
    "end.score": "得点",
    "games.title": "終わった試合", "games.when": "日時", "games.mode": "モード",
    "games.players": "プレイヤー", "games.result": "結果", "games.shots": "ショット数",
    "games.empty": "終わった試合はまだありません。", "games.replay": "再生",
    "replay.title": "リプレイ", "replay.again": "このショットをもう一度", "replay.start": "開始時の配置",
    "conn.connecting": "接続しています…", "conn.reconnecting": "再接続しています…",
    "conn.retry_in": "接続が切れました。{s} 秒後にもう一度試します…", "conn.offline": "オフラインです。ネットワークを待っています…",
    "conn.retry": "今すぐ再接続",
    "end.close": "閉じて盤を見る", "end.open": "結果を表示",
    "notfound.room.title": "この部屋はありません",
    "notfound.room.text": "このリンクの部屋はこのサーバーにありません。リンクが間違っているか、ここで作られた部屋ではありません。",
    "notfound.game.title": "この試合はありません",
    "notfound.game.text": "このリンクの試合はこのサーバーにありません。リンクが間違っているか、ここで記録された試合ではありません。",
    "notfound.home": "新しい試合をはじめる", "notfound.games": "終わった試合",
    "howto.title": "遊び方",
    "howto.lede": "彦根カロムのルールを、ルールごとにやさしく説明します。ゲームの裁定はルール番号からここにつながります。",
    "howto.toc": "目次",
    "rule.explain": "ルール {id} の説明",
    "replay.board": "リプレイの盤", "replay.first": "最初", "replay.prev": "前のショット",
    "replay.next": "次のショット", "replay.last": "最後", "replay.auto": "自動再生", "replay.pause": "一時停止",
    "replay.link": "このショットへのリンクをコピー", "replay.copied": "リンクをコピーしました",
    "replay.keys": "キー：←/→ 前/次のショット・Space 自動再生のオン/オフ・Home/End 最初/最後",
    "r.shot": "{name} のショット。",
    "r.pocketed": "ポケット：{list}。",
    "r.none": "何も落ちませんでした。",
    "r.timecalled": "タイム：この巡が終わるまで試合を続けます（R7b）。",
    "piece.red": "赤のパック", "piece.green": "緑のパック", "piece.jack": "ジャック", "piece.striker": "ストライカー",
    "mode.computer.short": "コンピュータ戦", "mode.hotseat.short": "1台で対戦", "mode.online.short": "オンライン",
    "msg.rematch": "新しい試合が始まりました。",
  },
};

/** @type {Set<(lang: Lang) => void>} */
const listeners = new Set();
let current = pickInitial();

/** @returns {Lang} */
function pickInitial() {
  const saved = localStorage.getItem("hikone-carrom.lang");
  if (saved === "ja" || saved === "en") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return langs.some((l) => String(l).toLowerCase().startsWith("ja")) ? "ja" : "en";
}

/** The current language, "ja" or "en". */
export function lang() {
  return current;
}

/** Switch language, remember it, re-translate the page and notify listeners. @param {string | undefined} next */
export function setLang(next) {
  if (next !== "ja" && next !== "en") return;
  current = next;
  localStorage.setItem("hikone-carrom.lang", next);
  applyI18n(document);
  for (const fn of listeners) fn(next);
}

/** Call fn(lang) after every language switch. @param {(lang: Lang) => void} fn */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Translate key, filling {name} placeholders from params.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params = {}) {
  const table = STRINGS[current];
  let text = table[key] ?? STRINGS.en[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/**
 * Add the strings of a feature module ({en: {...}, ja: {...}}); a key may be given once.
 * @param {Record<Lang, Record<string, string>>} table
 */
export function addStrings(table) {
  for (const l of /** @type {Lang[]} */ (["en", "ja"])) {
    for (const [key, text] of Object.entries(table[l])) {
      if (key in STRINGS[l]) throw new Error(`i18n: the key ${key} is given twice`);
      STRINGS[l][key] = text;
    }
  }
}

/**
 * Pick the right language from a {ja, en} pair sent by the server, or "" for none.
 * @template T
 * @overload
 * @param {{en: T, ja: T} | null | undefined} pair
 * @returns {T | ""}
 */
/**
 * A sentence given as it is.
 * @overload
 * @param {Pair | string | null | undefined} pair
 * @returns {string}
 */
/** @param {any} pair */
export function pick(pair) {
  if (!pair) return "";
  if (typeof pair === "string") return pair;
  return pair[current] ?? pair.en ?? "";
}

/** Fill every [data-i18n] element under root and mark the language buttons. @param {ParentNode} root */
export function applyI18n(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {string} */ (el.dataset.i18n));
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(/** @type {string} */ (el.dataset.i18nLabel)));
  }
  for (const el of root.querySelectorAll("[data-msg]")) {
    if (el._msg !== undefined) el.textContent = render(el._msg);
  }
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === current));
  }
}

/**
 * A message in the current language: a key, {key, params}, a server's {en, ja} pair or a
 * function returning text (for sentences built from several parts).
 * @param {Message} msg
 * @returns {string}
 */
export function render(msg) {
  if (msg === null || msg === undefined) return "";
  if (typeof msg === "function") return msg();
  if (typeof msg === "string") return t(msg);
  if ("key" in msg && msg.key) return t(msg.key, msg.params || {});
  return pick(/** @type {Pair} */ (msg));
}

/**
 * Show a message in el and keep showing it in the page's language after every switch.
 * @param {HTMLElement | null} el
 * @param {Message} msg
 */
export function show(el, msg) {
  if (!el) return;
  el._msg = msg;
  el.dataset.msg = "";
  el.textContent = render(msg);
}
