// Each ruling explained in words, with the rule ids that decided it (RULES.md), and the other
// entries of the log: resignations, agreed draws, offers and hints used.
import { addStrings, lang, pick, t } from "./i18n.js";

addStrings({
  en: {
    "r.resigned": "{name} resigned: {color} wins.", "r.drawn": "{offer} offered a draw and {accept} accepted.",
    "r.hint": "{name} used a hint.",
    "v.draw.offer": "{name} offers a draw.", "v.draw.accept": "{name} accepts the draw.",
    "v.draw.decline": "{name} declines the draw.", "v.draw.withdraw": "{name} withdraws the draw offer.",
    "v.draw.lapse": "The draw offer lapsed with the shot.",
    "v.rematch.offer": "{name} asks for a rematch.", "v.rematch.accept": "{name} accepts the rematch.",
    "v.rematch.decline": "{name} declines the rematch.",
  },
  ja: {
    "r.resigned": "{name}が投了し、{color}の勝ちです。", "r.drawn": "{offer}が引き分けを申し出て、{accept}が受けました。",
    "r.hint": "{name}がヒントを使いました。",
    "v.draw.offer": "{name}が引き分けを申し出ました。", "v.draw.accept": "{name}が引き分けを受けました。",
    "v.draw.decline": "{name}が引き分けを断りました。", "v.draw.withdraw": "{name}が引き分けの申し出を取り下げました。",
    "v.draw.lapse": "ショットにより引き分けの申し出は取り消されました。",
    "v.rematch.offer": "{name}が再戦を申し込みました。", "v.rematch.accept": "{name}が再戦を受けました。",
    "v.rematch.decline": "{name}が再戦を断りました。",
  },
});

/** Lines for the log's entries that are not rulings of a shot: a resignation, an agreed draw
 * (with the outcome in the library's words), an offer or its answer, a hint used. */
function agreementLines(ev, seatName) {
  if (ev.kind === "resign") {
    const winner = ev.color === "red" ? "green" : "red";
    return [{ text: t("r.resigned", { name: seatName(ev.seat), color: t(`color.${winner}`) }), kind: "win" }];
  }
  if (ev.kind === "draw") {
    return [{ text: `${t("r.drawn", { offer: seatName(ev.offered_by), accept: seatName(ev.seat) })} ${pick(ev.explain)}`, kind: "win" }];
  }
  if (ev.kind === "hint") {
    return [
      { text: t("r.hint", { name: seatName(ev.seat) }), kind: "info" },
      { text: pick(ev.text), kind: "info" },
    ];
  }
  return [{ text: t(`v.${ev.topic}.${ev.answer}`, { name: seatName(ev.seat) }), kind: "info" }];
}

function pieceList(pieces) {
  const counts = new Map();
  for (const p of pieces) counts.set(p, (counts.get(p) || 0) + 1);
  return [...counts].map(([p, n]) => (n > 1 ? `${t(`piece.${p}`)} ×${n}` : t(`piece.${p}`))).join(", ");
}

/**
 * Lines [{text, kind}] explaining one shot, lost shot or time call; kind: "info" | "penalty" |
 * "win". The ruling's sentences come from the library (hikone_carrom.rules.messages, ja and en,
 * each with its rule id); only the line saying who shot and what fell is written here.
 */
export function explain(ev, seatName) {
  if (ev.kind === "time_called") return [{ text: t("r.timecalled"), kind: "info" }];
  // a championship's call withdrawn from this online room: the server's words, ja and en
  if (ev.kind === "withdrawn") return [{ text: pick(ev.message), kind: "penalty" }];
  if (["resign", "draw", "vote", "hint"].includes(ev.kind)) return agreementLines(ev, seatName);
  const r = ev.ruling;
  if (!r) return [];
  const lines = [];
  if (!r.skipped) {
    const pocketed = ev.pocketed || [];
    lines.push({
      text: `${t("r.shot", { name: seatName(r.seat) })} ${pocketed.length ? t("r.pocketed", { list: pieceList(pocketed) }) : t("r.none")}`,
      kind: "info",
    });
  }
  if (ev.lapsed) lines.push({ text: t("v.draw.lapse"), kind: "info" });
  const penalty = r.penalty > 0 || r.restored || r.skipped || (r.fouls || []).length > 0;
  const sentences = ev.explain ? pick(ev.explain) : [];
  sentences.forEach((text, i) => {
    const last = i === sentences.length - 1;
    const kind = r.outcome && last ? "win" : penalty && /R4c|R5[a-h]|R6a|R8a/.test(text) ? "penalty" : "info";
    lines.push({ text: /[.。]$/.test(text) ? text : `${text}${lang() === "ja" ? "。" : "."}`, kind });
  });
  return lines;
}

/** "Red wins" / "Draw" for a match outcome ({winner, reason, scores}). */
export function outcomeTitle(o) {
  return o.winner ? t("end.win", { color: t(`color.${o.winner}`) }) : t("end.draw");
}
