// @ts-check
// Camera frames to tensors, the only part of recognition the phone does in JavaScript: the network
// inputs as recognition/preprocess.py makes them on the server (OpenCV's area shrink, grey padding,
// square crops around boxes). Everything decided after the networks run is recognition/reading.py,
// run by Pyodide (offline-worker.js). Pixels are RGB(A) uint8 arrays.

/** @typedef {Uint8Array|Uint8ClampedArray} Pixels */

/** Area-interpolation weights along one axis (as OpenCV's INTER_AREA): for each output index, the
 * source indices and their coverage, summing to 1. */
/** @param {number} src @param {number} dst @returns {Array<[number[], number[]]>} */
function areaWeights(src, dst) {
  const scale = src / dst;
  /** @type {Array<[number[], number[]]>} */
  const out = [];
  for (let d = 0; d < dst; d++) {
    const f1 = d * scale, f2 = f1 + scale;
    const i1 = Math.floor(f1), i2 = Math.min(src, Math.ceil(f2));
    /** @type {number[]} */
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
/** @param {Pixels} px @param {number} w @param {number} h @param {number} channels @param {number} cw @param {number} chh @returns {Uint8Array} */
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
/** @param {Pixels} px @param {number} w @param {number} h @param {number} channels @returns {Pixels} */
export function toRGB(px, w, h, channels) {
  if (channels === 3) return px;
  const out = new Uint8Array(w * h * 3);
  for (let i = 0, j = 0; i < w * h; i++, j += channels) { out[3 * i] = px[j]; out[3 * i + 1] = px[j + 1]; out[3 * i + 2] = px[j + 2]; }
  return out;
}

/** fit_resize: longer side to `longSide` (never up), pad right/bottom with grey 114 to a multiple
 * of `stride`. Returns the network input (float32 NCHW in [0, 1]), the transform, and the shrunk
 * pixels before padding (`small`, cw x ch RGB). */
/** @param {Pixels} rgb @param {number} w @param {number} h @param {number} longSide @param {number} [stride] @returns {{data: Float32Array, width: number, height: number, scale: number, small: Pixels, cw: number, ch: number}} */
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
  return { data, width: pw, height: ph, scale: cw / w, small, cw, ch };
}

/** @param {Pixels} img @param {number} w @param {number} h @param {number} x @param {number} y @param {Uint8Array} out @param {number} o */
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

/** shrink_factor (recognition/preprocess.py): the whole factor a crop's region is averaged down by
 * before a bilinear resample at scale `s` (< 0.5). */
/** @param {number} s @returns {number} */
export function shrinkFactor(s) { return Math.max(2, Math.floor(1 / (1.5 * s) + 0.5)); }

/** square_crops: per box a square centred on it, side = context x its longer side, resampled to
 * size x size (regions shrunk below half first by averaging whole blocks); float32 NCHW in [0, 1]. */
/** @param {Pixels} rgb @param {number} w @param {number} h @param {ArrayLike<number>[]} boxes [x1, y1, x2, y2] each @param {number} [size] @param {number} [context] @returns {Float32Array} */
export function squareCrops(rgb, w, h, boxes, size = 64, context = 1.2) {
  const n = boxes.length, plane = size * size;
  const data = new Float32Array(n * 3 * plane);
  const crop = new Uint8Array(plane * 3);
  boxes.forEach((box, i) => {
    const [x1, y1, x2, y2] = [box[0], box[1], box[2], box[3]];
    const side = Math.max(x2 - x1, y2 - y1, 1) * context;
    const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
    const s = size / side;
    /** @type {Pixels} */
    let src = rgb;
    let sw = w, sh = h, ox = size / 2 - s * cx, oy = size / 2 - s * cy, sx = s, sy = s;
    if (s < 0.5) {  // bilinear alone would skip pixels: the region is first averaged f x f
      const f = shrinkFactor(s);
      const reach = side / 2 + 3 * f;
      const rx0 = Math.trunc(Math.max(cx - reach, 0)), ry0 = Math.trunc(Math.max(cy - reach, 0));
      let rx3 = Math.trunc(Math.min(cx + reach, w)), ry3 = Math.trunc(Math.min(cy + reach, h));
      rx3 = rx0 + Math.floor((rx3 - rx0) / f) * f; ry3 = ry0 + Math.floor((ry3 - ry0) / f) * f;
      if (rx3 > rx0 && ry3 > ry0) {
        const rw = rx3 - rx0, rh = ry3 - ry0;
        const region = new Uint8Array(rw * rh * 3);
        for (let y = 0; y < rh; y++) region.set(rgb.subarray(((ry0 + y) * w + rx0) * 3, ((ry0 + y) * w + rx3) * 3), y * rw * 3);
        sw = rw / f; sh = rh / f;
        src = resizeArea(region, rw, rh, 3, sw, sh);
        // pixel X of the shrunk region is centred on pixel rx0 + f X + (f - 1) / 2 of the frame
        sx = sy = s * f; ox = size / 2 - s * (cx - rx0 - (f - 1) / 2); oy = size / 2 - s * (cy - ry0 - (f - 1) / 2);
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

/** turned (recognition/pipeline.py): RGB pixels (w x h) turned onto a tw x th canvas by the 2 x 3
 * `matrix` that recognition/reading.py's Turn gives (a point of the frame to the canvas), bilinear
 * as OpenCV's warpAffine, the canvas outside the frame grey `fill`. The turn is reading.py's to
 * decide; this only moves the pixels. */
/** @param {Pixels} rgb @param {number} w @param {number} h @param {number[][]} matrix @param {number} tw @param {number} th @param {number} [fill] @returns {Uint8Array} */
export function turnFrame(rgb, w, h, matrix, tw, th, fill = 114) {
  const [[a, b, c], [d, e, f]] = matrix;
  const det = a * e - b * d;
  // the canvas to the frame: the matrix inverted
  const ia = e / det, ib = -b / det, id = -d / det, ie = a / det;
  const ic = -(ia * c + ib * f), ig = -(id * c + ie * f);
  const out = new Uint8Array(tw * th * 3);
  for (let v = 0; v < th; v++) {
    for (let u = 0; u < tw; u++) {
      const x = ia * u + ib * v + ic, y = id * u + ie * v + ig;
      const x0 = Math.floor(x), y0 = Math.floor(y), fx = x - x0, fy = y - y0;
      const o = (v * tw + u) * 3;
      if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) { out[o] = out[o + 1] = out[o + 2] = fill; continue; }
      const inA = y0 >= 0, inB = y0 + 1 < h, inL = x0 >= 0, inR = x0 + 1 < w;
      for (let ch = 0; ch < 3; ch++) {
        const p = inA && inL ? rgb[(y0 * w + x0) * 3 + ch] : fill, q = inA && inR ? rgb[(y0 * w + x0 + 1) * 3 + ch] : fill;
        const r = inB && inL ? rgb[((y0 + 1) * w + x0) * 3 + ch] : fill, s = inB && inR ? rgb[((y0 + 1) * w + x0 + 1) * 3 + ch] : fill;
        out[o + ch] = Math.round((p * (1 - fx) + q * fx) * (1 - fy) + (r * (1 - fx) + s * fx) * fy);
      }
    }
  }
  return out;
}

/** tinted (recognition/pipeline.py): RGB pixels through the 768-value lookup table that
 * recognition/reading.py's cast_table gives (red's 256 values, green's, blue's): a photo's colours
 * corrected for the light. Whether, and by how much, is reading.py's to decide; this only maps. */
/** @param {Pixels} rgb @param {ArrayLike<number>} table @returns {Uint8Array} */
export function tintFrame(rgb, table) {
  const out = new Uint8Array(rgb.length);
  for (let i = 0; i < rgb.length; i += 3) {
    out[i] = table[rgb[i]]; out[i + 1] = table[256 + rgb[i + 1]]; out[i + 2] = table[512 + rgb[i + 2]];
  }
  return out;
}
