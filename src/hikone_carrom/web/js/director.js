// The director's console: create the event, import entries, check in, draw, plan the boards,
// call matches, enter and correct results, close pools, print. Every change needs the token.
import {
  LiveEvent, api, boardName, boards, currentCall, getLang, h, onLang, pick, scoreText, sideName, t, tIn, timeLeft, wireLangSwitch,
} from "./tourney-common.js";
import { NO_KEY, organiserKey } from "./organiser.js";
import { forgetPlanCards, planCards } from "./director-plan.js";
import { confirmQuery, withConfirm } from "./call-conflicts.js";
import { AutoPanel } from "./director-auto.js";

const parts = location.pathname.split("/");
const id = parts[1] === "t" ? parts[2] : null;
const TOKEN_KEY = `hikone-carrom.director.${id}`;
const TABS = ["entries", "draw", "boards", "results", "pools", "print", "settings", "audit"];
const TIEBREAKS = ["match_points", "point_difference", "head_to_head", "pucks", "lot"];
let tab = new URLSearchParams(location.search).get("tab") || "entries";
let event = null;
let flash = null;
let filter = "";
let importReport = null;
let audit = [];
let pads = null;
let connection = null;
let playerLinks = null;
let entryForm = null;  // the one-entry form: {editing, division, members: [{...}, {...}], seed, error}
let rulesForm = null;  // the ranking rules being edited: {order: [[key, used]...], points, error}
const view = document.getElementById("view");
const auto = new AutoPanel(id || "", () => localStorage.getItem(TOKEN_KEY), () => render(),
  () => tab === "boards" || tab === "pools");

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
    organiserKey() ? null : h("p.form-error", { id: "no-key" }, pick(NO_KEY)),
    h("label", {}, t("d.boards"), h("input", { name: "boards", type: "number", min: 1, max: 200, value: 124 })),
    h("label", {}, t("d.firstMatch"), h("input", { name: "start", type: "time", value: "09:30" })),
    h("label", {}, t("d.golden"), h("input", { name: "golden", type: "number", min: 1, value: 1 })),
    h("label", {}, t("d.password"), h("input", { name: "password", type: "password", minlength: 12 })),
    h("label.check", {}, h("input", { name: "online", type: "checkbox", id: "online" }), t("d.online")),
    h("label", {}, t("d.operator"), h("input", { name: "operator", value: localStorage.getItem("hikone-carrom.operator") || "" })),
    h("button.primary", { type: "submit" }, t("d.create")),
    h("p.form-error", { id: "create-error" }));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(f)));
    localStorage.setItem("hikone-carrom.operator", v.operator || "");
    try {
      const made = await api("/api/tournaments", { method: "POST", body: {
        name: v.name, date: v.date, boards: Number(v.boards), start: v.start,
        golden_board: Number(v.golden) || null, password: v.password || null, online: v.online === "on",
      }, token: organiserKey() });
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
    const v = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(f)));
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
  const edit = async (entryId) => {
    try {
      const got = (await api(`/api/tournaments/${id}/entries/${entryId}`, { token: token() })).entry;
      entryForm = { editing: got.id, division: got.division, seed: got.seed ?? "", error: "",
        members: [0, 1].map((i) => ({ ...blankMember(), ...(got.members[i] || {}) })) };
      render();
      document.getElementById("entry-form")?.scrollIntoView();
    } catch (err) { message(false, err.message); }
  };
  const checked = event.entries.filter((e) => e.status === "checked_in").length;
  const search = h("input", { type: "search", value: filter, placeholder: t("d.filter"), id: "entry-filter" });
  search.addEventListener("input", () => { filter = search.value; render(); });
  return [
    h("section.card", {}, h("h3", {}, t("d.import")), h("div.drow", {}, file, upload), report),
    entryCard(),
    h("section.card", {}, h("h3", {}, t("d.entries", { n: event.entries.length, c: checked })),
      h("div.dform", {}, search),
      h("div.table-wrap", {}, h("table.dtable", { id: "entries" }, h("tbody", {}, list.slice(0, 300).map((e) => h("tr", { "data-entry": e.id },
        h("td", {}, e.id), h("td", {}, e.name, h("br"), h("small", {}, e.reading)), h("td", {}, e.club),
        h("td", {}, t(`status.${e.status === "checked_in" ? "finished" : e.status === "withdrawn" ? "forfeit" : "planned"}`)),
        h("td", {}, h("button", { "data-action": "edit", onclick: () => edit(e.id) }, t("d.edit")),
          e.status !== "checked_in" && e.status !== "withdrawn"
          ? h("button", { "data-action": "checkin", onclick: () => act(() => post(`/entries/${e.id}/status`, { status: "checked_in" })) }, t("d.checkin")) : null,
        e.status !== "withdrawn"
          ? h("button", { "data-action": "withdraw", onclick: () => act(() => withConfirm((c) => post(`/entries/${e.id}/status${confirmQuery(c)}`, { status: "withdrawn" }))) }, t("d.withdraw"))
          : h("button", { "data-action": "undo", onclick: () => act(() => post(`/entries/${e.id}/status`, { status: "entered" })) }, t("d.undo"))))))))),
  ];
}

