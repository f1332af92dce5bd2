// @ts-check
// The server's own Python in a Web Worker: Pyodide imports the Python source of `scoring`, `game`
// and recognition's one reader (/offline/scoring.zip), so a hand scores, a table projects and a
// camera frame is read the same way as on the server, with or without a connection. It speaks the
// protocol of worker-bridge.js: {id, call, args} -> {id, ok: true, result} or {id, ok: false,
// error: {status, field, message, code, detail}}, the error as the API would answer it. Calls:
//   warm {}                        load Pyodide and the packages now
//   score {request} / waits {request}   POST /api/score, POST /api/waits
//   project {table, changes}       game.board.project: the table with the hands not yet sent
//   boxes {map, gh, gw, scale, width, height, settings, stride, window?, frame_width?, frame_height?}
//       recognition.reading.detect_boxes; of a pass over part of the frame (`window`; width and
//       height the part's), taken into the frame's pixels by recognition.reading.window_boxes
//   rescan {boxes, scale, width, height, settings}   recognition.reading.rescan_sides: long sides to detect again at
//   windows {boxes, scale, width, height, sides, settings}   recognition.reading.pass_windows: for each
//       side, the part of the frame its pass sees ({window, long_side}), or null for all of it
//   merge {passes: [{boxes, scale}], settings, region?, largest?}   recognition.reading.merge_detections: one list of boxes
//   straighten {boxes, width, height, settings, thumb?, tw?, th?}   recognition.reading.straighten: the turn
//       {angle, size, turned, matrix} that levels a row of tiles aslant (or, given the thumb `cast` is
//       given, faces aslant with no row to go by), or null
//   thumb {width, height, settings}   recognition.reading.thumb_size: [w, h] of the copy `cast` and
//       `straighten` judge
//   cast {thumb (RGB Uint8Array), tw, th, boxes, width, height, settings, fewest?}   recognition.reading.colour_cast:
//       the lookup table (cast_table, 768 values) that takes the light's colour off the frame, or null
//       (`fewest`: the faces it takes, three unless given)
//   faint {map, gh, gw, scale, width, height, boxes, settings, stride}   recognition.reading.faint_boxes
//   unsure {boxes, logits, labels, reject_label, settings}   recognition.reading.unsure_crops: {idx}, the boxes to read again
//       turned half round
//   tall {boxes, logits, labels, reject_label, width, height, settings, turn_logits?, turn?, retiled?, faint?}
//       recognition.reading.rereads: {crops} to read again; or {quarter} as `read` answers it (below),
//       judged before the rereads, which a frame read again turned does not need
//   read {boxes, logits, labels, reject_label, width, height, settings, turn_logits?, tall_logits?, faint?,
//       sharpness?, turn?, thumb?, tw?, th?, frame?}   the hand in the frame; the last `faint` boxes are faint_boxes; turn_logits are
//       those of the unsure boxes' crops turned half round, tall_logits those of the `tall` crops; sharpness,
//       the classifier's second output per box (whether the frame looks out of focus: the answer's notes);
//       turn, straighten's answer when the boxes are those of the frame turned by it (width x height, the
//       turned canvas): the answer's boxes are taken back to the frame; thumb (tw x th, RGB), the frame as
//       taken (frame: [w, h]) shrunk as `cast` is given it: a box read as haku lit less than the faces
//       round it is read as a back (recognition.reading.unlit_blanks). Or, when the tiles' tops point
//       left or right (recognition.reading.quarter_turn), {quarter: {turn, step}}: read the frame again
//       turned by `step` (a quarter), then `read` its boxes with `turn` (the photo as taken to that frame).
//       Or, given `scale` (the first detector pass's) and not `retiled`, when the tiles read measure
//       smaller than the boxes the passes were planned by (recognition.reading.retile),
//       or when nothing is read as a tile, {retile: {sides, region, windows, largest}}: detect the frame
//       again at `sides` (the first pass kept, each over its part of `windows`, the new passes' boxes
//       merged within `region`, up to `largest`), then `read` those boxes with `retiled` that answer
//       (its tiles kept as recognition.reading.believed says). The hand's answer, or the retile
//       answer, carries {whole: {long_side, tiles}} when one or two tiles filling the frame are to be
//       looked for first (recognition.reading.whole_side; tiles: the boxes of the tiles read): detect
//       the frame's first pass's input shrunk to long_side, read that pass's boxes, and ask `whole`;
//       retile only when that gives no answer
//   whole {boxes, tiles, width, height, settings}   recognition.reading.whole_tiles: the indices of
//       that pass's boxes to read, or null to keep the answer `read` gave
//   whole {boxes, logits, labels, reject_label, width, height, settings, turn?, sharpness?}   those boxes,
//       read: recognition.reading.whole_read: the hand in the frame read from them instead (as `read`
//       answers it), or null to keep the answer `read` gave
//   timings {}                     how the start went: {marks: {step: ms}, snapshot, stored}
// After its first start it keeps a memory snapshot, restored on the next starts (see below).
// Served from /offline-worker.js with a policy that lets Pyodide compile WebAssembly.
import { serve } from "/static/js/core/worker-bridge.js";

