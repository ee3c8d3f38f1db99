// The hall's big screen (/t/{id}?hall=1): every board in pages that turn on a visible timer, the
// queue of recent calls beside them, and the calls spoken aloud when the hall switches it on.
import { CallWatch, SpeechQueue, ageText, recentCalls, speechText } from "./hall-calls.js";
import { pageItems, pageLayout, screens } from "./hall-pages.js";
import { boardName, boards, getLang, h, pick, scoreText, sideName, t, timeLeft } from "./tourney-common.js";

const SPEECH_KEY = "hikone-carrom.hall.speech";
const QUEUE_LIMIT = 7;

const STR = {
  ja: {
    calls: "呼び出し", none: "呼び出し中の試合はありません", speech: "音声案内", on: "オン", off: "オフ",
    speechOn: "音声案内を始めます", click: "（画面をクリックすると始まります）", page: "{i} / {n}", range: "第{a}〜{b}台", rangeOnline: "対局{a}〜{b}",
    pools: "予選リーグ", pager: "表示中の画面", next: "次 {time}", free: "空き", vs: "対",
  },
  en: {
    calls: "Calls", none: "No match waiting for its players", speech: "Spoken calls", on: "on", off: "off",
    speechOn: "Spoken calls on", click: " (click the screen to start)", page: "{i} / {n}", range: "Boards {a}–{b}", rangeOnline: "Games {a}–{b}",
    pools: "Pools", pager: "Screen shown", next: "Next {time}", free: "Free", vs: "v",
  },
};

