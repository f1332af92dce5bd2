import "./browser-globals.mjs";
import { before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import * as store from "../../static/js/core/store.js";
import { loadLanguage } from "../../static/js/core/i18n.js";
import { boardOf, changeOf, handName, pendingOf, refusal } from "../../static/js/tables/projection.js";

before(() => loadLanguage("en"));
beforeEach(() => localStorage.clear());

const table = (version, extra = {}) => ({ id: "t1", version, players: ["Ann", "Bo", "Cy", "Di"], hands: [], state: {}, ...extra });

test("a queued POST adds a hand, a PUT replaces hand n, anything else is no change of the board", () => {
  assert.deepEqual(changeOf({ method: "POST", path: "/api/tables/t1/hands", body: { a: 1 } }), { op: "add", body: { a: 1 } });
  assert.deepEqual(changeOf({ method: "PUT", path: "/api/tables/t1/hands/3", body: { b: 2 } }), { op: "replace", index: 3, body: { b: 2 } });
  assert.equal(changeOf({ method: "DELETE", path: "/api/tables/t1/hands/3" }), null);
  assert.equal(changeOf({ method: "PATCH", path: "/api/tables/t1", body: {} }), null);
});

test("the pending hands of a table leave out other tables, conflicts, errors and non-hand requests", () => {
  store.enqueue({ table: "t1", method: "POST", path: "/api/tables/t1/hands", body: { n: 1 } });
  store.enqueue({ table: "t2", method: "POST", path: "/api/tables/t2/hands", body: { n: 2 } });
  store.enqueue({ table: "t1", method: "POST", path: "/api/tables/t1/hands", body: { n: 3 }, conflict: { version: 9 } });
  store.enqueue({ table: "t1", method: "POST", path: "/api/tables/t1/hands", body: { n: 4 }, error: { message: "no" } });
  store.enqueue({ table: "t1", method: "PATCH", path: "/api/tables/t1", body: { n: 5 } });
  store.enqueue({ table: "t1", method: "PUT", path: "/api/tables/t1/hands/0", body: { n: 6 } });
  assert.deepEqual(pendingOf("t1").map((q) => q.body.n), [1, 6]);
});

test("with nothing queued the board is the newest table this phone has, with no note", () => {
  store.saveTable({ id: "t1", table: table(5) });
  const shown = boardOf(table(4));
  assert.equal(shown.table.version, 5, "the copy stored when the last hand was sent is newer than the screen's");
  assert.equal(shown.info, null);
  assert.equal(boardOf(table(6)).table.version, 6);
});

test("a projection kept on the phone for exactly these queued hands is shown at once after a reload", () => {
  store.saveTable({ id: "t1", table: table(4) });
  const item = store.enqueue({ table: "t1", method: "POST", path: "/api/tables/t1/hands", body: {} });
  const projected = table(4, { hands: [{ result: "ron" }] });
  store.set("projections", { t1: { key: `t1@4:${item.key}`, result: { table: projected }, ms: 12 } });
  const shown = boardOf(table(4));
  assert.deepEqual(shown.table, projected);
  assert.equal(shown.info.state, "ready");
  assert.equal(shown.info.count, 1);
  assert.deepEqual(shown.info.changes, [{ op: "add", body: {} }]);
});

test("a hand is named by its round and honba, as the table calls it", () => {
  assert.equal(handName({ round_wind: "east", hand_number: 2, honba: 0 }), "East 2");
  assert.equal(handName({ round_wind: "south", hand_number: 1, honba: 3 }), "South 1, 3 honba");
});

test("a refusal of the phone's ledger is worded by the catalogue, seats by the players' names, at the hand refused", () => {
  const error = { detail: { id: "noten_riichi", params: { seat: 1 } }, change: 0 };
  const t = table(4, { hands: [{ round_wind: "east", hand_number: 3, honba: 1 }], state: { round_wind: "east", hand_number: 4, honba: 0 } });
  const text = refusal(error, t, [{ op: "replace", index: 0, body: {} }]);
  assert.equal(text, "East 3, 1 honba: Bo declared riichi, so must be tenpai at a draw (a noten riichi is a chombo: record that instead).");
  assert.equal(refusal(error, t, [{ op: "add", body: {} }]).split(":")[0], "East 4", "a new hand: the table's current round");
  assert.match(refusal(error, t, [], { round: false }), /^Bo declared riichi/);
  assert.equal(refusal({ detail: { id: "no-such-id" } }, t, []), "This hand cannot be recorded as it is: check it in the record sheet.");
});
