// The public pages of an event, phone first: my next match (search by name or kana), pools and
// standings, the knockout, live boards. "?hall=1" is the hall's big screen. Live over WebSocket.
import {
  LiveEvent, api, boardName, boards, currentCall, h, nameOf, onLang, pick, scoreText, sideName, t, timeLeft,
  wireLangSwitch,
} from "./tourney-common.js";
import { Hall } from "./hall.js";

const id = location.pathname.split("/")[2];
const params = new URLSearchParams(location.search);
// a player's personal link of an online event: /t/{id}/play/{entry}.{member}#k={key}
const player = location.pathname.split("/")[3] === "play" ? location.pathname.split("/")[4] : null;
const playerKey = new URLSearchParams(location.hash.slice(1)).get("k");
const hall = params.get("hall") === "1";
const TABS = ["find", "pools", "bracket", "boards"];
let tab = params.get("tab") || (hall ? "boards" : "find");
let division = params.get("division") || null;
let activeOnly = hall;
let query = "";
let event = null;
let live = null;
/** @type {Hall | null} */
let hallView = null;

const view = document.getElementById("view");

function setTab(next) {
  tab = next;
  const url = new URL(location.href);
  url.searchParams.set("tab", tab);
  history.replaceState(null, "", url);
  render();
}

function renderTabs() {
  const nav = document.getElementById("tabs");
  nav.replaceChildren(...TABS.map((k) => h("button.tab", {
    role: "tab", "aria-selected": String(k === tab), "data-tab": k, onclick: () => setTab(k),
  }, t(`tab.${k}`))));
  nav.hidden = hall;
}

function divisionPicker() {
  if (!event) return null;
  const drawn = event.divisions.filter((d) => d.drawn);
  if (!drawn.length) return h("p.empty", {}, t("empty"));
  if (!division || !drawn.some((d) => d.id === division)) division = drawn[0].id;
  return h("div.t-chips", { role: "group", "aria-label": t("division") }, drawn.map((d) => h("button.t-chip", {
    "aria-pressed": String(d.id === division), "data-division": d.id,
    onclick: () => { division = d.id; render(); },
  }, pick(d.name))));
}

function status(m) {
  return h(`span.status.s-${m.status}`, {}, t(`status.${m.status}`));
}

function matchLine(m, me) {
  const [a, b] = m.sides;
  const opp = me ? (a && a.id === me ? b : a) : null;
  const where = m.board ? boardName(event, m.board) : "";
  const when = m.planned ? m.planned.start : "";
  return h("li.match", { "data-match": m.id },
    h("div.match-top", {}, h("span.where", {}, where), h("span.when", {}, when), status(m)),
    h("div.match-who", {}, me ? `${t("find.vs")} ${sideName(opp)}` : `${sideName(a)} ${t("find.vs")} ${sideName(b)}`),
    h("div.match-sub", {}, pick(m.name), scoreText(m) ? h("strong.score", {}, ` ${scoreText(m)}`) : null,
      m.status === "playing" ? h("span.left", { "data-left": m.id }, ` ${timeLeft(m)}`) : null));
}

function search(q) {
  query = q;
  live.search(q);
  render();
}

async function play() {
  try {
    const seat = await api(`/api/tournaments/${id}/play/${player}`, { method: "POST", body: { key: playerKey } });
    localStorage.setItem(`hikone-carrom.token.${seat.room}`, seat.token);
    location.href = `/room/${seat.room}`;
  } catch (err) {
    const out = document.getElementById("play-error");
    if (out) out.textContent = err.message;
  }
}

function renderMe() {
  const entryId = /** @type {string} */ (player).split(".").slice(0, -1).join(".");
  live.want("entry", entryId);
  const e = live.people.get(entryId);
  if (!e) return [h("p.empty", {}, "…")];
  const mine = matchesOf(e.id);
  const next = mine.filter((m) => ["called", "playing", "planned"].includes(m.status)).sort((x, y) => rank(x) - rank(y))[0];
  const ready = next && next.room && (next.status === "called" || next.status === "playing");
  return [h("article.card.person", { "data-entry": e.id },
    h("h3", {}, e.name, h("small", {}, ` ${e.reading}`)),
    h("p.label", {}, t("find.next")),
    next ? h("ul.matches.next", {}, matchLine(next, e.id)) : h("p.empty", {}, t("find.noNext")),
    ready ? h("button.primary", { id: "play", onclick: play }, t("play")) : h("p.meta", {}, t("play.wait")),
    h("p.form-error", { id: "play-error" }),
    h("details", {}, h("summary", {}, t("find.all")), h("ul.matches", {}, mine.map((m) => matchLine(m, e.id)))))];
}

