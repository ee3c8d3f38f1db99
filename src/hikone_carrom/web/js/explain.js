// Each ruling explained in words, with the rule ids that decided it (RULES.md).
import { lang, pick, t } from "./i18n.js";

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
