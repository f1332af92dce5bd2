// The recognition pipeline of recognition/pipeline.py in plain JavaScript, for the on-phone path
// (static/js/recognize-worker.js runs it with ONNX Runtime Web). Pixels are RGB(A) uint8 arrays;
// every step mirrors its Python twin, named in each comment, so both give the same tiles.

// -- preprocess.py ------------------------------------------------------------------------------

/** Area-interpolation weights along one axis (as OpenCV's INTER_AREA): for each output index, the
 * source indices and their coverage, summing to 1. */
function areaWeights(src, dst) {
  const scale = src / dst;
  const out = [];
  for (let d = 0; d < dst; d++) {
    const f1 = d * scale, f2 = f1 + scale;
    const i1 = Math.floor(f1), i2 = Math.min(src, Math.ceil(f2));
    const idx = [], w = [];
    for (let i = i1; i < i2; i++) {
      const cover = Math.min(f2, i + 1) - Math.max(f1, i);
      if (cover > 1e-9) { idx.push(i); w.push(cover / scale); }
    }
    out.push([idx, w]);
  }
  return out;
}

/** Shrink RGB(A) pixels (w x h, `ch` channels) to cw x ch by area averaging: RGB uint8 out. */
export function resizeArea(px, w, h, channels, cw, chh) {
  const wx = areaWeights(w, cw), wy = areaWeights(h, chh);
  const tmp = new Float32Array(cw * h * 3);  // horizontal pass
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < cw; x++) {
      const [idx, wt] = wx[x];
      let r = 0, g = 0, b = 0;
      for (let k = 0; k < idx.length; k++) {
        const o = (y * w + idx[k]) * channels;
        r += px[o] * wt[k]; g += px[o + 1] * wt[k]; b += px[o + 2] * wt[k];
      }
      const t = (y * cw + x) * 3;
      tmp[t] = r; tmp[t + 1] = g; tmp[t + 2] = b;
    }
  }
  const out = new Uint8Array(cw * chh * 3);
  for (let y = 0; y < chh; y++) {
    const [idx, wt] = wy[y];
    for (let x = 0; x < cw; x++) {
      let r = 0, g = 0, b = 0;
      for (let k = 0; k < idx.length; k++) {
        const t = (idx[k] * cw + x) * 3;
        r += tmp[t] * wt[k]; g += tmp[t + 1] * wt[k]; b += tmp[t + 2] * wt[k];
      }
      const o = (y * cw + x) * 3;
      out[o] = Math.min(255, Math.round(r)); out[o + 1] = Math.min(255, Math.round(g)); out[o + 2] = Math.min(255, Math.round(b));
    }
  }
  return out;
}

/** RGB(A) pixels -> plain RGB (a copy). */
export function toRGB(px, w, h, channels) {
  if (channels === 3) return px;
  const out = new Uint8Array(w * h * 3);
  for (let i = 0, j = 0; i < w * h; i++, j += channels) { out[3 * i] = px[j]; out[3 * i + 1] = px[j + 1]; out[3 * i + 2] = px[j + 2]; }
  return out;
}

/** fit_resize: longer side to `longSide` (never up), pad right/bottom with grey 114 to a multiple
 * of `stride`. Returns the network input (float32 NCHW in [0, 1]) and the transform. */
export function fitResize(rgb, w, h, longSide, stride = 32) {
  const scale = Math.min(1, longSide / Math.max(h, w));
  const cw = Math.max(1, Math.round(w * scale)), ch = Math.max(1, Math.round(h * scale));
  const small = (cw !== w || ch !== h) ? resizeArea(rgb, w, h, 3, cw, ch) : rgb;
  const pw = Math.ceil(cw / stride) * stride, ph = Math.ceil(ch / stride) * stride;
  const plane = pw * ph;
  const data = new Float32Array(3 * plane).fill(114 / 255);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const s = (y * cw + x) * 3, d = y * pw + x;
      data[d] = small[s] / 255; data[plane + d] = small[s + 1] / 255; data[2 * plane + d] = small[s + 2] / 255;
    }
  }
  return { data, width: pw, height: ph, scale: cw / w };
}

