// @ts-check
// The board moves forward offline: the last table the server sent plus the hands queued on this
// phone, replayed by the server's own ledger (game.board.project, run by Pyodide in the offline
// worker). No rule is worked out here: this module only asks the ledger, remembers its answer and
// marks on the screen what is not sent yet. Without Pyodide the board stays as the server last sent it.
import { h, clear, fmtTime } from "../core/util.js";
import { detailText, t } from "../core/i18n.js";
import { prepareOffline, projectOffline } from "../core/offline.js";
import { WIND_NAME } from "../core/tiles.js";
import * as store from "../core/store.js";

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
  if (known) return { table: known.result.table, info: { state: "ready", count: items.length, ...known.result, changes: items.map(changeOf), ms: known.ms } };
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
  if (out.error) return { error: { ...out.error, message: refusal(out.error, out.table, changes, { round: false }) } };
  const at = change.op === "replace" ? change.index : out.table.hands.length - 1;
  return { hand: out.table.hands[at], state: out.table.state };
}

// --- a refused hand, in the player's words --------------------------------------------------------

/** Which hand, as the table calls it: "East 2, 1 honba". */
export function handName(s) {
  const round = t("table.round", { wind: WIND_NAME[s.round_wind] || s.round_wind, n: s.hand_number });
  return s.honba ? t("refusal.round_honba", { round, honba: s.honba }) : round;
}

/** A refusal of the ledger run on the phone (`error` of game.board.project, with the table it gives
 * back and the changes it was asked about), with the players' names for seats and the refused hand
 * named by its round (unless `round` is false: the hand being entered in the sheet). */
export function refusal(error, table, changes, { round = true } = {}) {
  const players = (table && table.players) || [];
  // every refusal carries its reason as {id, params}: the catalogue words it, seats by their players'
  // names; the sentence is never taken apart (which hand it is about is the refusal's own field)
  const text = detailText(error.detail, players) || t("refusal.other");
  if (!round || !table || error.change === null || error.change === undefined) return text;
  const change = changes[error.change];
  const at = change && change.op === "replace" ? (table.hands || [])[change.index] : table.state;
  return at ? t("refusal.at", { hand: handName(at), text }) : text;
}

// --- making the board work offline, from the table screen ----------------------------------------

// the engine's files: fetched here first (the service worker keeps them) so the player sees the download move
const ENGINE = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"].map((f) => `/static/vendor/pyodide/${f}`);
const prep = { state: "idle", done: 0, total: 0, message: "" };
let offerBox = null;

const mb = (bytes) => (bytes / 1e6).toFixed(1);

function drawOffer() {
  if (!offerBox) return;
  if (prep.state === "ready") { clear(offerBox, h("p", { class: "small muted", "data-testid": "offline-ready" }, t("offline.ready"))); return; }
  if (prep.state === "busy") {
    const downloading = prep.total && prep.done < prep.total;
    clear(offerBox,
      h("progress", { "data-testid": "offline-progress", max: String(prep.total || 1), ...(prep.total ? { value: String(prep.done) } : {}) }),
      h("p", { class: "small", "data-testid": "offline-progress-text" }, downloading ? t("offline.downloading", { done: mb(prep.done), total: mb(prep.total) }) : t("offline.starting")));
    return;
  }
  clear(offerBox,
    h("p", { class: "hint" }, t("offline.table_hint")),
    h("button", { type: "button", class: "btn-block", "data-testid": "table-prepare-offline", onclick: prepareHere }, t("offline.prepare")),
    prep.message ? h("p", { class: "field-error", role: "alert" }, prep.message) : null);
}

