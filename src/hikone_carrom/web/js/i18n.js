// Japanese and English for everything a player reads. Rule terms follow RULES.md:
// パック (puck), ジャック (jack), ストライカー (striker), エリアライン (area line),
// ティースポット (tee spot), ジャックスポット (jack spot).

const STRINGS = {
  en: {
    "nav.new": "New game", "nav.games": "Games",
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
    "controls.help": "Drag the striker along the area line. Then press anywhere behind it and pull back; release to shoot.",
    "controls.power": "Power", "controls.pos": "Position (mm)", "controls.angle": "Angle (°)",
    "controls.speed": "Speed (m/s)", "controls.shoot": "Shoot",
    "controls.keys": "Keys: ←/→ move · ↑/↓ aim (Shift fine) · W/S power · Space shoot · H hint · U use it",
    "hint.ask": "Hint", "hint.use": "Use this shot", "hint.dismiss": "Dismiss",
    "hint.thinking": "The expert is thinking…", "hint.title": "The expert suggests",
    "hint.used": "Suggested shot set: shoot when ready.", "hint.off": "Hints are off in this room.",
    "controls.first": "First shot: from your tee spot (R2a).",
    "place.blocked": "A piece is in the way: the striker cannot go here (R2b).",
    "log.title": "Rulings", "log.empty": "No shot yet.",
    "share.title": "Invite", "share.copy": "Copy", "share.copied": "Copied",
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
    "error.connection": "Connection lost, reconnecting…",
    "error.room": "This room does not exist.",
    "r.shot": "{name} shot.",
    "r.pocketed": "Pocketed: {list}.",
    "r.none": "Nothing pocketed.",
    "r.timecalled": "Time is called: play goes on until the round is finished (R7b).",
    "piece.red": "red puck", "piece.green": "green puck", "piece.jack": "jack", "piece.striker": "striker",
    "mode.computer.short": "vs computer", "mode.hotseat.short": "same device", "mode.online.short": "online",
    "msg.rematch": "New game started.",
  },
  ja: {
    "nav.new": "新しい試合", "nav.games": "試合記録",
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
    "controls.help": "ストライカーをエリアラインに沿ってドラッグ。次にその後ろを押して引き、離すとショットします。",
    "controls.power": "強さ", "controls.pos": "位置（mm）", "controls.angle": "角度（°）",
    "controls.speed": "速さ（m/s）", "controls.shoot": "ショット",
    "controls.keys": "キー：←/→ 移動・↑/↓ 狙い（Shiftで微調整）・W/S 強さ・Space ショット・H ヒント・U この手を使う",
    "hint.ask": "ヒント", "hint.use": "この手を使う", "hint.dismiss": "閉じる",
    "hint.thinking": "上級者が考えています…", "hint.title": "上級者のおすすめ",
    "hint.used": "おすすめの手をセットしました。準備ができたらショット。", "hint.off": "この部屋ではヒントは使えません。",
    "controls.first": "最初のショットはティースポットから（R2a）。",
    "place.blocked": "ほかの駒があるため、ここにストライカーは置けません（R2b）。",
    "log.title": "裁定", "log.empty": "まだショットはありません。",
    "share.title": "招待", "share.copy": "コピー", "share.copied": "コピーしました",
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
    "error.connection": "接続が切れました。再接続しています…",
    "error.room": "この部屋はありません。",
    "r.shot": "{name} のショット。",
    "r.pocketed": "ポケット：{list}。",
    "r.none": "何も落ちませんでした。",
    "r.timecalled": "タイム：この巡が終わるまで試合を続けます（R7b）。",
    "piece.red": "赤のパック", "piece.green": "緑のパック", "piece.jack": "ジャック", "piece.striker": "ストライカー",
    "mode.computer.short": "コンピュータ戦", "mode.hotseat.short": "1台で対戦", "mode.online.short": "オンライン",
    "msg.rematch": "新しい試合が始まりました。",
  },
};

const listeners = new Set();
let current = pickInitial();

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

/** Switch language, remember it, re-translate the page and notify listeners. */
export function setLang(next) {
  if (next !== "ja" && next !== "en") return;
  current = next;
  localStorage.setItem("hikone-carrom.lang", next);
  applyI18n(document);
  for (const fn of listeners) fn(next);
}

/** Call fn(lang) after every language switch. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate key, filling {name} placeholders from params. */
export function t(key, params = {}) {
  const table = STRINGS[current];
  let text = table[key] ?? STRINGS.en[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** Add the strings of a feature module ({en: {...}, ja: {...}}); a key may be given once. */
export function addStrings(table) {
  for (const l of ["en", "ja"]) {
    for (const [key, text] of Object.entries(table[l])) {
      if (key in STRINGS[l]) throw new Error(`i18n: the key ${key} is given twice`);
      STRINGS[l][key] = text;
    }
  }
}

/** Pick the right language from a {ja, en} pair sent by the server. */
export function pick(pair) {
  if (!pair) return "";
  if (typeof pair === "string") return pair;
  return pair[current] ?? pair.en ?? "";
}

/** Fill every [data-i18n] element under root and mark the language buttons. */
export function applyI18n(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === current));
  }
}
