// The director's console: create the event, import entries, check in, draw, plan the boards,
// call matches, enter and correct results, close pools, print. Every change needs the token.
import {
  LiveEvent, api, boardName, boards, currentCall, h, onLang, pick, scoreText, sideName, t, timeLeft, wireLangSwitch,
} from "./tourney-common.js";

const parts = location.pathname.split("/");
const id = parts[1] === "t" ? parts[2] : null;
const TOKEN_KEY = `hikone-carrom.director.${id}`;
const TABS = ["entries", "draw", "boards", "results", "pools", "print", "audit"];
let tab = new URLSearchParams(location.search).get("tab") || "entries";
let event = null;
let flash = null;
let filter = "";
let importReport = null;
let audit = [];
let pads = null;
let connection = null;
let playerLinks = null;
const view = document.getElementById("view");

const token = () => localStorage.getItem(TOKEN_KEY);

function message(ok, text) { flash = { ok, text }; render(); }

async function act(fn) {
  try {
    const text = await fn();
    flash = { ok: true, text: typeof text === "string" ? text : t("d.saved") };
  } catch (err) {
    flash = { ok: false, text: err.message };
  }
  render();
}

function post(path, body) { return api(`/api/tournaments/${id}${path}`, { method: "POST", body: body ?? {}, token: token() }); }

// -- create and log in ------------------------------------------------------------------------

function renderCreate() {
  const f = h("form.card.dform", { id: "create" },
    h("h3", {}, t("d.create")),
    h("label", {}, t("d.name"), h("input", { name: "name", required: true, value: "カロム日本選手権大会" })),
    h("label", {}, t("d.date"), h("input", { name: "date", type: "date" })),
    h("label", {}, t("d.boards"), h("input", { name: "boards", type: "number", min: 1, max: 1000, value: 124 })),
    h("label", {}, t("d.start"), h("input", { name: "start", type: "time", value: "09:30" })),
    h("label", {}, t("d.golden"), h("input", { name: "golden", type: "number", min: 1, value: 1 })),
    h("label", {}, t("d.password"), h("input", { name: "password", type: "password", minlength: 8 })),
    h("label.check", {}, h("input", { name: "online", type: "checkbox", id: "online" }), t("d.online")),
    h("label", {}, t("d.operator"), h("input", { name: "operator", value: localStorage.getItem("hikone-carrom.operator") || "" })),
    h("button.primary", { type: "submit" }, t("d.create")),
    h("p.form-error", { id: "create-error" }));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(f));
    localStorage.setItem("hikone-carrom.operator", v.operator || "");
    try {
      const made = await api("/api/tournaments", { method: "POST", body: {
        name: v.name, date: v.date, boards: Number(v.boards), start: v.start,
        golden_board: Number(v.golden) || null, password: v.password || null, online: v.online === "on",
      } });
      localStorage.setItem(`hikone-carrom.director.${made.id}`, made.token);
      sessionStorage.setItem("hikone-carrom.newtoken", made.token);
      location.href = `/t/${made.id}/director`;
    } catch (err) {
      document.getElementById("create-error").textContent = err.message;
    }
  });
  view.replaceChildren(f);
}

function renderLogin(error) {
  const f = h("form.card.dform", { id: "login" },
    h("h3", {}, t("d.login")),
    h("label", {}, t("d.token"), h("input", { name: "token", type: "password", required: true })),
    h("label", {}, t("d.operator"), h("input", { name: "operator", value: localStorage.getItem("hikone-carrom.operator") || "" })),
    h("button.primary", { type: "submit" }, t("d.login")),
    h("p.form-error", {}, error || ""));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(f));
    localStorage.setItem(TOKEN_KEY, v.token);
    localStorage.setItem("hikone-carrom.operator", v.operator || "");
    start();
  });
  view.replaceChildren(f);
}

// -- tabs -------------------------------------------------------------------------------------