async function download() {
  // without a service worker to keep them the files would be downloaded twice: the worker fetches them itself
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
  const responses = await Promise.all(ENGINE.map((url) => fetch(url)));
  prep.total = responses.reduce((sum, r) => sum + Number(r.headers.get("Content-Length") || 0), 0);
  drawOffer();
  await Promise.all(responses.map(async (resp) => {
    if (!resp.ok || !resp.body) return;
    // a precompressed file (web/pages.py) arrives decompressed: count its bytes at the wire's scale
    const wire = Number(resp.headers.get("Content-Length") || 0);
    const whole = Number(resp.headers.get("X-Uncompressed-Length") || 0);
    const scale = wire && whole ? wire / whole : 1;
    const reader = resp.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      prep.done = Math.min(prep.total, prep.done + value.length * scale);
      drawOffer();
    }
  }));
}

async function prepareHere() {
  Object.assign(prep, { state: "busy", done: 0, total: 0, message: "" });
  drawOffer();
  try {
    await download();
    prep.done = prep.total;
    drawOffer();
    await prepareOffline();
    store.set("offline_scoring", true);   // the same flag as the score screen's button
    prep.state = "ready";
  } catch (err) {
    Object.assign(prep, { state: "idle", message: t("offline.failed") });
  }
  drawOffer();
}

/** On a table this phone records on, while online: one tap makes scoring (and so the board) work
 * offline, with the download's size and progress, then "ready". Nothing once it is ready (remembered
 * on the phone), except "ready" just after it was made so. */
export function offlineOffer() {
  if (store.get("offline_scoring") && prep.state !== "ready") return null;
  if (!offerBox) offerBox = h("div", { class: "offline-prep", "aria-live": "polite", "data-testid": "table-offline", "data-toast-avoid": "" });
  drawOffer();
  return offerBox;
}

/** Under an offline preview: where it comes from. */
export const previewNote = () => h("p", { class: "small muted", "data-testid": "preview-offline" }, t("projection.preview"));

/** Marks what is not sent yet on the drawn table screen `root`: a banner saying whether the board
 * includes the queued hands, the board outlined, "not sent" on their history rows and the standings. */
export function decorate(root, info, offline = null) {
  if (!info) return;
  const n = info.count;
  let text;
  const why = info.error ? refusal(info.error, info.table, info.changes || []) : "";
  if (info.state === "ready" && info.error && !info.applied) {
    text = t("projection.failed", { n, message: why });
  } else if (info.state === "ready" && info.error) {
    text = t("projection.partial", { n, applied: info.applied, message: why });
  } else if (info.state === "ready") {
    text = t(n === 1 ? "projection.included_one" : "projection.included", { n });
  } else if (info.state === "working") {
    text = t(n === 1 ? "projection.working_one" : "projection.working", { n });
  } else {
    text = t(n === 1 ? "projection.unavailable_one" : "projection.unavailable", { n });
  }
  // offline, this one box says so too: no second banner above it saying the board is the last known state
  if (offline) {
    const banner = root.querySelector('[data-testid="offline-banner"]');
    if (banner) banner.remove();
    text = t("projection.with_offline", { offline: offline.since ? t("projection.offline_at", { time: fmtTime(offline.since) }) : t("projection.offline"), text });
  }
  // the game's end is only worked out on this phone: the next game waits until the hands are sent
  const next = root.querySelector('[data-testid="next-game"]');
  if (next) {
    next.disabled = true;
    next.setAttribute("aria-describedby", "next-game-wait");
    next.after(h("p", { class: "hint", id: "next-game-wait", "data-testid": "next-game-wait" }, t("projection.next_wait")));
  }
  const attrs = { role: "status", "data-testid": "projection", "data-state": info.state, ...(info.ms !== undefined ? { "data-ms": String(info.ms) } : {}) };
  const board = root.querySelector(".board");
  const pending = root.querySelector('[data-testid="pending"]');
  // one box with the list of hands waiting: whether the board includes them, then which they are
  if (pending && info.state === "ready" && !info.error) {
    // the summary already says how many hands wait: the list below it says only which
    const count = pending.querySelector(".pending-count");
    if (count) count.remove();
    pending.prepend(h("strong", { class: "projection", ...attrs }, text), h("br"));
  }
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