function bilinear(img, w, h, x, y, out, o) {
  // OpenCV's pixel centres: (x, y) in pixel units, border replicated
  const x0 = Math.floor(x), y0 = Math.floor(y), fx = x - x0, fy = y - y0;
  const xa = Math.min(Math.max(x0, 0), w - 1), xb = Math.min(Math.max(x0 + 1, 0), w - 1);
  const ya = Math.min(Math.max(y0, 0), h - 1), yb = Math.min(Math.max(y0 + 1, 0), h - 1);
  for (let c = 0; c < 3; c++) {
    const a = img[(ya * w + xa) * 3 + c], b = img[(ya * w + xb) * 3 + c];
    const d = img[(yb * w + xa) * 3 + c], e = img[(yb * w + xb) * 3 + c];
    const v = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
    out[o + c] = Math.round(v);
  }
}

/** square_crops: per box a square centred on it, side = context x its longer side, resampled to
 * size x size (regions shrunk below half first by area averaging); float32 NCHW in [0, 1]. */
export function squareCrops(rgb, w, h, boxes, size = 64, context = 1.2) {
  const n = boxes.length, plane = size * size;
  const data = new Float32Array(n * 3 * plane);
  const crop = new Uint8Array(plane * 3);
  boxes.forEach(([x1, y1, x2, y2], i) => {
    const side = Math.max(x2 - x1, y2 - y1, 1) * context;
    const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
    const s = size / side;
    let src = rgb, sw = w, sh = h, ox = size / 2 - s * cx, oy = size / 2 - s * cy, sx = s, sy = s;
    if (s < 0.5) {
      const rx0 = Math.trunc(Math.max(cx - side, 0)), ry0 = Math.trunc(Math.max(cy - side, 0));
      const rx3 = Math.trunc(Math.min(cx + side, w)), ry3 = Math.trunc(Math.min(cy + side, h));
      if (rx3 > rx0 && ry3 > ry0) {
        const rw = rx3 - rx0, rh = ry3 - ry0;
        const region = new Uint8Array(rw * rh * 3);
        for (let y = 0; y < rh; y++) region.set(rgb.subarray(((ry0 + y) * w + rx0) * 3, ((ry0 + y) * w + rx3) * 3), y * rw * 3);
        const k = s * 1.5;
        const nw = Math.max(1, Math.trunc(rw * k)), nh = Math.max(1, Math.trunc(rh * k));
        src = resizeArea(region, rw, rh, 3, nw, nh);
        const kx = nw / rw, ky = nh / rh;
        sx = s / kx; sy = s / ky; ox = size / 2 - s * (cx - rx0); oy = size / 2 - s * (cy - ry0);
        sw = nw; sh = nh;
      }
    }
    for (let v = 0; v < size; v++) {
      for (let u = 0; u < size; u++) bilinear(src, sw, sh, (u - ox) / sx, (v - oy) / sy, crop, (v * size + u) * 3);
    }
    const base = i * 3 * plane;
    for (let p = 0; p < plane; p++) {
      data[base + p] = crop[3 * p] / 255; data[base + plane + p] = crop[3 * p + 1] / 255; data[base + 2 * plane + p] = crop[3 * p + 2] / 255;
    }
  });
  return data;
}

// -- detect.py ----------------------------------------------------------------------------------

