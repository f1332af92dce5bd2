// On-phone recognition: a module worker that runs the server's pipeline (recognize-core.js) with
// the same ONNX models through ONNX Runtime Web (WASM, served from /static/vendor/ort/).
// Messages in: {type: "init"}, {type: "recognize", id, bitmap (ImageBitmap) | pixels+width+height}.
// Messages out: {type: "ready", threads} | {type: "unavailable", message} | {type: "result", id, result} | {type: "failed", id, message}.
import { fitResize, squareCrops, decode, softmax, assemble, toRGB } from "./recognize-core.js";

let ort = null, info = null, detector = null, classifier = null;

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
  return ort.env.wasm.numThreads;
}

function pixelsOf(msg) {
  if (msg.pixels) return { rgba: msg.pixels, width: msg.width, height: msg.height };
  const { bitmap } = msg;
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const out = { rgba: data, width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return out;
}

/** One frame through the whole pipeline; the answer has the shape of POST /api/recognize's. */
async function recognize(msg) {
  const t0 = performance.now();
  const { rgba, width: w, height: h } = pixelsOf(msg);
  const rgb = toRGB(rgba, w, h, 4);
  const st = info.settings;
  const t1 = performance.now();
  const net = fitResize(rgb, w, h, info.long_side, 32);
  const det = await detector.run({ [detector.inputNames[0]]: new ort.Tensor("float32", net.data, [1, 3, net.height, net.width]) });
  const out = det[detector.outputNames[0]];
  const [, , gh, gw] = out.dims;
  let boxes = decode(out.data, gh, gw, st.detect_threshold, st.max_tiles, info.stride);
  boxes = boxes.map(([x1, y1, x2, y2, s]) => [
    Math.min(Math.max(x1 / net.scale, 0), w), Math.min(Math.max(y1 / net.scale, 0), h),
    Math.min(Math.max(x2 / net.scale, 0), w), Math.min(Math.max(y2 / net.scale, 0), h), s]);
  const t2 = performance.now();
  let probs = [], orient = [];
  if (boxes.length) {
    const size = info.crop_size, n = boxes.length, nc = info.labels.length;
    let crops = squareCrops(rgb, w, h, boxes, size, info.crop_context);
    const tta = st.half_turn_tta, plane = size * size;
    if (tta) {  // also every crop turned half round (each plane read backwards), then averaged
      const both = new Float32Array(crops.length * 2);
      both.set(crops);
      for (let c = 0; c < n * 3; c++) for (let p = 0; p < plane; p++) both[crops.length + c * plane + p] = crops[c * plane + plane - 1 - p];
      crops = both;
    }
    const res = await classifier.run({ [classifier.inputNames[0]]: new ort.Tensor("float32", crops, [tta ? 2 * n : n, 3, size, size]) });
    const logits = res[classifier.outputNames[0]].data;
    const width = logits.length / (tta ? 2 * n : n);
    const rowOf = (i) => Array.from(logits.subarray(i * width, (i + 1) * width));
    for (let i = 0; i < n; i++) {
      let p = softmax(rowOf(i).slice(0, nc)), o = softmax(rowOf(i).slice(nc));
      if (tta) {  // turned half round, "up" reads as "down": turn it back (np.roll by 2)
        const p2 = softmax(rowOf(n + i).slice(0, nc)), o2 = softmax(rowOf(n + i).slice(nc));
        p = p.map((v, k) => (v + p2[k]) / 2);
        o = o.map((v, k) => (v + o2[(k + 2) % 4]) / 2);
      }
      probs.push(p);
      orient.push(o);
    }
  }
  const t3 = performance.now();
  const result = assemble(info, boxes, probs, orient, w, h);
  const t4 = performance.now();
  const r = (v) => Math.round(v * 10) / 10;
  result.image_size = [w, h];
  result.timing_ms = { decode: r(t1 - t0), detect: r(t2 - t1), classify: r(t3 - t2), postprocess: r(t4 - t3), total: r(t4 - t0) };
  return result;
}

let queue = Promise.resolve();
self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    init().then((threads) => self.postMessage({ type: "ready", threads }),
      (err) => self.postMessage({ type: "unavailable", message: String((err && err.message) || err) }));
  } else if (msg.type === "recognize") {
    queue = queue.then(() => recognize(msg)).then((result) => self.postMessage({ type: "result", id: msg.id, result }),
      (err) => self.postMessage({ type: "failed", id: msg.id, message: String((err && err.message) || err) }));
  }
};