let ready = null;

const INDEX = "/static/vendor/pyodide/";
// The engine's Python glue, run once Pyodide and the source are in: it imports everything a score,
// a board or a frame needs now (not on first use), so a memory snapshot taken after it holds it all.
const ENGINE = `
import sys, json
sys.path.insert(0, "/tenbou")
import scoring
import game.board
import recognition.reading

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
        boxes = reading.detect_boxes(out.to_py(), a["gh"], a["gw"], a["scale"], a["width"], a["height"], st, a["stride"])
        if a.get("window"):  # a pass over part of the frame: its boxes in the frame's pixels
            return reading.window_boxes(boxes, a["window"], a["frame_width"], a["frame_height"])
        return boxes
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
        if call == "windows":
            return [None if w is None else w.to_json() for w in
                    reading.pass_windows(a["boxes"], a["scale"], a["width"], a["height"], a["sides"], st)]
        if call == "merge":
            return reading.merge_detections([(p["boxes"], p["scale"]) for p in a["passes"]], st, a.get("region"),
                                            a.get("largest"))
        if call == "thumb":
            return list(reading.thumb_size(a["width"], a["height"], st))
        raise ValueError(f"no plan call {call}")
    return _answer(run)

def tenbou_straighten(thumb, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        turn = reading.straighten(a["boxes"], a["width"], a["height"], st,
                                  None if thumb is None else thumb.to_py(), a.get("tw", 0), a.get("th", 0))
        return None if turn is None else turn.to_json()
    return _answer(run)

def tenbou_cast(thumb, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        gains = reading.colour_cast(thumb.to_py(), a["tw"], a["th"], a["boxes"], a["width"], a["height"], st,
                                    a.get("fewest", 3))
        return None if gains is None else reading.cast_table(gains)
    return _answer(run)

def _probs(logits, a, st, turn_logits=None):
    from recognition import reading
    probs, orient = reading.probabilities(logits.to_py() if logits is not None else [], len(a["boxes"]), len(a["labels"]), st.half_turn_tta)
    idx = reading.unsure_crops(probs, a["labels"], a["reject_label"], st)
    if idx and turn_logits is not None:
        probs, orient = reading.reread_half_turned(probs, orient, idx, turn_logits.to_py(), len(a["labels"]))
    return probs, orient

def tenbou_unsure(logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        return {"idx": reading.unsure_crops(_probs(logits, a, st)[0], a["labels"], a["reject_label"], st)}
    return _answer(run)

def _quarter(probs, orient, a, st):
    # judged before the rereads, as recognition.pipeline judges it: those of a frame read again turned are not needed
    from recognition import reading
    if a.get("retiled"):  # a frame detected again by its tiles' size is read as it is
        return None
    turn = reading.Turn.from_json(a["turn"]) if a.get("turn") else None
    quarter = reading.quarter_turn(probs, orient, a["labels"], a["reject_label"], a["width"], a["height"], turn, st)
    return None if quarter is None else {"quarter": {"turn": quarter[0].to_json(), "step": quarter[1].to_json()}}

def tenbou_tall(logits, turn_logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        probs, orient = _probs(logits, a, st, turn_logits)
        return _quarter(probs, orient, a, st) or {
            "crops": reading.rereads(a["boxes"], probs, a["labels"], a["reject_label"], st, orient, a.get("faint", 0)).crops}
    return _answer(run)

def tenbou_read(logits, turn_logits, tall_logits, thumb, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        boxes = a["boxes"]
        probs, orient = _probs(logits, a, st, turn_logits)
        quarter = _quarter(probs, orient, a, st)
        if quarter is not None:
            return quarter
        plan = reading.rereads(boxes, probs, a["labels"], a["reject_label"], st, orient, a.get("faint", 0))
        sharpness = a.get("sharpness")
        if plan.crops and tall_logits is not None:
            again = reading.probabilities(tall_logits.to_py(), len(plan.crops), len(a["labels"]))[0]
            got = reading.read_again(boxes, probs, orient, plan, again, a["labels"], a["reject_label"], st)
            boxes, probs, orient = got.boxes, got.probs, got.orient  # a wide box read as two tiles is cut in two
            if sharpness is not None:
                sharpness = [sharpness[i] for i in got.origin]
        turn = reading.Turn.from_json(a["turn"]) if a.get("turn") else None
        # no thumb given arrives as JavaScript's null, not None: the arguments say whether there is one
        light = reading.Thumb(thumb.to_py(), (a["tw"], a["th"]), tuple(a["frame"])) if a.get("tw") else None
        probs = reading.unlit_blanks(boxes, probs, a["labels"], a["reject_label"], light, st, turn)
        kept = None
        retiled = a.get("retiled")
        if isinstance(retiled, dict) and retiled.get("largest") is not None:  # nothing had been read: read finer
            kept = reading.believed(reading.kept_tiles(boxes, probs, a["labels"], a["reject_label"], (a["width"], a["height"]),
                                                       st, a.get("faint", 0)),
                                    probs, a["labels"], a["reject_label"], st, True)
        if kept is None:
            kept = reading.kept_tiles(boxes, probs, a["labels"], a["reject_label"], (a["width"], a["height"]), st,
                                      a.get("faint", 0))
        # one or two tiles filling the frame: looked for at a coarse scale, before a retile (whose finer passes they do not need)
        side = reading.whole_side([probs[i] for i in kept], a["labels"], a["reject_label"], st)
        whole = None if side is None else {"whole": {"long_side": side, "tiles": [list(boxes[i][:4]) for i in kept]}}
        if not retiled and a.get("scale"):  # a frame detected again by its tiles' size is read as it is
            again = reading.retile(boxes, probs, a["labels"], a["reject_label"], a["scale"], a["width"], a["height"],
                                   st, faint=a.get("faint", 0), kept=kept)
            if again is not None:
                return {"retile": again.to_json(), **(whole or {})}
        answer = reading.assemble(boxes, probs, orient, a["labels"], a["reject_label"], (a["width"], a["height"]), st,
                                  faint=a.get("faint", 0), sharpness=sharpness, turn=turn, kept=kept).to_json()
        return {**answer, **(whole or {})}
    return _answer(run)

def tenbou_whole(logits, text):
    from recognition import reading
    def run():
        a = json.loads(text)
        st = reading.Settings(**a["settings"])
        boxes, size = a["boxes"], (a["width"], a["height"])
        if "tiles" in a:  # which boxes of the pass to read (no logits: JavaScript's null, not None)
            return reading.whole_tiles(boxes, a["tiles"], size, st)
        probs, orient = reading.probabilities(logits.to_py(), len(boxes), len(a["labels"]))
        if not reading.whole_read(probs, a["labels"], a["reject_label"]):
            return None
        turn = reading.Turn.from_json(a["turn"]) if a.get("turn") else None
        return reading.assemble(boxes, probs, orient, a["labels"], a["reject_label"], size, st,
                                sharpness=a.get("sharpness"), turn=turn, kept=list(range(len(boxes)))).to_json()
    return _answer(run)
`;
// A hand every start scores: the snapshot keeps its answer and a restored engine must give it again.
const CHECK = JSON.stringify({ ruleset: "wrr", hand: "234m067p345s11z555z", win_tile: "5z", win: "tsumo", seat_wind: "south", riichi: true });

