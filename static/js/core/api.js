// @ts-check
// fetch() wrapper: JSON in and out, errors as ApiError with the API's {field, message}.
export class ApiError extends Error {
  constructor(status, error, body) {
    super((error && error.message) || `request failed (${status})`);
    this.status = status;
    this.field = error ? error.field : null;
    this.code = error ? error.code || null : null;   // stable kind of failure, for a translated message
    this.detail = error ? error.detail || null : null;   // the reason as {id, params}, for translated words
    this.body = body;
  }
}

/** The network could not be reached (offline, server down). */
export class OfflineError extends Error {}

const unreachableListeners = new Set();
/** Call `fn` each time a request finds the server unreachable (an OfflineError), which can happen
 * while the phone still says it is online (bad wifi). */
export function onUnreachable(fn) { unreachableListeners.add(fn); }

function unreachable(message) {
  for (const fn of unreachableListeners) { try { fn(); } catch { /* a listener never breaks a request */ } }
  return new OfflineError(message);
}

/** A request to the API: the JSON answer, or an ApiError with the API's refusal. `timeout` (ms): a
 * request with no whole answer by then is given up as unreachable (OfflineError), as on a wifi that
 * drops while a request is on its way; the table's writes are queued then and sent again by
 * themselves under their Idempotency-Key, so a change the server did store is not stored twice. */
export async function api(method, path, body, { headers = {}, raw = false, timeout = 0 } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const controller = timeout > 0 ? new AbortController() : null;
  const timer = controller ? setTimeout(() => controller.abort(), timeout) : null;
  if (controller) init.signal = controller.signal;
  let resp;
  let text;
  try {
    resp = await fetch(path, init);
    if (raw) return resp;
    text = await resp.text();
  } catch (err) {
    throw unreachable(controller && controller.signal.aborted ? "no answer from the server" : "no connection to the server");
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
  let data;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!resp.ok) {
    // a proxy with no server behind it (502/504), or a server whose storage is down for a moment
    // (503 with Retry-After): nothing was done, so the request is one to send again later, as offline
    if (resp.status === 502 || resp.status === 504 || (resp.status === 503 && (!data || resp.headers.get("Retry-After")))) {
      throw unreachable((data && data.error && data.error.message) || "the server is not reachable");
    }
    throw new ApiError(resp.status, data && data.error, data);
  }
  return data;
}

let rulesetsPromise = null;
/** GET /api/rulesets once per page (the service worker keeps a copy for offline use). */
export function rulesets() {
  if (!rulesetsPromise) {
    rulesetsPromise = api("GET", "/api/rulesets").catch((err) => { rulesetsPromise = null; throw err; });
  }
  return rulesetsPromise;
}

export async function ruleset(id) {
  const all = await rulesets();
  return all.rulesets.find((r) => r.id === id) || all.rulesets[0];
}

/** A rule set's parameter values, with a table's overrides applied. */
export async function ruleValues(id, overrides = {}) {
  const rs = await ruleset(id);
  const values = {};
  for (const [name, p] of Object.entries(rs.parameters)) values[name] = p.value;
  return { ...values, ...(overrides || {}) };
}

export async function yakuNames() {
  const all = await rulesets();
  return Object.fromEntries(all.yaku.map((y) => [y.id, y.name]));
}
