// The server's own Python in a Web Worker: Pyodide imports the Python source of `scoring`, `game`
// and recognition's one reader (/offline/scoring.zip), so a hand scores, a table projects and a
// camera frame is read the same way as on the server, with or without a connection. It speaks the
// protocol of worker-bridge.js: {id, call, args} -> {id, ok: true, result} or {id, ok: false,
// error: {status, field, message, code, detail}}, the error as the API would answer it. Calls:
//   warm {}                        load Pyodide and the packages now
//   score {request} / waits {request}   POST /api/score, POST /api/waits
//   project {table, changes}       game.board.project: the table with the hands not yet sent
//   boxes {map, gh, gw, scale, width, height, settings, stride}   recognition.reading.detect_boxes
//   read {boxes, logits, labels, reject_label, width, height, settings}   the hand in the frame
// Served from /offline-worker.js with a policy that lets Pyodide compile WebAssembly.
import { serve } from "/static/js/core/worker-bridge.js";

let ready = null;

async function start() {
  const { loadPyodide } = await import("/static/vendor/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: "/static/vendor/pyodide/" });
  const resp = await fetch("/offline/scoring.zip");
  if (!resp.ok) throw new Error(`the scoring source is not available (${resp.status})`);
  pyodide.unpackArchive(await resp.arrayBuffer(), "zip", { extractDir: "/tenbou" });
  pyodide.runPython(`
import sys, json
sys.path.insert(0, "/tenbou")
import scoring

def _answer(fn):
    try:
        return json.dumps({"ok": True, "result": fn()})
    except scoring.ScoringError as err:
        # the refusal as the API words it (its code is its kind); the status only tells malformed from the rest
        return json.dumps({"ok": False, "error": {"status": 400 if err.kind == "malformed" else 422, **err.to_dict()}})
    except (KeyError, TypeError, ValueError, AttributeError) as err:  # JSON this phone cannot read
        return json.dumps({"ok": False, "error": {"status": 400, "field": None, "message": str(err), "code": "malformed"}})

def tenbou_score(text, call):
    return _answer(lambda: {"score": scoring.score, "waits": scoring.waits}[call](json.loads(text)))

def tenbou_project(text):
    from game.board import project
    msg = json.loads(text)
    return _answer(lambda: project(msg["table"], msg["changes"]))

def tenbou_boxes(out, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        return reading.detect_boxes(out.to_py(), a["gh"], a["gw"], a["scale"], a["width"], a["height"], st, a["stride"])
    return _answer(run)

def tenbou_read(logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        boxes = a["boxes"]
        probs, orient = reading.probabilities(logits.to_py() if logits is not None else [], len(boxes), len(a["labels"]), st.half_turn_tta)
        return reading.assemble(boxes, probs, orient, a["labels"], a["reject_label"], (a["width"], a["height"]), st).to_json()
    return _answer(run)
`);
  const fn = (name) => pyodide.globals.get(name);
  return { score: fn("tenbou_score"), project: fn("tenbou_project"), boxes: fn("tenbou_boxes"), read: fn("tenbou_read") };
}

async function engine() {
  if (!ready) ready = start().catch((err) => { ready = null; throw err; });
  try {
    return await ready;
  } catch (err) {
    throw { error: { status: 503, field: null, message: `offline scoring could not start: ${err.message}`, code: "unavailable" } };
  }
}

function answer(text) {
  const out = JSON.parse(text);
  if (out.ok) return out.result;
  throw { error: out.error };
}

serve({
  warm: async () => { await engine(); return true; },
  score: async ({ request }) => answer((await engine()).score(JSON.stringify(request), "score")),
  waits: async ({ request }) => answer((await engine()).score(JSON.stringify(request), "waits")),
  project: async ({ table, changes }) => answer((await engine()).project(JSON.stringify({ table, changes }))),
  boxes: async ({ map, ...rest }) => answer((await engine()).boxes(map, JSON.stringify(rest))),
  read: async ({ logits, ...rest }) => answer((await engine()).read(logits || null, JSON.stringify(rest))),
});
