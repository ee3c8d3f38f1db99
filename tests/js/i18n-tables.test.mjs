// The language tables of the browser client, read from the source as written: an object literal
// keeps only the last of two equal keys, so a duplicate ("d.start" once was) must be found before
// the browser parses it. Every table of Japanese and English has the same keys in both.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import ts from "typescript";

const WEB_JS = new URL("../../src/hikone_carrom/web/js/", import.meta.url).pathname;
const files = readdirSync(WEB_JS, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js")).sort();

/** @param {ts.PropertyName} name */
const keyOf = (name) => (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : null);

/** Every object literal of a source, with its line. @param {string} file @param {string} [text] */
function objectLiterals(file, text = readFileSync(join(WEB_JS, file), "utf8")) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  /** @type {{line: number, node: ts.ObjectLiteralExpression}[]} */
  const found = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isObjectLiteralExpression(node)) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, node });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The named properties of an object literal, keys in order. @param {ts.ObjectLiteralExpression} node */
function properties(node) {
  /** @type {[string, ts.Expression][]} */
  const out = [];
  for (const p of node.properties) {
    if (ts.isPropertyAssignment(p)) {
      const k = keyOf(p.name);
      if (k !== null) out.push([k, p.initializer]);
    } else if (ts.isShorthandPropertyAssignment(p)) out.push([p.name.text, p.name]);
  }
  return out;
}

/** Language tables: literals {en: {...}, ja: {...}} whose two values are literals themselves. */
function tables() {
  const out = [];
  for (const file of files) {
    for (const { line, node } of objectLiterals(file)) {
      const props = new Map(properties(node));
      const en = props.get("en"), ja = props.get("ja");
      if (props.size === 2 && en && ja && ts.isObjectLiteralExpression(en) && ts.isObjectLiteralExpression(ja)) {
        out.push({ where: `${file}:${line}`, en: properties(en).map(([k]) => k), ja: properties(ja).map(([k]) => k) });
      }
    }
  }
  return out;
}

/** "file:line key" for every key named twice in one literal. @param {string} file @param {string} [text] */
function keysTwice(file, text) {
  const twice = [];
  for (const { line, node } of objectLiterals(file, text)) {
    const seen = new Set();
    for (const [k] of properties(node)) {
      if (seen.has(k)) twice.push(`${file}:${line} ${k}`);
      seen.add(k);
    }
  }
  return twice;
}

test("no object literal of the client names a key twice", () => {
  assert.deepEqual(files.flatMap((f) => keysTwice(f)), []);
});

test("the check finds a key given twice", () => {
  const text = 'const STR = {\n  ja: { "d.start": "開始時刻", d: 1,\n    "d.start": "開始" },\n};\n';
  assert.deepEqual(keysTwice("t.js", text), ["t.js:2 d.start"]);
});

test("every language table has the same keys in Japanese and English", () => {
  const found = tables();
  // the game's, the tournament pages', the pad's, and the ones added by the game's views
  for (const file of ["i18n.js", "tourney-common.js", "pad/strings.js", "social.js", "analysis.js"]) {
    assert.ok(found.some((t) => t.where.startsWith(`${file}:`)), `no language table found in ${file}`);
  }
  for (const table of found) {
    const en = new Set(table.en), ja = new Set(table.ja);
    assert.ok(en.size > 0, table.where);
    assert.deepEqual(table.en.filter((k) => !ja.has(k)), [], `${table.where}: keys only in English`);
    assert.deepEqual(table.ja.filter((k) => !en.has(k)), [], `${table.where}: keys only in Japanese`);
  }
});
