// @ts-check
// What this phone remembers, in localStorage: settings, the quick-score hand, the tables it
// created or joined (with their last known state) and hands recorded offline, waiting to be sent.
/** @typedef {Record<string, any>} Json  a JSON object as the server or localStorage gave it */
/** @typedef {{id: string, share_code?: string, edit_token?: string|null, table?: Json, seen_at?: number, view_seat?: number} & Json} TableEntry */
/** @typedef {{key: string, table: string, method: string, path: string, body: Json, version?: number, created: number, conflict?: Json} & Json} QueueItem */
/** @typedef {{id: string|number, share_code?: string, name?: string, organiser_token?: string|null, doc?: Json, seen_at?: number} & Json} EventEntry */
const PREFIX = "tenbou.";

/**
 * The value stored under `key`, `fallback` when there is none or it cannot be read.
 * @template T
 * @param {string} key
 * @param {T} [fallback]
 * @returns {any}
 */
export function get(key, fallback) {
  if (fallback === undefined) fallback = /** @type {T} */ (null);
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value */
export function set(key, value) {
  localStorage.setItem(PREFIX + key, JSON.stringify(value));
}

/** Tables this phone knows: {id: {id, share_code, edit_token|null, table (last JSON), seen_at, view_seat}} */
/** @returns {Record<string, TableEntry>} */
export function tables() { return get("tables", {}); }

/** @param {string} id a table's id or share code @returns {TableEntry|null} */
export function table(id) {
  const all = tables();
  return all[id] || Object.values(all).find((t) => t.share_code === id) || null;
}

/** @param {Partial<TableEntry> & {id: string}} entry @returns {TableEntry} */
export function saveTable(entry) {
  const all = tables();
  /** @type {Partial<TableEntry>} */
  const old = all[entry.id] || {};
  all[entry.id] = { ...old, ...entry, edit_token: entry.edit_token || old.edit_token || null };
  set("tables", all);
  return all[entry.id];
}

/** @param {string} id */
export function forgetTable(id) {
  const all = tables();
  delete all[id];
  set("tables", all);
  set("queue", queue().filter((q) => q.table !== id));
}

/** Hands waiting to be sent: [{key, table, method, path, body, version, created, conflict?}] */
/** @returns {QueueItem[]} */
export function queue() { return get("queue", []); }
/** @param {QueueItem[]} items */
export function setQueue(items) { set("queue", items); }
/** `item` at the end of the queue, under its own key (the change's Idempotency-Key) or a new one.
 * @param {Omit<QueueItem, "key"|"created"> & {key?: string}} item @returns {QueueItem} */
export function enqueue(item) {
  const items = queue();
  items.push(/** @type {QueueItem} */ ({ key: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, created: Date.now(), ...item }));
  setQueue(items);
  return items[items.length - 1];
}

/** Events this phone knows: {id: {id, share_code, name, organiser_token|null, doc (last JSON), seen_at}} */
/** @returns {Record<string, EventEntry>} */
export function events() { return get("events", {}); }

/** @param {string|number} id an event's id or share code @returns {EventEntry|null} */
export function event(id) {
  const all = events();
  return all[id] || Object.values(all).find((e) => e.share_code === String(id).toUpperCase()) || null;
}

/** @param {Partial<EventEntry> & {id: string|number}} entry @returns {EventEntry} */
export function saveEvent(entry) {
  const all = events();
  /** @type {Partial<EventEntry>} */
  const old = all[entry.id] || {};
  all[entry.id] = { ...old, ...entry, organiser_token: entry.organiser_token || old.organiser_token || null };
  set("events", all);
  return all[entry.id];
}
