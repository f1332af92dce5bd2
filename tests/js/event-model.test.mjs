import { test } from "node:test";
import assert from "node:assert/strict";
import { applyChanges, pct, playersFrom, signed } from "../../static/js/events/model.js";

test("a delta sets whole values, trims or grows lists, replaces only the entries sent, and keeps its tag", () => {
  const doc = { tag: "a", name: "Club night", rounds: [1, 2, 3], standings: [{ p: "Ann" }, { p: "Bo" }], untouched: { x: 1 } };
  const out = applyChanges(doc, { tag: "b", set: { name: "Club night 2" }, lists: { rounds: { length: 2, items: {} }, standings: { length: 3, items: { 1: { p: "Cy" }, 2: { p: "Di" } } } } });
  assert.deepEqual(out, { tag: "b", name: "Club night 2", rounds: [1, 2], standings: [{ p: "Ann" }, { p: "Cy" }, { p: "Di" }], untouched: { x: 1 } });
  assert.deepEqual(doc.rounds, [1, 2, 3], "the document it started from is left alone");
  assert.equal(out.untouched, doc.untouched);
});

test("a list the document did not have yet comes whole from the delta", () => {
  assert.deepEqual(applyChanges({ tag: "a" }, { tag: "b", lists: { games: { length: 2, items: { 0: "g0", 1: "g1" } } } }).games, ["g0", "g1"]);
});

test("the formats the standings use", () => {
  assert.equal(pct(0.4349), "43%");
  assert.equal(pct(null), "–");
  assert.equal(pct(0), "0%");
  assert.deepEqual([signed(1200), signed(-300), signed(0)], ["+1200", "−300", "0"]);
});

test("players typed one a line or with commas, blanks dropped", () => {
  assert.deepEqual(playersFrom("Ann\nBo, Cy\n\n  Di  ,"), ["Ann", "Bo", "Cy", "Di"]);
  assert.deepEqual(playersFrom("   "), []);
});
