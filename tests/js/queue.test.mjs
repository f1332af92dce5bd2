import { test } from "node:test";
import assert from "node:assert/strict";
import { dropped, refused, requestKey, sent, stranded } from "../../static/js/tables/queue.js";

/** Four hands recorded offline, each on top of the one before, as tables.js queues them. */
const chain = () => ["a", "b", "c", "d"].map((key, i) => ({ key, table: "t1", method: "POST", path: "/api/tables/t1/hands",
  body: { n: i }, version: 5, created: i, after: i ? ["a", "b", "c"][i - 1] : null }));
const waiting = (items) => items.filter((q) => !q.conflict && !q.error).map((q) => q.key);
const conflicts = (items) => items.filter((q) => q.conflict || q.error).map((q) => q.key);

test("a change's key is 128 random bits in hex, which the server takes as an Idempotency-Key", () => {
  const keys = new Set(Array.from({ length: 200 }, requestKey));
  assert.equal(keys.size, 200);
  for (const key of keys) assert.match(key, /^[0-9a-f]{32}$/);
});

test("a hand sent goes, and the one recorded on top of it is sent on the version it made", () => {
  const after = sent(chain(), "a", 6);
  assert.deepEqual(after.map((q) => q.key), ["b", "c", "d"]);
  assert.deepEqual([after[0].after, after[0].version], [null, 6]);
  assert.deepEqual([after[1].after, after[1].version], ["b", 5], "the next ones still wait their turn");
});

test("a hand refused takes every hand recorded on top of it to the player, not only the next one", () => {
  const after = refused(chain(), "a", { conflict: { version: 7 } });
  assert.deepEqual(conflicts(after), ["a", "b", "c", "d"]);
  assert.deepEqual(after[0].conflict, { version: 7 });
  for (const q of after.slice(1)) assert.deepEqual([q.conflict, q.after], [{ reason: "after_unsent" }, null]);
  const refusedLater = refused(sent(chain(), "a", 6), "c", { error: "No yaku" });
  assert.deepEqual(waiting(refusedLater), ["b"], "the hand before it still goes in");
  assert.deepEqual(conflicts(refusedLater), ["c", "d"]);
  assert.equal(refusedLater[1].error, "No yaku");
});

test("a hand the player discards leaves the ones recorded on top of it with the player, not waiting forever", () => {
  const items = refused(chain(), "b", { conflict: {} });
  assert.deepEqual(waiting(items), ["a"]);
  assert.deepEqual(waiting(dropped(items, "b")), ["a"]);
  assert.deepEqual(conflicts(dropped(items, "b")), ["c", "d"]);
  // a queue stored before this was fixed: only the hand right after the refused one was marked
  const old = chain().map((q) => (q.key === "a" ? { ...q, error: "refused" } : q.key === "b" ? { ...q, after: null, conflict: { message: "x" } } : q));
  assert.deepEqual(waiting(old), ["c", "d"], "stuck behind a conflict");
  assert.deepEqual(waiting(stranded(old)), []);
  assert.deepEqual(stranded(chain()), chain(), "a queue whose hands can all go in is left as it is");
});

test("hands of another table, or queued on their own, are never touched", () => {
  const other = { key: "x", table: "t2", method: "POST", path: "/api/tables/t2/hands", body: {}, version: 1, created: 9, after: null };
  const after = refused([...chain(), other], "a", { conflict: {} });
  assert.deepEqual(after[4], other);
});