function entriesTab() {
  const file = h("input", { type: "file", accept: ".csv,text/csv", id: "csv-file" });
  const upload = h("button.primary", { id: "csv-import", onclick: async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const bytes = await chosen.arrayBuffer();
    try {
      importReport = await api(`/api/tournaments/${id}/entries/import`, { method: "POST", raw: bytes, token: token() });
      flash = null;
    } catch (err) { importReport = null; flash = { ok: false, text: err.message }; }
    render();
  } }, t("d.importBtn"));
  const report = importReport ? h("div.card.report", { id: "import-report" },
    importReport.problems.length
      ? [h("p.err", {}, t("d.problems", { n: importReport.problems.length })),
        h("ul.problems", {}, importReport.problems.map((p) => h("li", { "data-row": p.row }, `${t("d.row", { row: p.row })}: ${pick(p)}`)))]
      : h("p.ok", {}, t("d.imported", { n: importReport.imported, enc: importReport.encoding }))) : null;
  const f = filter.trim().toLowerCase();
  const list = event.entries.filter((e) => !f || `${e.name} ${e.reading} ${e.club} ${e.id}`.toLowerCase().includes(f));
  const checked = event.entries.filter((e) => e.status === "checked_in").length;
  const search = h("input", { type: "search", value: filter, placeholder: t("d.filter"), id: "entry-filter" });
  search.addEventListener("input", () => { filter = search.value; renderKeepFocus("entry-filter"); });
  return [
    h("section.card", {}, h("h3", {}, t("d.import")), h("div.drow", {}, file, upload), report),
    h("section.card", {}, h("h3", {}, t("d.entries", { n: event.entries.length, c: checked })),
      h("div.dform", {}, search),
      h("div.table-wrap", {}, h("table.dtable", { id: "entries" }, h("tbody", {}, list.slice(0, 300).map((e) => h("tr", { "data-entry": e.id },
        h("td", {}, e.id), h("td", {}, e.name, h("br"), h("small", {}, e.reading)), h("td", {}, e.club),
        h("td", {}, t(`status.${e.status === "checked_in" ? "finished" : e.status === "withdrawn" ? "forfeit" : "planned"}`)),
        h("td", {}, e.status !== "checked_in" && e.status !== "withdrawn"
          ? h("button", { "data-action": "checkin", onclick: () => act(() => post(`/entries/${e.id}/status`, { status: "checked_in" })) }, t("d.checkin")) : null,
        e.status !== "withdrawn"
          ? h("button", { "data-action": "withdraw", onclick: () => act(() => post(`/entries/${e.id}/status`, { status: "withdrawn" })) }, t("d.withdraw"))
          : h("button", { "data-action": "undo", onclick: () => act(() => post(`/entries/${e.id}/status`, { status: "entered" })) }, t("d.undo"))))))))),
  ];
}

function drawTab() {
  const seeded = h("input", { type: "checkbox", checked: true, id: "seeded" });
  const rows = event.divisions.map((d) => h("tr", { "data-division": d.id },
    h("td", {}, pick(d.name)), h("td", {}, d.entries),
    h("td", {}, d.drawn ? t("d.drawn", { n: d.pools.length }) : ""),
    h("td", {}, h("button", { disabled: d.entries < 2, "data-action": "draw",
      onclick: () => act(() => post(`/divisions/${d.id}/draw`, { seeded: seeded.checked })) }, t("d.draw")))));
  const now = h("input", { type: "time", id: "replan-now" });
  const broken = h("input", { id: "replan-broken", placeholder: "5, 17" });
  return [
    h("section.card", {}, h("h3", {}, t("d.draw")), h("label.check", {}, seeded, t("d.seeded")),
      h("table.dtable", {}, h("tbody", {}, rows))),
    h("section.card", {}, h("h3", {}, t("d.plan")),
      h("div.drow", {}, h("button.primary", { id: "make-plan", onclick: () => act(async () => {
        const r = await post("/plan");
        return t("d.planned", { n: r.matches, end: r.end });
      }) }, t("d.plan"))),
      h("div.dform", {}, h("label", {}, t("d.now"), now), h("label", {}, t("d.broken"), broken),
        h("button", { id: "replan", onclick: () => act(() => post("/replan", {
          now: now.value || null,
          out_of_service: broken.value.split(/[,\s、]+/).filter(Boolean).map(Number),
        })) }, t("d.replan")))),
  ];
}