function renderFind() {
  if (player && event) return renderMe();
  const input = h("input", {
    type: "search", id: "find", value: query, placeholder: t("find.placeholder"),
    autocomplete: "off", "aria-label": t("find.label"),
  });
  let timer = null;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => search(input.value), 250); });
  const out = [h("label.find", {}, h("span", {}, t("find.label")), input)];
  const found = query.trim() ? live.found : null;
  if (found) {
    if (!found.entries.length) out.push(h("p.empty", {}, t("find.none")));
    for (const e of found.entries) {
      // the entry's matches as the live event has them now, so a call shows at once
      const mine = matchesOf(e.id);
      const next = mine.filter((m) => ["called", "playing", "planned"].includes(m.status))
        .sort((x, y) => (x.planned?.start_s ?? 1e9) - (y.planned?.start_s ?? 1e9))
        .sort((x, y) => rank(x) - rank(y))[0];
      out.push(h("article.card.person", { "data-entry": e.id },
        h("h3", {}, e.name, h("small", {}, ` ${e.reading}`)),
        h("p.meta", {}, [e.club, divisionName(e.division)].filter(Boolean).join(" · ")),
        h("p.label", {}, t("find.next")),
        next ? h("ul.matches.next", {}, matchLine(next, e.id)) : h("p.empty", {}, t("find.noNext")),
        h("details", {}, h("summary", {}, t("find.all")),
          h("ul.matches", {}, mine.map((m) => matchLine(m, e.id))))));
    }
  }
  return out;
}

function rank(m) { return { playing: 0, called: 1, planned: 2 }[m.status] ?? 3; }

/** An entry's matches the page holds, in the order of the board plan. */
function matchesOf(entryId) {
  return event.matches.filter((m) => m.sides.some((s) => s && s.id === entryId))
    .sort((x, y) => (x.planned?.start_s ?? 1e9) - (y.planned?.start_s ?? 1e9));
}

function divisionName(d) {
  const div = event && event.divisions.find((x) => x.id === d);
  return div ? pick(div.name) : d;
}

/** The pool table's headers, in the order of its cells; every number column is right-aligned,
 * header and cells alike, so that a number stands under its own header. */
const POOL_COLUMNS = ["col.place", "col.name", "col.w", "col.d", "col.l", "col.pts", "col.diff", "col.pucks"];

function renderPools() {
  const out = [divisionPicker()];
  const div = event.divisions.find((d) => d.id === division);
  if (!div) return out;
  live.want("division", `${div.id}:pools`);
  out.push(h("p.note", {}, t("tiebreaks", { list: event.tiebreaks.map(pick).join(" → ") })));
  if (!div.loaded?.pools) out.push(h("p.empty", {}, t("loading")));
  for (const pool of div.loaded?.pools ? div.pools : []) {
    const rows = pool.standings.map((s) => {
      return h("tr", { class: s.withdrawn ? "withdrawn" : (s.place <= div.advance ? "advance" : "") },
        h("td.num", {}, s.withdrawn ? "—" : s.place),
        h("td.name", {}, s.name, s.withdrawn ? h("small", {}, ` ${t("withdrawn")}`) : null,
          s.decided_by ? h("small.tb", {}, ` ${t("decided", { key: pick(s.decided_by) })}`) : null),
        h("td.num", {}, s.won), h("td.num", {}, s.drawn), h("td.num", {}, s.lost),
        h("td.num.pts", {}, s.points), h("td.num", {}, s.difference), h("td.num", {}, s.pucks));
    });
    out.push(h("section.card.pool", { "data-pool": `${div.id}-${pool.number}` },
      h("h3", {}, t("pool", { label: pool.label }),
        pool.closed ? h("span.badge", {}, t("closed")) : (pool.complete ? h("span.badge.soft", {}, t("complete")) : null)),
      h("div.table-wrap", {}, h("table.standings", {},
        h("thead", {}, h("tr", {}, POOL_COLUMNS.map((k) => h(k === "col.name" ? "th" : "th.num", { scope: "col" }, t(k))))),
        h("tbody", {}, rows)))));
  }
  return out;
}