// --- the memory snapshot ----------------------------------------------------------------------
// Starting Pyodide means compiling its WebAssembly, booting CPython, unpacking the standard library
// and importing the engine: seconds on a phone. After the first start the worker keeps Pyodide's
// whole memory (CPython with the engine imported) in Cache Storage, keyed by Pyodide's version and a
// hash of the Python source and glue; the next start restores it instead of booting and importing.
// A snapshot that is missing, made for other source, refused by Pyodide (another build) or that
// scores the check hand differently is dropped and the engine starts the ordinary way.
const SNAPSHOTS = "engine-snapshots";   // not "tenbou-<version>": the service worker's clean-up spares it

async function snapshotKey(version, source) {
  if (!self.crypto || !crypto.subtle || !self.caches) return null;   // an insecure origin: no snapshot
  const glue = new TextEncoder().encode(ENGINE + CHECK);
  const all = new Uint8Array(source.byteLength + glue.length);
  all.set(new Uint8Array(source), 0);
  all.set(glue, source.byteLength);
  const hash = hex(await crypto.subtle.digest("SHA-256", all));
  return `/engine-snapshot/${version}/${hash.slice(0, 24)}`;
}

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

/** The kept snapshot for `key` (its bytes still to be read), or null. */
async function findSnapshot(key) {
  try {
    const resp = await (await caches.open(SNAPSHOTS)).match(key);
    if (!resp) timings.snapshot = "none kept";
    return resp || null;
  } catch (err) {
    timings.snapshot = `unreadable: ${err.message}`;
    return null;
  }
}