function resultDialog(m) {
  const dlg = document.getElementById("result-dialog");
  const a = h("input", { type: "number", name: "a", min: -30, max: 112, value: m.result ? m.result.scores[0] : "", required: true, inputmode: "numeric" });
  const b = h("input", { type: "number", name: "b", min: -30, max: 112, value: m.result ? m.result.scores[1] : "", required: true, inputmode: "numeric" });
  const winner = h("select", { name: "winner" }, h("option", { value: "" }, t("d.none")),
    h("option", { value: "0" }, sideName(m.sides[0])), h("option", { value: "1" }, sideName(m.sides[1])));
  const error = h("p.form-error");
  const save = async (body) => {
    try {
      await api(`/api/tournaments/${id}/matches/${m.id}/result`, { method: "PUT", body, token: token() });
      dlg.close();
      message(true, t("d.saved"));
    } catch (err) { error.textContent = err.message; }
  };
  const form = h("form.dform", { method: "dialog" },
    h("h3", {}, `${pick(m.name)} — ${m.board ? t("board", { n: m.board }) : ""}`),
    h("div.scores", {}, h("label", {}, sideName(m.sides[0]), a), h("label", {}, sideName(m.sides[1]), b)),
    h("label", {}, t("d.winner"), winner),
    h("div.drow", {}, h("span", {}, t("d.forfeit")),
      h("button", { type: "button", "data-action": "forfeit0", onclick: () => save({ forfeit: 0 }) }, sideName(m.sides[0])),
      h("button", { type: "button", "data-action": "forfeit1", onclick: () => save({ forfeit: 1 }) }, sideName(m.sides[1]))),
    error,
    h("div.drow", {}, h("button.primary", { type: "submit", id: "save-result" }, t("d.save")),
      h("button", { type: "button", onclick: () => dlg.close() }, t("d.cancel"))));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    save({ scores: [Number(a.value), Number(b.value)], winner: winner.value === "" ? null : Number(winner.value) });
  });
  dlg.replaceChildren(form);
  dlg.showModal();
}

async function loadPads() {
  try { pads = (await api(`/api/tournaments/${id}/pads`, { token: token() })).pads; } catch { pads = []; }
}

function padsCard() {
  if (pads === null) { loadPads().then(render); return null; }
  const make = h("button", { id: "make-pads", onclick: () => act(async () => {
    pads = (await post("/pads", {})).pads;
  }) }, t("d.makePads"));
  return h("section.card", { id: "pads" }, h("h3", {}, t("d.pads")),
    pads.length < event.boards ? make : null,
    pads.length ? h("details", {}, h("summary", {}, `${t("d.padsNote")} (${pads.length})`),
      h("div.pad-links", {}, pads.map((p) => {
        const qr = h("div.qr");
        qr.innerHTML = p.qr_svg;  // an SVG made by the server from the link
        return h("div.pad-link", { "data-pad": p.board }, h("strong", {}, t("board", { n: p.board })),
          qr, h("a", { href: p.pad_url, target: "_blank" }, t("d.padOf", { n: p.board })));
      }))) : null);
}

function boardsTab() {
  const callFlash = (r) => (r.pad_error ? t("d.padError", { why: pick(r.pad_error) }) : t("d.saved"));
  return [event.online ? null : padsCard(), h("div.boards", { id: "director-boards" }, boards(event).map((b) => {
    const m = b.now;
    return h(`div.board-tile${m ? `.${m.status}` : ""}`, { "data-board": b.n },
      h("div.board-no", {}, boardName(event, b.n)),
      m ? h("div.board-who", {}, sideName(m.sides[0]), h("br"), `${t("find.vs")} ${sideName(m.sides[1])}`)
        : h("div.board-who.free", {}, b.next ? `${b.next.planned.start} ${sideName(b.next.sides[0])} / ${sideName(b.next.sides[1])}` : t("board.free")),
      m && (m.status === "playing" || scoreText(m)) ? h("div.board-sub", {},
        scoreText(m) ? h("strong.score", { "data-score": m.id }, scoreText(m)) : null,
        m.status === "playing" ? h("span.left", { "data-left": m.id }, ` ${timeLeft(m)}`) : null) : null,
      h("div.drow", {},
        !m ? h("button", { "data-action": "call", onclick: () => act(async () => callFlash(await post(`/boards/${b.n}/call`))) }, t("d.callNext")) : null,
        m && m.pad ? h("a.button", { href: `/boards/${m.pad.board}`, target: "_blank", "data-action": "watch-pad" }, t("d.pads")) : null,
        m && m.room ? h("a.button", { href: `/room/${m.room.id}`, target: "_blank", "data-action": "watch-room" }, t("d.watchRoom")) : null,
        m && m.status === "called" && !event.online ? h("button", { "data-action": "start", onclick: () => act(() => post(`/matches/${m.id}/start`)) }, t("d.start")) : null,
        m ? h("button.primary", { "data-action": "result", onclick: () => resultDialog(m) }, t("d.result")) : null));
  }))];
}

