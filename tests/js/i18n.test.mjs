// Translation (web/js/i18n.js): keys in the page's language with their {name} values, the
// server's {en, ja} pairs, and a feature module's strings added once.
import assert from "node:assert/strict";
import { test } from "node:test";

// i18n.js reads the remembered language when it loads: an English page
Object.assign(globalThis, {
  localStorage: { getItem: () => "en", setItem: () => {} },
  navigator: { language: "en", languages: ["en"] },
});
const { addStrings, lang, pick, render, t } = await import("../../src/hikone_carrom/web/js/i18n.js");

test("a key in the page's language, its placeholders filled", () => {
  assert.equal(lang(), "en");
  assert.equal(t("turn.of", { name: "Aoi" }), "Aoi to shoot");
  assert.equal(t("no.such.key"), "no.such.key");
});

test("a pair from the server in the page's language, English when the other is missing", () => {
  assert.equal(pick({ en: "Foul", ja: "反則" }), "Foul");
  assert.equal(pick(/** @type {any} */ ({ ja: "反則" })), "");
  assert.equal(pick("as it is"), "as it is");
  assert.equal(pick(null), "");
  assert.deepEqual(pick({ en: ["a", "b"], ja: ["あ"] }), ["a", "b"]);
});

test("a message: a key, a key with values, a pair or a function", () => {
  assert.equal(render("turn.over"), "Game over");
  assert.equal(render({ key: "turn.of", params: { name: "Ren" } }), "Ren to shoot");
  assert.equal(render({ en: "Hello", ja: "こんにちは" }), "Hello");
  assert.equal(render(() => "built"), "built");
  assert.equal(render(null), "");
});

test("a feature module's strings are added once; a key given twice is refused", () => {
  addStrings({ en: { "test.added": "Added {n}" }, ja: { "test.added": "{n}件追加" } });
  assert.equal(t("test.added", { n: 3 }), "Added 3");
  assert.throws(() => addStrings({ en: { "turn.over": "x" }, ja: {} }), /turn\.over is given twice/);
});
