// @ts-check
// The event screen's model, DOM-free: an event document kept up to date from the server's deltas,
// and the small formats the standings and statistics use. events.js draws it.

/** @typedef {Record<string, any>} Json  an event document (GET /api/events/<key>), or a part of it */

/** A rate as a whole percentage ("43%"); a dash when there is none yet. */
export const pct = (/** @type {number|null|undefined} */ r) => (r === null || r === undefined ? "–" : `${Math.round(r * 100)}%`);
/** Points with their sign: "+1200", "−300" (a minus sign), "0". */
export const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0");

/** Players' names typed one a line or separated by commas, blanks dropped.
 * @param {string} text @returns {string[]} */
export function playersFrom(text) {
  return text.split(/\n|,/).map((s) => s.trim()).filter(Boolean);
}

/** The event document after the changes GET /api/events/<key>/changes sent: whole values under
 * `set`, and for lists their new length and only the entries that changed. No rule is worked out
 * here: the server sends the values, this puts them in place. */
/** @param {Json} doc @param {{tag: string, set?: Json, lists?: Record<string, {length: number, items?: Record<string, unknown>}>}} delta @returns {Json} */
export function applyChanges(doc, delta) {
  const out = { ...doc, ...(delta.set || {}) };
  for (const [name, change] of Object.entries(delta.lists || {})) {
    const list = (Array.isArray(doc[name]) ? doc[name] : []).slice(0, change.length);
    for (const [i, value] of Object.entries(change.items || {})) list[Number(i)] = value;
    out[name] = list;
  }
  out.tag = delta.tag;
  return out;
}
