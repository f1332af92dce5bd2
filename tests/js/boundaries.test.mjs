// The phone app's rooms: static/js/core/ is what every screen may use; each feature folder (score/,
// photo/, tables/, events/) imports core/ and its own modules, never another feature's screen. A
// feature may expose a DOM-free model module to the others: those are listed here, each with the
// comment at its top that says so. core/ imports no feature. main.js, the router, loads the screens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const JS = resolve(dirname(fileURLToPath(import.meta.url)), "../../static/js");
const FEATURES = ["score", "photo", "tables", "events"];
/** Models a feature offers to other features (path under static/js -> the features that may import it). */
const EXPOSED = { "photo/detections.js": ["tables"] };

function modules(dir = JS) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : []));
}

/** Every module a file imports, statically or with import(), or starts as a worker, as paths under static/js. */
function importsOf(file) {
  const text = readFileSync(file, "utf-8");
  const specs = [...text.matchAll(/(?:^import\s[^;]*?from\s+|import\(\s*|new URL\(\s*)"([^"]+\.js)"/gm)].map((m) => m[1]);
  return specs.map((s) => (s.startsWith("/static/js/") ? s.slice("/static/js/".length) : relative(JS, resolve(dirname(file), s))));
}

const room = (path) => path.split("/")[0];

test("each module's imports resolve to a module that exists", () => {
  const all = new Set(modules().map((f) => relative(JS, f)));
  for (const file of modules()) for (const dep of importsOf(file)) assert.ok(all.has(dep), `${relative(JS, file)} imports ${dep}`);
});

test("core imports no feature, and a feature imports only core, itself and the models others expose", () => {
  const crossings = [];
  for (const file of modules()) {
    const from = relative(JS, file);
    if (from === "main.js") continue;
    for (const dep of importsOf(file)) {
      const to = room(dep);
      if (to === "core" || to === room(from)) continue;
      if (EXPOSED[dep] && EXPOSED[dep].includes(room(from))) continue;
      crossings.push(`${from} -> ${dep}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test("an exposed model says so at its top and touches no DOM", () => {
  for (const path of Object.keys(EXPOSED)) {
    const text = readFileSync(join(JS, path), "utf-8");
    assert.match(text.split("\nimport")[0], /model/i, `${path} says it is a model other features import`);
    assert.doesNotMatch(text, /\bdocument\.|\bwindow\./, `${path} touches the DOM`);
    for (const dep of importsOf(join(JS, path))) assert.ok(["core/hand-editor.js", "core/tiles.js", "core/i18n.js"].includes(dep) || room(dep) === room(path), `${path} imports ${dep}`);
  }
});

test("every feature folder holds a screen and the router loads each feature", () => {
  const main = readFileSync(join(JS, "main.js"), "utf-8");
  for (const feature of FEATURES) assert.ok(main.includes(`import("./${feature}/`), `main.js loads ${feature}/`);
});