function blankMember() {
  return { name: "", reading: "", club: "", prefecture: "", age: "", grade: "" };
}

/** The one-entry form: add an entry (a late entry after the draw) or correct one. */
function entryCard() {
  if (!entryForm) entryForm = { editing: null, division: event.divisions[0].id, seed: "", error: "", members: [blankMember(), blankMember()] };
  const form = entryForm;
  const div = event.divisions.find((d) => d.id === form.division) || event.divisions[0];
  const field = (i, key, attrs = {}) => h("label", {}, t(`d.entry.${key}`), h("input", {
    name: `${key}${i ? 2 : ""}`, id: `entry-${key}-${i}`, value: form.members[i][key], ...attrs,
    oninput: (e) => { form.members[i][key] = e.target.value; },
  }));
  const member = (i) => h("fieldset.member", {}, h("legend", {}, t(i ? "d.entry.partner" : "d.entry.member")),
    field(i, "name", { required: true, autocomplete: "off" }), field(i, "reading", { required: true, autocomplete: "off" }),
    field(i, "club"), field(i, "prefecture"), field(i, "age", { inputmode: "numeric" }), field(i, "grade"));
  const division = h("select", { name: "division", id: "entry-division", disabled: form.editing && div.drawn,
    onchange: (e) => { form.division = e.target.value; render(); } },
  event.divisions.map((d) => h("option", { value: d.id, selected: d.id === form.division }, pick(d.name))));
  const el = h("form.card.dform.entry-form", { id: "entry-form" },
    h("h3", {}, form.editing ? t("d.entry.edit", { id: form.editing }) : t("d.entry.add")),
    h("label", {}, t("d.entry.division"), division),
    div.drawn && !form.editing ? h("p.meta", {}, t("d.entry.note")) : null,
    h("div.members", {}, member(0), div.format === "doubles" ? member(1) : null),
    h("label", {}, t("d.entry.seed"), h("input", { name: "seed", id: "entry-seed", type: "number", min: 1, value: form.seed,
      oninput: (e) => { form.seed = e.target.value; } })),
    h("p.form-error", { id: "entry-error", role: "alert" }, form.error || ""),
    h("div.drow", {}, h("button.primary", { type: "submit", id: "entry-save" }, t(form.editing ? "d.entry.update" : "d.entry.save")),
      form.editing ? h("button", { type: "button", onclick: () => { entryForm = null; render(); } }, t("d.cancel")) : null));
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { division: div.id, members: form.members.slice(0, div.format === "doubles" ? 2 : 1),
      seed: form.seed === "" ? null : Number(form.seed) };
    try {
      const path = form.editing ? `/api/tournaments/${id}/entries/${form.editing}` : `/api/tournaments/${id}/entries`;
      const r = await api(path, { method: form.editing ? "PUT" : "POST", body, token: token() });
      const done = r.entry.id;
      entryForm = { editing: null, division: div.id, seed: "", error: "", members: [blankMember(), blankMember()] };
      flash = { ok: true, text: form.editing ? t("d.entry.updated", { id: done })
        : (r.pool ? t("d.entry.late", { id: done, pool: r.pool }) : t("d.entry.added", { id: done })) };
    } catch (err) {
      form.error = err.message;
    }
    render();
  });
  return el;
}

