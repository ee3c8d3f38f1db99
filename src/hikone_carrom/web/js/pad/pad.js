// The table referee's scoring pad (docs/scoring.md): /pad creates a board, /pad/{id} scores it
// (the device holding the board token), /boards/{id} watches it read-only. Phone first.
import * as clk from "./clock.js";
import { EMPTY_TAP, PadMatch, SIDES, makeSetup, makeTap, stateView } from "./match.js";
import { RulesError, seatColor } from "./referee.js";
import { Sync, Watch, deviceId, load, save } from "./sync.js";
import { describeTap, lang, onLang, setLang, t } from "./strings.js";
import { NO_KEY, organiserHeaders, organiserKey } from "../organiser.js";

/** @typedef {import("./sync.js").StoredMatch} StoredMatch */
/** @typedef {import("./match.js").Tap} Tap */
/** @typedef {ReturnType<typeof clk.newClock>} Clock */

const app = document.getElementById("app");

/** Build an element: h("div", {class: "x", onclick: fn}, child, "text", ...). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const RULE_IDS = /([（(])(R\d[a-z](?:, R\d[a-z])*)([)）])/g;

/** A sentence with its rule ids marked. */
function sentence(text) {
  const li = h("li");
  let at = 0;
  for (const m of text.matchAll(RULE_IDS)) {
    li.append(text.slice(at, m.index), m[1], h("span", { class: "rule" }, m[2]), m[3]);
    at = m.index + m[0].length;
  }
  li.append(text.slice(at));
  return li;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/** @param {string} text */
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 6000);
}

const errorText = (err) => (lang() === "ja" ? err.ja : err.en) || String(err.message || err);
const sideName = (setup, seat) => t(`side.${SIDES[setup.names.length][seat]}`);
const seatLabel = (setup, seat) =>
  lang() === "ja"
    ? `${setup.names[seat]}（${sideName(setup, seat)}・${t(`color.${seatColor(seat)}`)}）`
    : `${setup.names[seat]} (${sideName(setup, seat)}, ${t(`color.${seatColor(seat)}`).toLowerCase()})`;

