// @ts-check
// The changes this phone made while the server could not take them (core/store.js keeps the list):
// what becomes of the list when one is sent, refused or dropped. DOM-free; tables.js sends them.
//
// Each change carries a key of its own, sent as its Idempotency-Key every time the change is sent:
// when the wifi drops after the server stored a hand, the answer is lost, and the hand sent again
// with the same key is answered with the table rather than a conflict (the server stores it once).
// A hand recorded on top of another queued hand (`after`) waits for it, and goes with the version
// that hand made.
/** @typedef {import("../core/store.js").QueueItem} QueueItem */

/** A new change's key: 128 random bits in hex. crypto.getRandomValues also works on a plain-http
 * address (a club's own server on its wifi), where crypto.randomUUID does not.
 * @returns {string} */
export function requestKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The list once `key` was sent and the table is at `version`: it goes, and the changes recorded on
 * top of it are now made on that version.
 * @param {QueueItem[]} items @param {string} key @param {number} version @returns {QueueItem[]} */
export function sent(items, key, version) {
  return items.filter((q) => q.key !== key).map((q) => (q.after === key ? { ...q, after: null, version } : q));
}

/** The list once the server refused `key` (`mark`: a conflict, or an error's words): the player
 * decides on it, and on every change recorded on top of it.
 * @param {QueueItem[]} items @param {string} key @param {{conflict: Record<string, any>}|{error: string}} mark
 * @returns {QueueItem[]} */
export function refused(items, key, mark) {
  return stranded(items.map((q) => (q.key === key ? { ...q, ...mark, after: null } : q)));
}

/** The list without `key` (the player discarded it, or records it again now).
 * @param {QueueItem[]} items @param {string} key @returns {QueueItem[]} */
export function dropped(items, key) {
  return stranded(items.filter((q) => q.key !== key));
}

/** A change recorded on top of one that will not go in by itself (refused, or gone) cannot go in by
 * itself either: it becomes a conflict the player decides on, never a change waiting forever. So do
 * the ones on top of it.
 * @param {QueueItem[]} items @returns {QueueItem[]} */
export function stranded(items) {
  const waiting = new Set(items.filter((q) => !q.conflict && !q.error).map((q) => q.key));
  let out = items;
  for (let changed = true; changed;) {
    changed = false;
    out = out.map((q) => {
      if (!q.after || !waiting.has(q.key) || waiting.has(q.after)) return q;
      changed = true;
      waiting.delete(q.key);
      return { ...q, after: null, conflict: { reason: "after_unsent" } };
    });
  }
  return out;
}