function renderBracket() {
  const out = [divisionPicker()];
  const div = event.divisions.find((d) => d.id === division);
  if (!div) return out;
  live.want("division", `${div.id}:bracket`);
  if (!div.loaded?.bracket) return [...out, h("p.empty", {}, t("loading"))];
  const places = div.places || {};
  if (Object.keys(places).length) {
    out.push(h("section.card.places", {}, h("h3", {}, t("places")),
      h("ol", {}, Object.entries(places).sort().map(([n, ids]) => h("li", {},
        h("strong", {}, t("place", { n })), " ", ids.map((x) => nameOf(event, x)).join("・"))))));
  }
  const third = (m) => m.name.en.startsWith("Third");
  const ko = event.matches.filter((m) => m.division === div.id && m.stage === "knockout")
    .sort((x, y) => (x.round - y.round) || (third(x) - third(y)) || x.id.localeCompare(y.id));
  const rounds = [...new Set(ko.map((m) => m.round))].sort((a, b) => a - b);
  out.push(h("div.bracket", {}, rounds.map((r) => h("div.round", {},
    h("h4", {}, pick(ko.find((m) => m.round === r && !third(m)).name)),
    ko.filter((m) => m.round === r).map((m) => h("div.kmatch", { "data-match": m.id },
      h("div.kname", {}, pick(m.name), " ", status(m)),
      m.sides.map((s, i) => h(`div.kside${m.result && m.result.winner === i ? ".won" : ""}`, {},
        h("span", {}, sideName(s)), h("span.kscore", {}, m.result ? m.result.scores[i] : "")))))))));
  return out;
}

function renderBoards() {
  if (hallView) return hallView.boards(event);
  const list = boards(event).filter((b) => !activeOnly || b.now);
  const toggle = hall ? null : h("label.check", {}, h("input", {
    type: "checkbox", checked: activeOnly, onchange: (e) => { activeOnly = e.target.checked; render(); },
  }), t("board.active"));
  return [toggle, h("div.boards", {}, list.map((b) => {
    const m = b.now || b.next;
    return h(`div.board-tile${b.now ? `.${b.now.status}` : ""}`, { "data-board": b.n },
      h("div.board-no", {}, boardName(event, b.n)),
      m ? h("div.board-who", {}, `${sideName(m.sides[0])}`, h("br"), `${t("find.vs")} ${sideName(m.sides[1])}`)
        : h("div.board-who.free", {}, t("board.free")),
      m ? h("div.board-sub", {}, b.now ? status(b.now) : (m.planned ? m.planned.start : ""),
        b.now && scoreText(b.now) ? h("strong.score", { "data-score": b.now.id }, ` ${scoreText(b.now)}`) : null,
        b.now && b.now.status === "playing" ? h("span.left", { "data-left": b.now.id }, ` ${timeLeft(b.now)}`) : null) : null);
  }))];
}

function renderBanner() {
  const banner = document.getElementById("banner");
  const call = currentCall(event);
  banner.hidden = !call;
  if (call) banner.textContent = `${t("call")}：${pick(call.text)}`;
}

function render() {
  renderTabs();
  if (!event) return;
  document.getElementById("event-name").textContent = event.name;
  document.getElementById("event-date").textContent = event.date;
  document.title = `${event.name} · 彦根カロム`;
  renderBanner();
  live.watch(watching());
  if (hallView) hallView.calls(event);
  const parts = { find: renderFind, pools: renderPools, bracket: renderBracket, boards: renderBoards }[tab]();
  const focused = document.activeElement && document.activeElement.id === "find";
  const pos = focused ? /** @type {HTMLInputElement} */ (document.activeElement).selectionStart : null;
  view.replaceChildren(...parts.filter(Boolean));
  view.dataset.tab = tab;
  if (focused) { const i = /** @type {HTMLInputElement} */ (document.getElementById("find")); i.focus(); i.setSelectionRange(pos, pos); }
}

/** Whose live scores the tab shows: every board's, the entries asked for, or none. */
function watching() {
  return hall || tab === "boards" ? "all" : (tab === "find" ? "find" : "none");
}

function tick() {
  if (!event) return;
  for (const el of document.querySelectorAll("[data-left]")) {
    const m = event.matches.find((x) => x.id === el.dataset.left);
    if (m) el.textContent = ` ${timeLeft(m)}`;
  }
  if (hallView) hallView.tick();
}

if (hall) {
  document.body.classList.add("hall");
  hallView = new Hall(Number(params.get("cycle") || 12), (screen) => {
    tab = screen.kind;
    if (tab === "pools" && event) {
      const drawn = event.divisions.filter((d) => d.drawn);
      const i = drawn.findIndex((d) => d.id === division);
      division = drawn.length ? drawn[(i + 1) % drawn.length].id : null;
    }
    render();
  }, render);
}

wireLangSwitch();
onLang(() => render());
live = new LiveEvent(id, (ev) => { event = ev; render(); }, (ok, message) => {
  const dot = document.getElementById("live-dot");
  dot.classList.toggle("off", !ok);
  dot.title = ok ? t("live.ok") : (message || t("live.lost"));
  if (message) view.replaceChildren(h("p.empty", {}, message));
}, { watching: watching() });
setInterval(tick, 1000);
render();
