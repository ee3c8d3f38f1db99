// The post-game analysis (hikone_carrom.ai.analysis, docs/server.md): each player's accuracy and a
// chart of every shot's chance of success beside the expert's, as inline SVG; asked for over the
// room's WebSocket or, on the replay page, by REST with polling.
import { chip, text } from "./hud.js";
import { addStrings, pick, t } from "./i18n.js";
import { api } from "./net.js";

addStrings({
  en: {
    "an.title": "Analysis", "an.ask": "Analyse the game",
    "an.lede": "Each shot beside the expert's in the same position: their chance of keeping the turn (or winning) under a steady hand (1x).",
    "an.queued": "Waiting for the analysis to start…", "an.running": "Analysing shot {done} of {total}…",
    "an.stopped": "The analysis stopped at shot {done} of {total}. Ask again to go on.",
    "an.failed": "The analysis failed. Ask again to retry.",
    "an.player": "Player", "an.accuracy": "Accuracy", "an.shots": "Shots", "an.lost": "Chance lost",
    "an.chart": "Chance of success per shot", "an.chance": "Chance (%)", "an.shot": "Shot",
    "an.played": "shot played", "an.best": "expert's shot",
    "an.point": "Shot {n} · {name}: {played}% (expert {best}%)",
    "an.summary": "{name}: accuracy {acc}% over {shots} shots.",
    "an.none": "No shot to analyse in this game.",
  },
  ja: {
    "an.title": "分析", "an.ask": "試合を分析",
    "an.lede": "各ショットを、同じ配置での上級者のショットと比べます。手のぶれ（1x）があるときに番を続けられる（または勝てる）確率です。",
    "an.queued": "分析の開始を待っています…", "an.running": "{total}ショット中 {done} を分析しています…",
    "an.stopped": "{total}ショット中 {done} で分析が止まりました。もう一度押すと続けます。",
    "an.failed": "分析に失敗しました。もう一度お試しください。",
    "an.player": "プレイヤー", "an.accuracy": "正確さ", "an.shots": "ショット", "an.lost": "失った確率",
    "an.chart": "ショットごとの成功の確率", "an.chance": "確率（%）", "an.shot": "ショット",
    "an.played": "打ったショット", "an.best": "上級者のショット",
    "an.point": "ショット {n}・{name}：{played}%（上級者 {best}%）",
    "an.summary": "{name}：{shots}ショットで正確さ {acc}%。",
    "an.none": "この試合には分析するショットがありません。",
  },
});

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {Element | null} [parent]
 */
function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.append(el);
  return el;
}

const pct = (x) => Math.round(100 * x);

/**
 * A panel that shows one game's analysis: a button to ask for it, progress while it is computed,
 * then each player's accuracy and the chart. `ask()` is how this page asks for it (a WebSocket
 * message in the room, a REST call on the replay page); `seatName(seat)` names the players;
 * `onShot(n)`, if given, opens action n when its point of the chart is chosen.
 */
export class AnalysisPanel {
  /**
   * @param {HTMLElement} container
   * @param {{ask: () => unknown, seatName: (seat: number) => string,
   *   onShot?: ((n: number) => void) | null}} hooks
   */
  constructor(container, { ask, seatName, onShot = null }) {
    this.root = container;
    this.ask = ask;
    this.seatName = seatName;
    this.onShot = onShot; // opens a shot (its action number) when its point is chosen
    this.message = null; // the last "analysis" message (status, done, total, result)
    this.root.classList.add("card", "analysis");
    this.root.replaceChildren();
    this.title = text("h3", "");
    this.lede = text("p", "", "hint");
    this.button = text("button", "");
    this.button.type = "button";
    this.button.className = "primary analysis-ask";
    this.button.addEventListener("click", () => this.request());
    this.status = text("p", "", "analysis-status");
    this.status.setAttribute("role", "status");
    this.bar = document.createElement("progress");
    this.bar.className = "analysis-progress";
    this.body = document.createElement("div");
    this.body.className = "analysis-body";
    this.root.append(this.title, this.lede, this.button, this.status, this.bar, this.body);
    this.render();
  }

