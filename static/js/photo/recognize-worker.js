// @ts-check
// On-phone recognition, the networks' part: a module worker that turns a camera frame into the
// networks' inputs (frame-tensors.js) and runs the server's ONNX models through ONNX Runtime Web
// (WASM, /static/vendor/ort/). What the outputs mean (boxes, tiles, rows, the hand) is decided by
// recognition/reading.py in the offline worker (Pyodide), as on the server: see live-recognizer.js.
// Protocol: worker-bridge.js. Calls:
//   init {}  -> {threads, info}
//   detect {bitmap | pixels, width, height | frame, long_side?, window?, thumb?, shrunk?}
//       -> {frame, map (Float32Array), gh, gw, scale, width, height, thumb?}: a new frame, or (frame) one
//          detected before, at the detector's long side or `long_side` (an extra pass that
//          recognition/reading.py asked for: the tiles at the size the detector learned), over
//          the whole frame or its part `window` [x1, y1, x2, y2] (width and height then the part's); with
//          `thumb` [w, h] (reading.py's thumb_size), also the detector's input shrunk to that size
//          (RGB Uint8Array, as recognition/pipeline.py's Recognizer.thumbnail), on which reading.py
//          judges the light's colour; with `shrunk`, on the frame's first pass's input (the frame
//          at the detector's long side) shrunk to `long_side`, the scale still the frame's
//   classify {frame, boxes, tta?, turned?, keep?}  -> {logits, sharpness (Float32Arrays; sharpness one
//       per box, null from a classifier without that output)}: the crops of any boxes
//       of that frame (a tile's, or the lower part of a tall face's), read; the frame is let go
//       unless `keep` (more crops to come); `tta: false` reads them without the half-turn copy,
//       `turned: true` reads only the half-turned copies (of crops read unsurely before); a crop of
//       the frame read before (the same box, turned or not) is not read again
//   turn {frame, matrix, width, height}  -> {frame, width, height}: a new frame, the one given turned
//       onto a width x height canvas by `matrix` (recognition/reading.py's Turn: a row of tiles aslant)
//   tint {frame, table, keep?}  -> {frame, width, height}: a new frame, the one given with its colours
//       through `table` (recognition/reading.py's cast_table: the light's colour taken off); the one
//       given is let go unless `keep` (faces filling it may be read in a light judged on them)
import { fitResize, resizeArea, squareCrops, tintFrame, toRGB, turnFrame } from "./frame-tensors.js";
import { serve, TRANSFER } from "../core/worker-bridge.js";

let ort = null, info = null, detector = null, classifier = null, loading = null;
let nextFrame = 1;
const frames = new Map();  // the last frames detected, kept for their crops

