// Finished games at /games, and the replay viewer that steps through the shots.
import { replayAnalysis } from "./analysis.js";
import { BoardView } from "./board.js";
import { outcomeTitle } from "./explain.js";
import { renderCounts, renderLog } from "./hud.js";
import { applyI18n, lang, onLangChange, show, t } from "./i18n.js";
import { api } from "./net.js";
import { notFound } from "./notfound.js";
import { playShot } from "./sound.js";
import { disksAt, everyFrame, tracksDuration } from "./tracks.js";

export class GamesPage {
  constructor(root) {
    this.root = root;
  }

  async mount() {
    this.root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-games")).content.cloneNode(true));
    this.off = onLangChange(() => this.render());
    try {
      this.games = (await api("/api/games")).games;
    } catch (err) {
      this.games = [];
      show(this.root.querySelector("#games-empty"), err.msg);
    }
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

const AUTOPLAY_PAUSE_MS = 700; // between two shots when playing by itself

/**
 * The replay viewer at /replay/{game}?shot=N: the position after shot N (0 = the start), each
 * shot's paths drawn, stepping with buttons or keys (←/→, Space autoplay, Home/End) and a link
 * to every shot.
 */
export class ReplayPage {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.index = 0;
    this.anim = null;
    this.auto = false;
    this.idleSince = 0;
    /** @type {BoardView} set by mount() */
    this.view;
    this.stats = { draws: 0 }; // boards drawn (only when the scene changed)
  }

  async mount() {
    this.root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-replay")).content.cloneNode(true));
    applyI18n(this.root);
    try {
      this.data = await api(`/api/games/${encodeURIComponent(this.gameId)}/replay`);
    } catch (err) {
      if (!this.disposed) notFound(this.root, "game", err.status === 404 || err.status === 422 ? null : err.msg);
      return;
    }
    if (this.disposed) return;
    this.view = new BoardView(this.root.querySelector("#board"), this.data.board);
    this.off = onLangChange(() => this.render());
    const wanted = Number.parseInt(new URLSearchParams(location.search).get("shot") || "0", 10);
    this.index = Number.isFinite(wanted) ? Math.max(0, Math.min(this.data.events.length, wanted)) : 0;
    const on = (id, fn) => this.root.querySelector(id).addEventListener("click", fn);
    on("#rp-first", () => this.step(0));
    on("#rp-prev", () => this.step(this.index - 1));
    on("#rp-next", () => this.step(this.index + 1, true));
    on("#rp-last", () => this.step(this.data.events.length));
    on("#rp-play", () => this.play());
    on("#rp-auto", () => this.setAuto(!this.auto));
    on("#rp-link", () => this.copyLink());
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    const card = document.createElement("div");
    card.id = "analysis";
    this.root.querySelector(".panel").append(card);
    this.analysis = replayAnalysis(
      card,
      this.gameId,
      (seat) => this.seatName(seat),
      (n) => this.step(n, true), // a shot of the chart: play it (its action number = its step)
    );
    window.__replay = this;
    everyFrame((now) => this.frame(now), () => !this.disposed);
    this.render();
  }

  dispose() {
    this.disposed = true;
    this.off?.();
    this.analysis?.dispose();
    if (this.onKey) document.removeEventListener("keydown", this.onKey);
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
    const n = this.data.events.length;
    const keys = {
      ArrowLeft: () => this.step(this.index - 1),
      ArrowRight: () => this.step(this.index + 1, true),
      Home: () => this.step(0),
      End: () => this.step(n),
      " ": () => this.setAuto(!this.auto),
    };
    const act = keys[e.key];
    if (!act) return;
    if (e.key === " " && e.target.closest?.("button")) return; // a focused button takes Space itself
    e.preventDefault();
    act();
  }

  /** Show the position after shot `to` (0: the start); `play` animates that shot first. */
  step(to, play = false) {
    const n = this.data.events.length;
    const next = Math.max(0, Math.min(n, to));
    if (next === this.index && !play) return;
    this.anim = null;
    this.index = next;
    if (play) this.play();
    this.idleSince = performance.now();
    const url = `/replay/${encodeURIComponent(this.gameId)}${this.index ? `?shot=${this.index}` : ""}`;
    history.replaceState(null, "", url);
    this.render();
  }

  setAuto(on) {
    this.auto = on;
    if (on && this.index >= this.data.events.length) this.step(0);
    this.idleSince = performance.now() - AUTOPLAY_PAUSE_MS;
    this.render();
  }

  async copyLink() {
    const url = `${location.origin}/replay/${encodeURIComponent(this.gameId)}?shot=${this.index}`;
    try {
      await navigator.clipboard.writeText(url);
      show(this.root.querySelector("#rp-link"), "replay.copied");
    } catch {
      window.prompt(t("replay.link"), url);
    }
  }

  seatName(seat) {
    return this.data.game.seat_names[seat] || t("seat.player", { n: seat + 1 });
  }

  stateAt(i) {
    return i === 0 ? this.data.start : this.data.events[i - 1].state;
  }

  play() {
    const ev = this.data.events[this.index - 1];
    if (ev && ev.kind === "shot") {
      this.anim = { ev, start: performance.now(), duration: tracksDuration(ev.tracks) };
      playShot(ev.sounds);
    }
  }

  frame(now) {
    let disks;
    const ev = this.data.events[this.index - 1];
    let until = Infinity;
    if (this.anim && (now - this.anim.start) / 1000 >= this.anim.duration) {
      this.anim = null; // over: this frame already shows the settled position
      this.idleSince = now;
    }
    if (this.anim) {
      until = (now - this.anim.start) / 1000;
      disks = disksAt(this.anim.ev, until);
    } else {
      disks = this.stateAt(this.index).layout;
      if (this.auto && now - this.idleSince >= AUTOPLAY_PAUSE_MS) {
        if (this.index < this.data.events.length) this.step(this.index + 1, true);
        else this.setAuto(false);
      }
    }
    const paths = ev && ev.kind === "shot" ? shotPaths(ev, until) : null;
    this.lastPaths = paths;
    if (this.view.draw(disks, paths ? { paths } : null)) this.stats.draws++;
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
    const auto = this.root.querySelector("#rp-auto");
    auto.setAttribute("aria-pressed", String(this.auto));
    auto.textContent = t(this.auto ? "replay.pause" : "replay.auto");
    renderCounts(this.root.querySelector("#counts"), this.stateAt(this.index), "h2");
    const shown = this.data.events.slice(0, this.index).reverse();
    renderLog(this.root.querySelector("#log"), shown, (seat) => this.seatName(seat));
    this.analysis?.render();
  }
}

/** Every moving disk's way in a shot up to time `until` (s): its track's corners, then where
 * it is at that time (m). */
export function shotPaths(ev, until = Infinity) {
  const out = [];
  for (const tr of ev.tracks) {
    const points = [];
    for (const seg of tr.segments) {
      if (seg.t0 > until) break;
      points.push([seg.x, seg.y]);
      const dt = Math.min(until, seg.t1) - seg.t0;
      points.push([seg.x + seg.vx * dt + 0.5 * seg.ax * dt * dt, seg.y + seg.vy * dt + 0.5 * seg.ay * dt * dt]);
    }
    const moved = points.some(([x, y]) => Math.hypot(x - points[0][0], y - points[0][1]) > 1e-4);
    if (moved) out.push({ kind: tr.kind, color: tr.color, points });
  }
  return out;
}