  request() {
    this.button.disabled = true;
    this.update({ ...(this.message || {}), status: "queued", done: this.message?.done || 0, total: this.message?.total || 0 });
    this.ask();
  }

  /** Show an "analysis" message (from the WebSocket, or a REST answer). */
  update(message) {
    this.message = message;
    this.render();
  }

  render() {
    const m = this.message;
    this.title.textContent = t("an.title");
    this.lede.textContent = t("an.lede");
    this.button.textContent = t("an.ask");
    const status = m ? m.status : "none";
    const working = status === "queued" || status === "running";
    this.button.hidden = status === "done" || working || status === "refused";
    this.button.disabled = working;
    this.bar.hidden = !working;
    if (working && m.total) {
      this.bar.max = m.total;
      this.bar.value = m.done;
    } else this.bar.removeAttribute("value");
    const params = { done: m?.done ?? 0, total: m?.total ?? 0 };
    this.status.textContent =
      status === "queued" ? t("an.queued")
      : status === "running" ? t("an.running", { done: Math.min(params.done + 1, params.total), total: params.total })
      : status === "stopped" ? t("an.stopped", params)
      : status === "failed" ? t("an.failed")
      : status === "refused" ? pick(m.reason)
      : "";
    this.body.replaceChildren();
    if (m && m.result && m.result.shots.length) {
      this.body.append(this.accuracyTable(m.result), this.chart(m.result));
    } else if (status === "done") this.body.append(text("p", t("an.none")));
  }

  colorOf(result, seat) {
    const shot = result.shots.find((s) => s.seat === seat);
    return shot ? shot.color : seat % 2 === 0 ? "red" : "green";
  }

  accuracyTable(result) {
    const table = document.createElement("table");
    table.className = "accuracy";
    const head = table.createTHead().insertRow();
    for (const h of [t("an.player"), t("an.accuracy"), t("an.shots"), t("an.lost")]) head.append(text("th", h));
    const body = table.createTBody();
    result.accuracy.forEach((acc, seat) => {
      if (acc === null) return;
      const mine = result.shots.filter((s) => s.seat === seat);
      const lost = mine.reduce((a, s) => a + s.chance_lost, 0) / mine.length;
      const row = body.insertRow();
      row.dataset.seat = String(seat);
      row.insertCell().append(chip(this.colorOf(result, seat)), ` ${this.seatName(seat)}`);
      const a = row.insertCell();
      a.className = "num accuracy-value";
      a.textContent = `${acc.toFixed(0)}%`;
      const n = row.insertCell();
      n.className = "num";
      n.textContent = String(mine.length);
      const l = row.insertCell();
      l.className = "num";
      l.textContent = `${pct(lost)}%`;
    });
    return table;
  }

