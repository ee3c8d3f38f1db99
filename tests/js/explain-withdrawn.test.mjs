// A room whose championship call was withdrawn (server/rooms/room_withdrawn.py): its event is
// shown in the room's log in the player's language, as a penalty line.
import assert from "node:assert/strict";
import { test } from "node:test";

// i18n.js reads the remembered language when it loads: a Japanese page
Object.assign(globalThis, {
  localStorage: { getItem: () => "ja", setItem: () => {} },
  navigator: { language: "ja", languages: ["ja"] },
});
const { explain } = await import("../../src/hikone_carrom/web/js/explain.js");

const withdrawn = {
  kind: "withdrawn",
  withdrawn: { ja: "大会本部", en: "the director" },
  message: { ja: "この試合は取り消されました（大会本部）", en: "This match was withdrawn (by the director)" },
};

test("a withdrawn match is one penalty line with the server's words", () => {
  const lines = explain(withdrawn, () => "");
  assert.equal(lines.length, 1);
  assert.equal(lines[0].kind, "penalty");
  assert.equal(lines[0].text, "この試合は取り消されました（大会本部）");
});