export function iou(a, b) {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  return inter / Math.max((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter, 1e-6);
}

function argsortDesc(scores) {
  return scores.map((s, i) => i).sort((i, j) => (scores[j] - scores[i]) || (i - j));
}

export function nms(boxes, scores, thr) {
  const order = argsortDesc(scores);
  const keep = [], suppressed = new Array(order.length).fill(false);
  for (let i = 0; i < order.length; i++) {
    if (suppressed[i]) continue;
    keep.push(order[i]);
    for (let j = 0; j < order.length; j++) if (iou(boxes[order[i]], boxes[order[j]]) > thr) suppressed[j] = true;
  }
  return keep;
}

/** decode: the (5, gh, gw) map -> boxes [x1, y1, x2, y2, score] in network pixels, best first. */
export function decode(out, gh, gw, threshold, maxBoxes, stride) {
  const plane = gh * gw;
  const heat = new Float32Array(plane);
  for (let i = 0; i < plane; i++) heat[i] = 1 / (1 + Math.exp(-out[i]));
  const peaks = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const v = heat[y * gw + x];
      if (v < threshold) continue;
      let isMax = true;
      for (let dy = -1; dy <= 1 && isMax; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy, xx = x + dx;
          if (yy < 0 || xx < 0 || yy >= gh || xx >= gw) continue;
          if (heat[yy * gw + xx] > v) { isMax = false; break; }
        }
      }
      if (isMax) peaks.push([y, x, v]);
    }
  }
  peaks.sort((a, b) => b[2] - a[2]);  // stable: row-major order among equals, as numpy's
  const clip = (v) => Math.min(6, Math.max(-3, v));
  const boxes = peaks.slice(0, maxBoxes).map(([y, x, score]) => {
    const k = y * gw + x;
    const bw = Math.exp(clip(out[plane + k])) * stride, bh = Math.exp(clip(out[2 * plane + k])) * stride;
    const cx = (x + out[3 * plane + k]) * stride, cy = (y + out[4 * plane + k]) * stride;
    return [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2, score];
  });
  return nms(boxes, boxes.map((b) => b[4]), 0.5).map((i) => boxes[i]);
}

export function softmax(row) {
  const m = Math.max(...row);
  const e = row.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

// -- postprocess.py -----------------------------------------------------------------------------

export function dropDuplicates(boxes, scores, iouThr = 0.45, contain = 0.8) {
  const order = argsortDesc(scores);
  const keep = [];
  for (const j of order) {
    const b = boxes[j];
    const area = Math.max((b[2] - b[0]) * (b[3] - b[1]), 1e-6);
    const dup = keep.some((i) => {
      const a = boxes[i];
      const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
      const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
      return iou(a, b) > iouThr || ix * iy / area > contain;
    });
    if (!dup) keep.push(j);
  }
  return keep;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b), n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function rotate([x, y], up) {
  if (up === 0) return [x, y];
  if (up === 1) return [y, -x];
  if (up === 2) return [-x, -y];
  return [-y, x];
}

/** layout: order tiles into rows, mark sideways tiles (see recognition/postprocess.py). */
export function layout(dets, orient, gap = 0.3, across = 0.45) {
  const n = dets.length;
  if (!n) return { tiles: [], rows: [], up: 0 };
  const faces = dets.map((d) => d.tile !== "back");
  const votes = [0, 0, 0, 0];
  const anyFace = faces.some(Boolean);
  orient.forEach((p, i) => { if (!anyFace || faces[i]) for (let k = 0; k < 4; k++) votes[k] += p[k]; });
  let up = 0;
  for (let k = 1; k < 4; k++) if (votes[k] > votes[up]) up = k;
  const rc = dets.map((d) => rotate([(d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2], up));
  const bw = dets.map((d) => d.box[2] - d.box[0]), bh = dets.map((d) => d.box[3] - d.box[1]);
  const along = up % 2 === 0 ? bw : bh, acr = up % 2 === 0 ? bh : bw;
  const unitW = median(along.map((a, i) => Math.min(a, acr[i]))), unitH = median(along.map((a, i) => Math.max(a, acr[i])));
  const sideways = dets.map((d, i) => faces[i] ? orient[i][(up + 1) % 4] + orient[i][(up + 3) % 4] > 0.5 : along[i] > acr[i] * 1.15);
  const parent = dets.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dAlong = Math.abs(rc[i][0] - rc[j][0]) - (along[i] + along[j]) / 2;
      const dAcross = Math.abs(rc[i][1] - rc[j][1]);
      const apart = Math.abs(rc[i][0] - rc[j][0]) > 0.3 * unitW;
      if (dAlong < gap * unitW && apart && dAcross < across * unitH) parent[find(i)] = find(j);
    }
  }
  const groups = new Map();
  for (let i = 0; i < n; i++) { const r = find(i); if (!groups.has(r)) groups.set(r, []); groups.get(r).push(i); }
  const segs = [...groups.values()].map((g) => g.map((k, o) => [k, o]).sort((a, b) => (rc[a[0]][0] - rc[b[0]][0]) || (a[1] - b[1])).map((a) => a[0]));
  const segY = segs.map((s) => s.reduce((a, k) => a + rc[k][1], 0) / s.length);
  const segX = segs.map((s) => rc[s[0]][0]);
  const order = segs.map((_, k) => k).sort((a, b) => (segY[a] - segY[b]) || (a - b));
  const lines = [];
  for (const k of order) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(segY[k] - last.reduce((a, m) => a + segY[m], 0) / last.length) < 0.6 * unitH) last.push(k);
    else lines.push([k]);
  }
  const tiles = [], rows = [];
  for (const line of lines) {
    line.sort((a, b) => (segX[a] - segX[b]) || 0);
    for (const k of line) {
      const row = [];
      for (const i of segs[k]) { tiles.push({ ...dets[i], sideways: sideways[i] }); row.push(tiles.length - 1); }
      rows.push(row);
    }
  }
  return { tiles, rows, up };
}

