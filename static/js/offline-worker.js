// Offline scoring in a Web Worker: Pyodide runs the server's own `scoring` package (its Python
// source, /offline/scoring.zip), so a hand scores the same way with no connection. Messages in:
// {id, request} (POST /api/score) or {id, call: "waits", request} (POST /api/waits); out:
// {id, ok: true, result} or {id, ok: false, status, error: {field, message, code}}, as the API answers.
// Served from /offline-worker.js with a policy that lets Pyodide compile WebAssembly.
let ready = null;
let pyodideNow = null;   // the loaded Pyodide, for the ledger's messages below
let projectFn = null;

async function start() {
  const { loadPyodide } = await import("/static/vendor/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: "/static/vendor/pyodide/" });
  pyodideNow = pyodide;
  const resp = await fetch("/offline/scoring.zip");
  if (!resp.ok) throw new Error(`the scoring source is not available (${resp.status})`);
  pyodide.unpackArchive(await resp.arrayBuffer(), "zip", { extractDir: "/tenbou" });
  pyodide.runPython(`
import sys, json
sys.path.insert(0, "/tenbou")
import scoring

CALLS = {"score": scoring.score, "waits": scoring.waits}

def tenbou_score(text, call="score"):
    if call not in CALLS:
        return json.dumps({"ok": False, "status": 400, "error": {"field": "call", "message": f"no such call: {call}", "code": "malformed"}})
    try:
        return json.dumps({"ok": True, "result": CALLS[call](json.loads(text))})
    except scoring.ScoringError as err:
        # the refusal as the API words it (its code is its kind); the status only tells malformed from the rest
        return json.dumps({"ok": False, "status": 400 if err.kind == "malformed" else 422, "error": err.to_dict()})
`);
  return pyodide.globals.get("tenbou_score");
}

// The table's ledger offline: {id, ledger: {table, changes}} -> {id, ok: true, result} with result as
// game.board.project gives it (the last table JSON the phone saw plus the hands not yet sent).
function projector() {
  if (!projectFn) {
    pyodideNow.runPython(`
import json
import scoring
from game.board import project

def tenbou_project(text):
    try:
        msg = json.loads(text)
        return json.dumps({"ok": True, "result": project(msg["table"], msg["changes"])})
    except scoring.ScoringError as err:
        return json.dumps({"ok": False, "status": 400 if err.kind == "malformed" else 422, "error": err.to_dict()})
    except (KeyError, TypeError, ValueError, AttributeError) as err:  # a table JSON this phone cannot read
        return json.dumps({"ok": False, "status": 400, "error": {"field": "table", "message": str(err), "code": "malformed"}})
`);
    projectFn = pyodideNow.globals.get("tenbou_project");
  }
  return projectFn;
}

self.addEventListener("message", async (event) => {
  const { id, request, warm, ledger } = event.data || {};
  const call = (event.data && event.data.call) || "score";
  try {
    if (!ready) ready = start();
    const score = await ready;
    if (warm) { self.postMessage({ id, ok: true, warm: true }); return; }
    if (ledger) { self.postMessage({ id, ...JSON.parse(projector()(JSON.stringify(ledger))) }); return; }
    self.postMessage({ id, ...JSON.parse(score(JSON.stringify(request), call)) });
  } catch (err) {
    ready = null;
    self.postMessage({ id, ok: false, status: 0, error: { field: null, message: `offline scoring could not start: ${err.message}`, code: "unavailable" } });
  }
});
