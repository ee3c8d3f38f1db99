// Corrections after a call, in the director's console: a correction the server refuses with
// `call_would_change` (it changes who plays matches already called) is shown with what it will
// change — matches, boards, players — and sent again with confirm when the director agrees.
import { getLang, h } from "./tourney-common.js";

const STRINGS = {
  ja: {
    title: "呼び出し済みの試合の対戦者が変わります",
    lede: "確認すると、これらの呼び出しを取り消し（パッドと会場に表示されます）、正しい選手を同じ台に呼び出します。",
    board: "第{n}台", noBoard: "台未定", called: "呼び出し中", playing: "試合中",
    recall: "同じ台に呼び出し直します", wait: "対戦者が決まるまで待機します",
    confirm: "訂正して呼び出しを取り消す", cancel: "やめる", vs: " 対 ",
  },
  en: {
    title: "This changes who plays matches already called",
    lede: "Confirm to withdraw these calls (the pads and the hall show it) and call the right players to the same board.",
    board: "Board {n}", noBoard: "no board", called: "called", playing: "playing",
    recall: "called again to the same board", wait: "waits until both players are known",
    confirm: "Correct and withdraw the calls", cancel: "Cancel", vs: " v ",
  },
};

/** @param {keyof typeof STRINGS.ja} key @param {Record<string, string | number>} [params] */
function s(key, params = {}) {
  const text = STRINGS[getLang() === "en" ? "en" : "ja"][key];
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ""));
}

/**
 * @typedef {{match: string, board: number | null, status: string,
 *   before: Record<string, string[]>, after: Record<string, string[]>, recall: boolean}} CallChange
 */

/**
 * Send a correction; when the server answers `call_would_change`, show its changes and, if the
 * director confirms, send it again with confirm. A cancelled correction throws the refusal.
 * @template T
 * @param {(confirm: boolean) => Promise<T>} send
 * @returns {Promise<T>}
 */
export async function withConfirm(send) {
  try {
    return await send(false);
  } catch (err) {
    const e = /** @type {Error & {code?: string, detail?: {changes?: CallChange[]}}} */ (err);
    if (e.code !== "call_would_change" || !e.detail?.changes) throw err;
    if (!(await ask(e.detail.changes))) throw err;
    return send(true);
  }
}

/** "?confirm=true" when confirmed. @param {boolean} confirm */
export const confirmQuery = (confirm) => (confirm ? "?confirm=true" : "");

/**
 * The changes in a dialog; resolves true when the director confirms.
 * @param {CallChange[]} changes
 * @returns {Promise<boolean>}
 */
function ask(changes) {
  const lang = getLang() === "en" ? "en" : "ja";
  let dlg = /** @type {HTMLDialogElement | null} */ (document.getElementById("call-conflict"));
  if (!dlg) {
    dlg = /** @type {HTMLDialogElement} */ (h("dialog.result", { id: "call-conflict" }));
    document.body.append(dlg);
  }
  const dialog = dlg;
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ ok) => { dialog.close(); resolve(ok); };
    dialog.replaceChildren(h("div.dform", {},
      h("h3", {}, s("title")),
      h("p", {}, s("lede")),
      h("table.dtable", { id: "call-changes" }, h("tbody", {}, changes.map((c) => h("tr", { "data-match": c.match },
        h("td", {}, c.match),
        h("td", {}, c.board ? s("board", { n: c.board }) : s("noBoard")),
        h("td", {}, c.status === "playing" ? s("playing") : s("called")),
        h("td", {}, h("s", {}, c.before[lang].join(s("vs"))), " → ", h("strong", {}, c.after[lang].join(s("vs")))),
        h("td", {}, c.recall ? s("recall") : s("wait")))))),
      h("div.drow", {},
        h("button.primary", { type: "button", id: "confirm-correction", onclick: () => done(true) }, s("confirm")),
        h("button", { type: "button", onclick: () => done(false) }, s("cancel")))));
    dialog.addEventListener("cancel", () => resolve(false), { once: true });
    dialog.showModal();
  });
}