async function init() {
  ort = await import("/static/vendor/ort/ort.wasm.min.mjs");
  ort.env.wasm.wasmPaths = "/static/vendor/ort/";
  ort.env.wasm.numThreads = self.crossOriginIsolated ? Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1)) : 1;
  const resp = await fetch("/models/info.json");
  if (!resp.ok) throw new Error("the recognition models are not available");
  info = await resp.json();
  const load = async (url) => {
    const r = await fetch(url);
    if (!r.ok) throw new Error("a recognition model could not be downloaded");
    return ort.InferenceSession.create(new Uint8Array(await r.arrayBuffer()), { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  };
  [detector, classifier] = await Promise.all([load(info.detector), load(info.classifier)]);
  return { threads: ort.env.wasm.numThreads, info };
}

function pixelsOf(args) {
  if (args.pixels) return { rgba: args.pixels, width: args.width, height: args.height };
  const { bitmap } = args;
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  bitmap.close();
  return { rgba: data, width: canvas.width, height: canvas.height };
}

function frameOf(frame) {
  const f = frames.get(frame);
  if (!f) throw new Error("that frame is no longer here");
  return f;
}

/** A new frame holding `rgb` (w x h); only the last three frames are kept. */
function keepFrame(rgb, w, h) {
  const frame = nextFrame++;
  frames.set(frame, { rgb, w, h });
  for (const k of frames.keys()) if (k < frame - 2) frames.delete(k);
  return frame;
}

function turn({ frame, matrix, width, height }) {
  const f = frameOf(frame);
  frames.delete(frame);  // read again turned: the frame as taken is not read further
  return { frame: keepFrame(turnFrame(f.rgb, f.w, f.h, matrix, width, height), width, height), width, height };
}

function tint({ frame, table, keep = false }) {
  const f = frameOf(frame);
  if (!keep) frames.delete(frame);  // read again with its colours corrected: the frame as taken is not read further
  return { frame: keepFrame(tintFrame(f.rgb, table), f.w, f.h), width: f.w, height: f.h };
}

async function detect(args) {
  let frame = args.frame, rgb, w, h;
  if (frame) ({ rgb, w, h } = frameOf(frame));
  else {
    const { rgba, width, height } = pixelsOf(args);
    w = width; h = height;
    rgb = toRGB(rgba, w, h, 4);
  }
  if (args.window) ({ rgb, w, h } = cropFrame(rgb, w, args.window));  // a pass over part of the frame
  const longSide = args.long_side ? Math.round(args.long_side) : info.long_side;
  // `shrunk`: the pass made from the frame's first pass's input shrunk further (a shrink of a
  // shrink, as recognition/pipeline.py's Recognizer.whole_tiles makes it), its scale the frame's
  const small = args.shrunk ? frameOf(frame).small : null;
  if (args.shrunk && !small) throw new Error("that frame has no first pass to shrink");
  const net = small ? fitResize(small.rgb, small.w, small.h, longSide, 32) : fitResize(rgb, w, h, longSide, 32);
  const det = await detector.run({ [detector.inputNames[0]]: new ort.Tensor("float32", net.data, [1, 3, net.height, net.width]) });
  const out = det[detector.outputNames[0]];
  const [, , gh, gw] = out.dims;
  if (!frame) frame = keepFrame(rgb, w, h);
  // a first pass over the whole frame: its input kept for a pass shrunk from it
  if (!args.window && !args.long_side) frameOf(frame).small = { rgb: net.small, w: net.cw, h: net.ch };
  const map = new Float32Array(out.data);
  const value = { frame, map, gh, gw, scale: small ? net.scale * small.w / w : net.scale, width: w, height: h };
  if (!args.thumb) return { [TRANSFER]: [map.buffer], value };
  const [tw, th] = args.thumb;
  const thumb = tw === net.cw && th === net.ch ? Uint8Array.from(net.small) : resizeArea(net.small, net.cw, net.ch, 3, tw, th);
  return { [TRANSFER]: [map.buffer, thumb.buffer], value: { ...value, thumb } };
}

/** The part [x1, y1, x2, y2] (whole pixels) of RGB pixels `w` wide: {rgb, w, h}. */
function cropFrame(rgb, w, [x1, y1, x2, y2]) {
  const cw = x2 - x1, ch = y2 - y1;
  const out = new Uint8Array(cw * ch * 3);
  for (let y = 0; y < ch; y++) out.set(rgb.subarray(((y1 + y) * w + x1) * 3, ((y1 + y) * w + x2) * 3), y * cw * 3);
  return { rgb: out, w: cw, h: ch };
}

/** The crops (n x 3 planes of `plane` values) turned half round: each plane read backwards. */
function halfTurned(crops, n, plane) {
  const out = new Float32Array(crops.length);
  for (let c = 0; c < n * 3; c++) for (let p = 0; p < plane; p++) out[c * plane + p] = crops[c * plane + plane - 1 - p];
  return out;
}

async function classify({ frame, boxes, tta = info.settings.half_turn_tta, turned = false, keep = false }) {
  const f = frameOf(frame);
  if (!keep) frames.delete(frame);
  const n = boxes.length;
  if (!n) return { logits: new Float32Array(0) };
  const both = tta && !turned;
  if (both) return answer(await classifyCrops(f, boxes, turned, both));
  // crops of this frame read before (a frame read again with the passes its tiles plan keeps most
  // of its boxes) are not read again: a crop gives the same numbers whatever the batch
  const memo = f.read || (f.read = new Map());
  const keys = boxes.map((b) => `${turned ? "t" : "u"}${b.slice(0, 4).join(",")}`);
  const todo = keys.map((k, i) => (memo.has(k) ? -1 : i)).filter((i) => i >= 0);
  if (todo.length) {
    const got = await classifyCrops(f, todo.map((i) => boxes[i]), turned, false);
    const width = got.logits.length / todo.length;
    todo.forEach((i, j) => memo.set(keys[i], {
      logits: got.logits.slice(j * width, (j + 1) * width), sharp: got.sharpness ? got.sharpness[j] : null }));
  }
  const rows = keys.map((k) => memo.get(k));
  const width = rows[0].logits.length;
  const logits = new Float32Array(n * width);
  rows.forEach((r, i) => logits.set(r.logits, i * width));
  return answer({ logits, sharpness: rows[0].sharp == null ? null : Float32Array.from(rows, (r) => r.sharp) });
}

/** A classify answer, its arrays handed over. */
function answer({ logits, sharpness }) {
  return { [TRANSFER]: sharpness ? [logits.buffer, sharpness.buffer] : [logits.buffer], value: { logits, sharpness } };
}

/** The classifier's logits and sharpness for the crops of `boxes` in frame `f` (turned half round
 * when `turned`; with `both`, every crop read as it is and turned half round). */
async function classifyCrops(f, boxes, turned, both) {
  const n = boxes.length;
  const size = info.crop_size, plane = size * size;
  let crops = squareCrops(f.rgb, f.w, f.h, boxes, size, info.crop_context);
  if (turned) crops = halfTurned(crops, n, plane);
  else if (both) {  // also every crop turned half round; reading.py averages
    const all = new Float32Array(crops.length * 2);
    all.set(crops);
    all.set(halfTurned(crops, n, plane), crops.length);
    crops = all;
  }
  const res = await classifier.run({ [classifier.inputNames[0]]: new ort.Tensor("float32", crops, [both ? 2 * n : n, 3, size, size]) });
  const logits = new Float32Array(res[classifier.outputNames[0]].data);
  // each crop's sharpness, the classifier's second output: what it means is reading.py's to say
  return { logits, sharpness: res.sharpness ? new Float32Array(res.sharpness.data).slice(0, n) : null };
}

serve({
  init: () => (loading || (loading = init().catch((err) => { loading = null; throw err; }))),
  detect,
  classify,
  turn,
  tint,
});
