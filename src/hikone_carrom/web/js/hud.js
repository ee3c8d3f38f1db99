// Side-panel pieces shared by the game page and the replay viewer: pocket counts with debt and
// the jack spot pile (R5h, R5i, R6e), and the rulings log with each rule id marked.
import { explain } from "./explain.js";
import { t } from "./i18n.js";

/** An element with text content and an optional class. */
export function text(tag, content, cls) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

/** A colour chip (the colour is also named in words next to it). */
export function chip(color) {
  const el = document.createElement("span");
  el.className = `chip ${color}`;
  el.setAttribute("aria-hidden", "true");
  return el;
}

/**
 * Fill el with pucks pocketed and debt per colour, and the jack spot pile, from a state; its
 * title a `heading` (the replay's cards sit under the page's h1: h2).
 */
export function renderCounts(el, st, heading = "h3") {
  el.replaceChildren(text(heading, t("counts.title")));
  const table = document.createElement("table");
  const head = table.insertRow();
  head.insertCell(); // the corner above the colours: no header of its own
  head.append(text("th", t("counts.pocketed")), text("th", t("counts.debt")));
  for (const color of ["red", "green"]) {
    const row = table.insertRow();
    row.insertCell().append(chip(color), ` ${t(`color.${color}`)}`);
    const c = st.counts[color];
    const n = row.insertCell();
    n.className = "num";
    n.textContent = `${c.pocketed} / 12`;
    const d = row.insertCell();
    d.className = `num${c.debt ? " debt" : ""}`;
    d.textContent = String(c.debt);
  }
  el.append(table);
  const pile = document.createElement("div");
  pile.className = "pile";
  pile.append(`${t("counts.pile")}: `);
  if (st.pile.length) {
    const stack = document.createElement("span");
    stack.className = "pile-stack";
    for (const kind of st.pile) {
      const i = document.createElement("i");
      i.className = kind;
      i.title = t(`piece.${kind}`);
      stack.append(i);
    }
    pile.append(stack, ` ×${st.pile.length}`);
  } else pile.append(t("counts.pile.empty"));
  el.append(pile);
}

const RULE_IDS = /\((R\d+[a-z]?(?:[,、・] ?R\d+[a-z]?)*)\)|（(R\d+[a-z]?(?:[,、・] ?R\d+[a-z]?)*)）/g;

/** A rule id as a link to its explanation on the How to play page (opens beside the game). */
export function ruleLink(id) {
  const a = text("a", id, "rule");
  a.href = `/howto#${id}`;
  a.target = "_blank";
  a.rel = "noopener";
  a.title = t("rule.explain", { id });
  return a;
}

/** Append text to el with every cited rule id, "(R5a)" or "（R5a、R5h）", linked to its
 * explanation. */
export function appendRuling(el, sentence) {
  let at = 0;
  for (const m of sentence.matchAll(RULE_IDS)) {
    el.append(sentence.slice(at, m.index));
    const cite = document.createElement("span");
    cite.className = "cite";
    const inner = m[1] || m[2];
    const open = m[0][0], close = m[0][m[0].length - 1];
    cite.append(open);
    let k = 0;
    for (const id of inner.matchAll(/R\d+[a-z]?/g)) {
      cite.append(inner.slice(k, id.index), ruleLink(id[0]));
      k = id.index + id[0].length;
    }
    cite.append(inner.slice(k), close);
    el.append(cite);
    at = m.index + m[0].length;
  }
  el.append(sentence.slice(at));
}

/** Fill the list el with one item per event (newest first), each ruling in words. */
export function renderLog(el, events, seatName) {
  el.replaceChildren();
  for (const ev of events) {
    const lines = ev.kind === "rematch" ? [{ text: t("msg.rematch"), kind: "info" }] : explain(ev, seatName);
    const li = document.createElement("li");
    if (lines.some((l) => l.kind === "penalty")) li.className = "penalty";
    for (const [i, line] of lines.entries()) {
      if (i) li.append(" ");
      appendRuling(li, line.text);
    }
    el.append(li);
  }
}