function resultsTab() {
  const f = filter.trim().toLowerCase();
  const search = h("input", { type: "search", value: filter, placeholder: t("d.filter"), id: "match-filter" });
  search.addEventListener("input", () => { filter = search.value; renderKeepFocus("match-filter"); });
  const list = event.matches.filter((m) => m.sides.every((s) => s && s.id) && (!f ||
    `${m.id} ${sideName(m.sides[0])} ${sideName(m.sides[1])}`.toLowerCase().includes(f)));
  return [h("section.card", {}, h("div.dform", {}, search), h("div.table-wrap", {}, h("table.dtable", { id: "matches" }, h("tbody", {},
    list.slice(0, 300).map((m) => h("tr", { "data-match": m.id },
      h("td", {}, m.id), h("td", {}, pick(m.name)), h("td", {}, sideName(m.sides[0])), h("td", {}, sideName(m.sides[1])),
      h("td", {}, m.result ? h("strong", {}, scoreText(m)) : t(`status.${m.status}`),
        m.result && m.source === "pad" && m.pad ? [" ", h("a", { href: m.pad.sheet, target: "_blank", "data-sheet": m.id }, t("d.sheet"))] : null),
      h("td", {}, m.status === "forfeit" ? null : h("button", { "data-action": "result", onclick: () => resultDialog(m) },
        m.result ? t("d.correct") : t("d.result"))))))))),
  ];
}

function poolsTab() {
  const out = [];
  for (const d of event.divisions.filter((x) => x.drawn)) {
    out.push(h("section.card", { "data-division": d.id }, h("h3", {}, pick(d.name)),
      h("table.dtable", {}, h("tbody", {}, d.pools.map((p) => h("tr", { "data-pool": `${d.id}-${p.number}` },
        h("td", {}, t("pool", { label: p.label })),
        h("td", {}, p.standings.slice(0, d.advance).map((s) => event.entries.find((e) => e.id === s.entry)?.name).join("、")),
        h("td", {}, p.closed ? t("closed") : (p.complete ? t("complete") : "")),
        h("td", {}, p.closed
          ? h("button", { "data-action": "reopen", onclick: () => act(() => post(`/pools/${d.id}/${p.number}/reopen`)) }, t("d.reopen"))
          : h("button.primary", { "data-action": "close", disabled: !p.complete, onclick: () => act(() => post(`/pools/${d.id}/${p.number}/close`)) }, t("d.close")))))))));
  }
  return out.length ? out : [h("p.empty", {}, t("empty"))];
}

function printTab() {
  const kinds = ["pools", "plan", "bracket", "results", "certificates"];
  const links = (division) => kinds.map((k) => h("a.button", {
    href: `/api/tournaments/${id}/print/${k}.pdf${division ? `?division=${division}` : ""}`, target: "_blank", "data-print": k,
  }, t(`d.print.${k}`)));
  return [
    h("section.card", {}, h("h3", {}, t("d.all")), h("div.drow", {}, links(null),
      h("a.button", { href: `/api/tournaments/${id}/results.csv`, "data-export": "csv" }, t("d.csv")),
      h("a.button", { href: `/t/${id}`, target: "_blank" }, t("d.public")),
      h("a.button", { href: `/t/${id}?hall=1`, target: "_blank" }, t("d.hall")))),
    ...event.divisions.filter((d) => d.drawn).map((d) => h("section.card", {}, h("h3", {}, pick(d.name)), h("div.drow", {}, links(d.id)))),
    playersCard(),
  ].filter(Boolean);
}

async function loadPlayers() {
  try { playerLinks = (await api(`/api/tournaments/${id}/players`, { token: token() })).players; } catch { playerLinks = []; }
}

function playersCard() {
  if (!event.online) return null;
  if (playerLinks === null) { loadPlayers().then(render); return null; }
  return h("section.card", { id: "player-links" }, h("h3", {}, t("d.players")), h("p.meta", {}, t("d.playersNote")),
    h("div.table-wrap", {}, h("table.dtable", {}, h("tbody", {}, playerLinks.map((p) => h("tr", { "data-player": p.player },
      h("td", {}, p.name), h("td", {}, h("a", { href: p.link, target: "_blank" }, p.player)),
      h("td", {}, h("button", { onclick: async (e) => {
        await navigator.clipboard.writeText(p.link).catch(() => {});
        e.target.textContent = t("d.copied");
      } }, t("d.copy")))))))));
}

