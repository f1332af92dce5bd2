import "./browser-globals.mjs";
import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import * as store from "../../static/js/core/store.js";

beforeEach(() => localStorage.clear());

test("values round-trip through localStorage as JSON under the tenbou. prefix", () => {
  store.set("lang", "ja");
  assert.equal(localStorage.getItem("tenbou.lang"), '"ja"');
  assert.equal(store.get("lang"), "ja");
});

test("a missing or unreadable value gives the fallback, null without one", () => {
  assert.equal(store.get("nothing"), null);
  assert.deepEqual(store.get("nothing", []), []);
  localStorage.setItem("tenbou.broken", "{not json");
  assert.equal(store.get("broken", "fallback"), "fallback");
});

test("a table is found by its id or its share code, and saving keeps an edit token it had", () => {
  store.saveTable({ id: "t1", share_code: "ABCD", edit_token: "secret", table: { version: 1 } });
  assert.equal(store.table("t1").share_code, "ABCD");
  assert.equal(store.table("ABCD").id, "t1");
  assert.equal(store.table("nope"), null);
  const saved = store.saveTable({ id: "t1", table: { version: 2 } });   // a viewer's later copy
  assert.equal(saved.edit_token, "secret");
  assert.deepEqual(store.table("t1").table, { version: 2 });
});

test("forgetting a table drops its queued hands and no other table's", () => {
  store.saveTable({ id: "t1" });
  store.saveTable({ id: "t2" });
  store.enqueue({ table: "t1", method: "POST", path: "/api/tables/t1/hands", body: {} });
  store.enqueue({ table: "t2", method: "POST", path: "/api/tables/t2/hands", body: {} });
  store.forgetTable("t1");
  assert.equal(store.table("t1"), null);
  assert.deepEqual(store.queue().map((q) => q.table), ["t2"]);
});

test("enqueue gives each item a distinct key and its time, in order", () => {
  const a = store.enqueue({ table: "t", method: "POST", path: "/p", body: { n: 1 } });
  const b = store.enqueue({ table: "t", method: "POST", path: "/p", body: { n: 2 } });
  assert.notEqual(a.key, b.key);
  assert.ok(typeof a.created === "number" && a.created <= b.created);
  assert.deepEqual(store.queue().map((q) => q.body.n), [1, 2]);
});

test("an event is found by id or by its share code in any case, and keeps its organiser token", () => {
  store.saveEvent({ id: 7, share_code: "WXYZ", organiser_token: "org" });
  assert.equal(store.event("wxyz").id, 7);
  assert.equal(store.event(7).share_code, "WXYZ");
  assert.equal(store.saveEvent({ id: 7, name: "Club night" }).organiser_token, "org");
});
