// @ts-check
// Offline scoring behind the same request/response shapes as POST /api/score and POST /api/waits:
// the scoring engine itself, run by Pyodide in a Web Worker (static/js/core/offline-worker.js), loaded on
// demand.
import { ApiError, onUnreachable } from "./api.js";
import * as store from "./store.js";
import { bridge } from "./worker-bridge.js";

let engine = null;
let engineNow = "cold";

/** The offline worker behind worker-bridge.js's protocol (one per page; the recognition's reader
 * on the phone shares it, see live-recognizer.js). */
export function offlineEngine() {
  if (!engine) {
    const worker = new Worker("/offline-worker.js", { type: "module" });
    engine = bridge(worker);
    // a worker whose script cannot load (offline, never cached) answers nothing: the bridge says so
    // to whoever waits; the next call starts a new one
    worker.addEventListener("error", () => { engine = null; });
  }
  return engine;
}

function ask(call, args = {}) {
  if (engineNow !== "ready") engineNow = "warming";
  return offlineEngine().call(call, args).then((result) => { engineNow = "ready"; return { ok: true, result }; }, (err) => {
    const error = (err && err.error) || { message: String(err), code: "unavailable" };
    // a refused hand is an answer of the engine itself: it is loaded
    engineNow = error.code !== "unavailable" ? "ready" : "failed";
    if (error.code === "unavailable" && !error.message.startsWith("offline")) error.message = "offline scoring is not available on this phone";
    return { ok: false, status: error.status || 503, error };
  });
}

/** Load Pyodide and the scoring package now (while online), so a later offline score is ready. */
export async function prepareOffline() {
  const answer = await ask("warm");
  if (!answer.ok) throw new ApiError(503, answer.error, answer);
  return true;
}

/** Score a hand on the phone: resolves like api("POST", "/api/score", request), or throws ApiError. */
export async function scoreOffline(request) {
  const answer = await ask("score", { request });
  if (answer.ok) return answer.result;
  throw new ApiError(answer.status || 503, answer.error, answer);
}

/** The table board offline: game.board.project(table, changes) run by Pyodide (see offline-worker.js).
 * Resolves {table, applied, unsent, sent_hands, error}, or throws ApiError (503 when Pyodide cannot start). */
export async function projectOffline(table, changes) {
  const answer = await ask("project", { table, changes });
  if (answer.ok) return answer.result;
  throw new ApiError(answer.status || 503, answer.error, answer);
}

/** Find the waits of a hand on the phone: resolves like api("POST", "/api/waits", request), or throws ApiError. */
export async function waitsOffline(request) {
  const answer = await ask("waits", { request });
  if (answer.ok) return answer.result;
  throw new ApiError(answer.status || 503, answer.error, answer);
}

let warming = null;
/** Start loading Pyodide and the engine in the background, once per page, when the player made
 * scoring work offline: the next offline score or waits answer is then quick. */
export function warmOffline() {
  if (!warming && store.get("offline_scoring")) warming = prepareOffline().catch(() => false);
  return warming;
}

/** How far the engine has got on this page: "cold" (not asked for), "warming", "ready" or "failed". */
export function engineState() { return engineNow; }

// a request that cannot reach the server while the phone claims to be online (bad wifi) is the
// sign the next hand may be scored offline: warm the engine then too, not only on "offline"
onUnreachable(warmOffline);

/** Links the browser reports as not metered (navigator.connection.type). */
const FREE_LINKS = ["wifi", "ethernet"];

/** Where the browser says the link is not metered (Wi-Fi or Ethernet, Data Saver off), make scoring
 * work offline without a tap: once the service worker controls the page (so it keeps the files) and
 * the phone is idle. Nothing where the browser does not say (navigator.connection.type is Chrome on
 * Android's), on a metered link, or when already done. Resolves true when it prepared the engine. */
export async function prepareOnFreeLink() {
  const link = /** @type {Navigator & {connection?: {saveData?: boolean, type?: string}}} */ (navigator).connection;
  if (!link || link.saveData || !FREE_LINKS.includes(link.type) || store.get("offline_scoring")) return false;
  if (!("serviceWorker" in navigator)) return false;
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  await new Promise((resolve) => (self.requestIdleCallback ? self.requestIdleCallback(resolve, { timeout: 10000 }) : setTimeout(resolve, 2000)));
  await prepareOffline();
  store.set("offline_scoring", true);
  return true;
}
