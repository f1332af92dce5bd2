// The board moves forward offline: the last table the server sent plus the hands queued on this
// phone, replayed by the server's own ledger (scoring.board.project, run by Pyodide in the offline
// worker). No rule is worked out here: this module only asks the ledger, remembers its answer and
// marks on the screen what is not sent yet. Without Pyodide the board stays as the server last sent it.
import { h } from "./util.js";
import { t } from "./i18n.js";
import { projectOffline } from "./offline.js";
import * as store from "./store.js";

/** The change a queued item makes: POST .../hands adds a hand, PUT .../hands/<n> replaces hand n. */
export function changeOf(item) {
  const m = /\/hands\/(\d+)$/.exec(item.path || "");
  if (item.method === "PUT" && m) return { op: "replace", index: Number(m[1]), body: item.body };
  if (item.method === "POST" && /\/hands$/.test(item.path || "")) return { op: "add", body: item.body };
  return null;
}

/** Hands of this table waiting to be sent (not the ones that met a conflict or an error). */
export function pendingOf(id) {
  return store.queue().filter((q) => q.table === id && !q.conflict && !q.error && changeOf(q));
}

/** The newest table JSON this phone has: the screen's copy, or the one stored when a queued hand was sent. */
function newest(table) {
  const saved = (store.table(table.id) || {}).table;
  return saved && saved.id === table.id && saved.version > table.version ? saved : table;
}

const keyOf = (base, items) => `${base.id}@${base.version}:${items.map((q) => q.key).join(",")}`;
const results = new Map();   // key -> {result, ms}
const running = new Map();   // key -> promise
const failed = new Map();    // key -> message
export const timings = [];   // milliseconds from asking the ledger to its answer, for the test's log

function remember(id, key, entry) {
  const all = store.get("projections", {});
  all[id] = { key, ...entry };
  store.set("projections", all);
}

function forget(id) {
  const all = store.get("projections", {});
  if (id in all) { delete all[id]; store.set("projections", all); }
}

/** What the board shows for `table`: {table, info}. With no hand queued, the newest table and no info.
 * Otherwise the projection when the ledger has answered (from memory, or from this phone's storage after
 * a reload); until then, or when the ledger cannot run, the last known table and why. `onready` is called
 * when an answer arrives. */
export function boardOf(table, onready = () => {}) {
  const items = pendingOf(table.id);
  const base = newest(table);   // the server's answer to the last hand sent shows at once, not at the next poll
  if (!items.length) { forget(table.id); return { table: base, info: null }; }
  const key = keyOf(base, items);
  const saved = store.get("projections", {})[table.id];
  const known = results.get(key) || (saved && saved.key === key ? saved : null);
  if (known) return { table: known.result.table, info: { state: "ready", count: items.length, ...known.result, ms: known.ms } };
  if (failed.has(key)) return { table: base, info: { state: "unavailable", count: items.length, message: failed.get(key) } };
  if (!running.has(key)) {
    const started = performance.now();
    running.set(key, projectOffline(base, items.map(changeOf)).then((result) => {
      const ms = Math.round(performance.now() - started);
      timings.push(ms);
      results.set(key, { result, ms });
      // kept on the phone, so a reload offline shows the board at once
      if (keyOf(newest(base), pendingOf(base.id)) === key) remember(base.id, key, { result, ms });
    }, (err) => { failed.set(key, err.message); }).finally(() => { running.delete(key); onready(); }));
  }
  return { table: base, info: { state: "working", count: items.length } };
}

/** Who pays what for `change` (a hand being entered offline), after the hands already queued: the
 * ledger's record of that hand and the state after it, or {error}; null when the ledger cannot run. */
export async function previewOf(id, change) {
  const base = (store.table(id) || {}).table;
  if (!base) return null;
  const changes = [...pendingOf(id).map(changeOf), change];
  let out;
  try { out = await projectOffline(base, changes); } catch { return null; }
  if (out.error) return { error: out.error };
  const at = change.op === "replace" ? change.index : out.table.hands.length - 1;
  return { hand: out.table.hands[at], state: out.table.state };
}

/** Under an offline preview: where it comes from. */
export const previewNote = () => h("p", { class: "small muted", "data-testid": "preview-offline" }, t("projection.preview"));

/** Marks what is not sent yet on the drawn table screen `root`: a banner saying whether the board
 * includes the queued hands, the board outlined, "not sent" on their history rows and the standings. */
export function decorate(root, info) {
  if (!info) return;
  const n = info.count;
  let text;
  if (info.state === "ready" && info.error && !info.applied) {
    text = t("projection.failed", { n, message: info.error.message });
  } else if (info.state === "ready" && info.error) {
    text = t("projection.partial", { n, applied: info.applied, message: info.error.message });
  } else if (info.state === "ready") {
    text = t(n === 1 ? "projection.included_one" : "projection.included", { n });
  } else if (info.state === "working") {
    text = t(n === 1 ? "projection.working_one" : "projection.working", { n });
  } else {
    text = t(n === 1 ? "projection.unavailable_one" : "projection.unavailable", { n });
  }
  const attrs = { role: "status", "data-testid": "projection", "data-state": info.state, ...(info.ms !== undefined ? { "data-ms": String(info.ms) } : {}) };
  const board = root.querySelector(".board");
  const pending = root.querySelector('[data-testid="pending"]');
  // one box with the list of hands waiting: whether the board includes them, then which they are
  if (pending && info.state === "ready" && !info.error) pending.prepend(h("strong", { class: "projection", ...attrs }, text), h("br"));
  else if (pending || board) (pending || board).before(h("div", { class: `banner ${info.state === "ready" && !info.error ? "info" : "warn"} projection`, ...attrs }, text));
  if (info.state !== "ready" || !info.applied) return;
  if (board) {
    board.classList.add("projected");
    const centre = board.querySelector(".centre");
    if (centre) centre.append(h("span", { class: "unsent-mark", "data-testid": "board-unsent" }, t("projection.not_sent")));
  }
  for (const index of info.unsent || []) {
    const row = root.querySelector(`.history li[data-hand="${index}"]`);
    if (!row) continue;
    row.classList.add("unsent");
    row.prepend(h("span", { class: "unsent-mark", "data-testid": "unsent" }, t("projection.not_sent")));
  }
  const standings = root.querySelector('[data-testid="standings"]');
  if (standings) standings.querySelector("h2").after(h("p", { class: "banner warn", "data-testid": "standings-unsent" }, t("projection.standings")));
}
