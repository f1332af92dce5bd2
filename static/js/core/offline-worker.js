// @ts-check
// The server's own Python in a Web Worker: Pyodide imports the Python source of `scoring`, `game`
// and recognition's one reader (/offline/scoring.zip), so a hand scores, a table projects and a
// camera frame is read the same way as on the server, with or without a connection. It speaks the
// protocol of worker-bridge.js: {id, call, args} -> {id, ok: true, result} or {id, ok: false,
// error: {status, field, message, code, detail}}, the error as the API would answer it. Calls:
//   warm {}                        load Pyodide and the packages now
//   score {request} / waits {request}   POST /api/score, POST /api/waits
//   project {table, changes}       game.board.project: the table with the hands not yet sent
//   boxes {map, gh, gw, scale, width, height, settings, stride}   recognition.reading.detect_boxes
//   rescan {boxes, scale, width, height, settings}   recognition.reading.rescan_sides: long sides to detect again at
//   merge {passes: [{boxes, scale}], settings}   recognition.reading.merge_detections: one list of boxes
//   faint {map, gh, gw, scale, width, height, boxes, settings, stride}   recognition.reading.faint_boxes
//   tall {boxes, logits, labels, reject_label, settings}   recognition.reading.tall_faces: {crops} to read again
//   read {boxes, logits, labels, reject_label, width, height, settings, tall_logits?, faint?}   the hand in the
//       frame; the last `faint` boxes are faint_boxes
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

def tenbou_faint(out, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        return reading.faint_boxes(out.to_py(), a["gh"], a["gw"], a["scale"], a["width"], a["height"], a["boxes"], st, a["stride"])
    return _answer(run)

def tenbou_plan(call, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        if call == "rescan":
            return reading.rescan_sides(a["boxes"], a["scale"], a["width"], a["height"], st)
        if call == "merge":
            return reading.merge_detections([(p["boxes"], p["scale"]) for p in a["passes"]], st)
        raise ValueError(f"no plan call {call}")
    return _answer(run)

def _probs(logits, a, st):
    from recognition import reading
    return reading.probabilities(logits.to_py() if logits is not None else [], len(a["boxes"]), len(a["labels"]), st.half_turn_tta)

def tenbou_tall(logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        probs, _ = _probs(logits, a, st)
        return {"crops": reading.tall_faces(a["boxes"], probs, a["labels"], a["reject_label"], st)[1]}
    return _answer(run)

def tenbou_read(logits, tall_logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        boxes = a["boxes"]
        probs, orient = _probs(logits, a, st)
        idx, _ = reading.tall_faces(boxes, probs, a["labels"], a["reject_label"], st)
        if idx and tall_logits is not None:
            again = reading.probabilities(tall_logits.to_py(), len(idx), len(a["labels"]))[0]
            probs = reading.reread_tall_faces(probs, idx, again, a["labels"], a["reject_label"])
        return reading.assemble(boxes, probs, orient, a["labels"], a["reject_label"], (a["width"], a["height"]), st,
                                faint=a.get("faint", 0)).to_json()
    return _answer(run)
`);
  const fn = (name) => pyodide.globals.get(name);
  return { score: fn("tenbou_score"), project: fn("tenbou_project"), boxes: fn("tenbou_boxes"), faint: fn("tenbou_faint"), plan: fn("tenbou_plan"),
           tall: fn("tenbou_tall"), read: fn("tenbou_read") };
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
  faint: async ({ map, ...rest }) => answer((await engine()).faint(map, JSON.stringify(rest))),
  rescan: async (args) => answer((await engine()).plan("rescan", JSON.stringify(args))),
  merge: async (args) => answer((await engine()).plan("merge", JSON.stringify(args))),
  tall: async ({ logits, ...rest }) => answer((await engine()).tall(logits || null, JSON.stringify(rest))),
  read: async ({ logits, tall_logits, ...rest }) => answer((await engine()).read(logits || null, tall_logits || null, JSON.stringify(rest))),
});