/** The snapshot's bytes; rejects when they are not those the engine kept: a snapshot cut short or
 * changed on the disk is never handed to Pyodide (it would start from a broken memory). */
async function readSnapshot(resp) {
  const digest = resp.headers.get("X-Engine-Digest");
  const body = resp.headers.get("Content-Type") === "application/gzip" ? resp.body.pipeThrough(new DecompressionStream("gzip")) : resp.body;
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  if (!digest || hex(await crypto.subtle.digest("SHA-256", bytes)) !== digest) throw new Error("the snapshot is damaged");
  mark("snapshot read");
  return bytes;
}

async function storeSnapshot(key, bytes, check) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    // the heap is mostly empty pages: compressed, it takes a fraction of the phone's storage
    const zipped = !!self.CompressionStream && !!self.DecompressionStream;
    const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
    const body = zipped ? new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).body : bytes;
    const headers = { "Content-Type": zipped ? "application/gzip" : "application/octet-stream", "X-Engine-Check": check, "X-Engine-Digest": digest };
    await cache.put(key, new Response(body, { headers }));
    for (const old of await cache.keys()) if (new URL(old.url).pathname !== key) await cache.delete(old);
  } catch (err) {
    console.warn("offline engine: the snapshot was not kept:", err.message);
  }
}

async function dropSnapshot(key) {
  try { await (await caches.open(SNAPSHOTS)).delete(key); } catch (err) { /* nothing kept */ }
}

/** How the last start went, for the benchmark (bench/bench_offline_start.py) and the tests. */
const timings = { marks: {}, snapshot: "none", stored: null };
const t0 = performance.now();
const mark = (name) => { timings.marks[name] = Math.round(performance.now() - t0); };

function handles(pyodide) {
  const fn = (name) => pyodide.globals.get(name);
  return { score: fn("tenbou_score"), project: fn("tenbou_project"), boxes: fn("tenbou_boxes"), faint: fn("tenbou_faint"), plan: fn("tenbou_plan"), straighten: fn("tenbou_straighten"), cast: fn("tenbou_cast"),
           unsure: fn("tenbou_unsure"), tall: fn("tenbou_tall"), read: fn("tenbou_read"), whole: fn("tenbou_whole") };
}