/** @param {keyof typeof STR.ja} key @param {Record<string, string | number>} [params] */
function s(key, params = {}) {
  let text = STR[lang()][key];
  for (const [k, v] of Object.entries(params)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

/** The browser's speech synthesis, when it has one. */
function synthesis() {
  return typeof window.speechSynthesis === "object" && typeof window.SpeechSynthesisUtterance === "function"
    ? window.speechSynthesis : null;
}

/** @typedef {{kind: "boards", page: number} | {kind: "pools"}} Screen */

export class Hall {
  /**
   * @param {number} cycleS seconds each screen is shown
   * @param {(screen: Screen) => void} show shows a screen (the page sets its tab and renders)
   * @param {() => void} rerender renders the page again (the screen's size changed)
   */
  constructor(cycleS, show, rerender) {
    this.cycleS = cycleS;
    this.show = show;
    this.index = 0;
    this.pages = 1;
    this.pools = false;
    this.range = "";
    /** @type {Screen} */
    this.screen = { kind: "boards", page: 0 };
    this.speaking = localStorage.getItem(SPEECH_KEY) === "1";
    this.watch = new CallWatch();
    const synth = synthesis();
    this.voice = synth ? new SpeechQueue(synth, (text, lang) => {
      const u = new SpeechSynthesisUtterance(text);
      u.lang = lang;
      u.rate = 0.9;
      return u;
    }) : null;
    this.pager = h("section.hall-pager", { id: "hall-pager", "aria-label": s("pager") });
    this.aside = h("aside.hall-calls", { id: "hall-calls", "aria-label": s("calls") });
    const view = document.getElementById("view");
    view.before(this.pager);
    view.after(this.aside);
    this.drawPager();
    /** @type {any} */
    this.event = null;
    // the browser speaks only once the page has been clicked (its user activation)
    addEventListener("click", () => { if (this.event) this.calls(this.event); }, { once: true });
    setInterval(() => this.advance(), cycleS * 1000);
    addEventListener("resize", rerender);
  }

  advance() {
    const all = screens(this.pages, this.pools);
    this.index = (this.index + 1) % all.length;
    this.screen = all[this.index];
    this.drawPager();
    this.show(this.screen);
  }

  /** The page number, the boards it shows and a bar that fills until the next screen. */
  drawPager() {
    const label = this.screen.kind === "pools" ? s("pools") : s("page", { i: this.screen.page + 1, n: this.pages });
    const fill = h("div.hall-progress-fill");
    fill.style.animationDuration = `${this.cycleS}s`;
    this.pager.replaceChildren(h("span.hall-page", { id: "hall-page" }, label),
      h("span.hall-range", { id: "hall-range" }, this.screen.kind === "boards" ? this.range : ""),
      h("div.hall-progress", {}, fill));
  }

  /** The tiles of the page of boards shown now, as many as the screen holds. */
  boards(event) {
    const view = document.getElementById("view");
    const style = getComputedStyle(view);
    const width = view.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // a narrow window stacks the boards over the calls and scrolls: one page of every board
    const paged = getComputedStyle(document.body).display === "grid";
    const height = paged ? view.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) : Infinity;
    const all = boards(event);
    const layout = pageLayout(all.length, width, height);
    this.pools = event.divisions.some((d) => d.drawn);
    const page = this.screen.kind === "boards" ? Math.min(this.screen.page, layout.pages - 1) : 0;
    const shown = pageItems(all, page, layout.perPage);
    const range = shown.length
      ? s(event.online ? "rangeOnline" : "range", { a: shown[0].n, b: shown[shown.length - 1].n }) : "";
    if (layout.pages !== this.pages || range !== this.range) {
      this.pages = layout.pages;
      this.range = range;
      this.drawPager();
    }
    const grid = h("div.hall-boards", { "data-page": page + 1 }, shown.map((b) => tile(event, b)));
    grid.style.gridTemplateColumns = `repeat(${layout.cols}, minmax(0, 1fr))`;
    grid.style.gridAutoRows = `${layout.rowHeight}px`;
    return [grid];
  }

  /** The queue of recent calls and the speech toggle; new calls are spoken when it is on. */
  calls(event) {
    this.event = event;
    const byId = new Map(event.matches.map((m) => [m.id, m]));
    const calls = event.calls || [];
    for (const call of this.watch.fresh(calls, byId)) {
      if (this.speaking && this.voice) this.voice.say(speechText(call, lang(), event.online), voiceLang());
    }
    const queue = recentCalls(calls, byId, Date.now(), QUEUE_LIMIT);
    const toggle = this.voice ? h("button.hall-speech", {
      id: "hall-speech", type: "button", "aria-pressed": String(this.speaking), onclick: () => this.toggle(event),
    }, `${s("speech")}：${s(this.speaking ? "on" : "off")}`, this.speaking && !activated() ? s("click") : "") : null;
    this.aside.replaceChildren(
      h("div.hall-calls-head", {}, h("h2", {}, s("calls")), toggle),
      queue.length
        ? h("ol.call-queue", {}, queue.map((q) => callItem(event, q)))
        : h("p.empty", {}, s("none")));
  }

  toggle(event) {
    this.speaking = !this.speaking;
    localStorage.setItem(SPEECH_KEY, this.speaking ? "1" : "0");
    if (this.voice) {
      if (this.speaking) this.voice.say(s("speechOn"), voiceLang());  // a tap lets the page speak
      else this.voice.clear();
    }
    this.calls(event);
  }

  /** The calls' ages, every second. */
  tick() {
    for (const el of this.aside.querySelectorAll("[data-age]")) {
      el.textContent = ageText((Date.now() - Number(el.dataset.age)) / 1000, lang());
    }
  }
}

/** Whether the page has been clicked or tapped since it opened (the browser lets it speak then). */
function activated() {
  return !navigator.userActivation || navigator.userActivation.hasBeenActive;
}

/** @returns {"ja" | "en"} */
function lang() { return getLang() === "en" ? "en" : "ja"; }

function voiceLang() { return lang() === "en" ? "en-US" : "ja-JP"; }

/** A board's tile: its number, who plays there now (or next) and its state in words as well as
 * in its frame: called (filled), playing (solid frame), next or free (dashed, dimmed). */
function tile(event, b) {
  const m = b.now || b.next;
  const state = b.now ? b.now.status : (b.next ? "next" : "free");
  const label = b.now ? t(`status.${b.now.status}`) : (b.next ? s("next", { time: b.next.planned?.start || "" }) : s("free"));
  const score = b.now ? scoreText(b.now) : "";
  return h(`div.board-tile.hall-tile.st-${state}`, { "data-board": b.n, "data-state": state },
    h("div.hall-tile-top", {}, h("span.hall-no", {}, boardName(event, b.n)),
      score ? h("strong.score", { "data-score": b.now.id }, score) : null),
    m ? h("div.hall-names", {}, h("div.hall-name", {}, sideName(m.sides[0])),
      h("div.hall-name", {}, h("span.hall-vs", {}, `${s("vs")} `), sideName(m.sides[1]))) : h("div.hall-names"),
    h("div.hall-tile-sub", {}, h("span.hall-state", {}, label),
      b.now && b.now.status === "playing" ? h("span.left", { "data-left": b.now.id }, ` ${timeLeft(b.now)}`) : null));
}

/** One call of the queue: the board large, the players, the division, its age. */
function callItem(event, q) {
  const division = event.divisions.find((d) => d.id === q.call.division);
  const status = q.status ? t(`status.${q.status}`) : "";
  return h(`li.call-item${q.status ? `.st-${q.status}` : ""}`, { "data-match": q.call.match, "data-board": q.call.board },
    h("div.call-board", {}, boardName(event, q.call.board)),
    h("div.call-body", {},
      h("div.call-name", {}, q.call.sides[0]),
      h("div.call-name", {}, h("span.hall-vs", {}, `${s("vs")} `), q.call.sides[1]),
      h("div.call-meta", {}, division ? pick(division.name) : q.call.division),
      h("div.call-when", {}, h("span.call-status", {}, status),
        q.calledAt !== null ? h("span.call-age", { "data-age": q.calledAt },
          ageText((Date.now() - q.calledAt) / 1000, lang())) : null)));
}
