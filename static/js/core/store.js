// What this phone remembers, in localStorage: settings, the quick-score hand, the tables it
// created or joined (with their last known state) and hands recorded offline, waiting to be sent.
const PREFIX = "tenbou.";

export function get(key, fallback = null) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function set(key, value) {
  localStorage.setItem(PREFIX + key, JSON.stringify(value));
}

/** Tables this phone knows: {id: {id, share_code, edit_token|null, table (last JSON), seen_at, view_seat}} */
export function tables() { return get("tables", {}); }

export function table(id) {
  const all = tables();
  return all[id] || Object.values(all).find((t) => t.share_code === id) || null;
}

export function saveTable(entry) {
  const all = tables();
  const old = all[entry.id] || {};
  all[entry.id] = { ...old, ...entry, edit_token: entry.edit_token || old.edit_token || null };
  set("tables", all);
  return all[entry.id];
}

export function forgetTable(id) {
  const all = tables();
  delete all[id];
  set("tables", all);
  set("queue", queue().filter((q) => q.table !== id));
}

/** Hands waiting to be sent: [{key, table, method, path, body, version, created, conflict?}] */
export function queue() { return get("queue", []); }
export function setQueue(items) { set("queue", items); }
export function enqueue(item) {
  const items = queue();
  items.push({ key: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, created: Date.now(), ...item });
  setQueue(items);
  return items[items.length - 1];
}

/** Events this phone knows: {id: {id, share_code, name, organiser_token|null, doc (last JSON), seen_at}} */
export function events() { return get("events", {}); }

export function event(id) {
  const all = events();
  return all[id] || Object.values(all).find((e) => e.share_code === String(id).toUpperCase()) || null;
}

export function saveEvent(entry) {
  const all = events();
  const old = all[entry.id] || {};
  all[entry.id] = { ...old, ...entry, organiser_token: entry.organiser_token || old.organiser_token || null };
  set("events", all);
  return all[entry.id];
}