// -- scoring (hand shapes) and hand.py ----------------------------------------------------------

const SUITS = "mpsz";
export function kindOf(code) {
  const d = code[0] === "0" ? 5 : +code[0];
  return SUITS.indexOf(code[1]) * 9 + d - 1;
}
const isRed = (code) => code[0] === "0";

export function meldShape(kinds) {
  const k = [...kinds].sort((a, b) => a - b);
  if (k.length === 3 && k[0] < 27 && Math.floor(k[0] / 9) === Math.floor(k[2] / 9) && k[1] === k[0] + 1 && k[2] === k[0] + 2) return "chi";
  if ((k.length === 3 || k.length === 4) && k[0] === k[k.length - 1]) return k.length === 3 ? "pon" : "kan";
  return null;
}

/** Whether the concealed counts complete a hand with `groups` sets still needed (and a pair). */
function decomposes(c, groups, pairDone) {
  let i = 0;
  while (i < 34 && !c[i]) i++;
  if (i === 34) return groups === 0 && pairDone;
  if (!pairDone && c[i] >= 2) {
    c[i] -= 2;
    const ok = decomposes(c, groups, true);
    c[i] += 2;
    if (ok) return true;
  }
  if (groups > 0 && c[i] >= 3) {
    c[i] -= 3;
    const ok = decomposes(c, groups - 1, pairDone);
    c[i] += 3;
    if (ok) return true;
  }
  if (groups > 0 && i < 27 && i % 9 <= 6 && c[i + 1] && c[i + 2]) {
    c[i]--; c[i + 1]--; c[i + 2]--;
    const ok = decomposes(c, groups - 1, pairDone);
    c[i]++; c[i + 1]++; c[i + 2]++;
    if (ok) return true;
  }
  return false;
}

const KOKUSHI = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
export function isComplete(counts, groups) {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total !== 3 * groups + 2) return false;
  if (groups === 4) {
    if (counts.filter((v) => v === 2).length === 7 && total === 14) return true;
    if (counts.filter((v) => v === 0).length === 21 && total === 14 && KOKUSHI.every((i) => counts[i])) return true;
  }
  return decomposes([...counts], groups, false);
}

const MAX_ALTERNATIVES = 3, MIN_ALT_PROB = 0.01, MAX_TILE_COST = 2.5, MAX_COST = 4.0, MAX_POPS = 1500, UNSURE = 0.8;

function meldType(slot, codes) {
  const faces = codes.filter((c) => c !== "back");
  if (codes.some((c) => c === "back") && slot.kind !== "ankan") return null;
  const kinds = faces.map(kindOf);
  if (slot.kind === "ankan") return kinds.length && Math.min(...kinds) === Math.max(...kinds) ? "ankan" : null;
  const shape = meldShape(kinds);
  if (slot.kind === "pon") return shape === "pon" || shape === "chi" ? shape : null;
  return shape === "kan" ? slot.kind : null;
}

function product(lists) {
  return lists.reduce((acc, list) => acc.flatMap((a) => list.map((x) => [...a, x])), [[]]);
}

function couldBeMeld(slot, readings) {
  const options = slot.positions.map((i) => {
    const c = readings[i].candidates.slice(0, MAX_ALTERNATIVES).filter(([, p]) => p >= MIN_ALT_PROB).map(([c]) => c);
    return c.length ? c : [readings[i].candidates[0][0]];
  });
  return product(options).some((combo) => meldType(slot, combo) !== null);
}