/** The pieces going back to the jack spot, drawn as a pile: bottom first (R6d, R6e). */
function pile(pieces) {
  const size = 26;
  const gap = 9;
  const height = size + gap * Math.max(0, pieces.length - 1) + 6;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 60 ${height}`);
  svg.setAttribute("width", "60");
  svg.setAttribute("height", String(height));
  svg.setAttribute("class", "pile");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", pieces.map((p) => t(`piece.${p}`)).join(" → "));
  pieces.forEach((p, i) => {
    const y = height - 3 - size / 2 - i * gap;
    const e = document.createElementNS(svg.namespaceURI, "ellipse");
    e.setAttribute("cx", "30");
    e.setAttribute("cy", String(y));
    e.setAttribute("rx", p === "jack" ? "17" : "15");
    e.setAttribute("ry", "8");
    e.setAttribute("class", `disc ${p}`);
    svg.append(e);
  });
  return svg;
}

function chip(color) {
  return h("span", { class: `chip ${color}`, "aria-hidden": "true" });
}

// -- header: status and language ----------------------------------------------------------------

const status = document.getElementById("status");
document.getElementById("lang").addEventListener("click", () => setLang(lang() === "ja" ? "en" : "ja"));
function paintLang() {
  document.documentElement.lang = lang();
  const b = document.getElementById("lang");
  b.textContent = t("lang.switch");
  b.setAttribute("lang", lang() === "ja" ? "en" : "ja");
  document.title = t("app.title");
}

// -- /pad: create a board -----------------------------------------------------------------------

class CreatePage {
  mount() {
    this.render();
    onLang(() => this.render());
  }

  render() {
    paintLang();
    const form = h("form", { class: "card", id: "create" },
      h("h1", {}, t("create.title")),
      h("p", { class: "lede" }, t("create.lede")),
      organiserKey() ? null : h("p", { class: "error", id: "no-key" }, NO_KEY[lang()]),
      h("label", { class: "field" }, h("span", {}, t("create.name")), h("input", { name: "name", maxlength: "40", required: true, autocomplete: "off", value: this.typed || "", oninput: (e) => (this.typed = e.target.value) })),
      h("button", { class: "primary big", type: "submit" }, t("create.submit")),
      h("p", { class: "error", role: "alert" }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const headers = { "content-type": "application/json", ...organiserHeaders() };
      const res = await fetch("/api/boards", { method: "POST", headers, body: JSON.stringify({ name: form.elements.name.value.trim() }) });
      const data = await res.json();
      if (!res.ok) {
        form.querySelector(".error").textContent = errorText(data.detail || {});
        return;
      }
      this.made = data;
      this.render();
    });
    app.replaceChildren(form);
    if (this.made) app.append(this.result(this.made));
  }

  result(b) {
    const qr = h("div", { class: "qr" });
    qr.innerHTML = b.qr_svg; // SVG made by the server (segno), no user text inside
    return h("section", { class: "card made", id: "made" },
      h("h2", {}, t("create.done", { name: b.name || b.id })),
      h("p", {}, t("create.pad")), qr,
      h("p", { class: "link" }, h("a", { href: b.pad_url, id: "pad-link" }, b.pad_url)),
      h("p", {}, t("create.watch")),
      h("p", { class: "link" }, h("a", { href: b.watch_url, id: "watch-link" }, b.watch_url)),
      h("p", { class: "note" }, t("create.keep")),
      h("div", { class: "row" },
        h("a", { class: "button primary big", href: b.pad_url }, t("create.open")),
        h("button", { type: "button", class: "big", onclick: () => window.print() }, t("create.print"))));
  }
}

/** @typedef {{number: number, by: Record<string, string>, names: string[]}} Withdrawn */

// -- /pad/{id}: the referee's pad -----------------------------------------------------------------

class PadPage {
  constructor(boardId) {
    this.boardId = boardId;
    this.data = load(boardId);
    const m = location.hash.match(/(?:^#|&)t=([A-Za-z0-9_-]+)/);
    if (m) {
      this.data.token = m[1];
      save(boardId, this.data);
      history.replaceState(null, "", location.pathname);
    }
    this.match = this.data.match ? new PadMatch(this.data.match.setup, this.data.match.entries, this.data.match.confirmed) : null;
    this.draft = { ...EMPTY_TAP };
    this.fixing = null;
    this.error = "";
    this.blocked = null;
    /** @type {Withdrawn | null} the match the director withdrew, see noteWithdrawn() */
    this.withdrawn = null;
    this.lastSecond = null;
    this.setupForm = { players: 2, minutes: 5, timed: true, deadlock: "draw" };
    /** @type {Sync} set by mount() */
    this.sync;
  }

  mount() {
    paintLang();
    onLang(() => this.render());
    if (!this.data.token) {
      app.replaceChildren(h("section", { class: "card" }, h("p", { class: "error" }, t("token.missing"))));
      return;
    }
    this.sync = new Sync(this.boardId, { data: this.data, persist: () => this.persist() }, {
      answer: (a) => this.answer(a),
      refused: (d) => {
        if (d.code === "other_device") this.blocked = d;
        else toast(errorText(d));
        this.render();
      },
      offline: () => this.paintStatus(),
      rejected: (r) => {
        toast(t("error.rejected", { n: r.seq, why: errorText(r) }));
        this.data.pending = [];
        this.data.nextSeq = this.data.ack + 1;
        this.adopt(this.serverBoard?.match ?? null, true);
      },
    });
    this.render();
    this.sync.claim().then(() => this.sync.push());
    // a match the server opens on this board (a board call) arrives as an event
    this.watch = new Watch(this.boardId, (board) => this.data.pending.length || this.answer({ board }), (ev) => {
      if (ev.kind === "withdrawn" && this.data.match && this.data.match.number === ev.match) {
        this.withdrawn = { number: ev.match, by: ev.withdrawn, names: this.data.match.setup.names };
        this.render();
      }
      if ((ev.kind === "match" || ev.kind === "withdrawn") && !this.data.pending.length) this.sync.claim();
      else if (ev.kind === "withdrawn") this.sync.push();
    });
    this.watch.open();
    this.ticker = setInterval(() => this.tick(), 100);
    window.__pad = this.hooks();
  }

  hooks() {
    return {
      page: this,
      view: () => (this.match ? this.match.view(/** @type {StoredMatch} */ (this.data.match).number, null) : null),
      pending: () => this.data.pending.length,
      online: () => this.sync.online,
      beeps: clk.beeps,
      clock: () => this.data.clock && { ...clk.reading(this.data.clock), remaining: clk.remaining(this.data.clock) },
    };
  }

  persist() {
    if (this.match) {
      /** @type {StoredMatch} */ (this.data.match).entries = this.match.entries;
      /** @type {StoredMatch} */ (this.data.match).confirmed = this.match.confirmed;
    }
    save(this.boardId, this.data);
  }

  /** Take the server's match when nothing of ours is waiting to be sent. */
  answer(a) {
    this.serverBoard = a.board;
    this.data.name = a.board.name;
    if (!this.data.pending.length) this.adopt(a.board.match, false);
    this.render();
  }

  adopt(srv, force) {
    if (!srv) {
      if (force) this.match = null;
      return;
    }
    this.noteWithdrawn(srv);
    const mine = this.match && this.data.match;
    const same = mine && mine.number === srv.number && JSON.stringify(/** @type {PadMatch} */ (this.match).view(srv.number, null).steps) === JSON.stringify(srv.steps) && /** @type {PadMatch} */ (this.match).confirmed === srv.confirmed;
    if (same && !force) return;
    const entries = srv.steps.map((s) => {
      const e = { kind: s.kind, at: s.at };
      if (s.tap) e.tap = s.tap;
      if (s.winner) e.winner = s.winner;
      return e;
    });
    const keepClock = mine && mine.number === srv.number;
    this.match = new PadMatch(srv.setup, entries, srv.confirmed);
    this.data.match = { number: srv.number, setup: srv.setup, entries, confirmed: srv.confirmed };
    if (!keepClock) this.data.clock = srv.setup.match_time_s === null ? null : clk.newClock(srv.setup);
    this.persist();
    this.render();
  }

  /**
   * A match the director withdrew (a correction changed its players) takes no more entries:
   * it is shown as withdrawn, and noted over the next match called here until its first entry.
   */
  noteWithdrawn(srv) {
    if (srv.withdrawn) this.withdrawn = { number: srv.number, by: srv.withdrawn, names: srv.setup.names };
    else if (this.withdrawn && srv.number !== this.withdrawn.number && srv.steps.length) this.withdrawn = null;
  }

  withdrawnScreen() {
    const w = /** @type {Withdrawn} */ (this.withdrawn); // shown only when withdrawn
    return h("section", { class: "card withdrawn", id: "withdrawn", role: "alert" },
      h("h1", {}, t("withdrawn.title", { by: w.by[lang()] })),
      h("p", { class: "names" }, w.names.join(lang() === "ja" ? " 対 " : " v ")),
      h("p", {}, t("withdrawn.text")));
  }

  /** Make a change: apply it here at once, keep it, send it when the server can be reached. */
  op(kind, fields = {}) {
    const number = kind === "setup" ? (this.data.match ? this.data.match.number + (/** @type {PadMatch} */ (this.match).steps.length ? 1 : 0) : 1) : /** @type {StoredMatch} */ (this.data.match).number;
    const op = { seq: this.data.nextSeq, op: kind, match: number, ...fields };
    try {
      this.applyLocal(op);
    } catch (err) {
      if (!(err instanceof RulesError)) throw err;
      this.error = errorText(err);
      this.render();
      return false;
    }
    this.data.nextSeq += 1;
    this.data.pending.push(op);
    this.error = "";
    this.persist();
    this.render();
    if (kind !== "setup") this.reveal();
    this.sync.push();
    return true;
  }

  /** Bring the answer into view: the last ruling, whose turn and the counts, under the clock. */
  reveal() {
    const card = app.querySelector(".turncard");
    if (!card) return;
    const above = document.querySelector(".bar").offsetHeight + (app.querySelector("#clock")?.offsetHeight ?? 0) + 8;
    const top = card.getBoundingClientRect().top + window.scrollY - above;
    if (Math.abs(window.scrollY - top) > 4) window.scrollTo(0, Math.max(0, top));
  }

  applyLocal(op) {
    if (op.op === "setup") {
      this.match = new PadMatch(op.setup);
      this.data.match = { number: op.match, setup: op.setup, entries: [], confirmed: false };
      this.data.clock = op.setup.match_time_s === null ? null : clk.newClock(op.setup);
      return;
    }
    if (op.op === "add") /** @type {PadMatch} */ (this.match).add(op.entry);
    else if (op.op === "undo") /** @type {PadMatch} */ (this.match).undo(op.count);
    else if (op.op === "correct") /** @type {PadMatch} */ (this.match).correct(op.n, op.entry);
    else if (op.op === "confirm") /** @type {PadMatch} */ (this.match).confirm();
  }

  entryAt() {
    const c = this.data.clock;
    return c && c.started ? Math.round(clk.elapsed(c) * 1000) / 1000 : null;
  }

  addEntry(entry) {
    if (this.op("add", { entry: { ...entry, at: entry.at ?? this.entryAt() } })) {
      if (this.data.clock) this.clockChange(clk.afterEntry(this.data.clock, entry.kind));
      return true;
    }
    return false;
  }

  clockChange(next) {
    this.data.clock = next;
    this.data.pending.push({ seq: this.data.nextSeq++, op: "clock", match: /** @type {StoredMatch} */ (this.data.match).number, clock: clk.reading(next), wall_ms: Date.now() });
    this.persist();
    this.sync.push();
    this.render();
  }

  // -- the clock, every 100 ms ------------------------------------------------------------------

  tick() {
    const c = this.data.clock;
    if (!c || !this.match) return;
    const st = this.match.state;
    const open = !st.outcome && !st.awaiting_lot && !this.match.confirmed;
    const due = open ? clk.due(c, st.time_called) : [];
    for (const entry of due) {
      const now = /** @type {PadMatch} */ (this.match).state;
      if (now.outcome || now.awaiting_lot) break;
      if (entry.kind === "call_time") {
        /** @type {Clock} */ (this.data.clock).timeUpHandled = true;
        clk.beep(660, 0.8);
      } else {
        clk.beep(440, 0.7);
        this.lastSecond = null;
      }
      if (!this.addEntry(entry)) break;
    }
    if (due.length) return;
    const left = clk.countdownRemaining(c);
    if (left !== null && open) {
      const whole = Math.ceil(left);
      if (whole !== this.lastSecond) {
        this.lastSecond = whole;
        if (whole > 0 && whole <= 3) clk.beep(880, 0.12);
      }
    }
    this.paintClock();
  }

  paintClock() {
    const box = app.querySelector("#clock");
    const c = this.data.clock;
    if (!box || !c) return;
    box.querySelector(".time").textContent = clk.mmss(c.started ? clk.remaining(c) : c.limit);
    box.classList.toggle("final", clk.tenSecondRule(c));
    const ten = /** @type {HTMLButtonElement | null} */ (box.querySelector("#ten"));
    if (ten) ten.disabled = !(c.running && clk.tenSecondRule(c)) || !!/** @type {PadMatch} */ (this.match).state.outcome;
    const cd = app.querySelector("#countdown");
    const left = clk.countdownRemaining(c);
    if (cd) {
      cd.hidden = left === null;
      if (left !== null) cd.querySelector(".n").textContent = String(Math.ceil(left));
    }
  }

  paintStatus() {
    const pending = this.data.pending.length;
    const online = this.sync ? this.sync.online : false;
    status.className = `status ${online ? "on" : "off"}`;
    status.textContent = `${online ? t("status.online") : t("status.offline")} · ${pending ? t("status.pending", { n: pending }) : t("status.synced")}`;
    status.title = online ? "" : t("status.kept");
  }

  // -- screens ------------------------------------------------------------------------------------

  render() {
    paintLang();
    document.getElementById("bar-board").textContent = this.data.name || this.boardId;
    const scoring = this.match && !(this.match.confirmed && this.wantNext) && !this.blocked;
    const barMatch = /** @type {HTMLElement} */ (document.getElementById("bar-match"));
    barMatch.textContent = scoring ? /** @type {PadMatch} */ (this.match).setup.title || "" : "";
    barMatch.hidden = !barMatch.textContent;
    if (this.sync) this.paintStatus();
    if (this.blocked) return app.replaceChildren(this.blockedScreen());
    if (this.withdrawn && this.withdrawn.number === this.data.match?.number) return app.replaceChildren(this.withdrawnScreen());
    if (!this.match || (this.match.confirmed && this.wantNext)) return app.replaceChildren(this.setupScreen());
    app.replaceChildren(this.scoreScreen());
    if (this.withdrawn) {
      const w = this.withdrawn;
      app.prepend(h("p", { class: "banner warn", id: "withdrawn-before", role: "status" },
        t("withdrawn.before", { names: w.names.join(lang() === "ja" ? " 対 " : " v "), by: w.by[lang()] })));
    }
    this.paintClock();
  }

  blockedScreen() {
    return h("section", { class: "card blocked", id: "blocked" },
      h("h1", {}, t("blocked.title")),
      h("p", {}, t("blocked.text")),
      h("button", { type: "button", class: "big danger", id: "takeover", onclick: async () => {
        if (!window.confirm(t("blocked.confirm"))) return;
        this.blocked = null;
        await this.sync.takeover();
        this.render();
      } }, t("blocked.takeover")));
  }

  setupScreen() {
    const f = this.setupForm;
    const players = f.players;
    const labels = players === 2 ? ["setup.red", "setup.green"] : ["setup.red", "setup.green", "setup.red2", "setup.green2"];
    const names = f.names || [];
    const inputs = labels.map((key, seat) => h("label", { class: `field seat ${seatColor(seat)}` },
      h("span", {}, chip(seatColor(seat)), ` ${t(key)} · ${t(`side.${SIDES[players][seat]}`)}`),
      h("input", { name: `name${seat}`, maxlength: "40", value: names[seat] || "", autocomplete: "off", required: true })));
    const form = h("form", { class: "card setup", id: "setup" },
      h("h1", {}, t("setup.title")),
      h("div", { class: "segmented", role: "group" },
        ...[2, 4].map((n) => h("button", { type: "button", class: n === players ? "on" : "", "aria-pressed": String(n === players), onclick: () => { keep(); f.players = n; this.render(); } }, t(n === 2 ? "setup.singles" : "setup.doubles")))),
      h("p", { class: "hint" }, `${t("setup.order")}: ${SIDES[players].map((s) => t(`side.${s}`)).join(" → ")}`),
      ...inputs,
      h("fieldset", { class: "time" }, h("legend", {}, t("setup.time")),
        h("label", { class: "inline" }, h("input", { type: "number", name: "minutes", min: "1", max: "120", step: "1", value: String(f.minutes), disabled: !f.timed }), ` ${t("setup.minutes")}`),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "untimed", checked: !f.timed, onchange: (e) => { keep(); f.timed = !e.target.checked; this.render(); } }), ` ${t("setup.untimed")}`)),
      h("fieldset", { class: "deadlock" }, h("legend", {}, t("setup.deadlock")),
        ...["draw", "lot"].map((d) => h("label", { class: "check" }, h("input", { type: "radio", name: "deadlock", value: d, checked: f.deadlock === d, onchange: () => (f.deadlock = d) }), ` ${t(`setup.${d}`)}`))),
      h("label", { class: "field" }, h("span", {}, t("setup.titlefield")), h("input", { name: "title", maxlength: "80", value: f.title || "" })),
      h("p", { class: "error", role: "alert" }, this.error),
      h("button", { class: "primary big", type: "submit" }, t("setup.start")));
    const readNames = () => labels.map((_, s) => form.elements[`name${s}`].value);
    /** What was typed, kept across the form's re-draws (a toggle, the language switch). */
    const keep = () => {
      const typed = readNames();
      f.names = [...typed, ...(f.names || []).slice(typed.length)];
      f.minutes = Number(form.elements.minutes.value) || f.minutes;
      f.title = form.elements.title.value;
    };
    form.addEventListener("input", keep);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      keep();
      f.names = readNames();
      let setup;
      try {
        setup = makeSetup({ names: f.names, match_time_s: f.timed ? f.minutes * 60 : null, deadlock: f.deadlock, title: f.title });
      } catch (err) {
        this.error = errorText(err);
        return this.render();
      }
      this.wantNext = false;
      this.draft = { ...EMPTY_TAP };
      this.op("setup", { setup });
    });
    return form;
  }

  scoreScreen() {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const st = m.state;
    const setup = m.setup;
    const parts = [];
    if (setup.title) parts.push(h("p", { class: "match-title" }, setup.title));
    if (this.data.clock) parts.push(this.clockCard());
    parts.push(this.turnCard(this.banner()));
    if (st.outcome) parts.push(this.endCard());
    else if (st.awaiting_lot) parts.push(this.lotCard());
    else parts.push(this.entryCard());
    parts.push(this.rulingCard());
    parts.push(this.historyCard());
    return h("div", { class: "score" }, ...parts);
  }

  clockCard() {
    const c = /** @type {Clock} */ (this.data.clock); // shown only for a timed match
    const st = /** @type {PadMatch} */ (this.match).state;
    let button;
    if (!c.started) button = h("button", { type: "button", class: "big primary", id: "clock-start", onclick: () => { clk.unlockAudio(); this.clockChange(clk.start(c)); } }, t("clock.start"));
    else if (c.running) button = h("button", { type: "button", class: "big", id: "clock-pause", onclick: () => this.clockChange(clk.pause(c)) }, t("clock.pause"));
    else button = h("button", { type: "button", class: "big primary", id: "clock-resume", onclick: () => { clk.unlockAudio(); this.clockChange(clk.resume(c)); } }, t("clock.resume"));
    const m = /** @type {PadMatch} */ (this.match);
    const lastName = m.setup.names[m.players - 1];
    return h("section", { class: "card clock", id: "clock" },
      h("div", { class: "clock-row" },
        h("div", {}, h("span", { class: "time" }, clk.mmss(c.limit)), h("span", { class: "sub" }, c.started && !c.running ? t("clock.paused") : t("clock.left"))),
        h("div", { class: "clock-buttons" }, st.outcome || st.awaiting_lot ? null : button,
          st.outcome || st.awaiting_lot ? null : h("button", { type: "button", class: "big ten", id: "ten", disabled: true, onclick: () => { clk.unlockAudio(); clk.beep(880, 0.12); this.lastSecond = 10; this.clockChange(clk.startCountdown(/** @type {Clock} */ (this.data.clock))); } }, t("clock.ten")))),
      st.time_called && !st.outcome ? h("p", { class: "called", id: "called" }, t("clock.called", { name: lastName, seat: m.players - 1 })) : null,
      h("div", { class: "countdown", id: "countdown", hidden: true, role: "timer", "aria-label": t("clock.tenrule") },
        h("span", { class: "n" }, "10"), h("span", { class: "u" }, t("countdown.label")), h("span", { class: "r" }, t("clock.tenrule"))));
  }

  turnCard(banner) {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const st = stateView(m.state);
    const setup = m.setup;
    const order = h("ol", { class: "order" }, ...setup.names.map((name, seat) => h("li", { class: `${seatColor(seat)}${seat === st.shooter && !st.outcome ? " now" : ""}` }, h("span", {}, chip(seatColor(seat)), ` ${name}`), h("small", {}, sideName(setup, seat)))));
    const counts = h("table", { class: "counts" },
      h("tr", {}, h("th", {}), h("th", {}, t("counts.in")), h("th", {}, t("counts.debt")), h("th", {}, t("counts.score"))),
      ...["red", "green"].map((c) => h("tr", { class: c }, h("td", {}, chip(c), ` ${t(`color.${c}`)}`),
        h("td", { class: "num", id: `in-${c}` }, `${st.pocketed[c]} / 12`),
        h("td", { class: `num${st.debt[c] ? " debt" : ""}`, id: `debt-${c}` }, String(st.debt[c])),
        h("td", { class: "num", id: `score-${c}` }, String(st.scores[c])))));
    const headline = st.outcome || st.awaiting_lot ? null : h("p", { class: `turn ${seatColor(st.shooter)}`, id: "turn" }, chip(seatColor(st.shooter)), " ", t("turn.now", { name: seatLabel(setup, st.shooter) }));
    return h("section", { class: "card turncard" }, banner, headline, st.extra_round ? h("p", { class: "extra" }, t("turn.extra", { n: st.extra_round })) : null, order, counts);
  }

  entryCard() {
    const d = this.draft;
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const doubles = m.players === 4;
    const set = (k, v) => { this.draft = { ...this.draft, [k]: v }; this.error = ""; this.render(); };
    const stepper = (k, label) => h("div", { class: `stepper ${k}` },
      h("span", { class: "label" }, label),
      h("button", { type: "button", class: "step", "aria-label": `${label} −`, "data-k": k, "data-d": "-1", onclick: () => set(k, Math.max(0, d[k] - 1)) }, "−"),
      h("output", { id: `n-${k}` }, String(d[k])),
      h("button", { type: "button", class: "step", "aria-label": `${label} +`, "data-k": k, "data-d": "1", onclick: () => set(k, Math.min(12, d[k] + 1)) }, "+"));
    const toggle = (k, label) => h("button", { type: "button", class: `toggle${d[k] ? " on" : ""}`, "aria-pressed": String(!!d[k]), id: `t-${k}`, onclick: () => set(k, !d[k]) }, label);
    const st = m.state;
    const others = m.setup.names.map((n, s) => s).filter((s) => s !== st.shooter);
    const wrong = h("div", { class: "wrong" }, h("span", { class: "label" }, t("entry.wrong")),
      ...others.map((s) => h("button", { type: "button", class: `toggle small${d.wrong_order_seat === s ? " on" : ""}`, "aria-pressed": String(d.wrong_order_seat === s), onclick: () => set("wrong_order_seat", d.wrong_order_seat === s ? null : s) }, m.setup.names[s])));
    const record = () => {
      let tap;
      try {
        tap = makeTap(this.draft);
      } catch (err) {
        this.error = errorText(err);
        return this.render();
      }
      const entry = { kind: "shot", tap };
      const ok = this.fixing !== null ? this.op("correct", { n: this.fixing, entry: { ...entry, at: null } }) : this.addEntry(entry);
      if (ok) {
        this.draft = { ...EMPTY_TAP };
        this.fixing = null;
        this.render();
      }
    };
    const fixing = this.fixing !== null;
    return h("section", { class: `card entry${fixing ? " fixing" : ""}`, id: "entry" },
      h("h2", {}, fixing ? t("entry.fix", { n: this.fixing }) : t("entry.title")),
      h("div", { class: "steppers" }, stepper("red", t("entry.red")), stepper("green", t("entry.green"))),
      h("div", { class: "toggles" }, toggle("jack", t("entry.jack")), toggle("striker_pocketed", t("entry.striker")),
        toggle("striker_off", t("entry.striker_off")), toggle("jack_off", t("entry.jack_off"))),
      h("details", { class: "more", open: d.red_off || d.green_off || d.touched_striker || d.unshootable_hit || d.wrong_order_seat !== null ? true : null },
        h("summary", {}, `${t("entry.off")} · ${t("entry.conduct")}`),
        h("div", { class: "steppers" }, stepper("red_off", t("entry.red_off")), stepper("green_off", t("entry.green_off"))),
        h("div", { class: "toggles" }, toggle("touched_striker", t("entry.touched")), doubles ? toggle("unshootable_hit", t("entry.unshootable")) : null),
        wrong),
      h("p", { class: "error", role: "alert", id: "entry-error" }, this.error),
      h("div", { class: "actions" },
        fixing
          ? h("button", { type: "button", class: "big", id: "cancel-fix", onclick: () => { this.fixing = null; this.draft = { ...EMPTY_TAP }; this.error = ""; this.render(); } }, t("entry.cancel"))
          : h("button", { type: "button", class: "big nopocket", id: "no-pocket", onclick: () => { this.draft = { ...EMPTY_TAP }; this.addEntry({ kind: "shot", tap: { ...EMPTY_TAP } }); } }, t("entry.none")),
        h("button", { type: "button", class: "big primary", id: "record", onclick: record }, fixing ? t("entry.save") : t("entry.record"))));
  }

  lotCard() {
    return h("section", { class: "card lot", id: "lot" }, h("h2", {}, t("lot.title")),
      h("div", { class: "actions" }, ...["red", "green"].map((c) => h("button", { type: "button", class: `big lot-${c}`, id: `lot-${c}`, onclick: () => this.addEntry({ kind: "lot", winner: c }) }, chip(c), ` ${t(`lot.${c}`)}`))));
  }

  endCard() {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const o = m.state.outcome;
    const st = stateView(m.state);
    const number = /** @type {StoredMatch} */ (this.data.match).number;
    const base = `/api/boards/${this.boardId}/matches/${number}`;
    const other = lang() === "ja" ? "en" : "ja";
    return h("section", { class: `card end ${o.winner || "draw"}`, id: "end" },
      h("h2", {}, o.winner ? h("span", {}, chip(o.winner), ` ${t("end.win", { color: t(`color.${o.winner}`) })}`) : t("end.draw")),
      h("p", { class: "sub" }, o.winner ? m.setup.names.filter((_, s) => seatColor(s) === o.winner).join("・") : ""),
      h("table", { class: "final" }, h("caption", {}, t("end.score")),
        ...["red", "green"].map((c) => h("tr", { class: c }, h("th", {}, chip(c), ` ${t(`color.${c}`)}`),
          h("td", {}, `${st.jack === c ? "100 + " : ""}${st.pocketed[c]}${st.debt[c] ? ` − ${st.debt[c]}` : ""}`),
          h("td", { class: "num big-score", id: `final-${c}` }, String(st.scores[c]))))),
      m.confirmed
        ? h("div", {}, h("p", { class: "ok", id: "confirmed" }, `✓ ${t("end.confirmed")}`),
          h("div", { class: "links" },
            h("a", { class: "button big", href: `${base}/sheet.pdf?lang=${lang()}`, target: "_blank", id: "pdf" }, t("end.pdf")),
            h("a", { class: "button", href: `${base}/sheet.pdf?lang=${other}`, target: "_blank" }, t("end.sheet_en")),
            h("a", { class: "button", href: `${base}/sheet.csv?lang=${lang()}`, id: "csv" }, t("end.csv")),
            h("a", { class: "button", href: `${base}/record`, target: "_blank" }, t("end.record"))),
          h("button", { type: "button", class: "big primary", id: "next-match", onclick: () => { this.wantNext = true; this.setupForm.names = []; this.render(); } }, t("end.next")))
        : h("button", { type: "button", class: "big primary", id: "confirm", onclick: () => { if (window.confirm(t("end.confirmq"))) this.op("confirm"); } }, t("end.confirm")));
  }

  /** The last ruling at a glance, at the top: penalty and why, whose turn, the pile. */
  banner() {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const step = m.steps[m.steps.length - 1];
    if (!step) return null;
    const r = step.ruling;
    const setup = m.setup;
    const head = h("p", { class: "headline", id: "headline" });
    if (!r) head.append(h("strong", {}, step.entry.kind === "call_time" ? t("history.time") : t("history.lot", { color: t(`color.${step.entry.winner}`) })));
    else if (r.skipped) head.append(h("strong", { class: "bad" }, t("ruling.lost")));
    else if (r.restored) head.append(h("strong", { class: "bad" }, t("ruling.restored")));
    else if (r.penalty) head.append(h("strong", { class: "bad", id: "penalty" }, t("ruling.penalty", { n: r.penalty })), " ", ...r.fouls.map((f) => h("span", { class: "rule" }, f)));
    else if (r.continues) head.append(h("strong", { class: "good" }, t("ruling.continue", { name: setup.names[r.seat] })));
    else head.append(h("strong", {}, t("ruling.none")));
    if (r && r.debt_added) head.append(h("span", { class: "next bad" }, `${t("counts.debt")} +${r.debt_added}（${t(`color.${r.color}`)}）`));
    const who = r ? setup.names[step.seat] : t("history.referee");
    const box = h("div", { class: `banner${r && (r.penalty || r.skipped || r.restored) ? " warn" : ""}`, id: "banner" }, h("div", { class: "banner-text" }, h("small", {}, `#${step.n} ${who}`), head));
    if (r && r.returned.length) box.append(h("div", { class: "banner-pile", title: t("ruling.pile") }, pile(r.returned)));
    return box;
  }

  rulingCard() {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const step = m.steps[m.steps.length - 1];
    const card = h("section", { class: "card ruling", id: "ruling" }, h("h2", {}, t("ruling.title")));
    if (!step) return card.append(h("p", { class: "muted" }, t("ruling.empty"))), card;
    const views = m.view(/** @type {StoredMatch} */ (this.data.match).number, null).steps;
    const view = views[views.length - 1];
    const r = step.ruling;
    if (r && r.returned.length) {
      card.append(h("div", { class: "pile-box", id: "pile" }, pile(r.returned),
        h("div", {}, h("p", { class: "label" }, t("ruling.pile")), h("p", { class: "pile-text" }, r.returned.map((p) => t(`piece.${p}`)).join(" → ")))));
    }
    card.append(h("ul", { class: "sentences" }, ...view.explain[lang()].map(sentence)));
    return card;
  }

  historyCard() {
    const m = /** @type {PadMatch} */ (this.match); // shown only with a match
    const setup = m.setup;
    const views = m.view(/** @type {StoredMatch} */ (this.data.match).number, null).steps;
    const items = views.slice().reverse().map((s) => {
      let what;
      if (s.kind === "shot") what = describeTap(/** @type {Tap} */ (s.tap), setup.names);
      else if (s.kind === "skip") what = t("history.lost");
      else if (s.kind === "call_time") what = t("history.time");
      else what = t("history.lot", { color: t(`color.${s.winner}`) });
      const rules = s.ruling ? s.ruling.reasons.join(" ") : s.kind === "call_time" ? "R7b" : "R7d";
      const pen = s.ruling && s.ruling.penalty ? h("span", { class: "pen" }, `−${s.ruling.penalty}`) : null;
      const who = s.kind === "call_time" || s.kind === "lot" ? [t("history.referee")] : [chip(seatColor(s.seat)), ` ${setup.names[s.seat]}`];
      return h("li", { class: `${seatColor(s.seat)}${s.ruling && (s.ruling.penalty || s.ruling.restored || s.ruling.skipped) ? " bad" : ""}`, "data-n": String(s.n) },
        h("span", { class: "n" }, String(s.n)),
        h("span", { class: "who" }, ...who, s.at !== null ? h("small", {}, clk.clockTime(s.at)) : null),
        h("span", { class: "what" }, what, " ", pen, h("small", { class: "rules" }, rules)),
        s.kind === "shot" && !m.confirmed ? h("button", { type: "button", class: "fix", "aria-label": `${t("history.fix")} ${s.n}`, onclick: () => { this.fixing = s.n; this.draft = { .../** @type {Tap} */ (s.tap) }; this.error = ""; this.render(); app.querySelector("#entry")?.scrollIntoView({ block: "start" }); } }, t("history.fix")) : null);
    });
    return h("section", { class: "card history", id: "history" },
      h("div", { class: "history-head" }, h("h2", {}, t("history.title")),
        m.steps.length && !m.confirmed ? h("button", { type: "button", class: "big", id: "undo", onclick: () => this.op("undo", { count: 1 }) }, `↶ ${t("history.undo")}`) : null),
      items.length ? h("ol", { class: "entries", reversed: true }, ...items) : h("p", { class: "muted" }, t("history.empty")));
  }
}

