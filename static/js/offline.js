// Offline scoring behind the same request/response shape as POST /api/score: the scoring engine
// itself, run by Pyodide in a Web Worker (static/js/offline-worker.js), loaded on demand.
import { ApiError } from "./api.js";

let worker = null;
let seq = 0;
const waiting = new Map();

function getWorker() {
  if (!worker) {
    worker = new Worker("/offline-worker.js", { type: "module" });
    worker.addEventListener("message", (event) => {
      const { id, ...answer } = event.data;
      const done = waiting.get(id);
      if (done) { waiting.delete(id); done(answer); }
    });
  }
  return worker;
}

function ask(message) {
  const id = ++seq;
  return new Promise((resolve) => { waiting.set(id, resolve); getWorker().postMessage({ id, ...message }); });
}

/** Load Pyodide and the scoring package now (while online), so a later offline score is ready. */
export async function prepareOffline() {
  const answer = await ask({ warm: true });
  if (!answer.ok) throw new ApiError(503, answer.error, answer);
  return true;
}

/** Score a hand on the phone: resolves like api("POST", "/api/score", request), or throws ApiError. */
export async function scoreOffline(request) {
  const answer = await ask({ request });
  if (answer.ok) return answer.result;
  throw new ApiError(answer.status || 503, answer.error, answer);
}