export function findMelds(rows, readings) {
  const melds = [], rest = [];
  let concealed = [], win = null;
  if (!rows.length) return { concealed, melds, win };
  const faceDown = (i) => readings[i].candidates[0][0] === "back";
  for (const row of rows) {
    const nSide = row.filter((i) => readings[i].sideways).length, nDown = row.filter(faceDown).length;
    let slot = null;
    if ((row.length === 3 || row.length === 4) && nSide >= 1 && nDown === 0) slot = { kind: row.length === 3 ? "pon" : (nSide >= 2 ? "kakan" : "daiminkan"), positions: row };
    else if (row.length === 4 && nDown === 2) slot = { kind: "ankan", positions: row };
    if (slot && couldBeMeld(slot, readings)) melds.push(slot); else rest.push(row);
  }
  if (rest.length) {
    let main = 0;
    rest.forEach((r, k) => { if (r.length > rest[main].length) main = k; });
    concealed = [...rest[main]];
    const after = main + 1 < rest.length ? rest[main + 1] : null;
    if (after && after.length === 1 && rest[main].length > 1 && !faceDown(after[0])) { win = after[0]; concealed.push(win); }
    rest.forEach((row, k) => {
      if (k === main || (win !== null && row === after)) return;
      concealed.push(...row.filter((i) => !faceDown(i)));
    });
  }
  return { concealed, melds, win };
}

function check(codes, concealed, slots, needComplete) {
  const counts = new Array(34).fill(0), reds = [0, 0, 0];
  for (const i of [...concealed, ...slots.flatMap((s) => s.positions)]) {
    const c = codes[i];
    if (c === "back") continue;
    const k = kindOf(c);
    counts[k]++;
    if (isRed(c)) reds[Math.floor(k / 9)]++;
  }
  for (const s of slots) {
    if (s.kind !== "ankan") continue;
    const faces = s.positions.map((p) => codes[p]).filter((c) => c !== "back");
    if (faces.length) counts[kindOf(faces[0])] += s.positions.filter((p) => codes[p] === "back").length;
  }
  if (counts.some((c) => c > 4) || reds.some((r) => r > 1)) return false;
  for (const s of slots) if (meldType(s, s.positions.map((p) => codes[p])) === null) return false;
  if (needComplete) {
    const conc = new Array(34).fill(0);
    for (const i of concealed) conc[kindOf(codes[i])]++;
    return isComplete(conc, 4 - slots.length);
  }
  return true;
}

const ORDER = (c) => kindOf(c) * 2 + (isRed(c) ? 0 : 1);
/** Sorted compact mpsz notation (scoring.tiles.to_notation). */
export function toNotation(codes) {
  const seq = codes.filter((c) => c !== "back").sort((a, b) => ORDER(a) - ORDER(b));
  let out = "", suit = null;
  for (const c of seq) {
    if (c[1] !== suit) { if (suit) out += suit; suit = c[1]; }
    out += c[0];
  }
  return suit ? out + suit : out;
}

class Heap {
  constructor(less) { this.a = []; this.less = less; }
  get size() { return this.a.length; }
  push(x) {
    const a = this.a; a.push(x);
    let i = a.length - 1;
    while (i > 0) { const p = (i - 1) >> 1; if (!this.less(a[i], a[p])) break; [a[i], a[p]] = [a[p], a[i]]; i = p; }
  }
  pop() {
    const a = this.a, top = a[0], last = a.pop();
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]]; i = m;
      }
    }
    return top;
  }
}

function lexLess(x, y) {  // Python's tuple order on (cost, state, last)
  if (x[0] !== y[0]) return x[0] < y[0];
  for (let k = 0; k < x[1].length; k++) if (x[1][k] !== y[1][k]) return x[1][k] < y[1][k];
  return x[2] < y[2];
}