// -- /boards/{id}: spectators -------------------------------------------------------------------

class WatchPage {
  constructor(boardId) {
    this.boardId = boardId;
    this.board = null;
  }

  mount() {
    paintLang();
    onLang(() => this.render());
    status.className = "status";
    status.textContent = t("watch.readonly");
    this.watch = new Watch(this.boardId, (b) => { this.board = b; this.render(); }, (ev) => this.event(ev));
    this.watch.open();
    setInterval(() => this.paintClock(), 250);
    window.__watch = this;
  }

  event(ev) {
    const b = this.board;
    if (ev.kind === "match") b.match = { number: ev.match, setup: ev.setup, steps: [], state: ev.state, confirmed: false, clock: null };
    else if (b.match && ev.match === b.match.number) {
      if (ev.kind === "correct") b.match.steps = [...b.match.steps.slice(0, ev.from - 1), ...ev.steps];
      else if (ev.steps) b.match.steps = [...b.match.steps, ...ev.steps];
      if (ev.length !== undefined) b.match.steps = b.match.steps.slice(0, ev.length);
      b.match.state = ev.state;
      b.match.confirmed = ev.confirmed;
      b.match.clock = ev.clock;
    }
    if (ev.kind === "device" || ev.kind === "takeover") b.device_bound = true;
    this.render();
  }