  /** Every shot: the expert's chance (hollow ring) and the shot's (filled: a circle for red,
   * a square for green, so that colour is never the only cue), joined where chance was lost. */
  chart(result) {
    const W = 320, H = 210, L = 34, R = 10, T = 10, B = 52;
    const shots = result.shots;
    const n = shots.length;
    const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
    const y = (p) => T + (1 - p) * (H - T - B);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "img" });
    const summary = result.accuracy
      .map((acc, seat) => (acc === null ? null : t("an.summary", { name: this.seatName(seat), acc: acc.toFixed(0), shots: shots.filter((s) => s.seat === seat).length })))
      .filter(Boolean)
      .join(" ");
    root.setAttribute("aria-label", `${t("an.chart")}. ${summary}`);
    svg("title", {}, root).textContent = t("an.chart");
    for (const p of [0, 0.5, 1]) {
      svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }, root);
      const label = svg("text", { x: L - 5, y: y(p) + 4, class: "tick", "text-anchor": "end" }, root);
      label.textContent = `${pct(p)}`;
    }
    const axisY = svg("text", { x: 10, y: T + (H - T - B) / 2, class: "axis", transform: `rotate(-90 10 ${T + (H - T - B) / 2})`, "text-anchor": "middle" }, root);
    axisY.textContent = t("an.chance");
    const axisX = svg("text", { x: (L + W - R) / 2, y: H - B + 26, class: "axis", "text-anchor": "middle" }, root);
    axisX.textContent = t("an.shot");
    for (const i of n > 1 ? [0, n - 1] : [0]) {
      const tick = svg("text", { x: x(i), y: y(0) + 14, class: "tick", "text-anchor": "middle" }, root);
      tick.textContent = String(i + 1);
    }
    const best = shots.map((s, i) => `${x(i).toFixed(1)},${y(s.best_chance).toFixed(1)}`).join(" ");
    svg("polyline", { points: best, class: "best-line" }, root);
    shots.forEach((s, i) => {
      const g = svg("g", { class: `shot ${s.color}`, "data-n": s.n }, root);
      const onShot = this.onShot;
      if (onShot) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "link");
        g.addEventListener("click", () => onShot(s.n));
        g.addEventListener("keydown", (e) => e.key === "Enter" && onShot(s.n));
      }
      svg("title", {}, g).textContent = t("an.point", { n: s.n, name: this.seatName(s.seat), played: pct(s.played_chance), best: pct(s.best_chance) });
      if (s.chance_lost > 0) svg("line", { x1: x(i), x2: x(i), y1: y(s.best_chance), y2: y(s.played_chance), class: "lost" }, g);
      svg("circle", { cx: x(i), cy: y(s.best_chance), r: 3.2, class: "best" }, g);
      if (s.color === "green") svg("rect", { x: x(i) - 3.4, y: y(s.played_chance) - 3.4, width: 6.8, height: 6.8, class: "played" }, g);
      else svg("circle", { cx: x(i), cy: y(s.played_chance), r: 3.8, class: "played" }, g);
    });
    const legend = svg("g", { class: "legend", transform: `translate(${L}, ${H - 12})` }, root);
    svg("circle", { cx: 4, cy: -4, r: 3.2, class: "best" }, legend);
    svg("text", { x: 11, y: 0, class: "tick" }, legend).textContent = t("an.best");
    svg("circle", { cx: 134, cy: -4, r: 3.8, class: "played red" }, legend);
    svg("rect", { x: 141, y: -7.4, width: 6.8, height: 6.8, class: "played green" }, legend);
    svg("text", { x: 152, y: 0, class: "tick" }, legend).textContent = t("an.played");
    return root;
  }
}

/**
 * The analysis panel of the replay page: asks by REST and polls while it is computed.
 * @param {HTMLElement} container
 * @param {string} gameId
 * @param {(seat: number) => string} seatName
 * @param {((n: number) => void) | null} [onShot] a shot of the chart was chosen (its number)
 */
export function replayAnalysis(container, gameId, seatName, onShot = null) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const poll = async () => {
    clearTimeout(timer);
    const m = await api(`/api/games/${gameId}/analysis`);
    panel.update(m);
    if (m.status === "queued" || m.status === "running") timer = setTimeout(() => poll().catch(refused), 700);
  };
  const refused = (err) => panel.update({ status: "refused", reason: err.detail && err.detail.en ? err.detail : { en: err.message, ja: err.message } });
  const panel = new AnalysisPanel(container, {
    ask: async () => {
      try {
        panel.update(await api(`/api/games/${gameId}/analysis`, { method: "POST" }));
        poll();
      } catch (err) {
        refused(err);
      }
    },
    seatName,
    onShot,
  });
  poll().catch(refused);
  return { panel, dispose: () => clearTimeout(timer), render: () => panel.render() };
}