/** propose: the hand the tiles make (recognition/hand.py). `readings`: [{candidates: [[code, p]...], sideways}]. */
export function propose(readings, rows) {
  const codes0 = readings.map((r) => r.candidates[0][0]);
  let { concealed, melds: slots, win } = findMelds(rows, readings);
  concealed = concealed.filter((i) => codes0[i] !== "back");
  const nNeeded = 14 - 3 * slots.length;
  const needComplete = concealed.length === nNeeded && slots.length <= 4;
  const pos = [...new Set([...concealed, ...slots.flatMap((s) => s.positions)])].sort((a, b) => a - b);
  const options = pos.map((i) => {
    let cands = readings[i].candidates.slice(0, MAX_ALTERNATIVES).filter(([c, p]) => p >= MIN_ALT_PROB || c === codes0[i]);
    if (codes0[i] === "back") cands = [cands[0]];
    else { const f = cands.filter(([c]) => c !== "back"); cands = f.length ? f : [readings[i].candidates[0]]; }
    const top = Math.log(Math.max(cands[0][1], 1e-9));
    return cands.map(([c, p]) => [c, top - Math.log(Math.max(p, 1e-9))]).filter(([, cost]) => cost <= MAX_TILE_COST);
  });
  const codesOf = (state) => { const out = [...codes0]; pos.forEach((i, k) => { out[i] = options[k][state[k]][0]; }); return out; };

  function search(complete) {
    const heap = new Heap(lexLess);
    heap.push([0, pos.map(() => 0), 0]);
    let pops = 0;
    while (heap.size && pops < MAX_POPS) {
      const [cost, state, last] = heap.pop();
      pops++;
      const codes = codesOf(state);
      if (check(codes, concealed, slots, complete)) return codes;
      for (let k = last; k < pos.length; k++) {
        if (state[k] + 1 < options[k].length) {
          const nxt = [...state]; nxt[k]++;
          const c = cost - options[k][state[k]][1] + options[k][state[k] + 1][1];
          if (c <= MAX_COST) heap.push([c, nxt, k]);
        }
      }
    }
    return null;
  }

  function repair() {
    const state = pos.map(() => 0);
    const where = new Map(pos.map((i, k) => [i, k]));
    for (let it = 0; it < 2 * pos.length + 1; it++) {
      const codes = codesOf(state);
      if (check(codes, concealed, slots, false)) return codes;
      const counts = new Array(34).fill(0), reds = [0, 0, 0];
      for (const i of pos) if (codes[i] !== "back") { const k = kindOf(codes[i]); counts[k]++; if (isRed(codes[i])) reds[Math.floor(k / 9)]++; }
      const bad = new Set(pos.filter((i) => codes[i] !== "back" && (counts[kindOf(codes[i])] > 4 || (isRed(codes[i]) && reds[Math.floor(kindOf(codes[i]) / 9)] > 1))));
      for (const sl of slots) if (meldType(sl, sl.positions.map((p) => codes[p])) === null) sl.positions.forEach((p) => bad.add(p));
      const steps = [...bad].map((i) => where.get(i)).filter((k) => state[k] + 1 < options[k].length)
        .map((k) => [options[k][state[k] + 1][1] - options[k][state[k]][1], k]);
      if (!steps.length) return null;
      steps.sort((a, b) => (a[0] - b[0]) || (a[1] - b[1]));
      state[steps[0][1]]++;
    }
    return null;
  }

  let message = "", detail = null, complete = false;
  let codes = needComplete && pos.length ? search(true) : null;
  if (codes) complete = true;
  else {
    codes = pos.length ? repair() : null;
    if (!codes) { codes = [...codes0]; message = "the tiles break the rules of the game (more than four of a kind?): please check them"; detail = { id: "photo_breaks_rules", params: {} }; }
    if (!needComplete) {
      const nFound = concealed.length + 3 * slots.length;
      if (!message) {
        message = `${nFound} tiles found in the hand; a winning hand has 14 (and one more for each kan)`;
        detail = { id: "photo_tile_count", params: { count: nFound } };
      }
    } else if (!message) {
      message = "the tiles do not form a complete hand: please check the highlighted ones";
      detail = { id: "photo_not_complete", params: {} };
    }
  }
  const changed = pos.filter((i) => codes[i] !== codes0[i]);
  const uncertain = [...new Set([...changed, ...pos.filter((i) => readings[i].candidates[0][1] < UNSURE)])].sort((a, b) => a - b);
  const melds = slots.map((s) => {
    let mcodes = s.positions.map((p) => codes[p]);
    const mtype = meldType(s, mcodes) || s.kind;
    const faces = mcodes.filter((c) => c !== "back");
    if (s.kind === "ankan" && faces.length) {
      const base = faces[0][0] !== "0" ? faces[0] : "5" + faces[0][1];
      mcodes = mcodes.map((c) => c !== "back" ? c : base);
    }
    return { type: mtype, tiles: toNotation(mcodes) };
  });
  const handCodes = concealed.map((i) => codes[i]);
  const winTile = win !== null ? codes[win] : (concealed.length ? codes[concealed[concealed.length - 1]] : null);
  return { hand: handCodes.length ? toNotation(handCodes) : "", melds, win_tile: winTile, complete, changed, uncertain, message, ...(detail ? { detail } : {}), readings: codes };
}