  paintClock() {
    const c = this.board?.match?.clock;
    const el = app.querySelector("#watch-clock");
    if (!c || !el) return;
    const now = clk.fromReading(c);
    el.querySelector(".time").textContent = clk.mmss(now.remaining);
    const cd = el.querySelector(".cd");
    cd.hidden = now.countdown === null;
    if (now.countdown !== null) cd.textContent = `${Math.ceil(now.countdown)}${t("countdown.label")}`;
  }

  render() {
    paintLang();
    status.textContent = t("watch.readonly");
    const b = this.board;
    if (!b) return;
    document.getElementById("bar-board").textContent = `${b.name || b.id} · ${t("watch.title")}`;
    const m = b.match;
    if (!m) return app.replaceChildren(h("section", { class: "card" }, h("p", { class: "muted" }, t("watch.nomatch"))));
    const setup = m.setup;
    const st = m.state;
    const last = m.steps.at(-1);
    const parts = [];
    if (setup.title) parts.push(h("p", { class: "match-title" }, setup.title));
    if (m.clock) parts.push(h("section", { class: "card clock", id: "watch-clock" }, h("span", { class: "time" }, "–"), h("span", { class: "cd" })));
    parts.push(h("section", { class: "card turncard" },
      st.outcome ? h("p", { class: "turn", id: "watch-result" }, st.outcome.winner ? t("end.win", { color: t(`color.${st.outcome.winner}`) }) : t("end.draw")) : h("p", { class: `turn ${seatColor(st.shooter)}`, id: "watch-turn" }, chip(seatColor(st.shooter)), " ", t("turn.now", { name: seatLabel(setup, st.shooter) })),
      h("table", { class: "counts" }, h("tr", {}, h("th", {}), h("th", {}, t("counts.in")), h("th", {}, t("counts.debt")), h("th", {}, t("counts.score"))),
        ...["red", "green"].map((c) => h("tr", {}, h("td", {}, chip(c), ` ${setup.names.filter((_, s) => seatColor(s) === c).join("・")}`), h("td", { class: "num" }, String(st.pocketed[c])), h("td", { class: "num" }, String(st.debt[c])), h("td", { class: "num", id: `watch-score-${c}` }, String(st.scores[c])))))));
    if (last) parts.push(h("section", { class: "card ruling" }, h("h2", {}, t("ruling.title")), last.ruling && last.ruling.returned.length ? h("div", { class: "pile-box" }, pile(last.ruling.returned)) : null, h("ul", { class: "sentences" }, ...last.explain[lang()].map(sentence))));
    parts.push(h("section", { class: "card history" }, h("h2", {}, t("history.title")),
      h("ol", { class: "entries", reversed: true }, ...m.steps.slice().reverse().map((s) => h("li", { class: seatColor(s.seat) }, h("span", { class: "n" }, String(s.n)), h("span", { class: "who" }, chip(seatColor(s.seat)), ` ${setup.names[s.seat]}`), h("span", { class: "what" }, s.kind === "shot" ? describeTap(s.tap, setup.names) : s.explain[lang()][0], h("small", { class: "rules" }, s.ruling ? s.ruling.reasons.join(" ") : "")))))));
    app.replaceChildren(...parts);
    this.paintClock();
  }
}

// -- start ------------------------------------------------------------------------------------------

const path = location.pathname;
let m;
let page;
if ((m = path.match(/^\/pad\/([A-Za-z0-9_-]+)$/))) page = new PadPage(m[1]);
else if ((m = path.match(/^\/boards\/([A-Za-z0-9_-]+)$/))) page = new WatchPage(m[1]);
else page = new CreatePage();
page.mount();
deviceId();
if ("serviceWorker" in navigator && path.startsWith("/pad")) {
  navigator.serviceWorker.register("/pad/sw.js", { scope: "/pad/" }).catch(() => {});
}