async function start() {
  const sourceResp = fetch("/offline/scoring.zip");
  sourceResp.catch(() => {});   // awaited below, after the import: a download failing first is not an unhandled error
  const { loadPyodide, version } = await import(`${INDEX}pyodide.mjs`);
  mark("module");
  const resp = await sourceResp;
  if (!resp.ok) throw new Error(`the scoring source is not available (${resp.status})`);
  const source = await resp.arrayBuffer();
  mark("source");
  const key = await snapshotKey(version, source).catch(() => null);
  const kept = key ? await findSnapshot(key) : null;
  if (kept) {
    try {
      const check = kept.headers.get("X-Engine-Check");
      // read (unzipped, checked) while Pyodide fetches and compiles its WebAssembly: it waits for
      // the bytes only to fill its memory, and fails when they are damaged
      const bytes = readSnapshot(kept);
      bytes.catch(() => {});   // a damaged one rejects before Pyodide asks for it: not an unhandled error
      const pyodide = await loadPyodide({ indexURL: INDEX, _loadSnapshot: bytes });
      mark("restored");
      // the files too, for an import the engine did not make before the snapshot
      pyodide.unpackArchive(source, "zip", { extractDir: "/tenbou" });
      const engine = handles(pyodide);
      if (!check || engine.score(CHECK, "score") !== check) throw new Error("the restored engine scores differently");
      mark("checked");
      timings.snapshot = "restored";
      return engine;
    } catch (err) {
      // dropped, and the engine booted the ordinary way below (then a new snapshot kept)
      timings.snapshot = `failed: ${err.message}`;
      await dropSnapshot(key);
    }
  }
  const snapshot = !!key;
  const pyodide = await loadPyodide({ indexURL: INDEX, ...(snapshot ? { _makeSnapshot: true } : {}) });
  mark("booted");
  pyodide.unpackArchive(source, "zip", { extractDir: "/tenbou" });
  pyodide.runPython(ENGINE);
  mark("imported");
  let bytes = null;
  if (snapshot) {
    try { bytes = pyodide.makeMemorySnapshot(); } catch (err) { timings.snapshot = `not made: ${err.message}`; }
  }
  const engine = handles(pyodide);
  if (bytes) {
    const check = engine.score(CHECK, "score");
    // kept after this start has answered: the first score does not wait for the storage
    setTimeout(() => storeSnapshot(key, bytes, check).then(() => { mark("stored"); timings.stored = key; }), 0);
    timings.snapshot = timings.snapshot === "none" || timings.snapshot === "none kept" ? "made" : `made (${timings.snapshot})`;
  }
  return engine;
}

// Pyodide fetches its files side by side while it starts and does not handle them all: when the
// network drops, one failure rejects loadPyodide and the others are left unhandled; a failed
// download of its WebAssembly leaves loadPyodide waiting for ever, and one of its standard library
// boots a CPython that cannot run. So any download failing while the engine starts fails the start
// at once, and is that start's failure, said once to the caller; the others left unhandled are that
// same failure, not uncaught errors of their own. (TypeError is what fetch rejects with.)
let failStart = null;   // rejects the start under way, or the last one that failed
const download = self.fetch.bind(self);
self.fetch = (...args) => {
  const out = download(...args);
  if (failStart) out.catch((err) => { if (failStart && err instanceof TypeError) failStart(err); });
  return out;
};
self.addEventListener("unhandledrejection", (event) => {
  if (!failStart || !(event.reason instanceof TypeError)) return;
  event.preventDefault();
  failStart(event.reason);
});

async function engine() {
  if (!ready) {
    const failed = new Promise((resolve, reject) => { failStart = reject; });
    ready = Promise.race([start(), failed]).then((out) => { failStart = null; return out; },
      (err) => { ready = null; throw err; });
  }
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
  timings: async () => timings,
  score: async ({ request }) => answer((await engine()).score(JSON.stringify(request), "score")),
  waits: async ({ request }) => answer((await engine()).score(JSON.stringify(request), "waits")),
  project: async ({ table, changes }) => answer((await engine()).project(JSON.stringify({ table, changes }))),
  boxes: async ({ map, ...rest }) => answer((await engine()).boxes(map, JSON.stringify(rest))),
  faint: async ({ map, ...rest }) => answer((await engine()).faint(map, JSON.stringify(rest))),
  rescan: async (args) => answer((await engine()).plan("rescan", JSON.stringify(args))),
  windows: async (args) => answer((await engine()).plan("windows", JSON.stringify(args))),
  merge: async (args) => answer((await engine()).plan("merge", JSON.stringify(args))),
  straighten: async ({ thumb, ...rest }) => answer((await engine()).straighten(thumb || null, JSON.stringify(rest))),
  thumb: async (args) => answer((await engine()).plan("thumb", JSON.stringify(args))),
  cast: async ({ thumb, ...rest }) => answer((await engine()).cast(thumb, JSON.stringify(rest))),
  unsure: async ({ logits, ...rest }) => answer((await engine()).unsure(logits || null, JSON.stringify(rest))),
  tall: async ({ logits, turn_logits, ...rest }) => answer((await engine()).tall(logits || null, turn_logits || null, JSON.stringify(rest))),
  read: async ({ logits, turn_logits, tall_logits, thumb, ...rest }) =>
    answer((await engine()).read(logits || null, turn_logits || null, tall_logits || null, thumb || null, JSON.stringify(rest))),
  whole: async ({ logits, ...rest }) => answer((await engine()).whole(logits || null, JSON.stringify(rest))),
});