// -- pipeline.py: assemble ----------------------------------------------------------------------

/** Drop non-tiles and duplicates, lay the tiles out, propose a hand: the /api/recognize answer.
 * `boxes` in working pixels (w x h); `toOriginal` is the factor to the frame's own pixels. */
export function assemble(info, boxes, probs, orient, w, h, toOriginal = 1) {
  const st = info.settings, labels = info.labels;
  const reject = labels.indexOf(info.reject_label);
  const m = 0.004 * Math.max(h, w);
  let idx = [];
  boxes.forEach((b, i) => {
    const p = probs[i];
    if (reject >= 0 && p[reject] >= st.reject_threshold) return;
    const atEdge = b[0] <= m || b[1] <= m || b[2] >= w - m || b[3] >= h - m;
    let tileConf;
    if (reject >= 0) tileConf = Math.max(...p.filter((_, k) => k !== reject)) / Math.max(1 - p[reject], 1e-6);
    else tileConf = Math.max(...p);
    if (atEdge && tileConf < st.border_confidence) return;
    if (tileConf < st.min_confidence) return;
    idx.push(i);
  });
  if (idx.length) {
    const conf = idx.map((i) => Math.max(...probs[i].map((v, k) => k === reject ? 0 : v)));
    const keep = dropDuplicates(idx.map((i) => boxes[i]), conf.map((c, k) => c * boxes[idx[k]][4]));
    idx = keep.map((k) => idx[k]);
  }
  const dets = [], orients = [];
  for (const i of idx) {
    let p = probs[i].map((v, k) => k === reject ? 0 : v);
    const s = Math.max(p.reduce((a, b) => a + b, 0), 1e-9);
    p = p.map((v) => v / s);
    const order = p.map((_, k) => k).sort((a, b) => (p[b] - p[a]) || (a - b));
    const alts = order.slice(1, 4).filter((j) => p[j] >= 0.005).map((j) => [labels[j], p[j]]);
    const o = orient[i];
    dets.push({ box: boxes[i].slice(0, 4).map((v) => v / toOriginal), tile: labels[order[0]], confidence: p[order[0]], alternatives: alts,
      orientation: o.indexOf(Math.max(...o)), score: boxes[i][4] });
    orients.push(o);
  }
  if (!dets.length) return { tiles: [], rows: [], proposal: null, message: "no tiles found in the photo", detail: { id: "photo_no_tiles", params: {} } };
  const lay = layout(dets, orients);
  const proposal = propose(lay.tiles.map((d) => ({ candidates: [[d.tile, d.confidence], ...d.alternatives], sideways: d.sideways })), lay.rows);
  let tiles = lay.tiles;
  if (proposal.changed.length) {
    tiles = tiles.map((d, i) => {
      if (!proposal.changed.includes(i)) return d;
      const cands = new Map([[d.tile, d.confidence], ...d.alternatives]);
      const now = proposal.readings[i];
      const alts = [...cands].filter(([c]) => c !== now).sort((a, b) => b[1] - a[1]);
      return { ...d, tile: now, confidence: cands.get(now) || 0, alternatives: alts };
    });
  }
  const { readings, ...prop } = proposal;
  return {
    tiles: tiles.map((d) => ({
      tile: d.tile, box: d.box.map((v) => Math.round(v * 10) / 10), confidence: Math.round(d.confidence * 1e4) / 1e4,
      sideways: d.sideways, face_down: d.tile === "back",
      alternatives: d.alternatives.map(([t, c]) => ({ tile: t, confidence: Math.round(c * 1e4) / 1e4 })),
    })),
    rows: lay.rows, proposal: prop,
  };
}