/** Settings: the ranking rules (tie-breaks in order, match points). */
function settingsTab() {
  // shown from the live event until the director edits it: a save shows once it is live, not
  // the event as it was before the save's update arrived
  const used = event.tiebreaks.map((x) => x.key);
  const form = rulesForm || { order: [...used.map((k) => [k, true]), ...TIEBREAKS.filter((k) => !used.includes(k)).map((k) => [k, false])],
    points: [event.points.win, event.points.draw, event.points.loss], error: "" };
  const move = (i, by) => {
    const j = i + by;
    if (j < 0 || j >= form.order.length) return;
    rulesForm = form;
    [form.order[i], form.order[j]] = [form.order[j], form.order[i]];
    render();
  };
  const rows = form.order.map(([key, used], i) => h("li.tiebreak", { "data-key": key },
    h("label.check", {}, h("input", { type: "checkbox", checked: used, "aria-label": `${t("d.rules.use")} ${t(`tb.${key}`)}`,
      onchange: (e) => { rulesForm = form; form.order[i][1] = e.target.checked; render(); } }),
    h("span.tb-name", {}, h("strong", {}, t(`tb.${key}`)), getLang() === "ja" ? [" ", h("small", { lang: "en" }, tIn("en", `tb.${key}`))] : null)),
    h("span.tb-moves", {},
      h("button", { type: "button", "data-move": "up", disabled: i === 0, "aria-label": t("d.rules.up"), onclick: () => move(i, -1) }, "↑"),
      h("button", { type: "button", "data-move": "down", disabled: i === form.order.length - 1, "aria-label": t("d.rules.down"), onclick: () => move(i, 1) }, "↓"))));
  const point = (i, key) => h("label", {}, t(`d.rules.${key}`), h("input", { type: "number", name: key, id: `rules-${key}`,
    value: form.points[i], inputmode: "numeric", oninput: (e) => { rulesForm = form; form.points[i] = e.target.value; } }));
  const save = async () => {
    try {
      await api(`/api/tournaments/${id}/rules`, { method: "PUT", token: token(), body: {
        tiebreaks: form.order.filter(([, used]) => used).map(([k]) => k), points: form.points.map(Number) } });
      rulesForm = null;
      flash = { ok: true, text: t("d.saved") };
    } catch (err) { rulesForm = form; form.error = err.message; }
    render();
  };
  return [h("section.card.dform", { id: "rules" }, h("h3", {}, t("d.rules")), h("p.meta", {}, t("d.rules.note")),
    h("ol.tiebreaks", {}, rows),
    h("fieldset.points", {}, h("legend", {}, t("d.rules.points")), point(0, "win"), point(1, "draw"), point(2, "loss")),
    h("p.form-error", { id: "rules-error", role: "alert" }, form.error || ""),
    h("div.drow", {}, h("button.primary", { type: "button", id: "rules-save", onclick: save }, t("d.rules.save")))),
  ...planCards(id, token(), event, render)];
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
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("result-dialog"));
  const a = h("input", { type: "number", name: "a", min: -30, max: 112, value: m.result ? m.result.scores[0] : "", required: true, inputmode: "numeric" });
  const b = h("input", { type: "number", name: "b", min: -30, max: 112, value: m.result ? m.result.scores[1] : "", required: true, inputmode: "numeric" });
  const winner = h("select", { name: "winner" }, h("option", { value: "" }, t("d.none")),
    h("option", { value: "0" }, sideName(m.sides[0])), h("option", { value: "1" }, sideName(m.sides[1])));
  const error = h("p.form-error");
  const save = async (body) => {
    try {
      await withConfirm((c) => api(`/api/tournaments/${id}/matches/${m.id}/result${confirmQuery(c)}`, { method: "PUT", body, token: token() }));
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
  // pads are boards: making them needs the organiser's key, not the director's token
  const make = organiserKey() ? h("button", { id: "make-pads", onclick: () => act(async () => {
    pads = (await api(`/api/tournaments/${id}/pads`, { method: "POST", body: {}, token: organiserKey() })).pads;
  }) }, t("d.makePads")) : h("p.form-error", { id: "no-key" }, pick(NO_KEY));
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
  return [auto.card(event), event.online ? null : padsCard(), h("div.boards", { id: "director-boards" }, boards(event).map((b) => {
    const m = b.now;
    return h(`div.board-tile${m ? `.${m.status}` : ""}`, { "data-board": b.n },
      h("div.board-no", {}, boardName(event, b.n)),
      m ? h("div.board-who", {}, sideName(m.sides[0]), h("br"), `${t("find.vs")} ${sideName(m.sides[1])}`)
        : h("div.board-who.free", {}, b.next ? `${b.next.planned.start} ${sideName(b.next.sides[0])} / ${sideName(b.next.sides[1])}` : t("board.free")),
      m ? h("div.board-sub", {}, h(`span.status.s-${m.status}`, {}, t(`status.${m.status}`)),
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
  search.addEventListener("input", () => { filter = search.value; render(); });
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
        h("td", {}, auto.holdButton(d.id, p)),
        h("td", {}, p.closed
          ? h("button", { "data-action": "reopen", onclick: () => act(() => withConfirm((c) => post(`/pools/${d.id}/${p.number}/reopen${confirmQuery(c)}`))) }, t("d.reopen"))
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
  if (a.action === "withdraw") return `${d.before[getLang()].join(" · ")} → ${d.after[getLang()].join(" · ")} (${d.because})`;
  if (a.action === "room") return d.room;
  if (a.action === "seat") return String(d.seat + 1);
  if (a.action === "entry_add") return `${(d.after.members || []).map((m) => m.name).join("・")}${d.pool ? ` → ${t("pool", { label: d.pool })}` : ""}`;
  if (a.action === "entry_edit") {
    const names = (x) => (x.members || []).map((m) => `${m.name}${m.age ? ` (${m.age})` : ""}`).join("・");
    return `${names(d.before)} → ${names(d.after)}`;
  }
  if (a.action === "knockout_size") return `${d.before} → ${d.after}`;
  if (a.action === "schedule") {
    return Object.keys(d.after).filter((k) => d.before[k] !== d.after[k])
      .map((k) => `${k}: ${d.before[k] ?? "—"} → ${d.after[k] ?? "—"}`).join(", ");
  }
  if (a.action === "rules") {
    const text = (r) => `${r.order.map((k) => t(`tb.${k}`)).join(" → ")}（${r.win}/${r.draw}/${r.loss}）`;
    return `${text(d.before)} ⇒ ${text(d.after)}`;
  }
  return "";
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
      tab = k; flash = null; rulesForm = null;
      forgetPlanCards();
      sessionStorage.removeItem("hikone-carrom.newtoken");
      if (k === "audit") await loadAudit();
      if (k === "boards") await loadPads();
      render();
    },
  }, t(`d.tab.${k}`))));
  const body = { entries: entriesTab, draw: drawTab, boards: boardsTab, results: resultsTab,
    pools: poolsTab, print: printTab, settings: settingsTab, audit: auditTab }[tab]();
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
  const focused = active && active.id ? active : null;
  const caret = focused && typeof focused.selectionStart === "number" ? focused.selectionStart : null;
  view.replaceChildren(...[
    fresh ? h("p.card.token", { id: "new-token" }, t("d.tokenShown", { token: fresh })) : null,
    nav,
    flash ? h(`p.card.${flash.ok ? "ok" : "err"}`, { id: "flash", role: "status" }, flash.text) : null,
    ...body,
  ].filter(Boolean));
  // an update while the director types must not take the field away
  const again = focused && /** @type {HTMLInputElement | null} */ (document.getElementById(focused.id));
  if (again && again !== focused) {
    again.focus();
    if (caret !== null && typeof again.setSelectionRange === "function") {
      try { again.setSelectionRange(caret, caret); } catch { /* a field without a caret */ }
    }
  }
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
  connection = new LiveEvent(id, (ev, msg) => {
    event = ev;
    if (msg.type !== "live") auto.refresh();  // the reasons a match waits may have changed
    if (msg.type === "live" && tab !== "boards") return;  // nothing else shows live scores
    if (msg.audit) audit = [msg.audit, ...audit].slice(0, 100);  // the change's audit line
    render();
  }, (ok) => document.getElementById("live-dot").classList.toggle("off", !ok), { full: true, token: token() });
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