function auditTab() {
  return [h("section.card", {}, h("table.dtable.audit", { id: "audit" },
    h("thead", {}, h("tr", {}, ["d.audit.when", "d.audit.who", "d.audit.what", "d.audit.target"].map((k) => h("th", {}, t(k))), h("th"))),
    h("tbody", {}, audit.map((a) => h("tr", {},
      h("td", {}, new Date(a.at).toLocaleTimeString()), h("td", {}, a.who), h("td", { "data-action": a.action }, t(`a.${a.action}`)),
      h("td", {}, a.target), h("td", {}, auditDetail(a)))))))];
}

function auditDetail(a) {
  const d = a.detail || {};
  const score = (r) => (r ? (r.forfeit !== null && r.forfeit !== undefined ? `${t("status.forfeit")} ${r.scores.join(" - ")}` : r.scores.join(" - ")) : "—");
  if ("after" in d && (a.action === "result" || a.action === "correction" || a.action === "clear")) {
    return `${score(d.before)} → ${score(d.after)}${d.source && d.source !== "director" ? ` (${d.source})` : ""}`;
  }
  if (a.action === "status") return `${t(`s.${d.before}`)} → ${t(`s.${d.after}`)}`;
  if (a.action === "call") return t("board", { n: d.board });
  if (a.action === "import") return `${d.entries} (${d.encoding})`;
  if (a.action === "draw") return t("d.drawn", { n: d.pools });
  if (a.action === "replan") return `${d.matches} · ${(d.out_of_service || []).join(", ")}`;
  if (a.action === "plan") return String(d.matches);
  if (a.action === "pad") return `${d.pad_board} #${d.pad_match}`;
  if (a.action === "pads") return (d.boards || []).join(", ");
  if (a.action === "pad_refused" || a.action === "room_refused") return pick(d.reason);
  if (a.action === "room") return d.room;
  if (a.action === "seat") return String(d.seat + 1);
  return "";
}

function renderKeepFocus(inputId) {
  const el = document.getElementById(inputId);
  const pos = el ? el.selectionStart : 0;
  render();
  const again = document.getElementById(inputId);
  if (again) { again.focus(); again.setSelectionRange(pos, pos); }
}

function render() {
  if (!event) return;
  document.getElementById("event-name").textContent = event.name;
  document.getElementById("event-date").textContent = event.date;
  const banner = document.getElementById("banner");
  const call = currentCall(event);
  banner.hidden = !call;
  if (call) banner.textContent = `${t("call")}：${pick(call.text)}`;
  const fresh = sessionStorage.getItem("hikone-carrom.newtoken");
  const nav = h("nav.dtabs.tabs", {}, TABS.map((k) => h("button.tab", {
    "aria-selected": String(k === tab), "data-tab": k, onclick: async () => {
      tab = k; flash = null;
      sessionStorage.removeItem("hikone-carrom.newtoken");
      if (k === "audit") await loadAudit();
      if (k === "boards") await loadPads();
      render();
    },
  }, t(`d.tab.${k}`))));
  const body = { entries: entriesTab, draw: drawTab, boards: boardsTab, results: resultsTab,
    pools: poolsTab, print: printTab, audit: auditTab }[tab]();
  view.replaceChildren(...[
    fresh ? h("p.card.token", { id: "new-token" }, t("d.tokenShown", { token: fresh })) : null,
    nav,
    flash ? h(`p.card.${flash.ok ? "ok" : "err"}`, { id: "flash", role: "status" }, flash.text) : null,
    ...body,
  ].filter(Boolean));
}

async function loadAudit() {
  try { audit = (await api(`/api/tournaments/${id}/director`, { token: token() })).audit; } catch { audit = []; }
}

async function start() {
  try {
    await api(`/api/tournaments/${id}/director`, { token: token() });
  } catch (err) {
    renderLogin(token() ? err.message : "");
    return;
  }
  if (connection) return;
  connection = new LiveEvent(id, (ev) => {
    event = ev;
    if (tab === "audit") loadAudit().then(render); else render();
  }, (ok) => document.getElementById("live-dot").classList.toggle("off", !ok));
}

wireLangSwitch();
onLang(() => {
  if (!id) renderCreate();
  else if (event) render();
  else if (!connection) renderLogin("");
});
if (!id) renderCreate(); else if (!token()) renderLogin(""); else start();
setInterval(() => {
  if (!event) return;
  for (const el of document.querySelectorAll("[data-left]")) {
    const m = event.matches.find((x) => x.id === el.dataset.left);
    if (m) el.textContent = timeLeft(m);
  }
}, 1000);
