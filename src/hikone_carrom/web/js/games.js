// Finished games at /games, and the replay viewer that steps through the shots.
import { replayAnalysis } from "./analysis.js";
import { BoardView } from "./board.js";
import { outcomeTitle } from "./explain.js";
import { renderCounts, renderLog } from "./hud.js";
import { applyI18n, lang, onLangChange, t } from "./i18n.js";
import { api } from "./net.js";
import { disksAt, everyFrame, tracksDuration } from "./tracks.js";

export class GamesPage {
  constructor(root) {
    this.root = root;
  }

  async mount() {
    this.root.replaceChildren(document.getElementById("tpl-games").content.cloneNode(true));
    this.off = onLangChange(() => this.render());
    this.games = (await api("/api/games")).games;
    this.render();
  }

  render() {
    applyI18n(this.root);
    const body = this.root.querySelector("#games-body");
    body.replaceChildren();
    const fmt = new Intl.DateTimeFormat(lang() === "ja" ? "ja-JP" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
    for (const g of this.games || []) {
      const tr = body.insertRow();
      tr.insertCell().textContent = fmt.format(new Date(g.finished_at));
      tr.insertCell().textContent = t(`mode.${g.mode}.short`);
      tr.insertCell().textContent = g.seat_names.join(" · ");
      const o = g.outcome;
      tr.insertCell().textContent = o ? `${outcomeTitle(o)} (${o.scores[0]}–${o.scores[1]}, ${o.reason})` : "";
      tr.insertCell().textContent = String(g.shots);
      const a = document.createElement("a");
      a.href = `/replay/${g.id}`;
      a.dataset.link = "";
      a.textContent = t("games.replay");
      tr.insertCell().append(a);
    }
    this.root.querySelector("#games-empty").hidden = (this.games || []).length > 0;
  }

  dispose() {
    this.off?.();
  }
}

export class ReplayPage {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.index = 0;
    this.anim = null;
  }

  async mount() {
    this.root.replaceChildren(document.getElementById("tpl-replay").content.cloneNode(true));
    this.data = await api(`/api/games/${this.gameId}/replay`);
    this.view = new BoardView(this.root.querySelector("#board"), this.data.board);
    this.off = onLangChange(() => this.render());
    const step = (to) => {
      this.anim = null;
      this.index = Math.max(0, Math.min(this.data.events.length, to));
      this.render();
    };
    this.root.querySelector("#rp-first").onclick = () => step(0);
    this.root.querySelector("#rp-prev").onclick = () => step(this.index - 1);
    this.root.querySelector("#rp-next").onclick = () => {
      step(this.index + 1);
      this.play();
    };
    this.root.querySelector("#rp-last").onclick = () => step(this.data.events.length);
    this.root.querySelector("#rp-play").onclick = () => this.play();
    const card = document.createElement("div");
    card.id = "analysis";
    this.root.querySelector(".panel").append(card);
    this.analysis = replayAnalysis(card, this.gameId, (seat) => this.seatName(seat));
    window.__replay = this;
    everyFrame((now) => this.frame(now), () => !this.disposed);
    this.render();
  }

  dispose() {
    this.disposed = true;
    this.off?.();
    this.analysis?.dispose();
  }

  seatName(seat) {
    return this.data.game.seat_names[seat] || t("seat.player", { n: seat + 1 });
  }

  stateAt(i) {
    return i === 0 ? this.data.start : this.data.events[i - 1].state;
  }

  play() {
    const ev = this.data.events[this.index - 1];
    if (ev && ev.kind === "shot") this.anim = { ev, start: performance.now(), duration: tracksDuration(ev.tracks) };
  }

  frame(now) {
    let disks;
    if (this.anim) {
      const tt = (now - this.anim.start) / 1000;
      disks = disksAt(this.anim.ev, tt);
      if (tt >= this.anim.duration) this.anim = null;
    } else disks = this.stateAt(this.index).layout;
    this.view.draw(disks, null);
  }

  render() {
    applyI18n(this.root);
    const g = this.data.game;
    const n = this.data.events.length;
    this.root.querySelector("#replay-meta").textContent =
      `${g.seat_names.join(" · ")} — ${g.outcome ? outcomeTitle(g.outcome) : ""}`;
    this.root.querySelector("#rp-pos").textContent =
      this.index === 0 ? `${t("replay.start")} · 0 / ${n}` : `${this.index} / ${n}`;
    this.root.querySelector("#rp-play").disabled = !(this.index > 0 && this.data.events[this.index - 1].kind === "shot");
    renderCounts(this.root.querySelector("#counts"), this.stateAt(this.index));
    const shown = this.data.events.slice(0, this.index).reverse();
    renderLog(this.root.querySelector("#log"), shown, (seat) => this.seatName(seat));
    this.analysis?.render();
  }

}
