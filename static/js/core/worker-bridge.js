// @ts-check
// One request/response protocol for every worker of the app (offline-worker.js: Pyodide running the
// server's Python; recognize-worker.js: ONNX Runtime Web on camera frames). A request is
// {id, call, args}; the answer {id, ok: true, result} or {id, ok: false, error: {message, status?,
// field?, code?, detail?}}. `bridge(worker)` gives the page a `call(name, args, transfer)` that
// resolves to the result or rejects with a WorkerError; `serve(handlers)` answers in the worker.


/** @typedef {{message: string, status?: number, field?: string, code?: string, detail?: unknown}} WireError */
/** @typedef {{id?: number, call?: string, args?: Record<string, unknown>}} Request */

export class WorkerError extends Error {
  /** @param {WireError|null|undefined} error */
  constructor(error) {
    super((error && error.message) || "the worker failed");
    /** @type {WireError} */
    this.error = error || { message: this.message };
  }
}

/** Answer requests in a worker: handlers[call](args) may return a value or a promise; a value of
 * the form {[TRANSFER]: [...buffers], value} hands its buffers over instead of copying them.
 * Requests are answered one at a time, in order (a worker holds one engine). */
export const TRANSFER = "__transfer";
/**
 * @param {Record<string, (args: any) => unknown>} handlers  each call's arguments are what its page sends
 * @param {{addEventListener: (type: "message", fn: (event: MessageEvent) => void) => void,
 *          postMessage: (message: unknown, transfer?: Transferable[]) => void}} [scope]
 */
export function serve(handlers, scope = /** @type {any} */ (self)) {
  let queue = Promise.resolve();
  scope.addEventListener("message", (event) => {
    /** @type {Request} */
    const { id, call, args } = event.data || {};
    queue = queue.then(async () => {
      const handler = call !== undefined && Object.prototype.hasOwnProperty.call(handlers, call) ? handlers[call] : null;
      if (!handler) { scope.postMessage({ id, ok: false, error: { message: `no such call: ${call}`, status: 400, code: "malformed", field: "call" } }); return; }
      try {
        const out = await handler(args || {});
        if (out && typeof out === "object" && TRANSFER in out) {
          const { value, [TRANSFER]: buffers } = /** @type {{value: unknown, __transfer: Transferable[]}} */ (out);
          scope.postMessage({ id, ok: true, result: value }, buffers);
        }
        else scope.postMessage({ id, ok: true, result: out });
      } catch (err) {
        const e = /** @type {{error?: WireError, message?: string}|null} */ (err);
        const error = e && e.error ? e.error : { message: String((e && e.message) || err) };
        scope.postMessage({ id, ok: false, error });
      }
    });
  });
}

/** The page's side: call(name, args, transfer) -> Promise of the result. A worker that dies (its
 * script cannot load, it threw at the top level) rejects every call waiting and the next ones. */
/**
 * @param {Worker} worker
 * @returns {{worker: Worker, call: (name: string, args?: Record<string, unknown>, transfer?: Transferable[]) => Promise<any>, terminate: (message?: string) => void}}
 */
export function bridge(worker) {
  let seq = 0;
  /** @type {string|null} */
  let dead = null;
  /** @type {Map<number, {resolve: (value: unknown) => void, reject: (reason: WorkerError) => void}>} */
  const waiting = new Map();
  const failAll = (/** @type {string} */ message) => {
    dead = message;
    for (const [, { reject }] of waiting) reject(new WorkerError({ message, status: 503, code: "unavailable" }));
    waiting.clear();
  };
  worker.addEventListener("message", (event) => {
    const { id, ok, result, error } = event.data || {};
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (ok) w.resolve(result); else w.reject(new WorkerError(error));
  });
  worker.addEventListener("error", (event) => { event.preventDefault(); failAll(event.message || "the worker stopped"); });
  return {
    worker,
    call(name, args = {}, transfer = []) {
      if (dead) return Promise.reject(new WorkerError({ message: dead, status: 503, code: "unavailable" }));
      const id = ++seq;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, call: name, args }, transfer);
      });
    },
    terminate(message = "the worker was stopped") { worker.terminate(); failAll(message); },
  };
}
